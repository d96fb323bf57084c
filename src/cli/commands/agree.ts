/**
 * `omg-evidence agree [PROBE...]`: the census from the committed records against the census from
 * the transcripts (queries/agree.sql). Exit 0 when every spawn compared agrees (a spawn with no
 * transcript is listed as gone, not as a disagreement); exit 3 when anything differs, or when a
 * probe had nothing compared: an agreement of nothing proves nothing.
 */
import type { Command } from 'commander';
import { DiffersError } from '../../base/errors.js';
import { Evidence } from '../../evidence.js';
import { agreementCounts, formatAgree, summaryLine, type AgreeFormat } from '../../output/agree.js';
import { TABULAR_FORMATS } from '../../output/formats.js';
import { makeEvidenceCommand } from '../command.js';
import type { IO } from '../io.js';
import { dbOption, transcriptsOption } from '../options.js';
import { progressReporter } from '../progress.js';

export function makeAgreeCommand(io: IO): Command {
  return makeEvidenceCommand<
    { format?: AgreeFormat; wide?: boolean; transcripts?: string; db?: string },
    Awaited<ReturnType<Evidence['agreeRows']>>
  >(io, {
    name: 'agree',
    description: 'check that the census from the committed records and the census from the transcripts agree (exit 3 if not)',
    formats: ['text', ...TABULAR_FORMATS],
    options: [transcriptsOption(), dbOption()],
    open: ({ probes, opts, onWarning }) =>
      Evidence.open(probes, {
        onWarning,
        transcripts: opts.transcripts ?? true,
        db: opts.db,
        queries: ['agree'],
        onProgress: progressReporter(io),
      }),
    rows: (ev) => ev.agreeRows(),
    print: (rows, format, style) => formatAgree(rows, format as AgreeFormat, style),
    after: async (rows, ev) => {
      const s = agreementCounts(
        rows,
        ev.probes.map((p) => p.id),
      );
      const line = summaryLine(s);
      if (s.uncompared.length) {
        const which = s.uncompared.length < ev.probes.length ? ` for ${s.uncompared.join(', ')}` : '';
        throw new DiffersError(
          `${line}: nothing was compared${which}`,
          "pass --transcripts DIR, the folder that holds the spawns' sessions",
        );
      }
      if (s.differ) throw new DiffersError(line);
      io.stderr(`omg-evidence: ${line}\n`);
    },
  });
}
