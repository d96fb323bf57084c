/**
 * The keys a probe's records must not repeat (sql/probe/duplicates.sql finds the first repeat):
 * a repeat would join a spawn twice, count a call twice, or drop what the second record says.
 */
import type { Database } from '../db/database.js';
import { readSql } from '../db/queries.js';
import { displayPath } from '../base/paths.js';
import { physicalLine } from './jsonl.js';
import { recordError } from './validate.js';

/** What must be unique (sql/probe/duplicates.sql numbers them in this order), and within what. */
const UNIQUE: { label: string; within: string }[] = [
  { label: 'session_id', within: 'a probe' },
  { label: 'seq', within: 'a probe' },
  { label: 'registered arm', within: 'a probe' },
  { label: 'addendum number', within: 'a probe' },
  { label: 'budget record', within: 'a probe' },
  { label: 'tool_use id', within: "a spawn's tool_use file" },
  { label: '(session_id, tool_use_id)', within: 'skill_results.jsonl' },
  { label: 'session_id of a note', within: 'notes.jsonl: one note per spawn' },
  { label: 'pilot session_id', within: "a probe's addenda" },
  { label: 'voided arm', within: "a probe's addenda: an arm is voided once, for one reason" },
];

/** Throw for the first record, by file and line, whose key repeats one before it in its scope. */
export async function checkDuplicates(db: Database): Promise<void> {
  const res = await db.query(readSql('probe/duplicates'), undefined, 'checking unique keys');
  const d = res.rows[0];
  if (!d) return;
  const { label, within } = UNIQUE[Number(d.what)]!;
  const firstLine = physicalLine(String(d.first_file), Number(d.first_rec));
  const first = d.first_file === d.file ? `line ${firstLine}` : `${displayPath(String(d.first_file))}:${firstLine}`;
  const key = label.startsWith('(') ? String(d.key) : JSON.stringify(String(d.key));
  throw recordError(
    String(d.file),
    Number(d.rec),
    `duplicate ${label} ${key} (first at ${first})`,
    `each ${label} must be unique within ${within}`,
  );
}
