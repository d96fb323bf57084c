#!/usr/bin/env node
/**
 * Cold `census` of the bundled probe (or the command `--args` gives), for two or more builds,
 * alternated run by run so that they share the machine alike:
 * `node bench/cold.mjs [--runs N] [--args "verdict"] BIN...` (each BIN a built dist/bin.js, each
 * run in its package's folder). One warm-up run each, then N rounds; each round runs every
 * BIN once, in an order rotated by one per round. Prints, per BIN, the median and min–max of wall
 * time and of CPU time (user + sys), under /usr/bin/time, and checks every run's stdout equals the
 * first BIN's.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: { runs: { type: 'string', default: '10' }, args: { type: 'string', default: 'census' }, help: { type: 'boolean' } },
  allowPositionals: true,
});
if (values.help || positionals.length === 0) {
  console.log('usage: node bench/cold.mjs [--runs N] [--args "COMMAND ARG..."] BIN... (each BIN a built dist/bin.js)');
  process.exit(values.help ? 0 : 2);
}
const bins = positionals.map((b) => resolve(b));
const runs = Number(values.runs);
// Split on spaces: the arguments are the bench's own (a command, a probe path, --html FILE).
const command = values.args.split(' ').filter(Boolean);

function once(bin) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S', process.execPath, bin, ...command], {
    cwd: dirname(dirname(bin)),
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`${bin}: exit ${r.status}\n${r.stderr}`);
  const [wall, user, sys] = r.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { wall, cpu: user + sys, stdout: r.stdout };
}

const times = bins.map(() => []);
const reference = once(bins[0]).stdout;
for (const b of bins.slice(1)) once(b);
for (let round = 0; round < runs; round++) {
  for (let k = 0; k < bins.length; k++) {
    const i = (k + round) % bins.length;
    const t = once(bins[i]);
    if (t.stdout !== reference) throw new Error(`${bins[i]}: output differs from ${bins[0]}'s`);
    times[i].push(t);
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (xs) => `${median(xs).toFixed(2)} s (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
console.log(`${runs} alternated runs each, 1-minute load average ${execFileSync('cat', ['/proc/loadavg']).toString().split(' ')[0]} after`);
console.log('| build | wall | CPU (user + sys) |\n| --- | --- | --- |');
bins.forEach((b, i) => {
  console.log(`| ${b} | ${fmt(times[i].map((t) => t.wall))} | ${fmt(times[i].map((t) => t.cpu))} |`);
});
