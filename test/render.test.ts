/**
 * render and render --check: regions regenerated in place, bytes outside untouched, hand edits
 * refused, stale regions reported with a diff (exit 3), and each bad document an error naming the
 * document and line (exit 1) that leaves it untouched. Also: the README and the bundled probe's
 * adr-tables.md are current.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, repo } from './helpers.js';

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
      /<!-- omg-evidence:begin census probe=\.\.\/probes\/minimal format=text -->\n```\nA-ONE       aaaaaaaa  \{'Skill': 1, 'Write': 2\}  BREACH  -                 ns:thing\nA-TWO       bbbbbbbb  \{\}                        -       M@HOME\n```\n<!-- omg-evidence:provenance omg-evidence@0\.1\.0 probe=minimal inputs=[0-9a-f]{12} query=[0-9a-f]{12} content=[0-9a-f]{12} -->\n<!-- omg-evidence:end -->/,
    );
    // A query by its file name renders as a markdown table of its columns.
    expect(after).toContain('| probe | spent_usd | spawns | bound_usd | bound_spawns | share_usd | share_spawns | within |\n|:---|---:|---:|---:|---:|---:|---:|:---|\n| minimal | 0.02 | 2 |  |  |  |  |  |');
    expect(readdirSync(join(doc, '..')).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('is deterministic: a second render changes nothing, and --check passes', async () => {
    const { doc } = scratch('good.md');
    await cli(['render', doc]);
    const once = readFileSync(doc, 'utf8');
    expect((await cli(['render', doc])).stderr).toMatch(/: 0 of 2 region\(s\) rewritten\n$/);
    expect(readFileSync(doc, 'utf8')).toBe(once);
    expect(await cli(['render', '--check', doc])).toEqual({ code: 0, stdout: '', stderr: 'omg-evidence: render --check: every region is current\n' });
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
    expect(run.stdout).toContain("\n-A-ONE       aaaaaaaa  {'Skill': 1, 'Write': 2}  BREACH  -                 ns:thing\n+A-ONE       aaaaaaaa  {'Skill': 1, 'Write': 1}  BREACH  -                 ns:thing\n");
    // The budget table reads the same, but its provenance records other inputs: it is stale too.
    expect(run.stdout).toMatch(/\n--- .*good\.md:20 budget \(in the document\)\n[\s\S]*\n-<!-- omg-evidence:provenance .* inputs=[0-9a-f]{12} .*\n\+<!-- omg-evidence:provenance /);
    expect(run.stderr).toBe(`omg-evidence: 2 region(s) stale: ${name}:10 (census), ${name}:20 (budget) (run omg-evidence render on the document(s) to regenerate them)\n`);
    expect(readFileSync(doc, 'utf8')).toBe(rendered);
    // --diff prints the same while rendering.
    const diff = await cli(['render', '--diff', doc]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toBe(run.stdout);
  });

  it('refuses to overwrite a region edited by hand (exit 1) unless --force; --check calls it stale', async () => {
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
    expect(check.stderr).toContain(`${name}:10 (census, edited by hand)`);
    expect((await cli(['render', '--force', doc])).code).toBe(0);
    expect(readFileSync(doc, 'utf8')).not.toContain('BBBBBBBB');
  });

  const bad: [string, string][] = [
    ['unbalanced-begin.md', '3: a region begun here is never ended (add <!-- omg-evidence:end --> after it)'],
    ['unbalanced-end.md', '4: an end marker with no region begun (remove it, or add the <!-- omg-evidence:begin … --> it closes)'],
    ['nested.md', '2: nested marker: a region begins inside the region begun on line 1 (close each region with <!-- omg-evidence:end --> before the next begins)'],
    ['unknown-table.md', '3: unknown table or query "cenus" (name one of census, skills, arms, verdict, cost, commands, queries, schema, or a query: '],
    ['missing-probe.md', '2: probe "'],
    ['unknown-option.md', '2: unknown option "colour" for census (the options of census are probe, format, from)'],
  ];
  for (const [file, message] of bad) {
    it(`an error naming the document and line, exit 1, document untouched: ${file}`, async () => {
      const { doc } = scratch(file);
      const before = readFileSync(doc);
      for (const args of [['render', doc], ['render', '--check', doc]]) {
        const run = await cli(args);
        expect(run.code).toBe(1);
        expect(run.stdout).toBe('');
        expect(run.stderr.startsWith(`omg-evidence: ${doc}:${message}`)).toBe(true);
        expect(run.stderr.split('\n')).toHaveLength(2);
      }
      expect(readFileSync(doc)).toEqual(before);
    });
  }

  it('a probe path that does not exist says which, relative to the document', async () => {
    const { doc } = scratch('missing-probe.md');
    const run = await cli(['render', doc]);
    expect(run.stderr).toMatch(/:2: probe ".*probes\/no-such-probe" does not exist \(probe= is a path relative to the document\)\n$/);
  });
});

describe('the documents this repository ships', () => {
  it('README.md and the bundled adr-tables.md are current (render --check)', async () => {
    const run = await cli(['render', '--check', 'README.md', 'evidence/0017-staged-agent-restores-layer-1/adr-tables.md']);
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
