/**
 * What transcripts' responses cost: the price table (data/pricing.json, or the file --pricing
 * names) read into model_prices and checked, and transcript_messages priced by it (sql/transcripts/
 * pricing*.sql, messages.sql).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../base/errors.js';
import { displayPath, namedFile, packageRoot } from '../base/paths.js';
import type { Database } from '../db/database.js';
import { readSql } from '../db/queries.js';
import { pathList } from '../db/sql-text.js';
import { lineOf } from './jsonl.js';
import { rejectJsonValues } from './probe.js';
import type { Room } from './spill.js';
import { recordError } from './validate.js';

/** The price table that ships with the package. */
export const DEFAULT_PRICING = join(packageRoot, 'data', 'pricing.json');

/** The largest price table read: the shipped one is 2 KB; a bound keeps a mistaken file from exhausting memory. */
export const MAX_PRICING_BYTES = 1024 * 1024;

/** model_prices from the price table `file`, each model's five prices checked. */
export async function loadPricing(db: Database, file: string): Promise<void> {
  const shown = displayPath(file);
  const hint =
    'a price table is {"as_of": DATE, "source": [URL], "models": {ID: {input, output, cache_write_5m, cache_write_1h, cache_read}}} (docs/views.md)';
  // One regular file: DuckDB would read every file of a folder, and wait on a FIFO.
  const real = namedFile(file, 'a price table');
  if (!real) throw new InputError(`${shown}: no such file`, 'give --pricing the path of a price table');
  const size = statSync(real).size;
  if (size > MAX_PRICING_BYTES) {
    throw new InputError(
      `${shown}: ${size} bytes, past the 1 MiB (1048576 bytes) a price table may hold`,
      'keep the models your transcripts use',
    );
  }
  try {
    // A list of one path: DuckDB reads it as named, never as a glob (pathList).
    await db.exec(readSql('transcripts/pricing-docs'), { file: pathList([real]), name: real }, shown);
    await db.exec(readSql('transcripts/pricing'), { file: pathList([real]) }, shown);
  } catch (err) {
    // What DuckDB found, without its file path (shown already) or its advice on read_json's options.
    const found = (err as Error).message
      .split('\n')[0]!
      .replace(/^.*?Error: /, '')
      .replace(/ in file "[^"]*",?/, '')
      .replace(/; (Try setting|If this error occurred)[^;]*/g, '');
    throw new InputError(`${shown}: not a price table (${found})`, hint, { cause: err });
  }
  // What read_json lets through: a second document, JSON that RFC 8259 is not, a key it does not read.
  const docs = Number((await db.query('select count(*) as n from price_docs', undefined, shown)).rows[0]!.n);
  if (docs > 1) throw new InputError(`${shown}: the file holds ${docs} JSON documents: a price table is one`, hint);
  await rejectJsonValues(db, 'price_docs');
  const key = (await db.query(readSql('transcripts/pricing-keys'), undefined, shown)).rows[0];
  if (key) throw new InputError(`${shown}: ${key.problem}`, hint);
  const bad = (await db.query(readSql('transcripts/pricing-check'), undefined, shown)).rows[0];
  if (bad) throw new InputError(`${shown}: ${bad.problem}`, hint);
  await db.exec(
    'create or replace table model_prices as select * exclude (key, raw, doc) from price_rows; drop table price_rows; drop table price_docs',
  );
}

/**
 * transcript_messages and (with `sessions`) the response columns of transcript_sessions, priced by `pricing`; a
 * warning for each model with no price (its responses' cost_usd is NULL, never 0).
 */
export async function buildMessages(db: Database, pricing: string, sessions: boolean, room: Room = (_, work) => work()): Promise<string[]> {
  await loadPricing(db, pricing);
  await room(0, () => db.exec(readSql('transcripts/messages'), undefined, 'building the transcript messages'));
  // A count that cannot be one would price a response below zero, or price tokens it does not show.
  const bad = (await db.query(readSql('transcripts/usage-check'), undefined, 'building the transcript messages')).rows[0];
  if (bad) {
    throw recordError(
      String(bad.abs),
      Number(bad.rec),
      `transcript line: "${bad.field}" ${bad.problem}, got ${bad.value}`,
      "a response's usage counts its tokens",
    );
  }
  // Counts that each fit but add up past what a total can hold: named where they pass it, before any total is made.
  const over = (await db.query(readSql('transcripts/usage-total'), undefined, 'building the transcript messages')).rows[0];
  if (over) {
    throw recordError(
      String(over.abs),
      Number(over.rec),
      `transcript line: the token counts of the responses up to this one, in file order, add up to ${over.n}, past 2^63 - 1`,
      'no total can hold them; no Claude Code session counts so many tokens',
    );
  }
  const mixed = (await db.query(readSql('transcripts/mixed-models'), undefined, 'building the transcript messages')).rows[0];
  const unknown = (await db.query(readSql('transcripts/no-usage'), undefined, 'building the transcript messages')).rows[0];
  const unpriced = (await db.query(readSql('transcripts/unpriced'), undefined, 'building the transcript messages')).rows;
  await db.exec(
    'alter table transcript_messages drop column mixed_models; alter table transcript_messages drop column no_usage; alter table transcript_messages drop column usage_mirrored',
  );
  if (sessions) await db.exec(readSql('transcripts/sessions-usage'), undefined, 'building the transcript messages');
  return [
    // Not an error: such a line is rare but real, and census, skills and verdict read no usage.
    ...(unknown
      ? [
          `${lineOf(String(unknown.abs), Number(unknown.rec))}: no line of this response has message.usage${Number(unknown.n) > 1 ? ` (nor of ${Number(unknown.n) - 1} more response(s))` : ''}: its tokens and cost are left empty (null), as is the cost of every total that holds it`,
        ]
      : []),
    ...(mixed
      ? [
          `${lineOf(String(mixed.abs), Number(mixed.rec))}: the lines of a response (one message.id) name different models${Number(mixed.n) > 1 ? `, as do ${Number(mixed.n) - 1} more response(s)` : ''}: each is counted once, under the model of its final snapshot (its line of the most output tokens, the last on ties)`,
        ]
      : []),
    ...unpriced.map((r) =>
      r.model === null
        ? `${r.responses} response(s) name no model, so none has a price: their cost is left empty (null)`
        : `no price for model ${r.model} in ${displayPath(pricing)}: the cost of its ${r.responses} response(s) is left empty (null); --pricing FILE can price it`,
    ),
  ];
}
