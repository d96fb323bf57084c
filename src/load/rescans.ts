/**
 * What the transcript loader reads again after its pass, from only the files that hold it: a
 * Skill call's result too large to keep in the pass, and the calls `progress` lines mirror. The
 * files are split into shares as the pass's are, one scan each on a connection of its own.
 */
import { type Database, textList } from '../db/database.js';
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

/**
 * transcript_tool_results, from the pass; a result too large to keep there is read from its file,
 * the files that hold one split into shares as the pass's files are, one scan each on a connection of its own.
 */
export async function buildResults(
  db: Database,
  sized: { abs: string; size: number }[],
  cores: number,
  room: Room,
  scans?: number,
): Promise<void> {
  await room(0, async () => {
    await db.exec(readSql('transcripts/results'), undefined, 'building the transcript results');
    await db.exec(readSql('transcripts/results-big-wanted'), undefined, 'building the transcript results');
  });
  const big = new Set((await db.query('select distinct abs from transcript_big_wanted')).rows.map((r) => String(r.abs)));
  const holding = sized.filter((f) => big.has(f.abs));
  const parts = shares(holding, cores, scans);
  if (holding.length) {
    await db.onConnections(parts.length, async (con, i) => {
      if (i > 0) await con.exec(macros(), undefined, 'building the transcript results');
      await con.exec(
        readSql('transcripts/results-big'),
        { files: oneScan(parts[i]!), abs: textList(parts[i]!) },
        'building the transcript results',
      );
    });
  }
  await db.exec(readSql('transcripts/results-big-set'), undefined, 'building the transcript results');
  await db.exec(
    'alter table transcript_tool_results drop column abs; alter table transcript_tool_results drop column block; alter table transcript_tool_results drop column big',
  );
}

/**
 * transcript_mirrored_calls: the calls `progress` lines mirror from a sub-agent (sql/transcripts/
 * mirrors.sql), read again from the files whose pass counted a progress line.
 */
export async function buildMirrors(
  db: Database,
  sized: { abs: string; size: number }[],
  cores: number,
  room: Room,
  scans?: number,
): Promise<void> {
  await room(0, () => db.exec(readSql('transcripts/mirrors-wanted'), undefined, 'reading the mirrored calls'));
  const wanted = new Set((await db.query('select abs from transcript_mirror_files')).rows.map((r) => String(r.abs)));
  const parts = shares(
    sized.filter((f) => wanted.has(f.abs)),
    cores,
    scans,
  );
  if (parts.length) {
    await room(parts.length, async () => {
      // Run again when it did not fit (lean): what a share had written is written again.
      await db.exec('delete from transcript_mirrored_calls');
      await db.onConnections(parts.length, async (con, i) => {
        if (i > 0) await con.exec(macros(), undefined, 'reading the mirrored calls');
        await con.exec(readSql('transcripts/mirrors'), { files: oneScan(parts[i]!) }, 'reading the mirrored calls');
      });
    });
  }
  await db.exec('drop table transcript_mirror_files');
}
