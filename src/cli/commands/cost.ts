/**
 * `omg-evidence cost [PROBE...]`: what was spent, by arm and by model, against the registered
 * budget (queries/cost.sql, cost_by_arm.sql, cost_by_model.sql).
 */
import type { Command } from 'commander';
import { costReports, Evidence } from '../../evidence.js';
import { formatCost, overEnvelopeWarnings, type CostFormat } from '../../output/cost.js';
import { makeEvidenceCommand } from '../command.js';
import type { IO } from '../io.js';
import { dbOption } from '../options.js';

export function makeCostCommand(io: IO): Command {
  return makeEvidenceCommand(io, {
    name: 'cost',
    description: 'what the probe spent, by arm and by model, against its registered budget',
    formats: ['table', 'markdown', 'json'],
    options: [dbOption()],
    // Each probe's own transcripts/ is read when present: a spawn with no envelope whose transcript
    // shows it ran cost an unknown amount, as the verdict's budget counts it.
    open: ({ probes, opts, onWarning }) =>
      Evidence.open(probes, {
        onWarning,
        db: opts.db,
        ownTranscripts: true,
        queries: ['cost', 'cost_by_arm', 'cost_by_model', 'spawns_over_envelope'],
      }),
    rows: (ev) => costReports(ev),
    print: (reports, format, style) => formatCost(reports, format as CostFormat, style),
    // A total below what the transcript shows is warned of; the exit code stays 0.
    after: async (_, ev, { onWarning }) => {
      for (const line of overEnvelopeWarnings((await ev.query('spawns_over_envelope')).rows)) onWarning(line);
    },
  });
}
