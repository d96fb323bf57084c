/** `audit`'s findings, each with file:line, kind and the match masked (analysis/audit.ts finds them). */
import { tabulate, type Column, type TableStyle, type TabularFormat } from './formats.js';
import { textOf } from './shown.js';

export type AuditFormat = 'text' | TabularFormat;

/** One finding as analysis/audit.ts reports it. */
export interface Finding {
  probe: string;
  /** Relative to the probe directory, with `/`. */
  file: string;
  line: number;
  kind: string;
  /** The matched text, masked. */
  match: string;
}

const where = (f: Finding) => `${f.probe}/${f.file}:${f.line}`;

export function formatAudit(findings: Finding[], format: AuditFormat, style: TableStyle = {}): string {
  if (format === 'text') return textOf(findings, (fs) => fs.map((f) => `${where(f)}: ${f.kind}: ${f.match}\n`).join(''));
  const columns: Column[] =
    format === 'csv'
      ? [{ key: 'probe' }, { key: 'file' }, { key: 'line', right: true }, { key: 'kind' }, { key: 'match' }]
      : [{ key: 'where' }, { key: 'kind' }, { key: 'match' }];
  return tabulate(format, columns, findings, {
    cells: (f) => ({ probe: f.probe, file: f.file, line: f.line, where: where(f), kind: f.kind, match: f.match }),
    style,
  });
}
