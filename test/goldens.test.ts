/**
 * A golden per command and format (#17 §3, §4): the built bin (`node dist/bin.js`, as test/helpers.ts
 * runs it) on the bundled probe in every format each command offers, and on fixtures where they show
 * more. Each case is one readable markdown file, test/golden/<command>/<case>.md, holding every
 * invocation of the case with its exit code, stdout and stderr byte for byte, and any files it wrote.
 * Moving code must leave every one of them unchanged.
 *
 * After a change that alters output on purpose: `npm run build && npx vitest run -u test/goldens.test.ts`
 * rewrites them; read the diff before committing it.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { binPath, repo } from './helpers.js';

// Every case's temporary files live under one folder; messages that name it are rewritten to $TMP so
// a golden does not depend on where the machine keeps its temporary files.
const tmp = mkdtempSync(join(tmpdir(), 'omg-goldens-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// audit and extract count the home directory as set: one fixed HOME (the one home-paths/notes.md
// names, as in audit.test.ts) keeps the tester's own out of the goldens.
const HOME = '/srv/operator';

interface Step {
  args: string[];
  input?: string;
}

interface Case {
  /** Written to test/golden/<command>/<name>.md. */
  command: string;
  name: string;
  /** Fence language of stdout, for GitHub's highlighting. */
  lang?: string;
  steps: Step[];
  /** Prepare the case's own folder ($TMP/<command>-<name>) before the first step. */
  setup?: (dir: string) => void;
  /** Files written under the case's folder to show after the steps (paths relative to it). */
  files?: 'list' | 'contents';
  /** Show only the files under this subfolder of the case's folder. */
  filesUnder?: string;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

// usage reads $CLAUDE_CONFIG_DIR/projects when no folder is named: never the tester's.
const { CLAUDE_CONFIG_DIR: _, ...env0 } = process.env;
const env = { ...env0, NO_COLOR: '1', HOME };

function run(step: Step): Promise<Run> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [binPath, ...step.args],
      { cwd: repo, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        done({ code, stdout, stderr });
      },
    );
    child.stdin?.end(step.input ?? '');
  });
}

const tmpNames = [tmp, realpathSync(tmp)];
const normalise = (text: string) => tmpNames.reduce((t, name) => t.split(name).join('$TMP'), text);

/** A fence longer than any run of backticks in the text, so markdown shows the text as it is. */
function fenced(text: string, lang = ''): string {
  if (text === '') return '(empty)\n';
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  // A missing final newline is part of the output: say so, since the fence cannot show it.
  const body = text.endsWith('\n') ? text : `${text}\n`;
  const tail = text.endsWith('\n') ? '' : '(no newline at the end)\n';
  return `${fence}${lang}\n${body}${fence}\n${tail}`;
}

const shellWord = (a: string) => (/^[\w@%+=:,./$-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
}

async function golden(c: Case): Promise<string> {
  const dir = join(tmp, `${c.command}-${c.name}`);
  mkdirSync(dir, { recursive: true });
  c.setup?.(dir);
  let out = `# ${c.command}: ${c.name}\n`;
  for (const step of c.steps) {
    const args = step.args.map((a) => a.replace('$CASE', dir));
    const r = await run({ ...step, args });
    out += `\n## omg-evidence ${normalise(args.map(shellWord).join(' '))}\n\n`;
    if (step.input !== undefined) out += `stdin:\n\n${fenced(step.input, 'sql')}\n`;
    out += `exit ${r.code}\n\nstdout:\n\n${fenced(normalise(r.stdout), c.lang)}\nstderr:\n\n${fenced(normalise(r.stderr))}`;
  }
  if (c.files) {
    const shown = join(dir, c.filesUnder ?? '');
    out += `\n## files in ${normalise(shown)}\n`;
    for (const f of walk(shown)) {
      const name = relative(shown, f).split('\\').join('/');
      out += c.files === 'list' ? `\n- ${name}` : `\n### ${name}\n\n${fenced(normalise(readFileSync(f, 'utf8')))}`;
    }
    if (c.files === 'list') out += '\n';
  }
  return out;
}

const bundledDir = 'evidence/0017-staged-agent-restores-layer-1';
const fixture = (...p: string[]) => join('test', 'fixtures', ...p);
const langOf: Record<string, string> = { text: 'text', table: 'text', markdown: 'markdown', csv: 'csv', json: 'json', ndjson: 'json' };

/** The bundled probe (no path) in each format a command offers. */
function everyFormat(command: string, formats: string[], extra: string[] = []): Case[] {
  return formats.map((f) => ({ command, name: `bundled-${f}`, lang: langOf[f], steps: [{ args: [command, ...extra, '--format', f] }] }));
}

const ALL = ['text', 'table', 'markdown', 'csv', 'json', 'ndjson'];
const TABLES = ['table', 'markdown', 'csv', 'json', 'ndjson'];
const REPORTS = ['table', 'markdown', 'json'];
const COMMANDS = [
  'census',
  'skills',
  'agree',
  'extract',
  'arms',
  'verdict',
  'cost',
  'usage',
  'report',
  'sql',
  'schema',
  'load',
  'export',
  'audit',
  'render',
  'init',
];
// Rounded and ordered inside: a float sum or a list's order must not hang on how DuckDB splits the work.
const SPAWNS_BY_ARM =
  'select arm, count(*) as spawns, round(sum(cost_usd), 6) as usd, list(distinct exit_code order by exit_code) as exits, bool_and(exit_code = 0) as all_ok from spawns group by arm order by arm';

const cases: Case[] = [
  { command: 'omg-evidence', name: 'help', steps: [{ args: ['--help'] }] },
  ...COMMANDS.map((command) => ({ command, name: 'help', steps: [{ args: [command, '--help'] }] })),

  // census
  ...everyFormat('census', ALL),
  { command: 'census', name: 'bundled-default', lang: 'markdown', steps: [{ args: ['census'] }] },
  {
    command: 'census',
    name: 'bundled-from-transcripts',
    lang: 'markdown',
    steps: [{ args: ['census', '--from', 'transcripts', '-f', 'markdown'] }],
  },
  {
    command: 'census',
    name: 'two-probes',
    lang: 'text',
    steps: [{ args: ['census', bundledDir, fixture('probes', 'minimal'), '-f', 'text'] }],
  },
  ...['markdown', 'csv', 'json'].map((f) => ({
    command: 'census',
    name: `transcripts-only-${f}`,
    lang: langOf[f],
    steps: [{ args: ['census', '--transcripts', fixture('transcripts', 'census-two-sessions'), '-f', f] }],
  })),
  { command: 'census', name: 'not-a-probe', steps: [{ args: ['census', fixture('not-a-probe')] }] },

  // skills
  ...everyFormat('skills', TABLES),
  {
    command: 'skills',
    name: 'bundled-from-transcripts',
    lang: 'markdown',
    steps: [{ args: ['skills', '--from', 'transcripts', '-f', 'markdown'] }],
  },
  ...['markdown', 'json'].map((f) => ({
    command: 'skills',
    name: `transcripts-only-${f}`,
    lang: langOf[f],
    steps: [{ args: ['skills', '--transcripts', fixture('transcripts', 'census-differing-skills'), '-f', f] }],
  })),

  // agree
  ...everyFormat('agree', ALL),
  ...['text', 'json'].map((f) => ({
    command: 'agree',
    name: `disagree-${f}`,
    lang: langOf[f],
    steps: [{ args: ['agree', fixture('probes', 'disagree'), '-f', f] }],
  })),

  // extract: into a folder, every file it wrote; then again (all unchanged); and a home path refused.
  {
    command: 'extract',
    name: 'bundled',
    files: 'contents',
    steps: [
      { args: ['extract', '--transcripts', `${bundledDir}/transcripts`, '--results', `${bundledDir}/results.jsonl`, '--out', '$CASE'] },
      { args: ['extract', '--transcripts', `${bundledDir}/transcripts`, '--results', `${bundledDir}/results.jsonl`, '--out', '$CASE'] },
    ],
  },
  {
    command: 'extract',
    name: 'home-leak',
    steps: [
      {
        args: [
          'extract',
          '--transcripts',
          fixture('extract', 'home-leak', 'transcripts'),
          '--results',
          fixture('extract', 'home-leak', 'results.jsonl'),
          '--out',
          '$CASE',
        ],
      },
    ],
  },

  // arms
  ...everyFormat('arms', TABLES),
  { command: 'arms', name: 'git-order', lang: 'markdown', steps: [{ args: ['arms', fixture('probes', 'git-order'), '-f', 'markdown'] }] },

  // verdict: holds (exit 0), does not hold (exit 4), cannot be judged (exit 1)
  ...everyFormat('verdict', REPORTS),
  {
    command: 'verdict',
    name: 'git-order',
    lang: 'markdown',
    steps: [{ args: ['verdict', fixture('probes', 'git-order'), '-f', 'markdown'] }],
  },
  ...['markdown', 'json'].map((f) => ({
    command: 'verdict',
    name: `over-budget-${f}`,
    lang: langOf[f],
    // attack-shadow without its shadowing statement spends over its budget (as in verdict.test.ts).
    setup: (dir: string) => {
      const probe = join(dir, 'attack-shadow');
      cpSync(join(repo, fixture('probes', 'attack-shadow')), probe, { recursive: true });
      const check = join(probe, 'registration', 'conjuncts', '1-a-ran.sql');
      writeFileSync(check, readFileSync(check, 'utf8').replace(/^create temp table .*\n/m, ''));
    },
    steps: [{ args: ['verdict', '$CASE/attack-shadow', '-f', f] }],
  })),
  { command: 'verdict', name: 'no-registration', steps: [{ args: ['verdict', fixture('probes', 'minimal')] }] },

  // cost
  ...everyFormat('cost', REPORTS),
  { command: 'cost', name: 'no-budget', lang: 'markdown', steps: [{ args: ['cost', fixture('probes', 'minimal'), '-f', 'markdown'] }] },

  // usage: a folder of sessions in every format and report, around midnight in two zones; a
  // probe's transcripts, by spawn beside the envelopes; a model with no price; no sessions at all
  ...TABLES.map((f) => ({
    command: 'usage',
    name: `days-${f}`,
    lang: langOf[f],
    steps: [{ args: ['usage', '--transcripts', fixture('usage', 'days'), '--timezone', 'UTC', '--breakdown', '--format', f] }],
  })),
  ...['weekly', 'monthly', 'session', 'project', 'model'].map((report) => ({
    command: 'usage',
    name: `days-${report}`,
    lang: 'markdown',
    steps: [{ args: ['usage', report, '--transcripts', fixture('usage', 'days'), '--timezone', 'Asia/Tokyo', '-f', 'markdown'] }],
  })),
  {
    command: 'usage',
    name: 'days-since-until',
    lang: 'markdown',
    steps: [
      { args: ['usage', '--transcripts', fixture('usage', 'days'), '--timezone', 'Asia/Tokyo', '--since', '2026-03-02', '-f', 'markdown'] },
      {
        args: [
          'usage',
          '--transcripts',
          fixture('usage', 'days'),
          '--timezone',
          'America/Los_Angeles',
          '--until',
          '2026-03-01',
          '-f',
          'markdown',
        ],
      },
    ],
  },
  {
    command: 'usage',
    name: 'bundled-probe',
    lang: 'markdown',
    steps: [{ args: ['usage', 'session', bundledDir, '--timezone', 'UTC', '-f', 'markdown'] }],
  },
  ...TABLES.map((f) => ({
    command: 'usage',
    name: `by-spawn-${f}`,
    lang: langOf[f],
    steps: [{ args: ['usage', '--by', 'spawn', '--format', f] }],
  })),
  {
    command: 'usage',
    name: 'unpriced',
    lang: 'markdown',
    steps: [{ args: ['usage', 'model', '--transcripts', fixture('usage', 'unpriced'), '--timezone', 'UTC', '-f', 'markdown'] }],
  },
  { command: 'usage', name: 'no-sessions', steps: [{ args: ['usage'] }] },

  // report: where it refuses to write, and a page written over one it wrote (the page itself: test/report.test.ts)
  {
    command: 'report',
    name: 'errors',
    setup: (dir: string) => writeFileSync(join(dir, 'notes.html'), '<p>written by hand</p>\n'),
    steps: [
      { args: ['report', bundledDir, '--html', '$CASE'] },
      { args: ['report', bundledDir, '--html', '$CASE/missing/r.html'] },
      { args: ['report', bundledDir, '--html', '$CASE/notes.html'] },
      { args: ['report', bundledDir, '--html', '$CASE/notes.html/r.html'] },
      { args: ['report', '--html', '$CASE/sessions.html'] },
      { args: ['report', bundledDir, '--html', '$CASE/r.html'] },
      { args: ['report', bundledDir, '--html', '$CASE/r.html'] },
    ],
    files: 'list',
  },
  { command: 'agree', name: 'usage-text', lang: 'text', steps: [{ args: ['agree', '--usage', '-f', 'text'] }] },
  { command: 'agree', name: 'usage-markdown', lang: 'markdown', steps: [{ args: ['agree', '--usage', '-f', 'markdown'] }] },

  // sql: the query as an argument, from stdin, from a file; over transcripts; an error
  ...everyFormat('sql', TABLES, [SPAWNS_BY_ARM]),
  { command: 'sql', name: 'stdin', lang: 'csv', steps: [{ args: ['sql', '-', '-f', 'csv'], input: `${SPAWNS_BY_ARM};\n` }] },
  { command: 'sql', name: 'file', lang: 'markdown', steps: [{ args: ['sql', '-F', 'queries/budget.sql', '-f', 'markdown'] }] },
  {
    command: 'sql',
    name: 'transcripts-only',
    lang: 'csv',
    steps: [
      {
        args: [
          'sql',
          'select session_id, name, count(*) as n from transcript_tool_uses group by all order by all',
          '--transcripts',
          fixture('transcripts', 'census-two-sessions'),
          '-f',
          'csv',
        ],
      },
    ],
  },
  { command: 'sql', name: 'unknown-column', steps: [{ args: ['sql', 'select no_such_column from spawns'] }] },

  // schema
  ...everyFormat('schema', TABLES),

  // load: a database, loaded again (up to date), then read with --db; transcripts alone likewise
  {
    command: 'load',
    name: 'bundled',
    lang: 'csv',
    steps: [
      { args: ['load', '--db', '$CASE/evidence.duckdb'] },
      { args: ['load', '--db', '$CASE/evidence.duckdb'] },
      { args: ['census', '--db', '$CASE/evidence.duckdb', '-f', 'csv'] },
      { args: ['arms', '--db', '$CASE/evidence.duckdb', '-f', 'csv'] },
    ],
  },
  {
    command: 'load',
    name: 'transcripts-only',
    lang: 'csv',
    steps: [
      { args: ['load', '--transcripts', fixture('transcripts', 'census-two-sessions'), '--db', '$CASE/t.duckdb'] },
      { args: ['census', '--db', '$CASE/t.duckdb', '-f', 'csv'] },
    ],
  },

  // export: the files written (Parquet bytes are DuckDB's business, their names are ours); into a full folder
  {
    command: 'export',
    name: 'bundled',
    files: 'list',
    steps: [{ args: ['export', '--parquet', '$CASE'] }, { args: ['export', '--parquet', '$CASE'] }],
  },

  // audit: a clean probe in every format, then findings (exit 3)
  ...everyFormat('audit', ALL),
  ...['text', 'csv', 'json'].map((f) => ({
    command: 'audit',
    name: `home-paths-${f}`,
    lang: langOf[f],
    steps: [{ args: ['audit', fixture('audit', 'home-paths'), '-f', f] }],
  })),
  { command: 'audit', name: 'anthropic-key', lang: 'text', steps: [{ args: ['audit', fixture('audit', 'anthropic-key'), '-f', 'text'] }] },

  // render: current (exit 0), stale (exit 3 with a diff), written, and hand-edited (refused)
  { command: 'render', name: 'bundled-check', steps: [{ args: ['render', '--check', `${bundledDir}/adr-tables.md`] }] },
  { command: 'render', name: 'stale-check', steps: [{ args: ['render', '--check', fixture('docs', 'good.md')] }] },
  {
    command: 'render',
    name: 'write',
    files: 'contents',
    // The document names its probe relative to itself, so the copy sits where the original does.
    setup: (dir: string) => {
      cpSync(join(repo, fixture('docs', 'good.md')), join(dir, 'docs', 'good.md'));
      cpSync(join(repo, fixture('probes', 'minimal')), join(dir, 'probes', 'minimal'), { recursive: true });
    },
    filesUnder: 'docs',
    steps: [{ args: ['render', '--diff', '$CASE/docs/good.md'] }, { args: ['render', '--check', '$CASE/docs/good.md'] }],
  },
  { command: 'render', name: 'hand-edited', steps: [{ args: ['render', '--check', fixture('docs', 'hand-cell.md')] }] },
];

describe.concurrent('goldens: every command and format, byte for byte', () => {
  for (const c of cases) {
    // A case runs the bin up to four times, beside the other cases and the other test files.
    it(`${c.command}/${c.name}`, { timeout: 180_000 }, async ({ expect }) => {
      await expect(await golden(c)).toMatchFileSnapshot(join('golden', c.command, `${c.name}.md`));
    });
  }
});
