/**
 * `omg-evidence usage [REPORT] [PROBE...]`: what Claude Code sessions used and cost, counted from
 * their transcripts (queries/usage.sql), by day, week, month, session, project or model; with
 * `--by spawn`, each spawn of a probe beside its envelope (queries/usage_spawns.sql).
 *
 * With no probe it reads --transcripts DIR, else $CLAUDE_CONFIG_DIR/projects, else
 * ~/.claude/projects, and says on stderr which and how many files.
 */
import { existsSync, realpathSync } from 'node:fs';
import { InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../../base/errors.js';
import { claudeSessionsDir, Evidence, type Row } from '../../evidence.js';
import { TABULAR_FORMATS, type TabularFormat } from '../../output/formats.js';
import { formatUsage, formatUsageBySpawn, undatedWarning, USAGE_REPORTS, USAGE_TOLERANCE, type UsageReport } from '../../output/usage.js';
import { type Call, makeEvidenceCommand } from '../command.js';
import type { IO } from '../io.js';
import { dbOption, sayDefaultSessions, transcriptsOption, warnNoTranscripts } from '../options.js';
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
  db?: string;
};

type Usage = { report: UsageReport; rows: Row[] } | { bySpawn: Row[] };

/** A date, or a timestamp with or without seconds and its offset, as --since and --until take them. */
const WHEN = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?(?:(Z)|([+-])(\d{2}):?(\d{2})?)?)?$/;

/**
 * The date or timestamp `v` written as DuckDB casts it (seconds and the offset's minutes always
 * given), or null when it is not one: a time or an offset out of range would otherwise cast to
 * NULL in queries/usage.sql, and a NULL bound counts everything.
 */
export function canonicalWhen(v: string): string | null {
  const m = WHEN.exec(v.trim());
  if (!m) return null;
  const [, y, mo, d, hh, mi, ss, frac, z, sign, oh, om] = m;
  const day = new Date(`${y}-${mo}-${d}T00:00:00Z`);
  // A date that is not one (2026-02-30) is refused, as is 24:00, 23:60, 23:59:60 and +15:00.
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== `${y}-${mo}-${d}`) return null;
  if (hh === undefined) return `${y}-${mo}-${d}`;
  const offset = z ? '+00:00' : sign ? `${sign}${oh}:${om ?? '00'}` : '';
  const inRange =
    Number(hh) < 24 &&
    Number(mi) < 60 &&
    Number(ss ?? 0) < 60 &&
    (!sign || (Number(om ?? 0) < 60 && Number(oh) * 60 + Number(om ?? 0) <= 14 * 60));
  return inRange ? `${y}-${mo}-${d} ${hh}:${mi}:${ss ?? '00'}${frac ?? ''}${offset}` : null;
}

/**
 * This machine's IANA time zone: the one TZ names (`:America/New_York`, glibc's form, included, and a zone
 * file's path, `:/etc/localtime`), or else the system's. One that is none (a POSIX rule such as JST-9, or a
 * typo) is said, and days are counted in UTC rather than failing deep in the query.
 */
function localZone(io: IO, onWarning: (line: string) => void): string {
  // Node's own reading of TZ is not taken: it makes TZ=IST-5:30 UTC, and TZ=GMT+5 `GMT+05:00`, which
  // DuckDB does not know. Unset, the system's zone is held to the same test.
  const tz = process.env.TZ;
  const zone = zoneNamed(tz === undefined ? new Intl.DateTimeFormat().resolvedOptions().timeZone : tzZone(tz));
  if (zone && zone !== 'Etc/Unknown') return zone;
  onWarning(
    `this machine's time zone (TZ=${JSON.stringify(tz ?? io.env.TZ ?? '')}) is not an IANA zone: days are counted in UTC (--timezone ZONE chooses)`,
  );
  return 'UTC';
}

/**
 * The zone name in a TZ: glibc reads an empty TZ as UTC, and a path (Intl takes none) as a zone file,
 * whose name is its path under a zoneinfo folder once links are followed (/etc/localtime is one).
 */
function tzZone(tz: string): string | undefined {
  const name = tz.replace(/^:/, '');
  if (name === '') return 'UTC';
  if (!name.startsWith('/')) return name;
  let real: string;
  try {
    real = realpathSync(name);
  } catch {
    return undefined;
  }
  const at = real.lastIndexOf('/zoneinfo/');
  return at < 0 ? undefined : real.slice(at + '/zoneinfo/'.length).replace(/^(?:posix|right)\//, '');
}

/** The zone `name` names, as Intl spells it (america/new_york is America/New_York); undefined when Intl takes none. */
function zoneNamed(name: string | undefined): string | undefined {
  if (!name) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

function whenOption(flag: string, what: string): Option {
  return new Option(`${flag} <when>`, what).argParser((v: string) => {
    const when = canonicalWhen(v);
    if (when === null) {
      throw new InvalidArgumentError(
        'give a date (2026-01-31) or a timestamp (2026-01-31T09:00, 2026-01-31T09:00:00Z, 2026-01-31T09:00+09:00).',
      );
    }
    return when;
  });
}

function timezoneOption(): Option {
  return new Option('--timezone <zone>', "the IANA time zone days, weeks and months are counted in (default: this machine's)").argParser(
    (v: string) => {
      if (zoneNamed(v) === undefined)
        throw new InvalidArgumentError('give an IANA time zone such as UTC, Europe/Paris or America/New_York.');
      return v;
    },
  );
}

/** The report and the probes, from the positional arguments: a first one that names no report is a probe. */
function reportAndProbes(args: unknown[]): { report: UsageReport; probes: string[] } {
  const [first, ...rest] = (args[0] as string[] | undefined) ?? [];
  if (first === undefined) return { report: 'daily', probes: [] };
  if ((USAGE_REPORTS as readonly string[]).includes(first)) return { report: first as UsageReport, probes: rest };
  // A bare word that names no folder is a report mistyped (week), not a probe without transcripts.
  if (/^[a-z]+$/.test(first) && !existsSync(first)) {
    throw new UsageError(`${first}: neither a report (${USAGE_REPORTS.join(', ')}) nor a probe directory`);
  }
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
    // The report reads a probe's own transcripts or --transcripts DIR: with both, the probe was read past unsaid.
    if (probes.length && call.opts.transcripts !== undefined && !bySpawn) {
      throw new UsageError(
        "a probe and --transcripts exclude each other: the report reads the probe's own transcripts/, or the sessions in --transcripts DIR",
        'give one of them; usage --by spawn PROBE --transcripts DIR takes both, for the sessions of its spawns',
      );
    }
    // Each row of the model report is one model: a breakdown by model would repeat it, so it was dropped silently.
    if (report === 'model' && call.opts.breakdown) throw new UsageError('usage model takes no --breakdown: each of its rows is one model');
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
        `the report: ${USAGE_REPORTS.join(' | ')} (default: daily); then probe directories, whose own transcripts/ are read (not with --transcripts DIR, but for --by spawn; with neither, Claude Code's own sessions)`,
      ],
    ],
    formats: TABULAR_FORMATS,
    options: [
      transcriptsOption('usage'),
      whenOption('--since', 'count responses from this date or timestamp on (in --timezone unless it gives its offset)'),
      whenOption('--until', 'count responses up to this date (all of it) or timestamp'),
      timezoneOption(),
      new Option('--breakdown', 'a row per model under each row'),
      new Option('--by <what>', "each spawn of the probe (default: the bundled probe) beside its envelope's cost").choices(['spawn']),
      new Option('--pricing <file>', 'price table to use instead of the shipped one (data/pricing.json; docs/views.md, model_prices)'),
      dbOption(),
    ],
    open: async (call) => {
      const { probes, bySpawn, standalone } = plan(call);
      const { opts, onWarning } = call;
      const common = { onWarning, pricing: opts.pricing, onProgress: progressReporter(io), db: opts.db };
      if (standalone) {
        const dir = opts.transcripts ?? claudeSessionsDir(io.env);
        // With --db the folder only names what the file must have been built from: nothing is read.
        if (opts.transcripts === undefined && opts.db === undefined) {
          sayDefaultSessions(io, dir);
        }
        const ev = await Evidence.openTranscripts(dir, { ...common, queries: ['usage'] });
        // Once the folder has loaded, so that a path that is no folder is said to be so first.
        warnNoTranscripts(0, dir, onWarning);
        return ev;
      }
      return Evidence.open(probes, { ...common, transcripts: opts.transcripts ?? true, queries: [bySpawn ? 'usage_spawns' : 'usage'] });
    },
    rows: async (ev, call) => {
      const { report, bySpawn } = plan(call);
      if (bySpawn) return { bySpawn: (await ev.query('usage_spawns', { tolerance: USAGE_TOLERANCE })).rows };
      const { opts } = call;
      const params = {
        period: report,
        timezone: opts.timezone ?? localZone(io, call.onWarning),
        since: opts.since ?? '',
        until: opts.until ?? '',
        breakdown: opts.breakdown === true,
      };
      try {
        return { report, rows: (await ev.query('usage', params)).rows };
      } catch (err) {
        // queries/usage.sql refuses the window in the zone's own terms; on the command line it is a usage error.
        if (!/ is after until /.test((err as Error).message)) throw err;
        throw new UsageError(`--since ${params.since} is after --until ${params.until} in ${params.timezone}: nothing would be counted`);
      }
    },
    print: (usage, format, style, call) =>
      'bySpawn' in usage
        ? formatUsageBySpawn(usage.bySpawn, format as TabularFormat, style)
        : formatUsage(usage.rows, usage.report, format as TabularFormat, { breakdown: call.opts.breakdown, style }),
    after: async (usage, _ev, { onWarning }) => {
      const undated = 'rows' in usage ? undatedWarning(usage.rows, usage.report) : null;
      if (undated) onWarning(undated);
    },
  });
}
