/**
 * render and render --check: regions regenerated in place, bytes outside untouched, hand edits
 * refused, stale regions reported with a diff (exit 3), and each bad document an error naming the
 * document and line (exit 1) that leaves it untouched. The guard is exact: each way of editing a
 * region by hand has a fixture (hand-*.md), markers in fenced code have one per kind of fence
 * (fence-*.md; fence-in-html.md and html-around-region.md for HTML blocks; test/markdown.test.ts holds
 * them all to GitHub's parser), and two fast-check properties (seed printed; FC_SEED replays it) try random edits
 * and random fences. Writing keeps symlinks, modes and CRLF, and refuses a file changed meanwhile.
 * Also: the generated pages of docs/ and the bundled probe's adr-tables.md are current.
 */
import {
  chmodSync,
  cpSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bodyState } from '../src/regions/provenance.js';
import { replaceDocument } from '../src/regions/write-document.js';
import { bin, cli, repo } from './helpers.js';

const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

/** A copy of test/fixtures/docs and test/fixtures/probes in a temporary folder; returns the copy of `doc`. */
function scratch(doc: string): { dir: string; doc: string } {
  const dir = mkdtempSync(join(tmpdir(), 'omg-render-'));
  temps.push(dir);
  cpSync(join(repo, 'test', 'fixtures', 'docs'), join(dir, 'docs'), { recursive: true });
  cpSync(join(repo, 'test', 'fixtures', 'probes'), join(dir, 'probes'), { recursive: true });
  return { dir, doc: join(dir, 'docs', doc) };
}

const outside = (text: string) => text.replace(/<!-- omg-evidence:begin[^\n]*-->\n[\s\S]*?<!-- omg-evidence:end -->/g, '<REGION>');

describe('render', () => {
  it('fills every region and leaves every byte outside the markers as it was', async () => {
    const { doc } = scratch('good.md');
    const before = readFileSync(doc, 'utf8');
    const run = await cli(['render', doc]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/: 2 of 2 region\(s\) rewritten\n$/);
    const after = readFileSync(doc, 'utf8');
    expect(outside(after)).toBe(outside(before));
    expect(after.endsWith('Text after, no final newline.')).toBe(true);
    expect(after).toContain('```\n<!-- omg-evidence:begin census probe=nowhere -->\n```');
    expect(after).toMatch(
      /<!-- omg-evidence:begin census probe=\.\.\/probes\/minimal format=text -->\n```\nA-ONE {7}aaaaaaaa {2}\{'Skill': 1, 'Write': 2\} {2}BREACH {2}- {17}ns:thing\nA-TWO {7}bbbbbbbb {2}\{\} {24}- {7}M@HOME\n```\n<!-- omg-evidence:provenance omg-evidence@0\.1\.0 probe=minimal inputs=[0-9a-f]{12} query=[0-9a-f]{12} content=[0-9a-f]{12} -->\n<!-- omg-evidence:end -->/,
    );
    // A query by its file name renders as a markdown table of its columns.
    expect(after).toContain(
      '| probe | spent_usd | spawns | unpriced | bound_usd | bound_spawns | share_usd | share_spawns | within |\n|:---|---:|---:|---:|---:|---:|---:|---:|:---|\n| minimal | 0.02 | 2 | 0 |  |  |  |  |  |',
    );
    expect(readdirSync(join(doc, '..')).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('is deterministic: a second render changes nothing, and --check passes', async () => {
    const { doc } = scratch('good.md');
    await cli(['render', doc]);
    const once = readFileSync(doc, 'utf8');
    expect((await cli(['render', doc])).stderr).toMatch(/: 0 of 2 region\(s\) rewritten\n$/);
    expect(readFileSync(doc, 'utf8')).toBe(once);
    expect(await cli(['render', '--check', doc])).toEqual({
      code: 0,
      stdout: '',
      stderr: 'omg-evidence: render --check: every region is current\n',
    });
  });

  it('--check reports a stale region with a unified diff naming the document and line, exit 3, and writes nothing', async () => {
    const { dir, doc } = scratch('good.md');
    await cli(['render', doc]);
    // The evidence changes: a Write record is removed from the first spawn.
    const tool = join(dir, 'probes', 'minimal', 'tool_use', 'aaaaaaaa-0000-4000-8000-000000000001.jsonl');
    writeFileSync(tool, readFileSync(tool, 'utf8').split('\n').slice(1).join('\n'));
    const rendered = readFileSync(doc, 'utf8');
    const run = await cli(['render', '--check', doc]);
    expect(run.code).toBe(3);
    // Paths outside the working directory are shown whole.
    const name = doc;
    expect(run.stdout).toContain(`--- ${name}:10 census (in the document)\n+++ ${name}:10 census (from the evidence)\n@@ -11,5 +11,5 @@\n`);
    expect(run.stdout).toContain(
      "\n-A-ONE       aaaaaaaa  {'Skill': 1, 'Write': 2}  BREACH  -                 ns:thing\n+A-ONE       aaaaaaaa  {'Skill': 1, 'Write': 1}  BREACH  -                 ns:thing\n",
    );
    // The budget table reads the same, but its provenance records other inputs: it is stale too.
    expect(run.stdout).toMatch(
      /\n--- .*good\.md:20 budget \(in the document\)\n[\s\S]*\n-<!-- omg-evidence:provenance .* inputs=[0-9a-f]{12} .*\n\+<!-- omg-evidence:provenance /,
    );
    expect(run.stderr).toBe(
      `omg-evidence: 2 region(s) stale: ${name}:10 (census), ${name}:20 (budget) (run omg-evidence render on the document(s) to regenerate them)\n`,
    );
    expect(readFileSync(doc, 'utf8')).toBe(rendered);
    // --diff prints the same while rendering.
    const diff = await cli(['render', '--diff', doc]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toBe(run.stdout);
  });

  it('--check names a document whose relative path starts with - as ./-…, a path the reader can give back', async () => {
    const { dir, doc } = scratch('good.md');
    await cli(['render', doc]);
    const tool = join(dir, 'probes', 'minimal', 'tool_use', 'aaaaaaaa-0000-4000-8000-000000000001.jsonl');
    writeFileSync(tool, readFileSync(tool, 'utf8').split('\n').slice(1).join('\n'));
    renameSync(doc, join(dir, 'docs', '-adr.md'));
    const run = bin(['render', '--check', '--', '-adr.md'], { cwd: join(dir, 'docs') });
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('--- ./-adr.md:10 census (in the document)\n+++ ./-adr.md:10 census (from the evidence)\n');
    expect(run.stderr).toBe(
      'omg-evidence: 2 region(s) stale: ./-adr.md:10 (census), ./-adr.md:20 (budget) (run omg-evidence render on the document(s) to regenerate them)\n',
    );
  });

  it("--check and --diff show a region's escapes and its document's path as pictures, never sending them to the terminal", async () => {
    const { dir } = scratch('escape-in-region.md');
    // A document named with an escape too: the diff's labels name it.
    const doc = join(dir, 'docs', 'e\x1b[2J.md');
    renameSync(join(dir, 'docs', 'escape-in-region.md'), doc);
    const shown = join(dir, 'docs', 'e␛[2J.md');
    const diff = [
      `--- ${shown}:5 census (in the document)`,
      `+++ ${shown}:5 census (from the evidence)`,
      '@@ -6,3 +6,5 @@',
      ' ```',
      '-| ␛]52;c;aGk=␇␛[2J␛]0;pwned␇ evil |',
      "+A-ONE       aaaaaaaa  {'Skill': 1, 'Write': 2}  BREACH  -                 ns:thing",
      '+A-TWO       bbbbbbbb  {}                        -       M@HOME',
      ' ```',
    ].join('\n');
    const check = await cli(['render', '--check', doc]);
    expect(check.code).toBe(3);
    expect(check.stdout).toMatch(/^[^\x1b\x07]*$/);
    expect(check.stdout.startsWith(`${diff}\n+<!-- omg-evidence:provenance `)).toBe(true);
    const forced = await cli(['render', '--diff', '--force', doc]);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toBe(check.stdout);
  });

  it('refuses to overwrite a region edited by hand (exit 1) unless --force; --check calls it edited by hand', async () => {
    const { doc } = scratch('good.md');
    await cli(['render', doc]);
    const edited = readFileSync(doc, 'utf8').replace('A-TWO       bbbbbbbb', 'A-TWO       BBBBBBBB');
    writeFileSync(doc, edited);
    const name = doc;
    const refused = await cli(['render', doc]);
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${name}:10: the census region was edited by hand since it was rendered (move the edit outside the markers, or pass --force to overwrite it)\n`,
    });
    expect(readFileSync(doc, 'utf8')).toBe(edited);
    const check = await cli(['render', '--check', doc]);
    expect(check.code).toBe(3);
    expect(check.stderr).toBe(
      `omg-evidence: 1 region(s) edited by hand: ${name}:10 (census) (move each edit outside the markers, or render --force to overwrite it)\n`,
    );
    expect((await cli(['render', '--force', doc])).code).toBe(0);
    expect(readFileSync(doc, 'utf8')).not.toContain('BBBBBBBB');
  });

  // A region whose query reads the probe's transcripts had the records-only inputs= hash: a transcript changed, it did not.
  it("a region whose query reads transcript views hashes the probe's transcripts into inputs=; one that reads records only does not", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-render-'));
    temps.push(dir);
    cpSync(join(repo, 'evidence', '0017-staged-agent-restores-layer-1'), join(dir, 'probe'), { recursive: true });
    const doc = join(dir, 'doc.md');
    const names = [
      'top_sessions by=cost',
      'top_skills',
      'usage period=daily timezone=UTC since="" until="" breakdown=false',
      'census',
      'spawn_times',
    ];
    writeFileSync(doc, names.map((n) => `<!-- omg-evidence:begin ${n} probe=probe -->\n<!-- omg-evidence:end -->\n`).join('\n'));
    expect((await cli(['render', doc])).code).toBe(0);
    const hashes = [...readFileSync(doc, 'utf8').matchAll(/ inputs=([0-9a-f]{12}) /g)].map((m) => m[1]);
    expect(hashes).toHaveLength(5);
    // The census reads the transcripts too (its forgeable column); spawn_times reads records only.
    expect(new Set(hashes.slice(0, 4)).size).toBe(1);
    expect(hashes[4]).not.toBe(hashes[0]);
  });

  // render passes tolerance=0.01 as a string, and usage_spawns added it to a number: a raw DuckDB Binder Error.
  it('renders a usage_spawns region whose tolerance=0.01 is written in the marker', async () => {
    const { dir } = scratch('good.md');
    const doc = join(dir, 'docs', 'tolerance.md');
    writeFileSync(doc, '<!-- omg-evidence:begin usage_spawns probe=../probes/minimal tolerance=0.01 -->\n<!-- omg-evidence:end -->\n');
    expect(await cli(['render', doc])).toEqual({
      code: 0,
      stdout: '',
      stderr: `omg-evidence: render: ${doc}: 1 of 1 region(s) rewritten\n`,
    });
    expect(readFileSync(doc, 'utf8')).toContain('| minimal | 2 | A-TWO | bbbbbbbb-0000-4000-8000-000000000002 |');
  });

  // A document whose markers were all lost had passed --check, "every region is current", and stayed green in CI.
  it('render --check exits 3 naming each document that holds no region; render warns of it and writes nothing', async () => {
    const { dir, doc } = scratch('good.md');
    const none = join(dir, 'docs', 'none.md');
    writeFileSync(none, '# Lost\n\nThe markers were here.\n');
    expect((await cli(['render', doc])).code).toBe(0);
    expect(await cli(['render', '--check', doc, none])).toEqual({
      code: 3,
      stdout: '',
      stderr: `omg-evidence: 1 document(s) with no region: ${none} (restore the markers of each, or leave it out of the check)\n`,
    });
    expect(await cli(['render', doc, none])).toEqual({
      code: 0,
      stdout: '',
      stderr: `omg-evidence: warning: ${none}: holds no region, so render has nothing to write in it\nomg-evidence: render: ${doc}: 0 of 2 region(s) rewritten\nomg-evidence: render: ${none}: 0 of 0 region(s) rewritten\n`,
    });
    expect(readFileSync(none, 'utf8')).toBe('# Lost\n\nThe markers were here.\n');
  });

  // Each lazy line under deeply nested list items looked for its item among all of them: 60,000 items took 12 s.
  it('reads a document of 60,000 nested list items, each continued lazily, in linear time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-render-'));
    temps.push(dir);
    const doc = join(dir, 'deep.md');
    const N = 60_000;
    writeFileSync(doc, `${'1. '.repeat(N)}x\n${'   x\n'.repeat(N)}\n<!-- omg-evidence:begin queries -->\n<!-- omg-evidence:end -->\n`);
    expect(await cli(['render', doc])).toEqual({
      code: 0,
      stdout: '',
      stderr: `omg-evidence: render: ${doc}: 1 of 1 region(s) rewritten\n`,
    });
    // Linear, it takes a second or two on a busy machine; quadratic, over ten on a quiet one.
  }, 10_000);

  const bad: [string, string][] = [
    ['unbalanced-begin.md', '3: a region begun here is never ended (add <!-- omg-evidence:end --> after it)'],
    ['unbalanced-end.md', '4: an end marker with no region begun (remove it, or add the <!-- omg-evidence:begin … --> it closes)'],
    [
      'nested.md',
      '2: nested marker: a region begins inside the region begun on line 1 (close each region with <!-- omg-evidence:end --> before the next begins)',
    ],
    [
      'unknown-table.md',
      '3: unknown table or query "cenus" (name one of census, skills, arms, verdict, cost, commands, queries, schema, or a query: ',
    ],
    ['missing-probe.md', '2: probe "'],
    ['unknown-option.md', '2: unknown option "colour" for census (the options of census are probe, format, from)'],
    // An unclosed quote had been part of the value: probe="../p named a folder `"../p` that does not exist.
    ['unclosed-quote.md', '2: the value of probe= opens a quote it does not close (close it: probe="…")'],
    // Closed by the next option's quote instead, the rest of that option had been "cannot read the marker's options at "text"".
    ['unclosed-quote-before.md', '2: the value of probe= opens a quote it does not close before format= (close it: probe="…")'],
    // A query's parameter left out had been a usage error (exit 2) naming the query file, not the document.
    ['missing-parameter.md', '2: usage_spawns needs the option(s) tolerance (give each as name=value, e.g. tolerance=…)'],
    // A value its query refuses had been an error naming only the query file.
    [
      'bad-parameter.md',
      '2: queries/usage.sql: Invalid Input Error: period must be daily, weekly, monthly, session, project or model; got day',
    ],
    // In another case, it is no marker to render, and no line to leave silently unrendered.
    [
      'marker-upper-case.md',
      '5: a line that looks like a marker but is not one (write <!-- omg-evidence:begin NAME … --> or <!-- omg-evidence:end --> at the start of the line)',
    ],
    // After what a reader cannot see, or with typographic dashes, the markers had been text, the region ignored
    // and --check green, while GitHub showed the text between them.
    [
      'marker-bom.md',
      '5: a line that looks like a marker but is not one: it holds U+FEFF, which a marker does not (write <!-- omg-evidence:begin NAME … --> or <!-- omg-evidence:end --> at the start of the line)',
    ],
    [
      'marker-zwsp.md',
      '5: a line that looks like a marker but is not one: it holds U+200B, which a marker does not (write <!-- omg-evidence:begin NAME … --> or <!-- omg-evidence:end --> at the start of the line)',
    ],
    [
      'marker-nbsp.md',
      '5: a line that looks like a marker but is not one: it holds U+00A0, which a marker does not (write <!-- omg-evidence:begin NAME … --> or <!-- omg-evidence:end --> at the start of the line)',
    ],
    [
      'marker-em-dash.md',
      '5: a line that looks like a marker but is not one: it holds U+2014, which a marker does not (write <!-- omg-evidence:begin NAME … --> or <!-- omg-evidence:end --> at the start of the line)',
    ],
  ];
  for (const [file, message] of bad) {
    it(`an error naming the document and line, exit 1, document untouched: ${file}`, async () => {
      const { doc } = scratch(file);
      const before = readFileSync(doc);
      for (const args of [
        ['render', doc],
        ['render', '--check', doc],
      ]) {
        const run = await cli(args);
        expect(run.code).toBe(1);
        expect(run.stdout).toBe('');
        expect(run.stderr.startsWith(`omg-evidence: ${doc}:${message}`)).toBe(true);
        expect(run.stderr.split('\n')).toHaveLength(2);
      }
      expect(readFileSync(doc)).toEqual(before);
    });
  }

  it('a probe whose folder name holds a newline, a space or "-->" renders, and is then current', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-render-'));
    temps.push(dir);
    const probe = join(dir, 'odd\nname -->');
    cpSync(join(repo, 'test', 'fixtures', 'probes', 'minimal'), probe, { recursive: true });
    const doc = join(probe, 'README.md');
    writeFileSync(doc, '# odd\n\n<!-- omg-evidence:begin census probe=. format=markdown -->\n<!-- omg-evidence:end -->\n');
    expect((await cli(['render', doc])).code).toBe(0);
    expect(readFileSync(doc, 'utf8')).toMatch(/ probe=odd%0Aname%20--%3E inputs=/);
    expect(await cli(['render', '--check', doc])).toMatchObject({ code: 0, stdout: '' });
  });

  it("a document that is an input of its region's probe (a registration .sql) is refused: each render changed it, and it was never current", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-render-'));
    temps.push(dir);
    cpSync(join(repo, 'test', 'fixtures', 'probes', 'nine-tools'), join(dir, 'p'), { recursive: true });
    const sql = join(dir, 'p', 'registration', 'conjuncts', '1-a-ran.sql');
    writeFileSync(sql, `/*\n<!-- omg-evidence:begin census probe=../.. -->\n<!-- omg-evidence:end -->\n*/\n${readFileSync(sql, 'utf8')}`);
    const before = readFileSync(sql);
    const said = `${sql}:2: the document is an input of the probe this region reads (${sql}), which is read-only: rendering it would change what the region is made from; nothing was written (put the region in a document the probe does not read)\n`;
    for (const args of [
      ['render', sql],
      ['render', '--check', sql],
    ])
      expect(await cli(args)).toEqual({ code: 1, stdout: '', stderr: `omg-evidence: ${said}` });
    // Through a link too.
    symlinkSync(sql, join(dir, 'd.sql'));
    expect((await cli(['render', join(dir, 'd.sql')])).stderr).toContain('the document is an input of the probe this region reads');
    expect(readFileSync(sql)).toEqual(before);
    // A document elsewhere in the probe's folder is no input: it renders, and is then current.
    const readme = join(dir, 'p', 'README.md');
    writeFileSync(readme, '# p\n\n<!-- omg-evidence:begin census probe=. -->\n<!-- omg-evidence:end -->\n');
    expect((await cli(['render', readme])).code).toBe(0);
    expect(await cli(['render', '--check', readme])).toMatchObject({ code: 0, stdout: '' });
  });

  it('a probe path that does not exist says which, relative to the document', async () => {
    const { doc } = scratch('missing-probe.md');
    const run = await cli(['render', doc]);
    expect(run.stderr).toMatch(/:2: probe ".*probes\/no-such-probe" does not exist \(probe= is a path relative to the document\)\n$/);
  });
});

/** An empty queries region: it renders without opening any evidence, so property runs stay fast. */
const EMPTY_QUERIES = '<!-- omg-evidence:begin queries -->\n<!-- omg-evidence:end -->\n';
let queriesBody = '';
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'omg-render-'));
  const doc = join(dir, 'q.md');
  writeFileSync(doc, EMPTY_QUERIES);
  await cli(['render', doc]);
  queriesBody = readFileSync(doc, 'utf8').slice('<!-- omg-evidence:begin queries -->\n'.length, -'<!-- omg-evidence:end -->\n'.length);
  rmSync(dir, { recursive: true, force: true });
});
const filledQueries = () => `<!-- omg-evidence:begin queries -->\n${queriesBody}<!-- omg-evidence:end -->\n`;

/** fast-check's seed: FC_SEED reproduces a run; otherwise a fresh one, printed so a failure can be replayed. */
const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
console.log(`render property tests: fast-check seed ${seed} (FC_SEED=${seed} replays them)`);

describe('render: markers in fenced code are text', () => {
  const cases: [string, string][] = [
    ['fence-longer.md', 'a ```` fence is not closed by the ``` fence inside it'],
    ['fence-tilde.md', 'a ~~~ fence is closed only by tildes, a ``` fence with an info string only by backticks'],
    ['fence-indented.md', 'a fence indented by up to three spaces; four spaces is indented code, not a fence'],
    ['fence-list.md', 'a fence indented in a list item, and in a nested one'],
    ['fence-list-ends.md', 'a fence in a list item ends with the item, so the next fence opens, not closes'],
    ['fence-unclosed.md', 'an unclosed fence runs to the end of the document'],
    ['fence-in-html.md', 'a fence line inside an HTML block (<pre>, <div>, a comment, a lone tag, <script>) is HTML, not a fence'],
    ['fence-lone-tag.md', 'a lone tag that continues no paragraph holds the fence line after it'],
  ];
  for (const [file, what] of cases) {
    it(`${what} (${file}): only the region outside fences is rendered`, async () => {
      const { doc } = scratch(file);
      const before = readFileSync(doc, 'utf8');
      const run = await cli(['render', doc]);
      expect(run.code).toBe(0);
      const unclosed = file === 'fence-unclosed.md';
      const warning = `omg-evidence: warning: ${doc}:3: the fenced code begun here is never closed, so it runs to the end of the document and the markers in it (from line 5) are text, not regions\nomg-evidence: warning: ${doc}: holds no region, so render has nothing to write in it\n`;
      expect(run.stderr).toBe(
        `${unclosed ? warning : ''}omg-evidence: render: ${doc}: ${unclosed ? '0 of 0' : '1 of 1'} region(s) rewritten\n`,
      );
      // Every fixture ends with its one real region, empty; everything before it stays as it was.
      expect(before.endsWith(EMPTY_QUERIES)).toBe(true);
      expect(readFileSync(doc, 'utf8')).toBe(unclosed ? before : before.slice(0, -EMPTY_QUERIES.length) + filledQueries());
    });
  }

  it('a region held by an HTML block that what render writes would end is refused, and nothing is written', async () => {
    // What render writes into the schema region has a blank line, which ends the <div> block: the fence
    // after it would open a code example, and the queries "region" in it would be text.
    const { doc } = scratch('html-around-region.md');
    const before = readFileSync(doc, 'utf8');
    expect(await cli(['render', doc])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${doc}:11: once render wrote the regions, this one would not be read as it is now: an HTML block open around a region ends at a blank line or end tag of what render writes there, and the lines after it change meaning (leave a blank line before each begin marker that follows an HTML tag, so that no HTML block holds a region)\n`,
    });
    expect(readFileSync(doc, 'utf8')).toBe(before);
  });

  it('property: regions inside random fences are never read or written', async () => {
    const text = fc.constantFrom(
      'Some text.',
      '<!-- omg-evidence:begin census probe=nowhere -->',
      '<!-- omg-evidence:end -->',
      '<!-- omg-evidence:begin queries -->',
      'a | b',
      '',
    );
    // A fenced block: its character and length, its indent (up to three spaces), an info string,
    // optionally inside a list item (its content lines indented to the item's, or they would end it);
    // content lines that must not close it; closed, or not (last block only).
    const fenced = fc.record({
      char: fc.constantFrom('`', '~'),
      length: fc.integer({ min: 3, max: 6 }),
      indent: fc.integer({ min: 0, max: 3 }),
      info: fc.constantFrom('', 'markdown', ' md title="x"', ' {.md}'),
      list: fc.constantFrom('', '- ', '1. ', '10) ', '  * '),
      content: fc.array(
        fc.oneof(
          text.map((t) => (f: { base: number }) => (t ? ' '.repeat(f.base) + t : t)),
          fc
            .record({
              other: fc.boolean(),
              short: fc.integer({ min: 1, max: 3 }),
              extra: fc.integer({ min: 0, max: 2 }),
              ind: fc.integer({ min: 0, max: 3 }),
            })
            .map((k) => (f: { char: string; length: number; base: number }) => {
              const other = f.char === '`' ? '~' : '`';
              // Another character at any length, or this one too short, or long enough but followed by text or indented four past the fence's base.
              if (k.other) return ' '.repeat(f.base + k.ind) + other.repeat(3 + k.extra);
              if (f.length - k.short >= 3) return ' '.repeat(f.base + k.ind) + f.char.repeat(f.length - k.short);
              return k.extra === 0
                ? ' '.repeat(f.base + 4 + k.ind) + f.char.repeat(f.length)
                : `${' '.repeat(f.base)}${f.char.repeat(f.length + k.extra)} text`;
            }),
        ),
        { maxLength: 8 },
      ),
      closeIndent: fc.integer({ min: 0, max: 3 }),
      closeExtra: fc.integer({ min: 0, max: 2 }),
      unclosed: fc.boolean(),
    });
    // An HTML block holding lines that would open a fence outside it: a region after it is still a region.
    const html = fc.record({
      kind: fc.constantFrom(
        ['<pre>', '</pre>'],
        ['<!--', '-->'],
        ['<script type="x">', '</script>'],
        ['<div>', '</div>'],
        ['<details>', '</details>'],
      ),
      content: fc.array(fc.constantFrom('```', '~~~~', '``` md', '   ```', 'Text.', ''), { maxLength: 6 }),
    });
    const block = fc.oneof(
      { arbitrary: fc.constant('region' as const), weight: 1 },
      { arbitrary: fenced, weight: 3 },
      { arbitrary: html, weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(block, { minLength: 1, maxLength: 5 }), async (blocks) => {
        const parts: string[] = [];
        const expected: string[] = [];
        blocks.forEach((b, i) => {
          const between = 'Between.\n\n';
          if (b === 'region') {
            parts.push(between, EMPTY_QUERIES);
            expected.push(between, filledQueries());
            return;
          }
          if ('kind' in b) {
            // A <div> or <details> block ends at a blank line, so it holds none; the others run to their end tag.
            const content = b.kind[0]!.startsWith('<d') ? b.content.filter((l) => l !== '') : b.content;
            const md = `${between}${[b.kind[0], ...content, b.kind[1]].join('\n')}\n\n`;
            parts.push(md);
            expected.push(md);
            return;
          }
          const base = b.list ? b.list.length : 0;
          const info = b.char === '`' ? b.info : `${b.info} \`x\``;
          const lines = [
            ...(b.list ? [`${b.list}An item:`, ''] : []),
            ' '.repeat(base + b.indent) + b.char.repeat(b.length) + info,
            ...b.content.map((line) => line({ char: b.char, length: b.length, base })),
            ...(b.unclosed && i === blocks.length - 1 ? [] : [' '.repeat(base + b.closeIndent) + b.char.repeat(b.length + b.closeExtra)]),
          ];
          const md = `${between}${lines.join('\n')}\n`;
          parts.push(md);
          expected.push(md);
        });
        const dir = mkdtempSync(join(tmpdir(), 'omg-render-'));
        try {
          const doc = join(dir, 'doc.md');
          writeFileSync(doc, parts.join(''));
          const run = await cli(['render', doc]);
          expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.stringMatching(/ region\(s\) rewritten\n$/) });
          expect(readFileSync(doc, 'utf8')).toBe(expected.join(''));
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { seed, numRuns: 60 },
    );
  });
});

describe('render: only a region exactly as render wrote it is overwritten', () => {
  const attacks: [string, string][] = [
    ['hand-line-before-end.md', 'a line added just before the end marker'],
    ['hand-no-provenance.md', 'the provenance line removed'],
    ['hand-no-provenance-edited.md', 'the provenance line removed and a cell edited'],
    ['hand-cell.md', 'a cell edited'],
    ['hand-provenance-field.md', 'a field of the provenance line edited'],
  ];
  for (const [file, what] of attacks) {
    it(`${what} (${file}): render refuses, naming doc:line, exit 1, bytes unchanged; --check says edited by hand; --force overwrites`, async () => {
      const { doc } = scratch(file);
      const before = readFileSync(doc);
      expect(await cli(['render', doc])).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${doc}:5: the census region was edited by hand since it was rendered (move the edit outside the markers, or pass --force to overwrite it)\n`,
      });
      expect(readFileSync(doc)).toEqual(before);
      const check = await cli(['render', '--check', doc]);
      expect(check.code).toBe(3);
      expect(check.stdout).toMatch(new RegExp(`^--- ${doc}:5 census \\(in the document\\)\\n`));
      expect(check.stderr).toBe(
        `omg-evidence: 1 region(s) edited by hand: ${doc}:5 (census) (move each edit outside the markers, or render --force to overwrite it)\n`,
      );
      expect(readFileSync(doc)).toEqual(before);
      expect((await cli(['render', '--force', doc])).code).toBe(0);
      expect((await cli(['render', '--check', doc])).code).toBe(0);
    });
  }

  it('a hand edit in any document given stops the run before any document is written', async () => {
    const { dir, doc } = scratch('hand-cell.md');
    const good = join(dir, 'docs', 'good.md');
    const before = readFileSync(good);
    const run = await cli(['render', good, doc]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `omg-evidence: ${doc}:5: the census region was edited by hand since it was rendered (move the edit outside the markers, or pass --force to overwrite it)\n`,
    );
    expect(readFileSync(good)).toEqual(before);
  });

  it("an empty region is new and is filled; a provenance line written before the seal covered its fields still counts as render's own", async () => {
    expect(bodyState([])).toBe('new');
    const dir = mkdtempSync(join(tmpdir(), 'omg-render-'));
    temps.push(dir);
    const doc = join(dir, 'doc.md');
    writeFileSync(doc, `intro\n${EMPTY_QUERIES}`);
    expect((await cli(['render', doc])).code).toBe(0);
    const rendered = readFileSync(doc, 'utf8');
    expect(rendered).toBe(`intro\n${filledQueries()}`);
    // Before the provenance line sealed its own fields, content= hashed the content alone: such a region is still render's own.
    const lines = queriesBody.split('\n').slice(0, -2);
    const { createHash } = await import('node:crypto');
    const legacy = createHash('sha256')
      .update(lines.map((l) => `${l}\n`).join(''))
      .digest('hex')
      .slice(0, 12);
    const provenance = queriesBody.split('\n').at(-2)!;
    expect(bodyState([...lines, provenance.replace(/content=[0-9a-f]{12}/, `content=${legacy}`)])).toBe('rendered');
    expect(bodyState([...lines.slice(1), provenance.replace(/content=[0-9a-f]{12}/, `content=${legacy}`)])).toBe('edited');
  });

  it('property: any edit inside a rendered region is refused without --force, bytes unchanged, and --check says edited by hand', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-render-'));
    temps.push(dir);
    const doc = join(dir, 'doc.md');
    const TABLE = '<!-- omg-evidence:begin queries -->';
    const FENCED = '<!-- omg-evidence:begin queries format=table -->';
    writeFileSync(doc, `# Title\n\n${TABLE}\n<!-- omg-evidence:end -->\n\nBetween.\n\n${FENCED}\n<!-- omg-evidence:end -->\n`);
    expect((await cli(['render', doc])).code).toBe(0);
    const rendered = readFileSync(doc, 'utf8');
    const lines = rendered.split('\n');
    const regions = [TABLE, FENCED].map((begin) => {
      const b = lines.indexOf(begin);
      const e = lines.indexOf('<!-- omg-evidence:end -->', b);
      return { begin: b + 1, body: lines.slice(b + 1, e).join('\n'), from: b + 1, to: e };
    });
    const char = fc.constantFrom(' ', '|', '-', ':', 'a', 'Z', '0', 'f', '\t', '`', '~', '<', '>', '!', '=', '\n', 'é');
    type Edit = (body: string) => string;
    const at = (body: string, k: number) => Math.floor(k * (body.length + 1));
    const unit = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
    const lineText = fc.string({ unit: char.filter((c) => c !== '\n'), maxLength: 20 });
    const edit: fc.Arbitrary<Edit> = fc.oneof(
      fc.tuple(unit, char).map(
        ([k, c]): Edit =>
          (b) =>
            b.slice(0, at(b, k)) + c + b.slice(at(b, k)),
      ),
      fc.tuple(unit, fc.integer({ min: 1, max: 5 })).map(
        ([k, n]): Edit =>
          (b) =>
            b.slice(0, at(b, k)) + b.slice(at(b, k) + n),
      ),
      fc.tuple(unit, char).map(
        ([k, c]): Edit =>
          (b) =>
            b.slice(0, at(b, k)) + c + b.slice(at(b, k) + 1),
      ),
      fc.tuple(unit, lineText).map(
        ([k, t]): Edit =>
          (b) => {
            const ls = b.split('\n');
            ls.splice(Math.floor(k * (ls.length + 1)), 0, t);
            return ls.join('\n');
          },
      ),
      unit.map(
        (k): Edit =>
          (b) => {
            const ls = b.split('\n');
            ls.splice(Math.floor(k * ls.length), 1);
            return ls.join('\n');
          },
      ),
      fc.tuple(unit, lineText).map(
        ([k, t]): Edit =>
          (b) => {
            const ls = b.split('\n');
            ls[Math.floor(k * ls.length)] = t;
            return ls.join('\n');
          },
      ),
      fc.constant<Edit>((b) => b.split('\n').slice(0, -1).join('\n')),
      lineText.map(
        (t): Edit =>
          (b) =>
            `${b}\n${t}`,
      ),
      unit.map(
        (k): Edit =>
          (b) => {
            const ls = b.split('\n');
            const i = Math.floor(k * ls.length);
            ls.splice(i, 0, ls[i]!);
            return ls.join('\n');
          },
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 1 }), fc.array(edit, { minLength: 1, maxLength: 3 }), async (which, edits) => {
        const r = regions[which]!;
        const body = edits.reduce((b, e) => e(b), r.body);
        // Not an edit: nothing changed, or nothing left (an empty region is new, and render fills it).
        fc.pre(body !== r.body && body !== '');
        const edited = [...lines.slice(0, r.from), body, ...lines.slice(r.to)].join('\n');
        writeFileSync(doc, edited);
        expect(await cli(['render', doc])).toEqual({
          code: 1,
          stdout: '',
          stderr: `omg-evidence: ${doc}:${r.begin}: the queries region was edited by hand since it was rendered (move the edit outside the markers, or pass --force to overwrite it)\n`,
        });
        expect(readFileSync(doc, 'utf8')).toBe(edited);
        const check = await cli(['render', '--check', doc]);
        expect(check.code).toBe(3);
        expect(check.stderr).toBe(
          `omg-evidence: 1 region(s) edited by hand: ${doc}:${r.begin} (queries) (move each edit outside the markers, or render --force to overwrite it)\n`,
        );
        expect(readFileSync(doc, 'utf8')).toBe(edited);
      }),
      { seed, numRuns: 100 },
    );
  });
});

describe('render: writing', () => {
  it('writes through a symlink to its target; the link stays a link', async () => {
    const { dir, doc } = scratch('good.md');
    const link = join(dir, 'docs', 'link.md');
    symlinkSync(doc, link);
    const run = await cli(['render', link]);
    expect(run.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(doc, 'utf8')).toContain('<!-- omg-evidence:provenance ');
    expect(readdirSync(join(dir, 'docs')).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it("keeps the file's mode", async () => {
    const { doc } = scratch('good.md');
    chmodSync(doc, 0o640);
    expect((await cli(['render', doc])).code).toBe(0);
    expect(statSync(doc).mode & 0o7777).toBe(0o640);
  });

  it('keeps CRLF line endings, the regenerated lines included, and a CRLF document is then current', async () => {
    const { doc } = scratch('good.md');
    writeFileSync(doc, readFileSync(doc, 'utf8').replace(/\n/g, '\r\n'));
    expect((await cli(['render', doc])).code).toBe(0);
    const after = readFileSync(doc, 'utf8');
    expect(after).toContain('<!-- omg-evidence:provenance ');
    expect(after.match(/(?<!\r)\n/g)).toBeNull();
    expect((await cli(['render', '--check', doc])).code).toBe(0);
  });

  it('refuses a document that is not UTF-8, naming the line of its first such byte, and leaves it as it is', async () => {
    const { doc } = scratch('good.md');
    const text = readFileSync(doc);
    const bad = Buffer.concat([
      Buffer.from('caf'),
      Buffer.from([0xe9]),
      Buffer.from('\n\n'),
      text,
      Buffer.from('end '),
      Buffer.from([0xff]),
      Buffer.from('\n'),
    ]);
    writeFileSync(doc, bad);
    const run = await cli(['render', doc]);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${doc}:1: not UTF-8 text (render reads and writes UTF-8 documents only; convert it first (iconv -t UTF-8))\n`,
    });
    expect(readFileSync(doc).equals(bad)).toBe(true);
  });

  it('a carriage return that ends no line is an error naming doc:line: GitHub ends a line there', async () => {
    const { doc } = scratch('good.md');
    const bad = `Title\n\nText\r<!-- omg-evidence:begin queries -->\r<!-- omg-evidence:end -->\n`;
    writeFileSync(doc, bad);
    expect(await cli(['render', '--check', doc])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${doc}:3: a carriage return that ends no line here, where GitHub ends one (render reads documents whose lines end in LF or CRLF: convert its line ends first)\n`,
    });
    expect(readFileSync(doc, 'utf8')).toBe(bad);
  });

  it('a marker with spaces after it is still a marker; a line that only looks like one is an error naming doc:line', async () => {
    const { doc } = scratch('good.md');
    const text = readFileSync(doc, 'utf8');
    writeFileSync(doc, text.replace('<!-- omg-evidence:end -->\n\nBetween.', '<!-- omg-evidence:end -->  \n\nBetween.'));
    expect(await cli(['render', doc])).toEqual({
      code: 0,
      stdout: '',
      stderr: `omg-evidence: render: ${doc}: 2 of 2 region(s) rewritten\n`,
    });
    for (const typo of [
      '<!-- omg-evidence:begn budget probe=../probes/minimal -->',
      '<!--omg-evidence:end-->x',
      '  <!-- omg-evidence:begin  budget -->   .',
    ]) {
      writeFileSync(doc, `# A document\n\n${typo}\n`);
      const before = readFileSync(doc);
      expect(await cli(['render', '--check', doc]), typo).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${doc}:3: a line that looks like a marker but is not one (write <!-- omg-evidence:begin NAME … --> or <!-- omg-evidence:end --> at the start of the line)\n`,
      });
      expect(readFileSync(doc).equals(before)).toBe(true);
    }
    // Indented four spaces, it is code: text, no error (the document then holds no region).
    writeFileSync(doc, '# A document\n\n    <!-- omg-evidence:begn budget -->\n');
    expect((await cli(['render', '--check', doc])).stderr).toBe(
      `omg-evidence: 1 document(s) with no region: ${doc} (restore the markers of each, or leave it out of the check)\n`,
    );
  });

  it('renders a document named twice, or through a symlink too, once', async () => {
    const { dir, doc } = scratch('good.md');
    const link = join(dir, 'docs', 'link.md');
    symlinkSync(doc, link);
    const run = await cli(['render', doc, link, doc]);
    expect(run).toEqual({ code: 0, stdout: '', stderr: `omg-evidence: render: ${doc}: 2 of 2 region(s) rewritten\n` });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect((await cli(['render', '--check', doc])).code).toBe(0);
  });

  it('refuses to write a document that changed after it was read, and leaves it as it is', () => {
    const { dir, doc } = scratch('good.md');
    const once = readFileSync(doc, 'utf8');
    // Bytes other than those read are never replaced.
    expect(() => replaceDocument(doc, Buffer.from('something else'), 'new text')).toThrow(/changed while it was being rendered/);
    expect(readFileSync(doc, 'utf8')).toBe(once);
    expect(readdirSync(join(dir, 'docs')).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('a region naming a directory that is not a probe is an error naming doc:line', async () => {
    const { dir, doc } = scratch('not-a-probe.md');
    const before = readFileSync(doc);
    expect(await cli(['render', doc])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${doc}:3: ${join(dir, 'docs')}: not a probe: it has no results.jsonl (give the path of a probe directory, one that holds results.jsonl)\n`,
    });
    expect(readFileSync(doc)).toEqual(before);
  });

  it('a folder, a FIFO or a device named as the document is said to be one (a FIFO is never waited on)', async () => {
    const { dir } = scratch('not-a-probe.md');
    const fifo = join(dir, 'doc.md');
    execFileSync('mkfifo', [fifo]);
    const expected = (p: string, what: string) => ({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${p}: ${what}, where a markdown document is expected (give the path of a markdown document)\n`,
    });
    expect(await cli(['render', '--check', fifo])).toEqual(expected(fifo, 'a FIFO (named pipe)'));
    expect(await cli(['render', dir])).toEqual(expected(dir, 'a directory'));
    expect(await cli(['render', '--check', '/dev/null'])).toEqual(expected('/dev/null', 'a device'));
    expect(await cli(['render', join(dir, 'none.md')])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${join(dir, 'none.md')}: no such document (give the path of a markdown file)\n`,
    });
  });

  // One past JavaScript's longest string (512 MiB) had been "unexpected error: Cannot create a string longer …" (hunt50).
  it('a document past 64 MiB is refused before it is read, and left as it was', async () => {
    const { dir } = scratch('not-a-probe.md');
    const big = join(dir, 'big.md');
    writeFileSync(big, '');
    truncateSync(big, 64 * 2 ** 20 + 1); // sparse: no 64 MiB written
    for (const args of [
      ['render', big],
      ['render', '--check', big],
    ]) {
      expect(await cli(args)).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${big}: 67108865 bytes, past the 64 MiB a document may hold (render writes into a write-up: give it the document that holds the regions, not a data file)\n`,
      });
    }
    expect(statSync(big).size).toBe(64 * 2 ** 20 + 1);
  });
});

describe('the documents this repository ships', () => {
  // The README has held no region since it became a guide: it is no longer checked (render --check would exit 3).
  it('every docs/*.md with a region and the bundled adr-tables.md are current (render --check)', async () => {
    // Every page of docs/ that holds a region is checked, so a new generated page cannot go stale unseen.
    const docs = readdirSync(join(repo, 'docs'))
      .filter((f) => f.endsWith('.md') && readFileSync(join(repo, 'docs', f), 'utf8').includes('<!-- omg-evidence:begin '))
      .sort()
      .map((f) => `docs/${f}`);
    expect(docs).toEqual(expect.arrayContaining(['docs/commands.md', 'docs/queries.md', 'docs/views.md']));
    const run = await cli(['render', '--check', ...docs, 'evidence/0017-staged-agent-restores-layer-1/adr-tables.md']);
    expect(run.stdout).toBe('');
    expect(run.code).toBe(0);
  });

  it('adr-tables.md reproduces the reference census block under the golden rule', () => {
    const doc = readFileSync(join(repo, 'evidence', '0017-staged-agent-restores-layer-1', 'adr-tables.md'), 'utf8');
    const block = /<!-- omg-evidence:begin census probe=\. format=text -->\n```\n([\s\S]*?)```\n/.exec(doc)![1]!;
    const golden = readFileSync(join(repo, 'test', 'golden', 'census.txt'), 'utf8');
    expect(block).toBe(golden);
  });
});
