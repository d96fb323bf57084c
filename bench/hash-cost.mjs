#!/usr/bin/env node
/**
 * bench/hash-cost.mjs — what it costs to check that a database's input files are unchanged, on the
 * bench corpus (see bench/README.md, "What checking a database's inputs costs").
 *
 *   node bench/hash-cost.mjs DIR [--rounds N] [--bin FILE]
 *
 * For the *.jsonl files under DIR (the files `load --transcripts DIR` fingerprints), in this process
 * and with a warm page cache, each round times, in an order rotated every round:
 *   - stat: statSync of every file (what an unchanged file costs when its size and mtime are trusted);
 *   - full <alg>: every byte of every file through node:crypto's <alg>, streamed through one 1 MiB
 *     buffer (never a whole file in memory), for sha256, sha1, md5, blake2b512 and sha512-256;
 *   - edges <B>: a stat, then sha256 of each file's first and last B bytes (the whole file when it
 *     is no longer than 2 B), for B = 4, 16 and 64 KiB, on this thread and on the thread pool.
 * Then, for what the cache saves, it times the CLI (--bin, default the bin package.json names), each
 * round, as child processes (start-up included): `census --transcripts DIR --format json` (fresh),
 * `load --transcripts DIR --db FILE --force` (FILE in bench/out/, removed after) and
 * `census --transcripts DIR --db FILE --format json` (cached; checks the inputs as the build does).
 * Prints markdown tables of medians (and min–max) to stdout; progress to stderr.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let dir;
let rounds = 7;
let bin = join(ROOT, Object.values(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin)[0]);
let bad = false;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--rounds') rounds = Number(argv[++i]);
  else if (argv[i] === '--bin') bin = resolve(argv[++i] ?? '');
  else if (!dir) dir = argv[i];
  else bad = true;
}
if (bad || !dir || !Number.isInteger(rounds) || rounds < 1 || !existsSync(bin)) {
  process.stderr.write('usage: node bench/hash-cost.mjs DIR [--rounds N] [--bin FILE] (build the bin first: npm run build)\n');
  process.exit(2);
}
dir = resolve(dir);

function walk(d, out = []) {
  for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(d, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.name.endsWith('.jsonl')) out.push(p);
  }
  return out;
}
const files = walk(dir);
const buf = Buffer.allocUnsafe(1 << 20);

/** Every byte of `file` through `alg`, read into one reused buffer. */
function hashFull(file, alg) {
  const h = createHash(alg);
  const fd = openSync(file, 'r');
  try {
    for (let n = readSync(fd, buf, 0, buf.length, null); n > 0; n = readSync(fd, buf, 0, buf.length, null)) h.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return h.digest('hex');
}

/** sha256 of the first and last `block` bytes of `file` (all of it when no longer than 2 blocks). */
function hashEdges(file, block) {
  const size = statSync(file).size;
  const h = createHash('sha256');
  const fd = openSync(file, 'r');
  try {
    const read = (pos, len) => {
      for (let off = 0; off < len; ) {
        const n = readSync(fd, buf, off, len - off, pos + off);
        if (n === 0) break;
        off += n;
      }
      h.update(buf.subarray(0, len));
    };
    if (size <= 2 * block) read(0, size);
    else {
      read(0, block);
      read(size - block, block);
    }
  } finally {
    closeSync(fd);
  }
  return h.digest('hex');
}

/**
 * hashEdges on the thread pool: fs/promises reads and WebCrypto's digest, `width` files at a time, so
 * that reading and hashing use more than the main thread.
 */
async function hashEdgesAsync(list, block, width = 8) {
  let next = 0;
  const one = async (file) => {
    const { size } = await stat(file);
    const fh = await open(file, 'r');
    try {
      const len = Math.min(size, 2 * block);
      const b = Buffer.allocUnsafe(len);
      const read = async (at, pos, n) => {
        for (let off = 0; off < n; ) {
          const { bytesRead } = await fh.read(b, at + off, n - off, pos + off);
          if (bytesRead === 0) break;
          off += bytesRead;
        }
      };
      if (size <= 2 * block) await read(0, 0, size);
      else await Promise.all([read(0, 0, block), read(block, size - block, block)]);
      return Buffer.from(await crypto.subtle.digest('SHA-256', b)).toString('hex');
    } finally {
      await fh.close();
    }
  };
  const lane = async () => {
    while (next < list.length) await one(list[next++]);
  };
  await Promise.all(Array.from({ length: width }, lane));
}

const KiB = 1024;
const edgeBytes = (block) =>
  files.reduce((s, f) => {
    const n = statSync(f).size;
    return s + Math.min(n, 2 * block);
  }, 0);
const total = files.reduce((s, f) => s + statSync(f).size, 0);
const methods = [
  {
    name: 'stat every file',
    bytes: 0,
    run: () => {
      for (const f of files) statSync(f);
    },
  },
  ...['sha256', 'sha1', 'md5', 'blake2b512', 'sha512-256'].map((alg) => ({
    name: `full ${alg}`,
    bytes: total,
    run: () => {
      for (const f of files) hashFull(f, alg);
    },
  })),
  ...[4, 16, 64].map((k) => ({
    name: `edges ${k} KiB (stat + sha256 of first and last ${k} KiB)`,
    bytes: edgeBytes(k * KiB),
    run: () => {
      for (const f of files) hashEdges(f, k * KiB);
    },
  })),
  ...[16, 64].map((k) => ({
    name: `edges ${k} KiB on the thread pool (fs/promises + crypto.subtle, 8 files at a time)`,
    bytes: edgeBytes(k * KiB),
    run: () => hashEdgesAsync(files, k * KiB),
  })),
];

// Warm the page cache (and the hash implementations) before the timed rounds.
for (const f of files) hashFull(f, 'md5');
// Wall and CPU time (user + system, all threads of this process) of each run, in ms. On a busy
// machine the CPU time moves much less than the wall time.
const times = new Map(methods.map((m) => [m.name, []]));
const cpuTimes = new Map(methods.map((m) => [m.name, []]));
for (let r = 0; r < rounds; r++) {
  const k = r % methods.length;
  for (const m of [...methods.slice(k), ...methods.slice(0, k)]) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    await m.run();
    times.get(m.name).push(Number(process.hrtime.bigint() - t0) / 1e6);
    const c = process.cpuUsage(c0);
    cpuTimes.get(m.name).push((c.user + c.system) / 1e3);
  }
  process.stderr.write(`round ${r + 1}/${rounds} done\n`);
}

// What the cache saves: the CLI, start-up included.
const db = join(ROOT, 'bench', 'out', `hash-cost-${process.pid}.duckdb`);
const cliJobs = [
  { name: '`census --transcripts DIR` (fresh)', args: ['census', '--transcripts', dir, '--format', 'json'] },
  { name: '`load --transcripts DIR --db FILE --force`', args: ['load', '--transcripts', dir, '--db', db, '--force'] },
  { name: '`census --transcripts DIR --db FILE` (cached)', args: ['census', '--transcripts', dir, '--db', db, '--format', 'json'] },
];
const cliTimes = new Map(cliJobs.map((j) => [j.name, []]));
const cliCpu = new Map(cliJobs.map((j) => [j.name, []]));
const loads = [];
// GNU time, when there, gives the child's CPU time (user + system, all its threads).
const TIME = '/usr/bin/time';
const timeFile = join(ROOT, 'bench', 'out', `hash-cost-${process.pid}.time`);
const run = (args) => {
  const argv = existsSync(TIME) ? [TIME, '-f', '%U %S', '-o', timeFile, process.execPath, bin, ...args] : [process.execPath, bin, ...args];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) {
    process.stderr.write(`hash-cost: ${args.join(' ')} exited ${r.status}\n${r.stderr}`);
    rmSync(db, { force: true });
    process.exit(1);
  }
  const cpu = existsSync(TIME)
    ? readFileSync(timeFile, 'utf8')
        .trim()
        .split('\n')
        .pop()
        .split(' ')
        .reduce((a, x) => a + Number(x) * 1e3, 0)
    : NaN;
  return { ms, cpu };
};
run(cliJobs[1].args);
try {
  for (let r = 0; r < rounds; r++) {
    loads.push(loadavg()[0]);
    // load stays before the cached census, which reads what it wrote.
    const order = r % 2 ? [1, 2, 0] : [0, 1, 2];
    for (const k of order) {
      const t = run(cliJobs[k].args);
      cliTimes.get(cliJobs[k].name).push(t.ms);
      cliCpu.get(cliJobs[k].name).push(t.cpu);
    }
    process.stderr.write(`cli round ${r + 1}/${rounds} done\n`);
  }
} finally {
  rmSync(db, { force: true });
  rmSync(`${db}.wal`, { force: true });
  rmSync(timeFile, { force: true });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const out = [
  `${files.length} files, ${total.toLocaleString('en-US')} bytes; ${rounds} rounds, warm page cache, in-process (no start-up)`,
  '',
  '| method | bytes hashed | median wall (ms) | min–max (ms) | MB/s (wall) | median CPU (ms) |',
  '|---|---:|---:|---:|---:|---:|',
];
for (const m of methods) {
  const ts = times.get(m.name);
  const med = median(ts);
  const rate = m.bytes ? (m.bytes / 1e6 / (med / 1e3)).toFixed(0) : '';
  out.push(
    `| ${m.name} | ${m.bytes.toLocaleString('en-US')} | ${med.toFixed(0)} | ${Math.min(...ts).toFixed(0)}–${Math.max(...ts).toFixed(0)} | ${rate} | ${median(cpuTimes.get(m.name)).toFixed(0)} |`,
  );
}
out.push(
  '',
  `The CLI (${bin.startsWith(`${ROOT}/`) ? bin.slice(ROOT.length + 1) : bin}), ${rounds} rounds, each a child process:`,
  '',
  '| command | median wall (ms) | min–max (ms) | median CPU (ms) |',
  '|---|---:|---:|---:|',
);
for (const j of cliJobs) {
  const ts = cliTimes.get(j.name);
  out.push(
    `| ${j.name} | ${median(ts).toFixed(0)} | ${Math.min(...ts).toFixed(0)}–${Math.max(...ts).toFixed(0)} | ${median(cliCpu.get(j.name)).toFixed(0)} |`,
  );
}
out.push(
  '',
  `${cpus().length} CPUs; 1-minute load average before the CLI rounds: median ${median(loads).toFixed(2)}, max ${Math.max(...loads).toFixed(2)}`,
);
process.stdout.write(`${out.join('\n')}\n`);
