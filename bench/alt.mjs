#!/usr/bin/env node
/**
 * Several commands over one corpus, alternated run by run so that they share the machine alike:
 * `node bench/alt.mjs [--runs N] DIR LABEL=COMMAND...`. `{dir}` in a COMMAND stands for DIR; a
 * COMMAND is split on spaces, or is a JSON array of its arguments (`sql=["node","dist/bin.js","sql",…]`).
 * One warm-up run each (which also reads the corpus into the page cache), then N rounds; each
 * round runs every command once, in an order rotated by one per round. Prints, per LABEL, the median and min–max of wall and of CPU time (user + sys), the
 * peak RSS, and the 1-minute load average before each run (median, max), under /usr/bin/time.
 * Labels that share the part before `@` (`usage@base`, `usage@new`) must print the same stdout.
 */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, help: { type: 'boolean' } },
  allowPositionals: true,
});
if (values.help || positionals.length < 2) {
  console.log('usage: node bench/alt.mjs [--runs N] DIR LABEL=COMMAND... ({dir} in COMMAND stands for DIR)');
  process.exit(values.help ? 0 : 2);
}
const dir = resolve(positionals[0]);
const commands = positionals.slice(1).map((s) => {
  const eq = s.indexOf('=');
  if (eq < 1) throw new Error(`not LABEL=COMMAND: ${s}`);
  const command = s.slice(eq + 1).trim();
  const argv = command.startsWith('[') ? JSON.parse(command) : command.split(/\s+/);
  return { label: s.slice(0, eq), argv: argv.map((a) => a.replaceAll('{dir}', dir)) };
});
const runs = Number(values.runs);
const load = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

function once(c) {
  const before = load();
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', ...c.argv], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${c.label}: exit ${r.status}\n${r.stderr}`);
  const [wall, user, sys, rss] = r.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { wall, cpu: user + sys, rss: rss / 1024, load: before, stdout: r.stdout };
}

const reference = new Map();
const check = (c, stdout) => {
  const key = c.label.split('@')[0];
  if (!reference.has(key)) reference.set(key, { label: c.label, stdout });
  else if (reference.get(key).stdout !== stdout) throw new Error(`${c.label}: stdout differs from ${reference.get(key).label}'s`);
};
for (const c of commands) check(c, once(c).stdout);
const times = commands.map(() => []);
for (let round = 0; round < runs; round++) {
  for (let k = 0; k < commands.length; k++) {
    const i = (k + round) % commands.length;
    const t = once(commands[i]);
    check(commands[i], t.stdout);
    times[i].push(t);
    process.stderr.write(
      `round ${round + 1} ${commands[i].label}: ${t.wall.toFixed(2)} s wall, ${t.cpu.toFixed(2)} s CPU, load ${t.load}\n`,
    );
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (xs) => `${median(xs).toFixed(2)} s (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
console.log(`${dir}: ${runs} alternated runs each`);
console.log('| command | wall | CPU (user + sys) | peak RSS | load avg before (median, max) |');
console.log('| --- | --: | --: | --: | --: |');
commands.forEach((c, i) => {
  const t = times[i];
  console.log(
    `| ${c.label} | ${fmt(t.map((x) => x.wall))} | ${fmt(t.map((x) => x.cpu))} | ${Math.round(Math.max(...t.map((x) => x.rss)))} MB | ${median(t.map((x) => x.load)).toFixed(1)}, ${Math.max(...t.map((x) => x.load)).toFixed(1)} |`,
  );
});
