/**
 * Each probe's own transcripts/ against its spawns. The transcript tables are keyed by session, so
 * with several probes a session's lines must be in one folder, and a probe's transcripts/ must hold
 * no other loaded probe's spawn (copies of a probe, one with its transcripts/ and one without, are
 * refused too). Any probe: a session there that none of its spawns names is said.
 */
import { join } from 'node:path';
import { type Database, textList } from '../db/database.js';
import { readSql } from '../db/queries.js';
import { InputError } from '../base/errors.js';
import { displayPath } from '../base/paths.js';
import { lineOf } from './jsonl.js';
import type { Probe } from './inputs.js';

const HINT =
  'load the probes one at a time, or name one folder of transcripts for all of them with --transcripts DIR (census, agree, skills, sql, usage, report, load)';

const at = (dir: unknown, file: unknown) => displayPath(join(String(dir), String(file)));

/**
 * Throws InputError for the first session sql/probe/transcript-owners.sql finds; else returns a
 * warning for each of the first sessions no spawn names (transcript-orphans.sql). Drops transcript_owners.
 */
export async function checkTranscriptOwners(db: Database, probes: Probe[]): Promise<string[]> {
  const params = { probes: textList(probes.map((p) => p.id)), roots: textList(probes.map((p) => p.dir)) };
  const [owners, orphans] = [
    await db.query(readSql('probe/transcript-owners'), params, 'checking whose transcripts are whose'),
    await db.query(readSql('probe/transcript-orphans'), params, 'checking whose transcripts are whose'),
  ];
  await db.exec('drop table transcript_owners');
  const r = owners.rows[0];
  if (!r) {
    const shown = orphans.rows.slice(0, 5);
    const more = Number(orphans.rows[0]?.orphans ?? 0) - shown.length;
    return [
      ...shown.map(
        (o) =>
          `${at(o.dir, o.file)}: session ${o.session_id} is none of probe ${o.probe}'s spawns (no results.jsonl row names it); ignored`,
      ),
      ...(more > 0 ? [`…and ${more} more session(s) in a probe's transcripts/ that no results.jsonl row names`] : []),
    ];
  }
  if (r.kind === 'two') {
    throw new InputError(
      `${at(r.dir, r.file)}: session ${r.session_id} has lines in ${at(r.other_dir, r.other_file)} too: loaded together, one folder's copy would stand in for the other's`,
      HINT,
    );
  }
  const root = displayPath(String(r.root));
  if (r.also_own) {
    throw new InputError(
      `${at(r.dir, r.file)}: session ${r.session_id} is a spawn of probe ${r.probe} (seq ${r.seq}) too: loaded together, ${root}'s transcript would stand in for ${r.probe}'s`,
      HINT,
    );
  }
  throw new InputError(
    `${at(r.dir, r.file)}: session ${r.session_id} is a spawn of probe ${r.probe} (seq ${r.seq}), not of ${root}, whose transcripts/ holds it`,
    `a probe's transcripts/ holds its own spawns' sessions: move the file to probe ${r.probe}'s, or ${HINT}`,
  );
}

/**
 * A warning for the first line of each session found in another's file where either is a spawn
 * (sql/probe/transcript-strays.sql): a call there counts for its line's session, not its file's, as
 * census and agree count it. Drops transcript_strays.
 */
export async function strayLines(db: Database): Promise<string[]> {
  const { rows } = await db.query(readSql('probe/transcript-strays'), undefined, "checking each transcript's sessions");
  await db.exec('drop table transcript_strays');
  const shown = rows
    .slice(0, 5)
    .map(
      (r) =>
        `${lineOf(String(r.abs), Number(r.rec))}: a line of session ${r.session_id} in the file of session ${r.file_session}: ${
          r.named ? `its calls are written to ${r.session_id}'s record` : 'no results.jsonl row names its session; ignored'
        }`,
    );
  const more = Number(rows[0]?.strays ?? 0) - shown.length;
  return more > 0
    ? [...shown, `…and ${more} more session(s) with lines in another session's transcript file (each shown at its first line)`]
    : shown;
}
