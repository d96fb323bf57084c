#!/usr/bin/env node
/**
 * bench/read-floor.mjs — how long DuckDB takes only to read the corpus: every line of every file through
 * read_json with one typed column, counted. No census. It is the lower bound for anything that reads these
 * bytes with DuckDB from node (start-up included), and shows how much of the census is reading and how much
 * is the census's own work.
 *
 *   node bench/read-floor.mjs DIR      prints the number of non-blank lines
 *
 * node-api is loaded with require(), as the CLI loads it (src/db/database.ts).
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const dir = process.argv[2];
if (!dir || process.argv.length !== 3) {
  process.stderr.write('usage: node bench/read-floor.mjs DIR\n');
  process.exit(2);
}
const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api');
const glob = `${resolve(dir)}/**/*.jsonl`.replaceAll("'", "''");
const instance = await DuckDBInstance.create(':memory:', { temp_directory: '' });
const con = await instance.connect();
const reader = await con.runAndReadAll(
  `select count(*) as n from read_json('${glob}', format = 'newline_delimited', records = true, columns = {type: 'VARCHAR'})`,
);
process.stdout.write(`${reader.getRowsJson()[0][0]}\n`);
con.closeSync();
instance.closeSync();
