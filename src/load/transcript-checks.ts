/**
 * The transcript loader's checks of the lines it read: the first that is not a record, or whose
 * fields are mistyped, is an error naming file:line; a committed transcript is held to RFC 8259.
 */
import type { Database } from '../db/database.js';
import { readSql } from '../db/queries.js';
import type { TranscriptFile } from './inputs.js';
import { describeLine, oneScan } from './jsonl.js';
import { rejectJsonValues } from './probe.js';
import { quoted } from '../base/quoted.js';
import { kindWord, outOfRange, recordError } from './validate.js';

/**
 * The first line that is not a record is an error naming file:line: a line that is not JSON, or
 * is JSON but not an object, or whose timestamp or version is not a string, or (where usage is
 * read) whose usage holds a token count that is not an integer. Lines with none of
 * the fields read are looked at again, in one read of the files that hold one.
 */
export async function rejectBadLines(db: Database): Promise<void> {
  await db.exec(readSql('transcripts/keyless-lines'), undefined, 'checking the transcripts');
  const files = (await db.query('select distinct abs from keyless_lines order by abs', undefined, 'checking the transcripts')).rows.map(
    (r) => String(r.abs),
  );
  if (files.length) await db.exec(readSql('transcripts/keyless'), { files: oneScan(files) }, 'checking the transcripts');
  else await db.exec('create or replace temp table keyless_kinds (abs VARCHAR, file VARCHAR, rec BIGINT, kind VARCHAR)');
  const bad = (await db.query(readSql('transcripts/checks'), undefined, 'checking the transcripts')).rows[0];
  await db.exec('drop table keyless_lines; drop table keyless_kinds');
  if (!bad) return;
  const abs = String(bad.abs);
  const rec = Number(bad.rec);
  if (bad.problem === 'not an object') {
    if (bad.kind === null) throw await describeLine(db, abs, rec);
    throw recordError(
      abs,
      rec,
      `transcript line: not a JSON object (got ${kindWord(String(bad.kind))})`,
      'every transcript line is one JSON object',
    );
  }
  const got = (await db.query(readSql('transcripts/mistyped'), { files: oneScan([abs]), rec }, 'checking the transcripts')).rows[0];
  // An integer past BIGINT's range is an integer still: said so, as the probe's records say it.
  const want = got?.want === 'an integer' && /^-?\d+$/.test(String(got.v)) ? outOfRange(String(got.v)) : got?.want;
  throw recordError(
    abs,
    rec,
    `transcript line: "${got?.k}" must be ${want}, got ${quoted(got?.v)}`,
    got?.want === 'a string'
      ? "a transcript line's timestamp and version are strings"
      : got?.want === 'an integer'
        ? "a response's usage counts its tokens in integers"
        : "a response's usage is an object of token counts, as Claude Code writes it",
  );
}

/**
 * A committed transcript is held to RFC 8259 in every value, as the probe's records are. A session
 * folder's transcripts are read for the fields the tables hold, each of which must have its type.
 */
export async function rejectNonJsonValues(db: Database, files: TranscriptFile[]): Promise<void> {
  if (files.length === 0) return;
  await db.exec(
    readSql('transcripts/strict'),
    { files: oneScan(files.map((f) => f.abs)), copies: files.length === 1 ? 2 : 1 },
    'checking the transcripts',
  );
  try {
    await rejectJsonValues(db, 'committed_lines');
  } finally {
    await db.exec('drop table committed_lines');
  }
}
