/**
 * Turns transcripts into a probe's committed records: `tool_use/<session_id>.jsonl` for every
 * results.jsonl row that has a transcript, and `skill_results.jsonl`. The rows come from
 * queries/extract_tool_uses.sql and queries/extract_skill_results.sql; this module serializes them,
 * refuses any value that carries a home-directory path, and writes atomically, never over a file
 * that differs unless forced.
 */
import { existsSync, readFileSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Result, Row } from '../db/database.js';
import { InputError } from '../base/errors.js';
import { ioError } from '../base/io-error.js';
import { checkPath } from '../base/path-given.js';
import { errText, lineOf } from './jsonl.js';
import { firstHomePath } from '../base/home-paths.js';
import { decodeJsonEscapes } from '../base/json-escapes.js';
import { displayPath, inputFile, inputFolder, isWithin, makeFolders, takeBackFolders } from '../base/paths.js';
import { probeHolding, realOrNot, refuseInsideEvidence, writeNewBeside } from '../base/replace-file.js';

export interface ExtractOptions {
  out: string;
  force?: boolean;
  /** The user's home directory as set ($HOME); values containing it are refused. */
  home?: string;
}

export interface ExtractReport {
  written: string[];
  unchanged: string[];
  /** The results' spawns, how many of them a transcript holds, and how many got a tool_use record. */
  spawns: number;
  matched: number;
  recorded: number;
}

/**
 * What extract reads, as the facade (evidence.ts) hands it down: the results file's probe, and
 * public queries run by name. A parameter, not an import, so that load/ never reaches up to the facade.
 */
export interface ExtractSource {
  readonly probes: readonly Readonly<{ dir: string }>[];
  query(name: string): Promise<Result>;
  /** The results' spawns, and how many a transcript holds. */
  transcriptMatches(): Promise<{ spawns: number; matched: number }[]>;
}

interface Planned {
  path: string;
  bytes: string;
}

/** A value for a message: at most 160 characters, the home path (found at `index`) kept in view. */
function shorten(value: string, index: number): string {
  if (value.length <= 160) return value;
  const at = Math.max(0, index - 60);
  return `${at > 0 ? '…' : ''}${value.slice(at, at + 160)}…`;
}

/**
 * Plan every file, check every value and every place, then write; nothing is written when anything
 * is refused. `transcripts`: the transcripts folders (or files) read, never written into.
 */
export async function extract(ev: ExtractSource, options: ExtractOptions, transcripts: readonly string[]): Promise<ExtractReport> {
  const out = resolve(checkPath('the output folder (out)', options.out));
  const check = (value: unknown, where: () => string, what: string) => {
    if (typeof value !== 'string') return;
    // Every spelling, `~/` included: a committed record writes its home as $HOME (home-paths.ts).
    const found = firstHomePath(value, { home: options.home, bareTilde: true });
    if (found) {
      throw new InputError(
        `${where()}: refusing to write ${what} ${JSON.stringify(shorten(value, found.index))}: it contains the home-directory path ${found.text}`,
        'committed records must not leak the measuring machine; write paths as $HOME in the source, or leave this spawn out',
      );
    }
  };
  const at = (source: unknown, rec: unknown) => () => lineOf(String(source), Number(rec));

  const planned: Planned[] = [];
  const recorded = (await ev.query('extract_tool_uses')).rows;
  for (const spawn of recorded) {
    const lines: string[] = [];
    for (const r of spawn.records as Row[]) {
      const where = at(r.source, r.rec);
      check(r.id, where, 'tool_use id');
      check(r.name, where, 'tool name');
      for (const k of r.input_keys as string[]) check(k, where, 'input key');
      check(r.skill, where, 'skill');
      check(r.agent_id, where, 'agent_id');
      const record: Record<string, unknown> = { id: r.id, name: r.name, input_keys: r.input_keys };
      if (r.skill !== null) record.skill = r.skill;
      if (r.agent_id !== null) record.agent_id = r.agent_id;
      lines.push(`${JSON.stringify(record)}\n`);
    }
    planned.push({ path: join(out, 'tool_use', `${spawn.session_id}.jsonl`), bytes: lines.join('') });
    // A spawn that opened no session has no transcript to take its stderr from: the .err the
    // harness left in the results' own probe goes beside its empty record (checked like the rest).
    const err = spawn.session === false ? stderrOf(ev.probes[0]!.dir, String(spawn.session_id)) : undefined;
    if (err) {
      for (const [i, line] of err.text.split('\n').entries()) {
        // And as a JSON reader (and audit) reads it: `\u002fhome\u002fa` is /home/a.
        for (const text of [line, decodeJsonEscapes(line)?.text]) check(text, () => `${displayPath(err.path)}:${i + 1}`, 'stderr');
      }
      planned.push({ path: join(out, 'tool_use', `${spawn.session_id}.err`), bytes: err.text });
    }
  }
  const skillLines: string[] = [];
  for (const r of (await ev.query('extract_skill_results')).rows) {
    const { session_id, arm, tool_use_id, skill, is_error, result } = r;
    const where = at(r.source, r.rec);
    for (const [key, value] of Object.entries({ session_id, arm, tool_use_id, skill })) check(value, where, key);
    if (result !== null) check(result, at(r.result_source, r.result_rec), 'result');
    skillLines.push(`${JSON.stringify({ session_id, arm, tool_use_id, skill, is_error, result })}\n`);
  }
  const skillResults = join(out, 'skill_results.jsonl');
  const skillBytes = skillLines.join('');
  planned.push({ path: skillResults, bytes: skillBytes });
  refuseEvidence(out, ev.probes[0]!.dir, transcripts, planned);
  // Spawns no transcript covers keep their tool_use records, but skill_results.jsonl is written
  // whole: their rows in the one there would be lost, and the probe refused (a Skill call with no row).
  const { spawns, matched } = (await ev.transcriptMatches())[0] ?? { spawns: 0, matched: 0 };
  const covered = recorded.length;
  const skillsThere = onDisk(skillResults);
  if (covered < spawns && skillsThere !== null && !skillsThere.equals(Buffer.from(skillBytes))) {
    throw new InputError(
      `${displayPath(skillResults)}: the transcripts cover ${covered} of the ${spawns} spawn(s), and rewriting it would drop the skill results of the others; nothing was written`,
      'give --transcripts the sessions of every spawn, or --out another folder',
    );
  }

  const report: ExtractReport = { written: [], unchanged: [], spawns, matched, recorded: covered };
  const conflicts: string[] = [];
  for (const p of planned) {
    const there = p.path === skillResults ? skillsThere : onDisk(p.path);
    if (there === null) continue;
    if (there.equals(Buffer.from(p.bytes))) report.unchanged.push(p.path);
    else if (!options.force) conflicts.push(p.path);
  }
  if (conflicts.length) {
    const more = conflicts.length > 1 ? ` (and ${conflicts.length - 1} more)` : '';
    throw new InputError(
      `${displayPath(conflicts[0]!)}: exists and differs from what extract would write${more}`,
      'pass --force to overwrite, or --out another folder',
    );
  }
  // Every file is written beside its place first, and only then are they all renamed into place:
  // a write that fails (a full disk, a file in the way) replaces none of them.
  const staged: { path: string; tmp: string }[] = [];
  // The folders it made, taken back (while empty) when it fails, as init and export do; kept once all is written.
  const made: string[] = [];
  try {
    for (const p of planned) {
      if (report.unchanged.includes(p.path)) continue;
      writeStep(p.path, () => {
        made.push(...makeFolders(join(p.path, '..')));
        // Exclusive creation, taken back if the write fails part-way (writeNewBeside).
        staged.push({ path: p.path, tmp: writeNewBeside(p.path, p.bytes) });
      });
    }
    while (staged.length) {
      const { path, tmp } = staged[0]!;
      writeStep(path, () => renameSync(tmp, path));
      staged.shift();
      report.written.push(path);
    }
    made.length = 0;
  } finally {
    for (const { tmp } of staged) rmSync(tmp, { force: true });
    takeBackFolders(made);
  }
  return report;
}

/**
 * The `.err` of `session` in probe `dir`, checked as loading the probe checks it (inputs.ts: a
 * regular file inside the probe; jsonl.ts: UTF-8), so that its bytes are copied as they are; or
 * undefined when there is none.
 */
function stderrOf(dir: string, session: string): { path: string; text: string } | undefined {
  const real = realpathSync(dir);
  const path = join(dir, 'tool_use', `${session}.err`);
  if (!inputFolder(join(dir, 'tool_use'), real, dir) || !inputFile(path, real, dir)) return undefined;
  return { path, text: errText(path) };
}

/**
 * Refuse every place extract writes (`out`, its tool_use/, each file), as it resolves through
 * symbolic links, that lies inside the transcripts read, inside another probe, or inside the results'
 * probe anywhere but where that probe keeps the same file: a tool_use/ linked to the transcripts had
 * had them overwritten. Evidence is read-only, --force or not.
 */
function refuseEvidence(out: string, probeDir: string, transcripts: readonly string[], planned: Planned[]): void {
  const places = [out, join(out, 'tool_use'), ...planned.map((p) => p.path)];
  for (const place of places) refuseInsideEvidence(place, transcripts, 'the records', 'the transcripts folder');
  const probe = realOrNot(probeDir);
  for (const place of places) {
    const real = realOrNot(place);
    const at = real === resolve(place) ? '' : `, at ${displayPath(real)}`;
    // Another probe's folder, reached by name or through a link (a tool_use/ linked to its tool_use/); as
    // written too, where a probe's transcripts/ is a link to a folder outside it.
    const other = [
      { holder: probeHolding(join(real, 'results.jsonl')), said: at },
      { holder: probeHolding(join(resolve(place), 'results.jsonl')), said: '' },
    ].find(({ holder }) => holder !== undefined && realOrNot(holder) !== probe);
    if (other !== undefined) {
      throw new InputError(
        `${displayPath(place)}: inside the probe ${displayPath(other.holder!)}${other.said}, not the probe of the results it reads; nothing was written`,
        '--out the probe of --results or a folder outside every probe: evidence is read-only',
      );
    }
    // The results' probe, as it resolves and as written (by any name that leads to it).
    const own = probeHolding(join(resolve(place), 'results.jsonl'));
    const homes = [
      { p: real, home: probe, said: at },
      { p: resolve(place), home: resolve(probeDir), said: '' },
      ...(own === undefined ? [] : [{ p: resolve(place), home: own, said: '' }]),
    ];
    const astray = homes.find(({ p, home }) => isWithin(p, home) && p !== join(home, relative(out, place)));
    if (astray !== undefined) {
      throw new InputError(
        `${displayPath(place)}: inside the probe it reads (${displayPath(probeDir)})${astray.said}, where the probe keeps no such record; nothing was written`,
        '--out the probe itself or a folder outside it: evidence is read-only',
      );
    }
  }
}

/**
 * What a file extract would write holds now (its bytes: one not UTF-8 must not read as the U+FFFD a record may
 * hold), or null when there is none. A FIFO in its place would wait for a writer forever: a path that is neither
 * a file nor a folder is an error naming it (a folder fails the read).
 */
function onDisk(path: string): Buffer | null {
  if (!existsSync(path)) return null;
  const kind = writeStep(path, () => statSync(path));
  if (!kind.isFile() && !kind.isDirectory())
    throw new InputError(`${displayPath(path)}: not a regular file, where extract writes one`, 'move it away, or --out another folder');
  return writeStep(path, () => readFileSync(path));
}

/** Run one step of writing `path`; a system error (EACCES, ENOTDIR, EISDIR, ENOSPC…) becomes an InputError naming it. */
function writeStep<T>(path: string, step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (!(e as NodeJS.ErrnoException).code) throw e;
    throw ioError(path, e, 'cannot write', 'check that --out names a folder you may write to, and that nothing in it is in the way');
  }
}
