#!/usr/bin/env node
/**
 * bench/pass-cost.mjs — the loader's transcript passes alone, in-process: one scan (one thread, as
 * each of the loader's per-thread scans) over every file of a corpus, with the macros of one or more
 * worktrees, alternated run by run.
 *
 *   node bench/pass-cost.mjs [--runs N] DIR LABEL=WORKTREE:PASS...
 *
 * PASS names sql/transcripts/PASS.sql of WORKTREE (scan, scan-calls, scan-usage, scan-results,
 * scan-lines, scan-responses), whose result is written to a temporary table as the loader does.
 * Prints per LABEL the median and min–max wall and CPU (user + sys) time of a run, and the rows.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ options: { runs: { type: 'string', default: '5' } }, allowPositionals: true });
if (positionals.length < 2) {
  process.stderr.write('usage: node bench/pass-cost.mjs [--runs N] DIR LABEL=WORKTREE:PASS...\n');
  process.exit(2);
}
const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api');
const files = readdirSync(resolve(positionals[0]), { recursive: true })
  .filter((f) => f.endsWith('.jsonl'))
  .map((f) => join(resolve(positionals[0]), f))
  .sort();
const list = `[${files.map((f) => `'${f.replaceAll("'", "''")}'`).join(', ')}]`;
const passes = [];
for (const arg of positionals.slice(1)) {
  const [label, spec] = arg.split('=');
  const [tree, pass] = spec.split(':');
  const instance = await DuckDBInstance.create(':memory:', { threads: '1', temp_directory: '' });
  const con = await instance.connect();
  // The passes are in passes.sql since it was split from macros.sql, which reads timestamps with
  // sql/rfc3339.sql's macro; an older worktree has neither.
  for (const f of ['rfc3339', 'transcripts/macros', 'transcripts/passes'].filter((f) => existsSync(join(tree, `sql/${f}.sql`))))
    await con.run(readFileSync(join(tree, `sql/${f}.sql`), 'utf8'));
  await con.run('SET preserve_insertion_order = false');
  // The passes that keep rows keep each file's number (files.sql), which they join on its path.
  await con.run(
    `create table transcript_input_files as select unnest(${list}::VARCHAR[]) as abs, generate_subscripts(${list}::VARCHAR[], 1) as fid`,
  );
  const sql = readFileSync(join(tree, `sql/transcripts/${pass}.sql`), 'utf8').replaceAll('$files', list);
  passes.push({ label, con, sql: `create or replace temp table pass_out as ${sql}`, times: [] });
}
const runs = Number(values.runs);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (let round = -1; round < runs; round++) {
  for (let k = 0; k < passes.length; k++) {
    const p = passes[(k + Math.max(round, 0)) % passes.length];
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await p.con.run(p.sql);
    const wall = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const rows = (await p.con.runAndReadAll('select count(*) from pass_out')).getRows()[0][0];
    if (round >= 0) p.times.push({ wall, cpu: (cpu.user + cpu.system) / 1e6, rows });
  }
}
const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
for (const p of passes) {
  const w = p.times.map((t) => t.wall);
  const c = p.times.map((t) => t.cpu);
  process.stdout.write(
    `${p.label}: wall ${median(w).toFixed(2)} s (${Math.min(...w).toFixed(2)}–${Math.max(...w).toFixed(2)}), ` +
      `CPU ${median(c).toFixed(2)} s (${Math.min(...c).toFixed(2)}–${Math.max(...c).toFixed(2)}), rows ${p.times[0].rows}\n`,
  );
}
process.stdout.write(`load average after: ${load}\n`);
