/**
 * Loads Claude Code session transcripts (docs/evidence-format.md, "transcripts/") into DuckDB:
 * every `*.jsonl` under a directory, recursively, so `<sid>.jsonl`, `<sid>/subagents/agent-*.jsonl`
 * (2.1.x) and `agent-*.jsonl` beside the session file (2.0.x) all load.
 *
 * One exact pass (sql/transcripts/scan.sql) parses each line once, into typed fields, and numbers
 * it; every table is built from what that pass kept:
 *   transcript_files        one row per file: dir, file (relative to dir), lines
 *   transcript_lines        one row per non-blank line, every record type kept (unknown ones too)
 *   transcript_sessions     one row per session: first timestamp, versions, models, lines, files
 *   transcript_tool_uses    one row per tool_use block of an `assistant` line, de-duplicated by id
 *                           within a session, in transcript order; `progress` lines never count
 *   transcript_tool_use_copies the other copies of a call whose copies differ (forgeable reads them)
 *   transcript_mirrored_calls the calls `progress` lines mirror from a sub-agent (forgeable reads
 *                           them); built only when asked for (LoadOptions.mirrors), as it reads them again
 *   transcript_tool_results the tool_result answering each Skill call (first answer per id); built
 *                           only when asked for (LoadOptions.results), as it reads the results
 *   transcript_messages     one row per API response, its final usage snapshot, priced by
 *                           model_prices (the price table); built only when asked for
 *                           (LoadOptions.messages), as it reads each line's usage
 *
 * A line's session is its `sessionId`; a line without one (summary, file-history-snapshot) takes
 * the first `sessionId` of its file, or else the file's name. The SQL is in sql/transcripts/; this
 * module lists the files, runs it, and turns a bad line into an error naming file:line.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildMessages, DEFAULT_PRICING, loadPricing } from './messages.js';
import { type Database, pathList, textList } from '../db/database.js';
import { lineOf, lineTooLong, startsWithBom } from './jsonl.js';
import { readWhole } from './fingerprint.js';
import { InputError } from '../base/errors.js';
import { displayPath } from '../base/paths.js';
import type { TranscriptFile } from './inputs.js';
import { PARALLEL_BYTES } from '../db/engine.js';
import { readSql } from '../db/queries.js';
import { giveBack, lean, type Room } from './spill.js';
import { buildSubagentReads, buildResults, macros, shares } from './rescans.js';
import { rejectBadLines, rejectNonJsonValues } from './transcript-checks.js';

export interface Progress {
  files: number;
  bytes: number;
  /** Estimated share of the scan done, 0 to 1. */
  fraction: number;
}

export interface LoadOptions {
  /**
   * Build transcript_tool_results (default true): the pass then also reads each tool_result
   * block's call id and, when small, its text, and each call's input keys; without it, no result is read.
   */
  results?: boolean;
  /**
   * Build transcript_lines (default true): the pass then keeps every line's fields, where otherwise
   * it aggregates them per file and session as it reads. Implies results.
   */
  lines?: boolean;
  /**
   * Build transcript_messages and model_prices (default true): the pass then also reads each
   * assistant line's ids and usage, and where it was made.
   */
  messages?: boolean;
  /**
   * Build transcript_sessions, transcript_tool_uses and transcript_tool_use_copies (default true; results and lines imply it).
   * Without it (and without results and lines) the pass reads no line's content.
   */
  calls?: boolean;
  /**
   * transcript_tool_uses with every column (default true). false lets a load for queries that read
   * no call's input_keys, agent_id or is_sidechain (census, skills) take a lean pass, which leaves them NULL.
   */
  fullCalls?: boolean;
  /** Build transcript_mirrored_calls and transcript_subagent_results (default true; implies calls): files are read again. */
  mirrors?: boolean;
  /** The price table transcript_messages is priced by (default: the package's data/pricing.json). */
  pricing?: string;
  onProgress?: (p: Progress) => void;
  /**
   * How many scans run at once, each over its share of the files (default: one per DuckDB thread,
   * each given at least 16 MiB). Tests set it to hold the answers equal whatever the split.
   */
  scans?: number;
  /**
   * Folders of committed records (the probes'): a transcript inside one is held to RFC 8259 in
   * full, every value of every line (strict.sql), as the probe's other records are.
   */
  committed?: string[];
  /** Keep where each session's lines are (owners.sql), for the probes' check of their own transcripts/. */
  owners?: boolean;
  /** Keep each file's first line of each session not its own (strays.sql), for extract's warning. */
  strays?: boolean;
  /**
   * How many JSON readers may run beside the load on other connections (the probes' loader): room
   * is kept for them in a load that spills (spill.ts).
   */
  beside?: number;
}

/**
 * Load transcript files (findTranscripts). Throws InputError naming file:line when a line is not
 * a JSON object, or its timestamp or version is not a string. Returns its warnings: each model
 * with no price.
 */
export async function loadTranscripts(db: Database, files: TranscriptFile[], options: LoadOptions = {}): Promise<string[]> {
  const messages = options.messages ?? true;
  // One pass reads either the lean fields or all of them: responses and results together take all.
  const fullCalls = (options.calls ?? true) && (options.fullCalls ?? true);
  // Full calls and responses together take the pass that keeps every line, as results and responses do.
  const lines = (options.lines ?? true) || (messages && ((options.results ?? true) || fullCalls));
  const results = lines || (options.results ?? true);
  const mirrors = options.mirrors ?? true;
  const calls = results || mirrors || (options.calls ?? true);
  if (files.length === 0) {
    // No transcripts: the same tables, empty, without a scan (a test holds the two shapes equal).
    await db.exec(readSql('transcripts/empty'), undefined, 'creating the transcript tables');
    if (!results) await db.exec('drop table transcript_tool_results');
    if (!lines) await db.exec('drop table transcript_lines');
    if (!messages) await db.exec('drop table transcript_messages');
    if (!calls) await db.exec('drop table transcript_sessions; drop table transcript_tool_uses; drop table transcript_tool_use_copies');
    if (!mirrors) await db.exec('drop table transcript_mirrored_calls; drop table transcript_subagent_results');
    if (messages) {
      // Price keys are read as models are (omg_price_key).
      await db.exec(macros(), undefined, 'reading the price table');
      await loadPricing(db, options.pricing ?? DEFAULT_PRICING);
    }
    return [];
  }
  const sized = files.map((f) => {
    const st = statSync(f.abs, { throwIfNoEntry: false });
    if (!st)
      throw new InputError(
        `${displayPath(f.abs)}: changed while it was being read (it was removed)`,
        'read it again once nothing rewrites it',
      );
    return { abs: f.abs, size: st.size, ino: st.ino };
  });
  const bytes = sized.reduce((n, f) => n + f.size, 0);
  const onProgress = options.onProgress && ((fraction: number) => options.onProgress!({ files: files.length, bytes, fraction }));
  // A large load is read on every core, a connection each, with DuckDB on one thread: each statement
  // runs on the thread that asked, and a worker beside them only contends for the cores
  // (bench/README.md, "No worker beside the scans"). What it built is then queried on every core.
  const cores = bytes >= PARALLEL_BYTES ? await db.useThreads() : 1;
  if (cores > 1) await db.useThreads(1);
  await db.exec(passMacros(), undefined, 'reading the transcripts');
  // WITH ORDINALITY runs a scan on one thread: one scan per core, each over its share of the
  // files, into one table. The tables are plain (not temporary), for the other connections.
  // A share under PARALLEL_BYTES scans faster than another connection starts.
  const shared = shares(sized, cores, options.scans);
  // DuckDB rejects a UTF-8 BOM when a scan reads one file, and skips it when it reads two or more
  // (duckdb/duckdb#16568): a share of one such file reads it twice and keeps the first copy.
  const twice = new Set(shared.filter((p) => p.length === 1 && startsWithBom(p[0]!)).map((p) => p[0]!));
  const parts = shared.map((p) => (twice.has(p[0]!) && p.length === 1 ? [p[0]!, p[0]!] : p));
  await db.exec(
    readSql('transcripts/files'),
    {
      abs: textList(files.map((f) => f.abs)),
      dir: textList(files.map((f) => f.dir)),
      rel: textList(files.map((f) => f.rel)),
      copies: textList(files.map((f) => (twice.has(f.abs) ? '2' : '1'))),
    },
    'reading the transcripts',
  );
  // A committed transcript's RFC 8259 check reads its files again, on a second connection while
  // this one makes the pass; an error of the pass or of its lines is the one thrown when both fail.
  // The pass: each line's fields kept as rows (lines, or responses alone), or aggregated as read.
  const pass = readSql(
    lines
      ? 'transcripts/scan-lines'
      : !calls && messages
        ? 'transcripts/scan-responses'
        : messages
          ? 'transcripts/scan-usage'
          : results
            ? fullCalls
              ? 'transcripts/scan-results'
              : 'transcripts/scan-lean-results'
            : calls && fullCalls
              ? 'transcripts/scan-calls'
              : 'transcripts/scan',
  );
  const into = lines ? 'transcript_scan' : !calls && messages ? 'scan_rows' : 'scan_groups';
  const committed = files.filter((f) => (options.committed ?? []).some((d) => f.abs.startsWith(`${resolve(d)}/`)));
  // A large load that spills runs these statements in a small memory limit, leaving room for
  // `readers` JSON readers and those beside (the probes', a committed transcript's check); a small one never spills.
  const beside = (options.beside ?? 0) + (committed.length ? 1 : 0);
  const room: Room = (readers, work) => (bytes >= PARALLEL_BYTES ? lean(db, readers + beside, work) : work());
  await db.onConnections(committed.length ? 2 : 1, async (con, i) => {
    if (i === 1) return rejectNonJsonValues(con, committed);
    try {
      // Rows are numbered by WITH ORDINALITY, not by their order in the table, which DuckDB then
      // need not keep.
      await db.exec('SET preserve_insertion_order = false');
      await room(parts.length, async () => {
        // One share (a small load, such as a probe's transcripts) is one statement: an empty table
        // first would plan the whole pass twice.
        if (parts.length === 1) {
          await db.exec(
            `create or replace table ${into} as ${pass}`,
            { files: pathList(parts[0]!) },
            'reading the transcripts',
            onProgress,
          );
        } else {
          await db.exec(`create or replace table ${into} as ${pass} limit 0`, { files: pathList(parts[0]!) }, 'reading the transcripts');
          await db.onConnections(parts.length, async (con, i) => {
            if (i > 0) await con.exec(passMacros(), undefined, 'reading the transcripts');
            await con.exec(
              `insert into ${into} ${pass}`,
              { files: pathList(parts[i]!) },
              'reading the transcripts',
              i === 0 ? onProgress : undefined,
            );
          });
        }
      });
    } catch (err) {
      throw lineTooLong(err) ?? err;
    } finally {
      await db.exec('RESET preserve_insertion_order');
    }
    await room(0, async () => {
      if (into !== 'scan_groups') {
        await db.exec(readSql(lines ? 'transcripts/groups' : 'transcripts/responses'), undefined, 'reading the transcripts');
      }
      await db.exec(readSql('transcripts/files-seen'), undefined, 'reading the transcripts');
      // Where each session is, for the probes' check of their own transcripts/ (transcript-owners.ts).
      if (options.owners) await db.exec(readSql('transcripts/owners'), undefined, 'reading the transcripts');
      if (options.strays) await db.exec(readSql('transcripts/strays'), undefined, 'reading the transcripts');
      if (lines) {
        // The pass's rows, the largest table of a load, are freed before the other tables are built.
        await db.exec(readSql('transcripts/lines'), undefined, 'building the transcript tables');
        await db.exec('drop table transcript_scan');
      }
    });
    // Its checks read the files of lines with none of the fields read: one reader.
    await room(1, () => rejectBadLines(db));
  });
  // Each step of a large load starts from what the last one left in use, not from its peak.
  const settle = () => (bytes >= PARALLEL_BYTES ? giveBack(db) : Promise.resolve());
  await settle();
  const differ = await room(0, async () => {
    if (calls) await db.exec(readSql('transcripts/tables'), undefined, 'building the transcript tables');
    await db.exec(readSql('transcripts/files-table'), undefined, 'building the transcript tables');
    if (!calls) return [];
    const first = (await db.query(readSql('transcripts/copies-differ'), undefined, 'building the transcript tables')).rows;
    await db.exec('alter table transcript_tool_uses drop column differs');
    return first.map((r) => copiesDiffer(Number(r.n), r.first as Record<string, unknown>));
  });
  // A rescan of a file changed since the pass (removed, cut short) fails as that, not as DuckDB's error.
  const whole = (err: unknown) => {
    readWhole(sized);
    throw err;
  };
  const rescan = { sized, cores, room, scans: options.scans };
  if (results) await settle().then(() => buildResults(db, rescan).catch(whole));
  if (mirrors) await buildSubagentReads(db, rescan).catch(whole);
  readWhole(sized);
  // The responses a pass listed per file and session become rows once the tables above are built
  // from scan_groups, which is then freed before transcript_messages is built.
  if (into === 'scan_groups' && messages) await db.exec(readSql('transcripts/responses-listed'), undefined, 'reading the transcripts');
  await db.exec('drop table scan_groups');
  if (messages) await settle();
  const warnings = messages ? await buildMessages(db, options.pricing ?? DEFAULT_PRICING, calls, room) : [];
  // usage's pass keeps its rows (scan_rows), its responses a view of them; the full pass's responses
  // (groups.sql) and the listed ones are a table. transcript_scan is dropped already.
  const drops =
    into === 'scan_rows' ? ['drop view scan_responses', 'drop table scan_rows'] : lines || messages ? ['drop table scan_responses'] : [];
  const all = [...drops, 'drop table scan_files', 'drop table transcript_input_files'];
  await db.exec(all.join('; '), undefined, 'building the transcript tables');
  if (cores > 1) await db.useThreads();
  return [...differ, ...warnings];
}

/** The warning for calls whose copies differ (copies-differ.sql): the first copy counts, as views.md says. */
function copiesDiffer(n: number, c: Record<string, unknown>): string {
  const at = lineOf(String(c.abs), Number(c.rec));
  const more = n > 1 ? `; so do ${n - 1} more call(s)` : '';
  return `${at}: call ${c.id} (${c.name ?? 'no tool'}) is written again naming another tool or input: this first copy counts${more}`;
}

/** The macros a connection that scans the transcripts needs: the passes over those of macros.sql. */
const passMacros = () => `${macros()}\n${readSql('transcripts/passes')}`;
