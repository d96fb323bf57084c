#!/usr/bin/env node
/**
 * A git repository with a long history, holding the bundled probe: `node bench/long-history.mjs
 * --out DIR [--commits N]`. N commits (default 100,000) that change files beside the probe, written
 * by `git fast-import` with fixed dates (no clock), then the probe's registration/ committed before
 * its first spawn and the rest of it after its last. `verdict DIR/probes/p17` then reads the whole
 * history, as it does in a team's repository: its git walks take time in proportion to the commits.
 */
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { out: { type: 'string' }, commits: { type: 'string', default: '100000' }, help: { type: 'boolean' } },
});
if (values.help || !values.out) {
  console.log('usage: node bench/long-history.mjs --out DIR [--commits N]');
  process.exit(values.help ? 0 : 2);
}
const out = resolve(values.out);
const n = Number(values.commits);
if (!Number.isInteger(n) || n < 1) throw new Error(`--commits must be a whole number above 0: ${values.commits}`);
if (existsSync(out)) throw new Error(`${out} exists: give a new folder`);
const probe = join(dirname(fileURLToPath(import.meta.url)), '..', 'evidence', '0017-staged-agent-restores-layer-1');

const git = (args, options = {}) => execFileSync('git', args, { cwd: out, stdio: ['pipe', 'pipe', 'inherit'], ...options });
mkdirSync(out, { recursive: true });
git(['init', '-q', '-b', 'main']);
// One commit per second from September 2020, each changing one of 500 files.
const stream = [];
for (let i = 1; i <= n; i++) {
  const data = `line ${i}\n`;
  stream.push(`commit refs/heads/main\nmark :${i}\ncommitter A <a@example.com> ${1600000000 + i} +0000\ndata 3\nc${i % 10}\n`);
  if (i > 1) stream.push(`from :${i - 1}\n`);
  stream.push(`M 644 inline src/f${i % 500}.txt\ndata ${Buffer.byteLength(data)}\n${data}\n`);
}
git(['fast-import', '--quiet'], { input: stream.join('') });
git(['checkout', '-q', 'main']);
// The registration before the probe's first spawn (12 August 2026), its evidence after its last.
const commit = (date, message) =>
  git(['-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit', '-q', '-m', message], {
    env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
  });
const into = join(out, 'probes', 'p17');
cpSync(join(probe, 'registration'), join(into, 'registration'), { recursive: true });
git(['add', 'probes']);
commit('2026-08-01T00:00:00Z', 'registration');
cpSync(probe, into, { recursive: true });
git(['add', 'probes']);
commit('2026-08-13T00:00:00Z', 'evidence');
console.log(`${out}: ${n + 2} commits; time: node bench/alt.mjs --runs 4 ${out} verdict='node dist/bin.js verdict {dir}/probes/p17'`);
