/**
 * The library entry point: `import { openEvidence } from 'omg-evidence'`.
 */
export { Evidence, type OpenOptions, PROBE_REPORT_QUERIES, TRANSCRIPT_REPORT_QUERIES } from './evidence.js';
export { EXIT, OmgError, InputError, UsageError, DiffersError, VerdictError, QueryError } from './base/errors.js';
export type { CensusRow, ToolCount } from './output/census-block.js';
export { main } from './cli/main.js';

import { Evidence, type OpenOptions } from './evidence.js';

/** Open probe directories (the bundled probe when `paths` is empty; one may be a string). Call `close()` when done. */
export function openEvidence(paths: string[] | string = [], options: OpenOptions = {}): Promise<Evidence> {
  return Evidence.open(paths, options);
}
