#!/usr/bin/env node
/**
 * bench/run.mjs — the transcript benchmark (`npm run bench`; see bench/README.md).
 *
 *   node bench/run.mjs [--rounds N] [--s2-rounds N] [--cold-runs N] [--corpora LIST] [--commands LIST]
 *
 * 1. Generates each corpus it needs with bench/gen.mjs under bench/out/ (gitignored), unless it is
 *    already there with a params.json that matches (same generator bytes, scale and variant):
 *    default (corpus-s1), no-timestamps, skill-heavy (scale 1) and s2 (the default at scale 2).
 * 2. Builds dist/ (`npm run build`) if the bin package.json names is missing.
 * 3. Round by round, under `/usr/bin/time -v`, every selected command on every selected corpus, in
 *    an order rotated each round; s2 only in the first --s2-rounds rounds. The CLI commands:
 *    census, skills and sql (a count per tool over transcript_tool_uses) with --transcripts DIR,
 *    and load --transcripts DIR --db FILE (a fresh file each run). The references: bench/duckdb-
 *    scan.mjs (DuckDB's typed scan, which every ratio divides by), bench/read-floor.mjs (reading
 *    only) and, when asked for, bench/census.py. Every output is checked against the corpus's
 *    ground truth (expected.tsv, expected-skills.ndjson, the line count); a database that load
 *    wrote is checked once per corpus with `census --db FILE`. A difference prints MISMATCH with
 *    sample rows and makes the exit status 1.
 * 4. Cold start: `node <package.json bin> census` on the bundled probe, median of --cold-runs.
 * 5. Prints markdown tables (medians of wall and CPU time, ratios to the scan, peak RSS, PASS/FAIL per target) and
 *    writes bench/out/results.json.
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
// Issue #16 §4: medians in one run, each command's ratio to the typed scan of the same corpus.
const TARGETS = { census: 0.75, skills: 1.0, sql: 1.0, load: 1.0, usage: 1.0, rssMB: 400, linearity: 2.2, coldS: 0.3 };

const CORPORA = {
  default: { dir: 'corpus-s1', scale: 1, flags: [], label: 'default' },
  'no-timestamps': { dir: 'corpus-s1-no-timestamps', scale: 1, flags: ['--no-timestamps'], label: 'no timestamps' },
  'skill-heavy': { dir: 'corpus-s1-skill-heavy', scale: 1, flags: ['--skill-heavy'], label: 'skill-heavy' },
  s2: { dir: 'corpus-s2', scale: 2, flags: [], label: 'default ×2 (s2)' },
};
const CLI_COMMANDS = ['census', 'skills', 'sql', 'load', 'usage', 'report'];
const COMMANDS = [...CLI_COMMANDS, 'scan', 'floor', 'python'];
const DEFAULT_COMMANDS = COMMANDS.filter((c) => c !== 'python');
const SQL_QUERY = 'select name, count(*) as n from transcript_tool_uses group by name order by name';

// ---------------------------------------------------------------- helpers
const USAGE =
  'usage: node bench/run.mjs [--rounds N] [--s2-rounds N] [--cold-runs N] [--corpora LIST] [--commands LIST]\n' +
  `  corpora:  ${Object.keys(CORPORA).join(',')} (default: all)\n  commands: ${COMMANDS.join(',')} (default: all but python)`;
function parseArgs(argv) {
  const a = { rounds: 5, s2Rounds: 3, coldRuns: 10, corpora: Object.keys(CORPORA), commands: DEFAULT_COMMANDS };
  const num = (i, min) => {
    const n = Number(argv[i]);
    if (!Number.isInteger(n) || n < min) usage(`${argv[i - 1]} needs an integer >= ${min}`);
    return n;
  };
  const list = (i, known) => {
    const xs = String(argv[i] ?? '')
      .split(',')
      .filter(Boolean);
    const bad = xs.filter((x) => !known.includes(x));
    if (!xs.length || bad.length) usage(`${argv[i - 1]}: unknown ${bad.join(', ') || '(empty list)'}; choose from ${known.join(',')}`);
    return known.filter((k) => xs.includes(k));
  };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--rounds') a.rounds = num(++i, 1);
    else if (argv[i] === '--s2-rounds') a.s2Rounds = num(++i, 0);
    else if (argv[i] === '--cold-runs') a.coldRuns = num(++i, 0);
    else if (argv[i] === '--corpora') a.corpora = list(++i, Object.keys(CORPORA));
    else if (argv[i] === '--commands') a.commands = list(++i, COMMANDS);
    else usage(`unknown argument ${argv[i]}`);
  }
  return a;
}
function usage(msg) {
  console.error(`run.mjs: ${msg}\n${USAGE}`);
  process.exit(2);
}
const median = (xs) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const sha256 = (buf) => createHash('sha256').update(buf).digest('hex');
const fmt = (x, d = 2) => (x == null ? 'n/a' : x.toFixed(d));
const tail = (s, n = 12) => s.trim().split('\n').slice(-n).join('\n');
const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

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
  const outFile = join(TMP, `${name}.out`),
    errFile = join(TMP, `${name}.err`),
    timeFile = join(TMP, `${name}.time`);
  const out = openSync(outFile, 'w'),
    err = openSync(errFile, 'w');
  const t0 = process.hrtime.bigint();
  spawnSync(TIME, ['-v', '-o', timeFile, cmd, ...args], { cwd: ROOT, stdio: ['ignore', out, err] });
  const hrWall = Number(process.hrtime.bigint() - t0) / 1e9;
  closeSync(out);
  closeSync(err);
  const t = readFileSync(timeFile, 'utf8');
  const elapsed = /Elapsed \(wall clock\) time[^:]*: ([\d:.]+)/.exec(t)?.[1];
  const wall = elapsed ? elapsed.split(':').reduce((acc, part) => acc * 60 + Number(part), 0) : hrWall;
  const rssKB = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(t)?.[1] ?? NaN);
  // CPU time (user + sys) beside wall time: on a shared machine it varies less.
  const cpu = ['User', 'System'].reduce((acc, k) => acc + Number(new RegExp(`${k} time \\(seconds\\): ([\\d.]+)`).exec(t)?.[1] ?? NaN), 0);
  const exit = Number(/Exit status: (\d+)/.exec(t)?.[1] ?? (/terminated by signal/.test(t) ? 128 : NaN));
  return { wall, cpu, rss_mb: rssKB / 1024, exit, hr_wall: hrWall, outFile, stderr: readFileSync(errFile, 'utf8') };
}

// ---------------------------------------------------------------- corpus and build
function ensureCorpus(key) {
  const spec = CORPORA[key];
  const dir = join(OUT, spec.dir);
  const genSha = sha256(readFileSync(join(ROOT, 'bench', 'gen.mjs')));
  const paramsFile = join(dir, 'params.json');
  const variant = { no_timestamps: spec.flags.includes('--no-timestamps'), skill_heavy: spec.flags.includes('--skill-heavy') };
  if (existsSync(paramsFile)) {
    const { params, stats } = JSON.parse(readFileSync(paramsFile, 'utf8'));
    if (
      params.generator_sha256 === genSha &&
      params.scale === spec.scale &&
      params.no_timestamps === variant.no_timestamps &&
      params.skill_heavy === variant.skill_heavy &&
      existsSync(join(dir, 'expected.tsv')) &&
      existsSync(join(dir, 'expected-skills.ndjson'))
    ) {
      console.error(`corpus ${relative(ROOT, dir)}: present, params match`);
      return { key, dir, stats, generated_s: null };
    }
    console.error(`corpus ${relative(ROOT, dir)}: params differ, regenerating`);
  }
  rmSync(dir, { recursive: true, force: true }); // only ever a corpus folder of bench/out/
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['bench/gen.mjs', '--out', dir, '--scale', String(spec.scale), ...spec.flags], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (r.status !== 0) {
    console.error(`run.mjs: bench/gen.mjs failed (exit ${r.status})`);
    process.exit(2);
  }
  const generated_s = Number(process.hrtime.bigint() - t0) / 1e9;
  return { key, dir, stats: JSON.parse(readFileSync(paramsFile, 'utf8')).stats, generated_s };
}

function ensureDist(binPath) {
  if (existsSync(join(ROOT, binPath))) return;
  console.error(`${binPath} is missing: npm run build`);
  const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('run.mjs: the build failed');
    process.exit(2);
  }
}

// ---------------------------------------------------------------- ground truth and output checks
/** JSON output of the CLI (an array, or one object per line) as an array of rows. */
function jsonRows(text) {
  let rows;
  try {
    rows = JSON.parse(text);
  } catch {
    rows = text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l));
  }
  return Array.isArray(rows) ? rows : [rows];
}

/** omg-evidence census --format json as the expected.tsv lines. */
function censusRows(text) {
  const lines = [];
  for (const r of jsonRows(text)) {
    const tools = Array.isArray(r.tools) ? r.tools.map((t) => [t.name, t.count]) : Object.entries(r.tools ?? {});
    for (const [name, n] of tools) if (Number(n) > 0) lines.push(`${r.session_id}\t${name}\t${n}`);
  }
  return lines.sort(cmp);
}
const tsvRows = (text) => text.split('\n').filter(Boolean);

/** Per tool, the calls of every session: what the sql command's query returns, from expected.tsv. */
function toolTotals(tsv) {
  const m = new Map();
  for (const l of tsvRows(tsv)) {
    const [, t, n] = l.split('\t');
    m.set(t, (m.get(t) ?? 0) + Number(n));
  }
  return [...m].sort((a, b) => cmp(a[0], b[0])).map(([t, n]) => `${t}\t${n}`);
}
const sqlRows = (text) => jsonRows(text).map((r) => `${r.name}\t${r.n}`);

/**
 * What `skills --format json` prints for a ground-truth row: no probe, and the definition from
 * the launched name ("Launching skill: ns:name") or the call's own, when the call did not fail.
 */
function skillsWant(ndjson) {
  return tsvRows(ndjson).map((l) => {
    const c = JSON.parse(l);
    const launched = (c.result == null ? null : /^Launching (?:skill|command): \/?(\S+)/.exec(c.result)?.[1]) || c.skill;
    const definition = c.is_error === false && launched?.includes(':') ? launched.split(':')[0] : null;
    return JSON.stringify({
      probe: null,
      arm: null,
      session_id: c.session_id,
      tool_use_id: c.tool_use_id,
      skill: c.skill,
      is_error: c.is_error,
      result: c.result,
      definition,
    });
  });
}
const skillsRows = (text) =>
  jsonRows(text).map((r) =>
    JSON.stringify({
      probe: r.probe ?? null,
      arm: r.arm ?? null,
      session_id: r.session_id,
      tool_use_id: r.tool_use_id,
      skill: r.skill,
      is_error: r.is_error,
      result: r.result,
      definition: r.definition ?? null,
    }),
  );

/**
 * null when the rows are equal, in order; else how many differ and up to 8 examples. `key` names a
 * row for the examples (a TSV row's first two fields; a skills row's tool_use_id).
 */
function compare(got, want, key) {
  if (got.length === want.length && got.every((x, i) => x === want[i])) return null;
  const g = new Map(got.map((x) => [key(x), x])),
    w = new Map(want.map((x) => [key(x), x]));
  const sample = [];
  let n = 0;
  const short = (x) => (x == null ? '(missing)' : x.length > 240 ? `${x.slice(0, 240)}…` : x);
  for (const [k, v] of w)
    if (g.get(k) !== v) {
      n++;
      if (sample.length < 8) sample.push(`expected ${short(v)}\n    got ${short(g.get(k))}`);
    }
  for (const [k, v] of g)
    if (!w.has(k)) {
      n++;
      if (sample.length < 8) sample.push(`expected (none)\n    got ${short(v)}`);
    }
  if (g.size !== got.length) {
    n++;
    sample.push(`${got.length - g.size} rows repeat another row's key`);
  }
  if (n === 0) return { rows: 0, sample: ['same rows, in another order'] };
  return { rows: n, sample };
}
const tsvKey = (x) => x.split('\t').slice(0, -1).join('\t');
const skillKey = (x) => JSON.parse(x).tool_use_id;

// ---------------------------------------------------------------- main
const args = parseArgs(process.argv.slice(2));
if (!existsSync(TIME)) {
  console.error(
    `run.mjs: ${TIME} is missing; it gives the wall time and peak RSS of each run.\n` +
      'Install GNU time, e.g. `apt-get install time` (Debian/Ubuntu) or `dnf install time`, and run again.',
  );
  process.exit(2);
}
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const binPath = typeof pkg.bin === 'string' ? pkg.bin : (pkg.bin?.[pkg.name] ?? Object.values(pkg.bin ?? {})[0]);
const startedAt = new Date().toISOString();
const corpora = Object.fromEntries(args.corpora.map((k) => [k, ensureCorpus(k)]));
ensureDist(binPath);
const distBefore = distSha();
for (const c of Object.values(corpora)) {
  c.expected = readFileSync(join(c.dir, 'expected.tsv'), 'utf8');
  c.expectedSkills = readFileSync(join(c.dir, 'expected-skills.ndjson'), 'utf8');
}

// Warm the page cache so that round 1 is not the only one reading from disk.
for (const c of Object.values(corpora)) for (const f of walk(c.dir)) readFileSync(f);

/** The command line of `command` on corpus `c`, and how its output is checked. */
function job(command, c) {
  const node = process.execPath,
    bin = [binPath];
  const tsv = { rows: censusRows, want: () => tsvRows(c.expected), key: tsvKey, truth: 'expected.tsv' };
  switch (command) {
    case 'census':
      return { cmd: node, args: [...bin, 'census', '--transcripts', c.dir, '--format', 'json'], check: tsv };
    case 'skills':
      return {
        cmd: node,
        args: [...bin, 'skills', '--transcripts', c.dir, '--format', 'json'],
        check: { rows: skillsRows, want: () => skillsWant(c.expectedSkills), key: skillKey, truth: 'expected-skills.ndjson' },
      };
    case 'sql':
      return {
        cmd: node,
        args: [...bin, 'sql', '--transcripts', c.dir, SQL_QUERY, '--format', 'json'],
        check: { rows: sqlRows, want: () => toolTotals(c.expected), key: tsvKey, truth: 'the per-tool totals of expected.tsv' },
      };
    // Issue #19: the daily report (totals row included); the corpus has no ground truth of usage.
    case 'usage':
      return { cmd: node, args: [...bin, 'usage', '--transcripts', c.dir, '--timezone', 'UTC', '--format', 'json'] };
    // Issue #20: the HTML page of the sessions (no probe); checked by being written, as report writes only a whole page.
    case 'report': {
      const html = join(TMP, `report-${c.key}.html`);
      return {
        cmd: node,
        args: [...bin, 'report', '--transcripts', c.dir, '--html', html],
        before: () => rmSync(html, { force: true }),
        written: html,
      };
    }
    case 'load': {
      const db = join(TMP, `load-${c.key}.duckdb`);
      return {
        cmd: node,
        args: [...bin, 'load', '--transcripts', c.dir, '--db', db],
        db,
        before: () => {
          rmSync(db, { force: true });
          rmSync(`${db}.wal`, { force: true });
        },
      };
    }
    case 'scan':
      return { cmd: node, args: ['bench/duckdb-scan.mjs', c.dir], check: { ...tsv, rows: tsvRows } };
    case 'python':
      return { cmd: 'python3', args: ['bench/census.py', c.dir], check: { ...tsv, rows: tsvRows } };
    // Not a census: DuckDB reading the lines and nothing else (its output is the line count).
    case 'floor':
      return {
        cmd: node,
        args: ['bench/read-floor.mjs', c.dir],
        check: { rows: (x) => [x.trim()], want: () => [String(c.stats.lines)], key: () => 'lines', truth: 'the line count' },
      };
  }
  throw new Error(command);
}
const LABELS = {
  census: 'census --transcripts',
  skills: 'skills --transcripts',
  sql: 'sql --transcripts (count per tool)',
  load: 'load --transcripts --db',
  usage: 'usage --transcripts (daily)',
  report: 'report --transcripts --html',
  scan: 'DuckDB typed scan (reference)',
  floor: 'DuckDB read only (no census)',
  python: 'python3 json.loads census',
};

const runs = [];
const mismatches = [];
const loadChecks = {};
let failed = false;

function record(mismatch) {
  failed = true;
  if (mismatches.some((x) => x.job === mismatch.job)) return;
  mismatches.push(mismatch);
  console.error(
    `MISMATCH: ${mismatch.job} differs from ${mismatch.truth} in ${mismatch.rows ?? '?'} rows, e.g.\n  ${mismatch.sample.join('\n  ')}`,
  );
}

/** The database that load wrote, checked once per corpus: census --db FILE against expected.tsv. */
function checkLoad(c, db) {
  const m = measure(`census-db-${c.key}`, process.execPath, [binPath, 'census', '--transcripts', c.dir, '--db', db, '--format', 'json']);
  loadChecks[c.key] = { wall_s: m.wall, rss_mb: m.rss_mb, exit: m.exit, db_bytes: existsSync(db) ? statSync(db).size : null, output: 'ok' };
  if (m.exit !== 0) {
    failed = true;
    loadChecks[c.key].output = 'error';
    console.error(`ERROR: census --db after load, ${c.key}, exited ${m.exit}\n${tail(m.stderr)}`);
    return 'error';
  }
  let diff;
  try {
    diff = compare(censusRows(readFileSync(m.outFile, 'utf8')), tsvRows(c.expected), tsvKey);
  } catch (e) {
    diff = { rows: null, sample: [`output not parseable: ${e.message}`] };
  }
  if (diff) {
    loadChecks[c.key].output = 'MISMATCH';
    record({ job: `load ${c.key}`, label: `census --db after load, ${c.key}`, truth: 'expected.tsv', ...diff });
    return 'MISMATCH';
  }
  console.error(`  checked ${c.key} load: census --db ${fmt(m.wall)} s, ok`);
  return 'ok';
}

function runJob(command, c, round) {
  const j = job(command, c);
  const name = `${command}-${c.key}`;
  j.before?.();
  const load1 = loadavg()[0]; // other work on the machine shows up here (and our own previous run)
  const m = measure(name, j.cmd, j.args);
  const run = {
    command,
    corpus: c.key,
    round,
    wall_s: m.wall,
    cpu_s: m.cpu,
    rss_mb: m.rss_mb,
    exit: m.exit,
    hr_wall_s: m.hr_wall,
    loadavg_1m_before: load1,
    output: 'ok',
  };
  if (m.exit !== 0) {
    failed = true;
    run.output = 'error';
    console.error(`ERROR: ${command} on ${c.key} exited ${m.exit}\n${tail(m.stderr)}`);
  } else if (j.check) {
    let diff;
    try {
      diff = compare(j.check.rows(readFileSync(m.outFile, 'utf8')), j.check.want(), j.check.key);
    } catch (e) {
      diff = { rows: null, sample: [`output not parseable: ${e.message}`] };
    }
    if (diff) {
      run.output = 'MISMATCH';
      record({ job: name, label: `${LABELS[command]}, ${c.key}`, truth: j.check.truth, ...diff });
    }
  } else if (j.written) {
    // A page is written whole or not at all: its seal at the end says it was finished.
    if (!existsSync(j.written) || !readFileSync(j.written, 'utf8').slice(-120).includes('<!-- omg-evidence:report sha256=')) {
      failed = true;
      run.output = 'error';
      console.error(`ERROR: ${command} on ${c.key} wrote no whole page at ${j.written}`);
    }
  } else if (command === 'load' && !loadChecks[c.key]) {
    run.output = checkLoad(c, j.db);
  }
  runs.push(run);
  console.error(
    `  round ${round} ${name.padEnd(22)} ${fmt(m.wall).padStart(6)} s  ${fmt(m.rss_mb, 0).padStart(5)} MB  ${run.output}  (load ${fmt(load1)})`,
  );
}

const keys = Object.keys(corpora);
console.error(
  `timing: ${args.rounds} rounds of ${args.commands.join(', ')} on ${keys.join(', ')}` +
    (corpora.s2 ? ` (s2 in the first ${Math.min(args.s2Rounds, args.rounds)})` : '') +
    ', order rotated each round',
);
for (let r = 0; r < args.rounds; r++) {
  const jobs = [];
  for (const k of keys) {
    if (k === 's2' && r >= args.s2Rounds) continue;
    for (const command of args.commands)
      if (!(k === 's2' && (command === 'floor' || command === 'python'))) jobs.push([command, corpora[k]]);
  }
  const at = jobs.length ? r % jobs.length : 0;
  for (const [command, c] of [...jobs.slice(at), ...jobs.slice(0, at)]) runJob(command, c, r + 1);
}

// Cold start on the bundled probe: the package's bin, with node directly (not npx).
const cold = [];
if (args.coldRuns > 0) {
  console.error(`cold start: node ${binPath} census, 1 warm-up + ${args.coldRuns} runs`);
  measure('cold', process.execPath, [binPath, 'census']);
  for (let i = 0; i < args.coldRuns; i++) {
    const m = measure('cold', process.execPath, [binPath, 'census']);
    if (m.exit !== 0) {
      failed = true;
      console.error(`ERROR: cold census exited ${m.exit}\n${tail(m.stderr)}`);
    }
    cold.push({ wall_s: m.wall, hr_wall_s: m.hr_wall, rss_mb: m.rss_mb, exit: m.exit });
  }
}
const distAfter = distSha();
if (distAfter !== distBefore)
  console.error('WARNING: dist/ changed during the run (rebuilt by someone else?); the numbers may mix two builds');

// ---------------------------------------------------------------- summary
function stat(command, corpus) {
  const all = runs.filter((r) => r.command === command && r.corpus === corpus);
  if (!all.length) return null;
  const rs = all.filter((r) => r.exit === 0),
    walls = rs.map((r) => r.wall_s);
  return {
    command,
    corpus,
    runs: all.length,
    median_s: median(walls),
    min_s: rs.length ? Math.min(...walls) : null,
    max_s: rs.length ? Math.max(...walls) : null,
    median_cpu_s: median(rs.map((r) => r.cpu_s)),
    peak_rss_mb: rs.length ? Math.max(...rs.map((r) => r.rss_mb)) : null,
    output: all.every((r) => r.output === 'ok') ? 'ok' : 'MISMATCH/ERROR',
  };
}
const ratio = (a, b) => (a != null && b ? a / b : null);
const summary = [];
for (const k of keys)
  for (const command of COMMANDS) {
    const s = stat(command, k);
    if (!s) continue;
    s.over_scan = command === 'scan' ? null : ratio(s.median_s, stat('scan', k)?.median_s);
    summary.push(s);
  }
const find = (command, corpus) => summary.find((s) => s.command === command && s.corpus === corpus);
const coldOk = cold.filter((c) => c.exit === 0);
const coldSummary = cold.length
  ? {
      runs: cold.length,
      median_s: median(coldOk.map((c) => c.wall_s)),
      median_hr_s: median(coldOk.map((c) => c.hr_wall_s)),
      min_s: coldOk.length ? Math.min(...coldOk.map((c) => c.wall_s)) : null,
      max_s: coldOk.length ? Math.max(...coldOk.map((c) => c.wall_s)) : null,
      peak_rss_mb: coldOk.length ? Math.max(...coldOk.map((c) => c.rss_mb)) : null,
      output: coldOk.length === cold.length ? 'ok' : 'ERROR',
    }
  : null;

const targets = [];
const judge = (value, limit) => (value == null ? 'n/a' : value <= limit ? 'PASS' : 'FAIL');
for (const k of keys)
  for (const command of CLI_COMMANDS) {
    const s = find(command, k);
    if (!s) continue;
    // report has no target of its own over the scan (#20 asks for its figures only).
    if (TARGETS[command] !== undefined)
      targets.push({ target: `${command} ÷ scan, ${k}`, value: s.over_scan, limit: TARGETS[command], unit: '×' });
    targets.push({ target: `peak RSS, ${command}, ${k}`, value: s.peak_rss_mb, limit: TARGETS.rssMB, unit: 'MB' });
  }
if (corpora.s2 && corpora.default)
  for (const command of [...CLI_COMMANDS, 'scan']) {
    const a = find(command, 'default'),
      b = find(command, 's2');
    if (a && b)
      targets.push({ target: `${command}, s2 ÷ default`, value: ratio(b.median_s, a.median_s), limit: TARGETS.linearity, unit: '×' });
  }
if (coldSummary)
  targets.push({ target: `cold start, node ${binPath} census`, value: coldSummary.median_s, limit: TARGETS.coldS, unit: 's' });
for (const t of targets) t.result = judge(t.value, t.limit);

const mb = (b) => (b / 1e6).toFixed(1);
const unit = (x, u) => (x == null ? 'n/a' : u === 'MB' ? `${fmt(x, 0)} MB` : u === 's' ? `${fmt(x)} s` : `${fmt(x)}×`);
const out = [];
out.push(
  '## Corpora',
  '',
  '| corpus | bytes | MB | files | sessions | lines | tool_uses | (session, tool) rows | skill calls (errors, unanswered) | sessions with a skill call |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
);
for (const [k, c] of Object.entries(corpora)) {
  const s = c.stats;
  out.push(
    `| ${k} | ${s.bytes.toLocaleString('en-US')} | ${mb(s.bytes)} | ${s.files} | ${s.sessions} | ${s.lines.toLocaleString('en-US')} | ${s.tool_uses.toLocaleString('en-US')} | ` +
      `${s.groups} | ${s.skill_calls.toLocaleString('en-US')} (${s.skill_errors}, ${s.skill_unanswered}) | ${s.sessions_with_skill} |`,
  );
}
if (corpora.s2 && corpora.default)
  out.push('', `s2 ÷ default bytes: ${(corpora.s2.stats.bytes / corpora.default.stats.bytes).toFixed(3)}×`);
out.push(
  '',
  '## Timings',
  '',
  '| command | corpus | runs | median wall (s) | min–max (s) | median CPU (s) | ÷ scan | peak RSS (MB) | output |',
  '|---|---|---:|---:|---:|---:|---:|---:|---|',
);
for (const s of summary) {
  out.push(
    `| ${LABELS[s.command]} | ${s.corpus} | ${s.runs} | ${fmt(s.median_s)} | ${fmt(s.min_s)}–${fmt(s.max_s)} | ${fmt(s.median_cpu_s)} | ${s.over_scan == null ? '' : `${fmt(s.over_scan)}×`} | ${fmt(s.peak_rss_mb, 0)} | ${s.output} |`,
  );
}
if (coldSummary)
  out.push(
    `| cold start: node ${binPath} census (bundled probe) | | ${coldSummary.runs} | ${fmt(coldSummary.median_s)} | ${fmt(coldSummary.min_s)}–${fmt(coldSummary.max_s)} | | | ${fmt(coldSummary.peak_rss_mb, 0)} | ${coldSummary.output} |`,
  );
for (const [k, l] of Object.entries(loadChecks)) {
  out.push(
    '',
    `load, ${k}: database ${l.db_bytes == null ? 'n/a' : `${mb(l.db_bytes)} MB`}; \`census --db\` on it (one run, checked against expected.tsv): ${fmt(l.wall_s)} s, ${fmt(l.rss_mb, 0)} MB, ${l.output}`,
  );
}
const loads = runs.map((r) => r.loadavg_1m_before);
if (loads.length)
  out.push(
    '',
    `1-minute load average before each run: median ${fmt(median(loads))}, max ${fmt(Math.max(...loads))} (${cpus().length} CPUs)`,
  );
out.push('', '## Targets (#16 §4)', '', '| target | value | limit | result |', '|---|---:|---:|---|');
for (const t of targets) out.push(`| ${t.target} | ${unit(t.value, t.unit)} | ≤ ${unit(t.limit, t.unit)} | ${t.result} |`);
if (mismatches.length) {
  out.push('', '## MISMATCH', '');
  for (const m of mismatches) out.push(`**${m.label}**: ${m.rows ?? '?'} rows differ from ${m.truth}, e.g.`, '```', ...m.sample, '```');
}
if (distAfter !== distBefore) out.push('', '**WARNING**: dist/ changed during the run; the numbers may mix two builds.');
console.log(out.join('\n'));

const pyVersion = spawnSync('python3', ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? null;
const duckdbVersion = JSON.parse(readFileSync(join(ROOT, 'node_modules', '@duckdb', 'node-api', 'package.json'), 'utf8')).version;
writeFileSync(
  join(OUT, 'results.json'),
  `${JSON.stringify(
    {
      started_at: startedAt,
      finished_at: new Date().toISOString(),
      machine: {
        node: process.version,
        python: pyVersion,
        duckdb_node_api: duckdbVersion,
        cpus: cpus().length,
        cpu: cpus()[0]?.model,
        kernel: release(),
      },
      dist_sha: { before: distBefore, after: distAfter },
      options: args,
      bin: binPath,
      sql_query: SQL_QUERY,
      corpora: Object.fromEntries(
        Object.entries(corpora).map(([k, c]) => [k, { dir: relative(ROOT, c.dir), ...c.stats, generated_s: c.generated_s }]),
      ),
      summary,
      cold: coldSummary,
      cold_runs: cold,
      load_checks: loadChecks,
      targets,
      mismatches,
      runs,
    },
    null,
    2,
  )}\n`,
);
console.error(`wrote ${relative(ROOT, join(OUT, 'results.json'))}`);
process.exit(failed ? 1 : 0);
