#!/usr/bin/env node
/**
 * bench/run.mjs — the census benchmark (`npm run bench`; see bench/README.md).
 *
 *   node bench/run.mjs [--rounds N] [--s2-rounds N] [--cold-runs N]
 *
 * 1. Generates bench/out/corpus-s1 and corpus-s2 with bench/gen.mjs, unless each is already there
 *    with a params.json that matches (same generator bytes, same scale). bench/out/ is gitignored.
 * 2. Builds dist/ (`npm run build`) if the bin package.json names is missing.
 * 3. Round by round (order rotated each round), under `/usr/bin/time -v`: omg-evidence census on
 *    s1, bench/duckdb-scan.mjs (the engine floor), bench/census.py (plain Python),
 *    bench/read-floor.mjs (DuckDB reading the lines, no census), and in the first --s2-rounds
 *    rounds omg-evidence census on s2. Every census is checked against the corpus's expected.tsv
 *    (the read floor against its line count); a difference prints MISMATCH with sample rows and
 *    makes the exit status 1.
 * 4. Cold start: `node <package.json bin> census` on the bundled probe, median of --cold-runs.
 * 5. The cached path (`load DIR --db FILE`, then `census --db FILE`) when the CLI has a `load`
 *    command; otherwise prints "cached: not available yet".
 * 6. Prints markdown tables (medians, peak RSS, ratios, PASS/FAIL per target) and writes
 *    bench/out/results.json.
 *
 * Exit status: 0 when every output matched, 1 on a MISMATCH or a failed command, 2 on bad setup.
 * Missed performance targets print FAIL but do not change the exit status: this measures.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'bench', 'out');
const TMP = join(OUT, 'tmp');
const TIME = '/usr/bin/time';
const TARGETS = { censusOverScan: 0.75, censusOverPython: 0.75, rssMB: 400, linearity: 2.2, coldS: 0.6 };

// ---------------------------------------------------------------- helpers
function parseArgs(argv) {
  const a = { rounds: 5, s2Rounds: 3, coldRuns: 10 };
  const num = (i) => { const n = Number(argv[i]); if (!Number.isInteger(n) || n < 1) usage(`${argv[i - 1]} needs a positive integer`); return n; };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--rounds') a.rounds = num(++i);
    else if (argv[i] === '--s2-rounds') a.s2Rounds = num(++i);
    else if (argv[i] === '--cold-runs') a.coldRuns = num(++i);
    else usage(`unknown argument ${argv[i]}`);
  }
  return a;
}
function usage(msg) {
  console.error(`run.mjs: ${msg}\nusage: node bench/run.mjs [--rounds N] [--s2-rounds N] [--cold-runs N]`);
  process.exit(2);
}
const median = (xs) => { if (!xs.length) return null; const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const sha256 = (buf) => createHash('sha256').update(buf).digest('hex');
const fmt = (x, d = 2) => (x == null ? 'n/a' : x.toFixed(d));
const tail = (s, n = 12) => s.trim().split('\n').slice(-n).join('\n');

function walk(dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/** A fingerprint of dist/, to notice a rebuild by someone else in the middle of a run. */
function distSha() {
  const dir = join(ROOT, 'dist');
  if (!existsSync(dir)) return null;
  const h = createHash('sha256');
  for (const f of walk(dir)) h.update(relative(dir, f)).update(readFileSync(f));
  return h.digest('hex').slice(0, 16);
}

/** Run `cmd args` under /usr/bin/time -v; stdout to a file. Returns wall (s), peak RSS (MB), exit. */
function measure(name, cmd, args) {
  mkdirSync(TMP, { recursive: true });
  const outFile = join(TMP, `${name}.out`), errFile = join(TMP, `${name}.err`), timeFile = join(TMP, `${name}.time`);
  const out = openSync(outFile, 'w'), err = openSync(errFile, 'w');
  const t0 = process.hrtime.bigint();
  spawnSync(TIME, ['-v', '-o', timeFile, cmd, ...args], { cwd: ROOT, stdio: ['ignore', out, err] });
  const hrWall = Number(process.hrtime.bigint() - t0) / 1e9;
  closeSync(out); closeSync(err);
  const t = readFileSync(timeFile, 'utf8');
  const elapsed = /Elapsed \(wall clock\) time[^:]*: ([\d:.]+)/.exec(t)?.[1];
  const wall = elapsed ? elapsed.split(':').reduce((acc, part) => acc * 60 + Number(part), 0) : hrWall;
  const rssKB = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(t)?.[1] ?? NaN);
  const exit = Number(/Exit status: (\d+)/.exec(t)?.[1] ?? (/terminated by signal/.test(t) ? 128 : NaN));
  return { wall, rss_mb: rssKB / 1024, exit, hr_wall: hrWall, outFile, stderr: readFileSync(errFile, 'utf8') };
}

// ---------------------------------------------------------------- corpus and build
function ensureCorpus(scale) {
  const dir = join(OUT, `corpus-s${scale}`);
  const genSha = sha256(readFileSync(join(ROOT, 'bench', 'gen.mjs')));
  const paramsFile = join(dir, 'params.json');
  if (existsSync(paramsFile)) {
    const { params, stats } = JSON.parse(readFileSync(paramsFile, 'utf8'));
    if (params.generator_sha256 === genSha && params.scale === scale && existsSync(join(dir, 'expected.tsv'))) {
      console.error(`corpus ${relative(ROOT, dir)}: present, params match`);
      return { dir, stats, generated_s: null };
    }
    console.error(`corpus ${relative(ROOT, dir)}: params differ, regenerating`);
  }
  rmSync(dir, { recursive: true, force: true }); // only ever bench/out/corpus-s<scale>
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['bench/gen.mjs', '--out', dir, '--scale', String(scale)], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) { console.error(`run.mjs: bench/gen.mjs failed (exit ${r.status})`); process.exit(2); }
  const generated_s = Number(process.hrtime.bigint() - t0) / 1e9;
  return { dir, stats: JSON.parse(readFileSync(paramsFile, 'utf8')).stats, generated_s };
}

function ensureDist() {
  if (existsSync(join(ROOT, binPath))) return;
  console.error(`${binPath} is missing: npm run build`);
  const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) { console.error('run.mjs: the build failed'); process.exit(2); }
}

// ---------------------------------------------------------------- output checks
/** omg-evidence census --format json (an array, or one object per line) as the expected.tsv text. */
function censusJsonToTsv(text) {
  let rows;
  try { rows = JSON.parse(text); } catch { rows = text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l)); }
  if (!Array.isArray(rows)) rows = [rows];
  const lines = [];
  for (const r of rows) {
    const tools = Array.isArray(r.tools) ? r.tools.map((t) => [t.name, t.count]) : Object.entries(r.tools ?? {});
    for (const [name, n] of tools) if (Number(n) > 0) lines.push(`${r.session_id}\t${name}\t${n}`);
  }
  lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return lines.length ? lines.join('\n') + '\n' : '';
}

function tsvMap(text) {
  const m = new Map();
  for (const l of text.split('\n')) if (l) { const [s, t, n] = l.split('\t'); m.set(`${s}\t${t}`, n); }
  return m;
}

/** null when `got` equals `want`; else a short description with up to 8 differing rows. */
function compare(got, want) {
  if (got === want) return null;
  const g = tsvMap(got), w = tsvMap(want);
  const rows = [];
  let n = 0;
  for (const [k, v] of w) if (g.get(k) !== v) { n++; if (rows.length < 8) rows.push(`${k}\texpected ${v}, got ${g.get(k) ?? '(missing)'}`); }
  for (const [k, v] of g) if (!w.has(k)) { n++; if (rows.length < 8) rows.push(`${k}\texpected (none), got ${v}`); }
  if (n === 0) return { rows: 0, sample: ['same rows, different order or formatting'] };
  return { rows: n, sample: rows };
}

// ---------------------------------------------------------------- main
const args = parseArgs(process.argv.slice(2));
if (!existsSync(TIME)) {
  console.error(`run.mjs: ${TIME} is missing; it gives the wall time and peak RSS of each run.\n` +
    'Install GNU time, e.g. `apt-get install time` (Debian/Ubuntu) or `dnf install time`, and run again.');
  process.exit(2);
}
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const binPath = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.[pkg.name] ?? Object.values(pkg.bin ?? {})[0];
const startedAt = new Date().toISOString();
const s1 = ensureCorpus(1), s2 = ensureCorpus(2);
ensureDist();
const distBefore = distSha();
const expected = { s1: readFileSync(join(s1.dir, 'expected.tsv'), 'utf8'), s2: readFileSync(join(s2.dir, 'expected.tsv'), 'utf8') };

// Warm the page cache so that round 1 is not the only one reading from disk.
for (const c of [s1, s2]) for (const f of walk(c.dir)) readFileSync(f);

const JOBS = {
  census_s1: { label: 'omg-evidence census, s1', cmd: process.execPath, args: [binPath, 'census', '--transcripts', s1.dir, '--format', 'json'], tsv: censusJsonToTsv, corpus: 's1' },
  scan_s1: { label: 'DuckDB typed scan (floor), s1', cmd: process.execPath, args: ['bench/duckdb-scan.mjs', s1.dir], tsv: (x) => x, corpus: 's1' },
  python_s1: { label: 'python3 json.loads, s1', cmd: 'python3', args: ['bench/census.py', s1.dir], tsv: (x) => x, corpus: 's1' },
  // Not a census: DuckDB reading the lines and nothing else (its output is the line count, checked).
  floor_s1: { label: 'DuckDB read only (no census), s1', cmd: process.execPath, args: ['bench/read-floor.mjs', s1.dir], lines: true, corpus: 's1' },
  census_s2: { label: 'omg-evidence census, s2', cmd: process.execPath, args: [binPath, 'census', '--transcripts', s2.dir, '--format', 'json'], tsv: censusJsonToTsv, corpus: 's2' },
};
const runs = [];
const mismatches = [];
let failed = false;

function runJob(key, round) {
  const job = JOBS[key];
  const load1 = loadavg()[0]; // other work on the machine shows up here (and our own previous run)
  const m = measure(key, job.cmd, job.args);
  const run = { job: key, round, wall_s: m.wall, rss_mb: m.rss_mb, exit: m.exit, hr_wall_s: m.hr_wall, loadavg_1m_before: load1, output: 'ok' };
  if (m.exit !== 0) {
    failed = true;
    run.output = 'error';
    console.error(`ERROR: ${job.label} exited ${m.exit}\n${tail(m.stderr)}`);
  } else {
    let diff;
    if (job.lines) {
      const got = readFileSync(m.outFile, 'utf8').trim(), want = String({ s1, s2 }[job.corpus].stats.lines);
      diff = got === want ? null : { rows: null, sample: [`line count: expected ${want}, got ${got}`] };
    } else {
      try { diff = compare(job.tsv(readFileSync(m.outFile, 'utf8')), expected[job.corpus]); } catch (e) { diff = { rows: null, sample: [`output not parseable: ${e.message}`] }; }
    }
    if (diff) {
      failed = true;
      run.output = 'MISMATCH';
      if (!mismatches.some((x) => x.job === key)) {
        mismatches.push({ job: key, label: job.label, ...diff });
        console.error(`MISMATCH: ${job.label} differs from expected.tsv in ${diff.rows ?? '?'} (session, tool) rows, e.g.\n  ${diff.sample.join('\n  ')}`);
      }
    }
  }
  runs.push(run);
  console.error(`  round ${round} ${key.padEnd(10)} ${fmt(m.wall)} s  ${fmt(m.rss_mb, 0)} MB  ${run.output}  (load ${fmt(load1)})`);
  return run;
}

console.error(`timing: ${args.rounds} rounds (s2 in the first ${Math.min(args.s2Rounds, args.rounds)}), order rotated each round`);
for (let r = 0; r < args.rounds; r++) {
  const jobs = ['census_s1', 'scan_s1', 'python_s1', 'floor_s1', ...(r < args.s2Rounds ? ['census_s2'] : [])];
  const k = r % jobs.length;
  for (const key of [...jobs.slice(k), ...jobs.slice(0, k)]) runJob(key, r + 1);
}

// Cold start on the bundled probe: the package's bin, with node directly (not npx).
console.error(`cold start: node ${binPath} census, 1 warm-up + ${args.coldRuns} runs`);
const cold = [];
measure('cold', process.execPath, [binPath, 'census']);
for (let i = 0; i < args.coldRuns; i++) {
  const m = measure('cold', process.execPath, [binPath, 'census']);
  if (m.exit !== 0) { failed = true; console.error(`ERROR: cold census exited ${m.exit}\n${tail(m.stderr)}`); }
  cold.push({ wall_s: m.wall, hr_wall_s: m.hr_wall, rss_mb: m.rss_mb, exit: m.exit });
}

// The cached path, once the CLI has it: `load DIR --db FILE`, then `census --db FILE`.
let cached = { available: false };
const help = spawnSync(process.execPath, [binPath, 'load', '--help'], { cwd: ROOT, encoding: 'utf8' });
// commander answers `load --help` with the top-level help (exit 0) when there is no load command.
if (help.status === 0 && /^Usage: \S+ load\b/m.test(help.stdout)) {
  const db = join(OUT, 'cache-s1.duckdb');
  rmSync(db, { force: true }); rmSync(`${db}.wal`, { force: true });
  // Two shapes: `load --transcripts DIR --db FILE` + `census --transcripts DIR --db FILE` (the CLI's,
  // when its load help lists --transcripts), else `load DIR --db FILE` + `census --db FILE`.
  const viaOption = /--transcripts\b/.test(help.stdout);
  const loadArgs = viaOption ? ['--transcripts', s1.dir, '--db', db] : [s1.dir, '--db', db];
  const censusArgs = viaOption ? ['--transcripts', s1.dir, '--db', db] : ['--db', db];
  const load = measure('load_s1', process.execPath, [binPath, 'load', ...loadArgs]);
  cached = { available: true, load_command: ['load', ...loadArgs].join(' '), census_command: ['census', ...censusArgs].join(' '),
    load: { wall_s: load.wall, rss_mb: load.rss_mb, exit: load.exit, db_bytes: existsSync(db) ? statSync(db).size : null }, runs: [] };
  if (load.exit !== 0) {
    failed = true;
    console.error(`ERROR: load exited ${load.exit}\n${tail(load.stderr)}`);
  } else {
    JOBS.cached_s1 = { label: 'omg-evidence census --db (cached), s1', cmd: process.execPath, args: [binPath, 'census', ...censusArgs, '--format', 'json'], tsv: censusJsonToTsv, corpus: 's1' };
    for (let r = 0; r < args.rounds; r++) cached.runs.push(runJob('cached_s1', r + 1));
  }
} else {
  console.error('cached: not available yet');
}
const distAfter = distSha();
if (distAfter !== distBefore) console.error('WARNING: dist/ changed during the run (rebuilt by someone else?); the numbers may mix two builds');

// ---------------------------------------------------------------- summary
const ok = (key) => runs.filter((r) => r.job === key && r.exit === 0);
const stat = (key) => {
  const rs = ok(key);
  return { runs: runs.filter((r) => r.job === key).length, median_s: median(rs.map((r) => r.wall_s)), min_s: rs.length ? Math.min(...rs.map((r) => r.wall_s)) : null,
    max_s: rs.length ? Math.max(...rs.map((r) => r.wall_s)) : null, peak_rss_mb: rs.length ? Math.max(...rs.map((r) => r.rss_mb)) : null,
    output: runs.filter((r) => r.job === key).every((r) => r.output === 'ok') ? 'ok' : 'MISMATCH/ERROR' };
};
const summary = Object.fromEntries(Object.keys(JOBS).filter((k) => runs.some((r) => r.job === k)).map((k) => [k, stat(k)]));
const coldOk = cold.filter((c) => c.exit === 0);
summary.cold = { runs: cold.length, median_s: median(coldOk.map((c) => c.wall_s)), median_hr_s: median(coldOk.map((c) => c.hr_wall_s)),
  min_s: coldOk.length ? Math.min(...coldOk.map((c) => c.wall_s)) : null, max_s: coldOk.length ? Math.max(...coldOk.map((c) => c.wall_s)) : null,
  peak_rss_mb: coldOk.length ? Math.max(...coldOk.map((c) => c.rss_mb)) : null, output: coldOk.length === cold.length ? 'ok' : 'ERROR' };

const c1 = summary.census_s1?.median_s, sc = summary.scan_s1?.median_s, py = summary.python_s1?.median_s, c2 = summary.census_s2?.median_s;
const ratio = (a, b) => (a != null && b ? a / b : null);
const targets = [
  { target: 'census / scan (s1 medians)', value: ratio(c1, sc), limit: TARGETS.censusOverScan, unit: '×' },
  { target: 'census / python (s1 medians)', value: ratio(c1, py), limit: TARGETS.censusOverPython, unit: '×' },
  { target: 'peak RSS, census s1', value: summary.census_s1?.peak_rss_mb ?? null, limit: TARGETS.rssMB, unit: 'MB' },
  { target: 'linearity, census s2 / s1', value: ratio(c2, c1), limit: TARGETS.linearity, unit: '×' },
  { target: `cold start, node ${binPath} census`, value: summary.cold.median_s, limit: TARGETS.coldS, unit: 's' },
];
if (summary.cached_s1) {
  const cc = summary.cached_s1.median_s;
  targets.push({ target: 'cached census / scan', value: ratio(cc, sc), limit: TARGETS.censusOverScan, unit: '×' },
    { target: 'cached census / python', value: ratio(cc, py), limit: TARGETS.censusOverPython, unit: '×' },
    { target: 'peak RSS, cached census s1', value: summary.cached_s1.peak_rss_mb, limit: TARGETS.rssMB, unit: 'MB' });
}
for (const t of targets) t.result = t.value == null ? 'n/a' : t.value <= t.limit ? 'PASS' : 'FAIL';

const mb = (b) => (b / 1e6).toFixed(1);
const relativeCmd = (c) => c.replaceAll(ROOT + '/', '');
const out = [];
out.push('## Corpus', '', '| corpus | bytes | MB | files | sessions | lines | tool_uses | (session, tool) rows |', '|---|---|---|---|---|---|---|---|');
for (const [name, c] of [['s1', s1], ['s2', s2]]) {
  out.push(`| ${name} | ${c.stats.bytes.toLocaleString('en-US')} | ${mb(c.stats.bytes)} | ${c.stats.files} | ${c.stats.sessions} | ${c.stats.lines.toLocaleString('en-US')} | ${c.stats.tool_uses.toLocaleString('en-US')} | ${c.stats.groups} |`);
}
out.push('', `s2/s1 bytes: ${(s2.stats.bytes / s1.stats.bytes).toFixed(3)}×`, '');
out.push('## Timings', '', '| what | runs | median wall (s) | min–max (s) | peak RSS (MB) | output vs expected.tsv |', '|---|---|---|---|---|---|');
const labels = { ...Object.fromEntries(Object.entries(JOBS).map(([k, j]) => [k, j.label])), cold: `cold start: node ${binPath} census (bundled probe)` };
for (const [k, s] of Object.entries(summary)) {
  out.push(`| ${labels[k]} | ${s.runs} | ${fmt(s.median_s)} | ${fmt(s.min_s)}–${fmt(s.max_s)} | ${fmt(s.peak_rss_mb, 0)} | ${s.output} |`);
}
if (cached.available) {
  out.push('', `cached: \`${relativeCmd(cached.load_command)}\` took ${fmt(cached.load.wall_s)} s, peak RSS ${fmt(cached.load.rss_mb, 0)} MB, ` +
    `exit ${cached.load.exit}, database ${cached.load.db_bytes == null ? 'n/a' : mb(cached.load.db_bytes) + ' MB'}; timed: \`${relativeCmd(cached.census_command)}\``);
}
else out.push('', 'cached: not available yet');
const fl = summary.floor_s1?.median_s;
if (fl != null && c1 != null && sc != null) {
  out.push('', `reading only (bench/read-floor.mjs, no census): ${fmt(fl)} s, ${fmt(ratio(fl, sc), 2)}× the scan. ` +
    `Above it, the census spends ${fmt(c1 - fl)} s and the scan ${fmt(sc - fl)} s.`);
}
out.push('', '## Targets', '', '| target | value | limit | result |', '|---|---|---|---|');
for (const t of targets) out.push(`| ${t.target} | ${t.value == null ? 'n/a' : fmt(t.value, t.unit === 'MB' ? 0 : 2) + (t.unit === 'MB' ? ' MB' : t.unit === 's' ? ' s' : '×')} | ≤ ${t.limit}${t.unit === 'MB' ? ' MB' : t.unit === 's' ? ' s' : '×'} | ${t.result} |`);
if (mismatches.length) {
  out.push('', '## MISMATCH', '');
  for (const m of mismatches) out.push(`**${m.label}**: ${m.rows ?? '?'} rows differ from expected.tsv, e.g.`, '```', ...m.sample, '```');
}
if (distAfter !== distBefore) out.push('', '**WARNING**: dist/ changed during the run; the numbers may mix two builds.');
console.log(out.join('\n'));

const pyVersion = spawnSync('python3', ['--version'], { encoding: 'utf8' }).stdout.trim();
const duckdbVersion = JSON.parse(readFileSync(join(ROOT, 'node_modules', '@duckdb', 'node-api', 'package.json'), 'utf8')).version;
writeFileSync(join(OUT, 'results.json'), JSON.stringify({
  started_at: startedAt, finished_at: new Date().toISOString(),
  machine: { node: process.version, python: pyVersion, duckdb_node_api: duckdbVersion, cpus: cpus().length, cpu: cpus()[0]?.model, kernel: release() },
  dist_sha: { before: distBefore, after: distAfter }, options: args, bin: binPath,
  corpus: { s1: { dir: relative(ROOT, s1.dir), ...s1.stats, generated_s: s1.generated_s }, s2: { dir: relative(ROOT, s2.dir), ...s2.stats, generated_s: s2.generated_s } },
  summary, targets, mismatches, cached, cold, runs,
}, null, 2) + '\n');
console.error(`wrote ${relative(ROOT, join(OUT, 'results.json'))}`);
process.exit(failed ? 1 : 0);
