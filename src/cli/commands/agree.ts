/**
 * `omg-evidence agree [PROBE...]`: the census from the committed records against the census from
 * the transcripts (queries/agree.sql). Exit 0 when every spawn compared agrees (a spawn with no
 * transcript is listed as gone, not as a disagreement); exit 3 when anything differs, or when a
 * probe had nothing compared: an agreement of nothing proves nothing.
 */
import { type Command, Option } from 'commander';
import { DiffersError, UsageError } from '../../base/errors.js';
import { Evidence } from '../../evidence.js';
import { agreementCounts, formatAgree, formatUsageAgree, summaryLine, usageSummary, type AgreeFormat } from '../../output/agree.js';
import { USAGE_TOLERANCE } from '../../output/usage.js';
import type { Row } from '../../evidence.js';
import { TABULAR_FORMATS } from '../../output/formats.js';
import { makeEvidenceCommand } from '../command.js';
import { say, type IO } from '../io.js';
import { dbOption, transcriptsOption } from '../options.js';
import { progressReporter } from '../progress.js';

/** What to do about a probe of agree --usage that had nothing compared, by why its spawns were not. */
const USAGE_HINTS: Record<string, string> = {
  gone: "pass --transcripts DIR, the folder that holds the spawns' sessions",
  'no envelope': "results.jsonl gives these spawns no envelope's total_cost_usd to compare with",
  'no model usage':
    'the envelopes give no modelUsage (an older Claude Code), so each transcript was only checked not to cost more than total_cost_usd: usage --by spawn shows the ratios',
  unpriced:
    'give --pricing FILE, a price table with a price for the models the warnings name (a response that names no model, or none of whose lines has usage, has none in any table)',
};

const UNPRICED_DB_HINT =
  'leave out --db and give --pricing FILE, a price table with a price for the models the warnings name (a database file keeps the prices it was built with)';

export function makeAgreeCommand(io: IO): Command {
  return makeEvidenceCommand<
    { format?: AgreeFormat; wide?: boolean; transcripts?: string; db?: string; usage?: boolean; pricing?: string },
    { census: Row[] } | { usage: Row[] }
  >(io, {
    name: 'agree',
    description: 'check that the census from the committed records and the census from the transcripts agree (exit 3 if not)',
    formats: ['text', ...TABULAR_FORMATS],
    options: [
      transcriptsOption('own'),
      dbOption(),
      new Option(
        '--usage',
        `compare instead each spawn's transcript with its envelope's modelUsage, each model both show on its own (exit 3 beyond ${USAGE_TOLERANCE * 100}%)`,
      ),
      new Option('--pricing <file>', 'with --usage: the price table to use instead of the shipped one'),
    ],
    open: ({ probes, opts, onWarning }) => {
      if (opts.pricing !== undefined && !opts.usage) throw new UsageError('--pricing prices --usage: give both, or neither');
      return Evidence.open(probes, {
        onWarning,
        transcripts: opts.transcripts ?? true,
        db: opts.db,
        queries: [opts.usage ? 'usage_spawns' : 'agree'],
        onProgress: progressReporter(io),
        pricing: opts.pricing,
      });
    },
    rows: async (ev, { opts }) =>
      opts.usage ? { usage: (await ev.query('usage_spawns', { tolerance: USAGE_TOLERANCE })).rows } : { census: await ev.agreeRows() },
    print: (rows, format, style) =>
      'usage' in rows ? formatUsageAgree(rows.usage, format as AgreeFormat, style) : formatAgree(rows.census, format as AgreeFormat, style),
    after: async (result, ev, { opts }) => {
      if ('usage' in result) {
        const u = usageSummary(
          result.usage,
          USAGE_TOLERANCE,
          ev.probes.map((p) => p.id),
        );
        if (u.uncompared.length) {
          const which = u.uncompared.length < ev.probes.length ? ` for ${u.uncompared.join(', ')}` : '';
          // A database file keeps the prices load built it with, and refuses --pricing.
          const hint = (verdict: string) => (opts.db !== undefined && verdict === 'unpriced' ? UNPRICED_DB_HINT : USAGE_HINTS[verdict]!);
          const hints = Object.keys(USAGE_HINTS).flatMap((verdict) => (u.why.has(verdict) ? [hint(verdict)] : []));
          throw new DiffersError(`${u.line}: nothing was compared${which}`, hints.join('; ') || undefined);
        }
        if (u.differ) throw new DiffersError(u.line);
        say(io, u.line);
        return;
      }
      const rows = result.census;
      const s = agreementCounts(
        rows,
        ev.probes.map((p) => p.id),
      );
      const line = summaryLine(s, ev.probes.length > 1);
      if (s.uncompared.length) {
        const which = s.uncompared.length < ev.probes.length ? ` for ${s.uncompared.join(', ')}` : '';
        throw new DiffersError(
          `${line}: nothing was compared${which}`,
          "pass --transcripts DIR, the folder that holds the spawns' sessions",
        );
      }
      if (s.differ) throw new DiffersError(line);
      say(io, line);
    },
  });
}
