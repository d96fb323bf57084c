/**
 * Several probes loaded together: the transcript tables are keyed by session, so a probe's own
 * transcripts/ must hold its own spawns' sessions, and a session only one folder's lines.
 */
import { join } from 'node:path';
import { type Database, textList } from '../db/database.js';
import { readSql } from '../db/queries.js';
import { InputError } from '../base/errors.js';
import { displayPath } from '../base/paths.js';
import type { Probe } from './inputs.js';

const HINT = 'load the probes one at a time, or name one folder of transcripts for all of them with --transcripts DIR';

/** Throws InputError for the first session sql/probe/transcript-owners.sql finds; drops transcript_owners. */
export async function checkTranscriptOwners(db: Database, probes: Probe[]): Promise<void> {
  const params = { probes: textList(probes.map((p) => p.id)), roots: textList(probes.map((p) => p.dir)) };
  const rows = await db.query(readSql('probe/transcript-owners'), params, 'checking whose transcripts are whose');
  await db.exec('drop table transcript_owners');
  const r = rows.rows[0];
  if (!r) return;
  const at = (dir: unknown, file: unknown) => displayPath(join(String(dir), String(file)));
  if (r.kind === 'two') {
    throw new InputError(
      `${at(r.dir, r.file)}: session ${r.session_id} has lines in ${at(r.other_dir, r.other_file)} too: loaded together, one folder's copy would stand in for the other's`,
      HINT,
    );
  }
  throw new InputError(
    `${at(r.dir, r.file)}: session ${r.session_id} is a spawn of probe ${r.probe} (seq ${r.seq}), not of ${displayPath(String(r.root))}, whose transcripts/ holds it`,
    `a probe's transcripts/ holds its own spawns' sessions: move the file to probe ${r.probe}'s, or load the probes one at a time`,
  );
}
