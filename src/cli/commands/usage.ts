/**
 * `omg-evidence usage [REPORT] [PROBE...]`: what Claude Code sessions used and cost, counted from
 * their transcripts (queries/usage.sql), by day, week, month, session, project or model; with
 * `--by spawn`, each spawn of a probe beside its envelope (queries/usage_spawns.sql).
 *
 * With no probe it reads --transcripts DIR, else $CLAUDE_CONFIG_DIR/projects, else
 * ~/.claude/projects, and says on stderr which and how many files.
 */
import { InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../../base/errors.js';
import { displayPath } from '../../base/paths.js';
import { claudeSessionsDir, Evidence, listTranscriptFiles, type Row } from '../../evidence.js';
import { TABULAR_FORMATS, type TabularFormat } from '../../output/formats.js';
import { formatUsage, formatUsageBySpawn, USAGE_REPORTS, USAGE_TOLERANCE, type UsageReport } from '../../output/usage.js';
import { type Call, makeEvidenceCommand } from '../command.js';
import type { IO } from '../io.js';
import { transcriptsOption } from '../options.js';
import { progressReporter } from '../progress.js';

export type UsageOptions = {
  format?: TabularFormat;
  wide?: boolean;
  transcripts?: string;
  since?: string;
  until?: string;
  timezone?: string;
  breakdown?: boolean;
  by?: 'spawn';
  pricing?: string;
};

type Usage = { report: UsageReport; rows: Row[] } | { bySpawn: Row[] };

/** A date, or a timestamp with or without its offset, as --since and --until take them. */
const WHEN = /^(\d{4}-\d{2}-\d{2})([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/;

function whenOption(flag: string, what: string): Option {
  return new Option(`${flag} <when>`, what).argParser((v: string) => {
    const m = WHEN.exec(v.trim());
    // A date that is not one (2026-02-30) would otherwise bound nothing, silently.
    const day = m && new Date(`${m[1]}T00:00:00Z`);
    if (!m || !day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== m[1]) {
      throw new InvalidArgumentError('give a date (2026-01-31) or a timestamp (2026-01-31T09:00, 2026-01-31T09:00:00Z).');
    }
    return v.trim();
  });
}

function timezoneOption(): Option {
  return new Option('--timezone <zone>', "the IANA time zone days, weeks and months are counted in (default: this machine's)").argParser(
    (v: string) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: v });
      } catch {
        throw new InvalidArgumentError('give an IANA time zone such as UTC, Europe/Paris or America/New_York.');
      }
      return v;
    },
  );
}

/** The report and the probes, from the positional arguments: a first one that names no report is a probe. */
function reportAndProbes(args: unknown[]): { report: UsageReport; probes: string[] } {
  const [first, ...rest] = (args[0] as string[] | undefined) ?? [];
  if (first === undefined) return { report: 'daily', probes: [] };
  if ((USAGE_REPORTS as readonly string[]).includes(first)) return { report: first as UsageReport, probes: rest };
  return { report: 'daily', probes: [first, ...rest] };
}

export function makeUsageCommand(io: IO) {
  const plan = (call: Call<UsageOptions>) => {
    const { report, probes } = reportAndProbes(call.args);
    const bySpawn = call.opts.by === 'spawn';
    const named = (USAGE_REPORTS as readonly unknown[]).includes(((call.args[0] as string[] | undefined) ?? [])[0]);
    if (bySpawn && (call.opts.since || call.opts.until || call.opts.breakdown || named)) {
      throw new UsageError('--by spawn takes no report, --since, --until or --breakdown: it lists every spawn of the probe');
    }
    return { report, probes, bySpawn, standalone: probes.length === 0 && !bySpawn };
  };
  return makeEvidenceCommand<UsageOptions, Usage>(io, {
    name: 'usage',
    description:
      'tokens and cost of Claude Code sessions, from their transcripts: by day (default), week, month, session, project or model',
    // One list, so the report may be left out before the probes: `usage PROBE`, `usage model PROBE`.
    arguments: [
      [
        '[what...]',
        `the report: ${USAGE_REPORTS.join(' | ')} (default: daily); then probe directories, whose transcripts are read (default: --transcripts DIR, else Claude Code's own sessions)`,
      ],
    ],
    formats: TABULAR_FORMATS,
    options: [
      transcriptsOption(),
      whenOption('--since', 'count responses from this date or timestamp on (in --timezone unless it gives its offset)'),
      whenOption('--until', 'count responses up to this date (all of it) or timestamp'),
      timezoneOption(),
      new Option('--breakdown', 'a row per model under each row'),
      new Option('--by <what>', "each spawn of the probe (default: the bundled probe) beside its envelope's cost").choices(['spawn']),
      new Option('--pricing <file>', 'price table to use instead of the shipped one (data/pricing.json; docs/views.md, model_prices)'),
    ],
    open: async (call) => {
      const { probes, bySpawn, standalone } = plan(call);
      const { opts, onWarning } = call;
      const common = { onWarning, pricing: opts.pricing, onProgress: progressReporter(io) };
      if (standalone) {
        const dir = opts.transcripts ?? claudeSessionsDir(io.env);
        if (opts.transcripts === undefined) {
          io.stderr(`omg-evidence: reading ${displayPath(dir)} (${listTranscriptFiles(dir).length} session files)\n`);
        }
        return Evidence.openTranscripts(dir, { ...common, queries: ['usage'] });
      }
      return Evidence.open(probes, { ...common, transcripts: opts.transcripts ?? true, queries: [bySpawn ? 'usage_spawns' : 'usage'] });
    },
    rows: async (ev, call) => {
      const { report, bySpawn } = plan(call);
      if (bySpawn) return { bySpawn: (await ev.query('usage_spawns', { tolerance: USAGE_TOLERANCE })).rows };
      const { opts } = call;
      const params = {
        period: report,
        timezone: opts.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
        since: opts.since ?? '',
        until: opts.until ?? '',
        breakdown: opts.breakdown === true,
      };
      return { report, rows: (await ev.query('usage', params)).rows };
    },
    print: (usage, format, style, call) =>
      'bySpawn' in usage
        ? formatUsageBySpawn(usage.bySpawn, format as TabularFormat, style)
        : formatUsage(usage.rows, usage.report, format as TabularFormat, { breakdown: call.opts.breakdown, style }),
  });
}
