/**
 * What the transcript loader reads again after its pass, from only the files that hold it: a
 * Skill call's result too large to keep in the pass, and the calls `progress` lines mirror. The
 * files are split into shares as the pass's are, one scan each on a connection of its own.
 */
import { type Database, type Params, textList } from '../db/database.js';
import { PARALLEL_BYTES } from '../db/engine.js';
import { readSql } from '../db/queries.js';
import { oneScan } from './jsonl.js';
import type { Room } from './spill.js';

/** The loader's macros, with the RFC 3339 reading they use, for one connection. */
export const macros = (): string => `${readSql('rfc3339')}\n${readSql('transcripts/macros')}`;

/**
 * The files split into shares of about equal size (largest first, each to the smallest share), for
 * one scan each: `scans` of them, or one per core and PARALLEL_BYTES; empty shares are left out.
 */
export function shares(files: { abs: string; size: number }[], cores: number, scans?: number): string[][] {
  const n = scans ?? Math.min(cores, Math.ceil(files.reduce((sum, f) => sum + f.size, 0) / PARALLEL_BYTES));
  const bySize = [...files].sort((a, b) => b.size - a.size || (a.abs < b.abs ? -1 : 1));
  const parts = Array.from({ length: Math.max(1, Math.min(n, files.length)) }, () => ({ size: 0, files: [] as string[] }));
  for (const f of bySize) {
    const least = parts.reduce((m, p) => (p.size < m.size ? p : m));
    least.files.push(f.abs);
    least.size += f.size;
  }
  return parts.filter((p) => p.files.length > 0).map((p) => p.files.sort());
}

/** What a rescan needs of the load: its files with their sizes, its cores, its room, and its scans option. */
export interface Rescan {
  sized: { abs: string; size: number }[];
  cores: number;
  room: Room;
  scans?: number;
}

/** Run sql/NAME.sql once per share of `files`, each on a connection of its own (with the macros), given its share's `params`. */
async function perShare(db: Database, parts: string[][], name: string, params: (part: string[]) => Params, doing: string): Promise<void> {
  await db.onConnections(parts.length, async (con, i) => {
    if (i > 0) await con.exec(macros(), undefined, doing);
    await con.exec(readSql(name), params(parts[i]!), doing);
  });
}

/**
 * transcript_tool_results, from the pass; a result too large to keep there is read from its file,
 * the files that hold one split into shares as the pass's files are, one scan each on a connection of its own.
 */
export async function buildResults(db: Database, { sized, cores, room, scans }: Rescan): Promise<void> {
  const doing = 'building the transcript results';
  await room(0, async () => {
    await db.exec(readSql('transcripts/results'), undefined, doing);
    await db.exec(readSql('transcripts/results-big-wanted'), undefined, doing);
  });
  const big = new Set((await db.query('select distinct abs from transcript_big_wanted')).rows.map((r) => String(r.abs)));
  const parts = shares(
    sized.filter((f) => big.has(f.abs)),
    cores,
    scans,
  );
  if (parts.length) await perShare(db, parts, 'transcripts/results-big', (p) => ({ files: oneScan(p), abs: textList(p) }), doing);
  await db.exec(readSql('transcripts/results-big-set'), undefined, doing);
  await db.exec(
    'alter table transcript_tool_results drop column abs; alter table transcript_tool_results drop column block; alter table transcript_tool_results drop column big',
  );
}

/**
 * What forgeable reads of sub-agents, read again from only the files that hold it:
 * transcript_mirrored_calls, the calls `progress` lines mirror from a sub-agent (sql/transcripts/
 * mirrors.sql), from the files whose pass counted a progress line; and transcript_subagent_results,
 * the results that name the sub-agent a call ran (subagents.sql), from the files that hold a Task,
 * Agent or Skill call.
 */
export async function buildSubagentReads(db: Database, rescan: Rescan): Promise<void> {
  await again(db, rescan, 'mirror', 'transcript_mirrored_calls', 'reading the mirrored calls');
  await again(db, rescan, 'subagent', 'transcript_subagent_results', 'reading the sub-agents');
}

/** Read again the files sql/transcripts/KINDs-wanted.sql lists, into `table`, by KINDs.sql. */
async function again(db: Database, { sized, cores, room, scans }: Rescan, kind: string, table: string, doing: string): Promise<void> {
  await room(0, () => db.exec(readSql(`transcripts/${kind}s-wanted`), undefined, doing));
  const wanted = new Set((await db.query(`select abs from transcript_${kind}_files`)).rows.map((r) => String(r.abs)));
  const parts = shares(
    sized.filter((f) => wanted.has(f.abs)),
    cores,
    scans,
  );
  if (parts.length) {
    await room(parts.length, async () => {
      // Run again when it did not fit (lean): what a share had written is written again.
      await db.exec(`delete from ${table}`);
      await perShare(db, parts, `transcripts/${kind}s`, (p) => ({ files: oneScan(p) }), doing);
    });
  }
  await db.exec(`drop table transcript_${kind}_files`);
}
