/**
 * Options several commands share, so they read and behave the same everywhere: --format, --from
 * and --transcripts.
 */
import { resolve } from 'node:path';
import { InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../base/errors.js';
import { listTranscriptFiles, type Evidence, type OpenOptions, type Source } from '../evidence.js';
import { defaultFormat, type TableStyle } from '../output/formats.js';
import { say, useColor, type IO } from './io.js';
import { holdsNoLine } from '../base/no-line.js';
import { displayPath } from '../base/paths.js';
import { isMemorySize } from '../base/memory.js';
import { DECIMAL_TEXT } from '../base/shapes.js';

export function formatOption<T extends string>(formats: readonly T[], extra = ''): Option {
  return new Option('-f, --format <format>', `output format${extra}; default: table on a terminal, else markdown`).choices(formats);
}

export function wideOption(): Option {
  return new Option('--wide', "print tables as wide as their cells, not fitted to the terminal's width");
}

/**
 * A terminal table fits the terminal (the width of stdout when it is one, else $COLUMNS) unless
 * --wide; with neither, as in a pipe, it is as wide as its cells. What it leaves out is said on stderr.
 */
export function tableStyle(io: IO, wide = false): TableStyle {
  const columns = Number(io.env.COLUMNS);
  const width = io.stdoutColumns || (Number.isInteger(columns) && columns > 0 ? columns : undefined);
  return {
    color: useColor(io),
    width: wide ? undefined : width,
    onDrop: (titles) =>
      io.stderr(
        `omg-evidence: left out to fit ${width} columns: ${titles.join(', ')}; --wide shows every column, as does --format markdown\n`,
      ),
  };
}

export function fromOption(): Option {
  return new Option('--from <source>', 'derive from the committed records or from the session transcripts').choices([
    'records',
    'transcripts',
  ] as const);
}

/** --transcripts, described as the command reads it. */
export function transcriptsOption(reads: 'own' | 'alone' | 'sessions' | 'usage' | 'extra'): Option {
  const what = "folder of session transcripts, or one session's .jsonl";
  const when = {
    own: "default: each probe's own transcripts/",
    alone: "in place of each probe's own transcripts/, which --from transcripts reads; alone when no probe and no --from is given",
    sessions: "default: each probe's own transcripts/; with no probe, Claude Code's sessions",
    usage: "in place of a probe, which it excludes but for --by spawn; default: Claude Code's sessions",
    extra: 'exported too; default: none',
  }[reads];
  return new Option('--transcripts <dir>', `${what} (${when})`);
}

/** The format asked for, or the default for where stdout goes. */
export function chosenFormat<T extends string>(asked: T | undefined, io: IO): T | 'table' | 'markdown' {
  return asked ?? defaultFormat(io.stdoutIsTTY);
}

/**
 * `--transcripts DIR` with no probe (and no --from) means the transcripts alone: the sessions in
 * DIR, not the bundled probe.
 */
export function transcriptsOnly(probes: string[], opts: { from?: string; transcripts?: string }): boolean {
  return opts.transcripts !== undefined && probes.length === 0 && opts.from === undefined;
}

/**
 * What --from and --transcripts mean together: --transcripts alone implies --from transcripts, and
 * goes with nothing else.
 */
export function resolveSource(
  from: Source | undefined,
  transcripts: string | undefined,
): { from: Source; open: OpenOptions['transcripts'] } {
  if (from === 'records' && transcripts !== undefined) {
    throw new UsageError('--transcripts goes with --from transcripts, not --from records');
  }
  const source: Source = from ?? (transcripts !== undefined ? 'transcripts' : 'records');
  return { from: source, open: source === 'transcripts' ? (transcripts ?? true) : undefined };
}

export function dbOption(): Option {
  return new Option('--db <file>', 'read this database (built by omg-evidence load) instead of loading the evidence');
}

/** Where the transcripts came from, for a message: the folder (or file) named, else the probes' own. */
const transcriptsPlace = (transcripts: string | undefined) =>
  transcripts === undefined ? 'its transcripts/ folder' : displayPath(transcripts);

/**
 * Warn of every probe none of whose spawns a loaded transcript holds the session of: its census
 * from the transcripts would be all `gone` and its skills empty, which a wrong folder must not
 * pass for. (`agree` fails, exit 3, on the same.)
 */
export async function warnUnmatched(ev: Evidence, transcripts: string | undefined, onWarning: (w: string) => void): Promise<void> {
  for (const m of await ev.transcriptMatches()) {
    if (m.spawns > 0 && m.matched === 0) {
      onWarning(`${m.probe}: no transcript in ${transcriptsPlace(transcripts)} holds the session of any of its ${m.spawns} spawn(s)`);
    }
  }
}

/**
 * Warn, when the transcripts named gave nothing (`found` is 0), if they hold no `*.jsonl` at all, or
 * no line in any: an empty table from a wrong folder must not pass for sessions that made no call.
 */
export function warnNoTranscripts(found: number, transcripts: string, onWarning: (w: string) => void): void {
  if (found !== 0) return;
  const files = listTranscriptFiles(transcripts);
  if (files.length === 0) onWarning(`${displayPath(transcripts)}: holds no *.jsonl file, so no session was read`);
  else if (files.every(holdsNoLine)) {
    const what =
      files.length === 1 && files[0] === resolve(transcripts) ? 'holds no line' : `its ${files.length} *.jsonl file(s) hold no line`;
    onWarning(`${displayPath(transcripts)}: ${what}, so no session was read`);
  }
}

/**
 * Warn when sessions were read but not one line of theirs is as Claude Code writes (a version, a
 * model, a timestamp or a call): `--transcripts` named a probe or ~/.claude, whose files' names had
 * passed for sessions that made no call.
 */
export function warnNotSessions(sessions: Record<string, unknown>[], transcripts: string, onWarning: (w: string) => void): void {
  const some = (v: unknown) => (Array.isArray(v) ? v.length > 0 : v !== null);
  if (!sessions.length || sessions.some((s) => some(s.versions) || some(s.models) || some(s.first_timestamp) || some(s.tools))) return;
  onWarning(
    `${displayPath(transcripts)}: no line of its ${sessions.length} session(s) has a version, a model, a timestamp or a tool call, as Claude Code's do: is it a folder of session transcripts (such as ~/.claude/projects/<project>)?`,
  );
}

export function memoryLimitOption(): Option {
  return new Option(
    '--memory-limit <size>',
    "DuckDB's memory limit for the query, e.g. 2GB or 512MiB (default: a quarter of this machine's memory)",
  ).argParser((v: string) => {
    // Past 2^63 bytes DuckDB refuses it (exit 1) after the evidence has loaded: it is no size, said at once (exit 2).
    if (!isMemorySize(v)) throw new InvalidArgumentError('give a size such as 2GB or 512MiB, under 16 EiB.');
    return v.trim();
  });
}

/** Seconds in decimal digits (DECIMAL_TEXT): no one means 0x10 or 1e3 as a timeout. */
function seconds(v: string): number {
  if (!DECIMAL_TEXT.test(v)) throw new InvalidArgumentError('give a number of seconds, 0 for none.');
  return Number(v);
}

export function timeoutOption(): Option {
  return new Option('--timeout <seconds>', 'interrupt the query after this many seconds; 0: never').default(60).argParser(seconds);
}

/** The seconds a probe's registered triggers and checks may run in all (OpenOptions.checkTimeout): a check is evidence, and may be made never to end. */
export function checkTimeoutOption(): Option {
  return new Option('--check-timeout <seconds>', "stop the probe's registered triggers and checks after this many seconds in all; 0: never")
    .default(60)
    .argParser(seconds);
}

/** Say on stderr which folder of sessions is read when none was named, and how many transcript files it holds (sub-agents' too). */
export function sayDefaultSessions(io: IO, dir: string): void {
  const n = listTranscriptFiles(dir).length;
  say(io, `reading ${displayPath(dir)} (${n} transcript ${n === 1 ? 'file' : 'files'})`);
}

/** Refuse `value` of `flag`, a folder a command writes into (`what`), when it is `-`: stdout elsewhere, here a folder named -. */
export function folderToWrite(flag: string, value: string, what: string): void {
  if (value === '-') {
    throw new UsageError(
      `${flag} -: ${what} go to a folder, not to stdout`,
      'give the path of the folder to write; for a folder named -, ./-',
    );
  }
}

/**
 * Refuse `value` of `flag`, a file a command writes (`what`: the page, the database), when it ends in a slash, `.`
 * or `..` (resolve() drops them: x.html/ had written the file x.html) or is `-` (stdout elsewhere, here a file named -).
 */
export function fileToWrite(flag: string, value: string, what: string, file: string): void {
  if (/(^|[/\\])\.{0,2}$/.test(value) || value === '-') {
    throw new UsageError(
      `${flag} ${value}: ${value === '-' ? `${what} goes to a file, not to stdout` : 'names a folder (it ends in a slash, . or ..)'}`,
      `give the path of the ${file} to write; for a file named -, ./-`,
    );
  }
}
