/**
 * `omg-evidence verdict [PROBE...]`: the probe's verdict against its registered conjuncts, with
 * completeness, budget, uniformity and pre-registration order (analysis/verdict.ts). Exit 0 when it
 * holds, 4 when it does not.
 */
import { type Command, Option } from 'commander';
import { VerdictError } from '../../base/errors.js';
import { Evidence, requirePreregistered, VERDICT_QUERIES } from '../../evidence.js';
import { forgeryWarnings } from '../../output/census-block.js';
import { overEnvelopeWarnings } from '../../output/cost.js';
import { formatVerdicts, type VerdictFormat } from '../../output/verdict.js';
import { makeEvidenceCommand } from '../command.js';
import type { IO } from '../io.js';
import { checkTimeoutOption, dbOption } from '../options.js';

export function makeVerdictCommand(io: IO): Command {
  return makeEvidenceCommand<
    { format?: VerdictFormat; wide?: boolean; db?: string; checkTimeout?: number; requirePreregistered?: boolean },
    Awaited<ReturnType<Evidence['verdicts']>>
  >(io, {
    name: 'verdict',
    description:
      "the probe's verdict against its registered conjuncts, and whether git shows them registered before its first spawn (exit 4 when it does not hold)",
    formats: ['table', 'markdown', 'json'],
    options: [
      dbOption(),
      checkTimeoutOption(),
      new Option('--require-preregistered', 'hold only when git shows the registration came first ("not established" fails too)'),
    ],
    // Each probe's own transcripts/ is read when present, to tell which markers the spawns could have forged.
    // It loads only what its queries read (a probe's transcripts' lines and usage are not).
    open: ({ probes, opts, onWarning }) =>
      Evidence.open(probes, { onWarning, db: opts.db, ownTranscripts: true, queries: VERDICT_QUERIES, checkTimeout: opts.checkTimeout }),
    rows: async (ev, { opts }) => {
      const vs = await ev.verdicts();
      return opts.requirePreregistered ? vs.map(requirePreregistered) : vs;
    },
    print: (vs, format, style) => formatVerdicts(vs, format as VerdictFormat, style),
    after: async (vs, ev, { onWarning }) => {
      // The K-FM lesson: warnings only, whatever they say the exit code stays the verdict's.
      for (const line of forgeryWarnings(await ev.forgeableRows(), ev.probes.length > 1)) onWarning(line);
      for (const line of overEnvelopeWarnings((await ev.query('spawns_over_envelope')).rows)) onWarning(line);
      const failing = vs.filter((v) => !v.holds);
      if (failing.length) {
        throw new VerdictError(failing.map((v) => `${v.probe}: the verdict does not hold: ${v.reasons.join('; ')}`).join(' | '));
      }
    },
  });
}
