/**
 * render reads a document's blocks as GitHub's parser does: the regions it finds are exactly the
 * begin markers cmark-gfm (Debian's package, the parser github.com is built on) shows as HTML, not
 * as code. A fast-check property (seed printed; FC_SEED replays it) builds documents from lines that
 * open, close or hold fences, HTML blocks of every kind, lists, block quotes and paragraphs, and
 * every fence fixture is checked the same way. Without cmark-gfm the tests skip and say why; with
 * CI=true its absence fails (.ci/run installs it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { toMarkdown } from '../src/output/formats.js';
import { parseDocument } from '../src/regions/document.js';
import { repo } from './helpers.js';

const absent = spawnSync('cmark-gfm', ['--version']).status !== 0 && process.env.CI !== 'true';
if (absent) console.log('skipped: markdown tests: cmark-gfm is absent (apt-get install cmark-gfm; with CI=true its absence fails)');

const BEGIN = '<!-- omg-evidence:begin queries -->';
const END = '<!-- omg-evidence:end -->';

/** A line that holds a begin marker, perhaps indented, in a list item or in a block quote, or after invisible characters. */
const MARKER_LINE = /^[\s\p{Cf}]*(?:(?:[-+*]|\d{1,9}[.)]|>)[\s\p{Cf}]*)*<!-- omg-evidence:begin/u;

/**
 * The lines of `file` that hold a begin marker cmark-gfm shows as HTML (with github.com's extensions),
 * not as escaped code: each marker appears once in the HTML, in order, at the start of a line (after
 * a code block's <pre><code> or a list item's <li>); one in prose is inline code.
 */
function shownByGitHub(file: string, lines: string[]): number[] {
  const html = execFileSync('cmark-gfm', ['--unsafe', '-e', 'table', '-e', 'tagfilter', '-e', 'strikethrough', '-e', 'autolink', file], {
    encoding: 'utf8',
  });
  // After an invisible character a marker is inline HTML: in a paragraph, a heading or a table's cell.
  const shown = [
    ...html.matchAll(
      /^[ \t]*(?:<(?:li|blockquote|p|h[12]|td|th)(?: [^>]*)?>)*(?:<pre><code[^>]*>)?[\s\p{Cf}]*(<|&lt;)!-- omg-evidence:begin/gmu,
    ),
  ].map((m) => m[1] === '<');
  const begins = lines.flatMap((t, i) => (MARKER_LINE.test(t) ? [i + 1] : []));
  expect(shown.length, 'every begin marker appears once in the HTML').toBe(begins.length);
  return begins.filter((_, k) => shown[k]);
}

/**
 * The regions render finds must be the markers GitHub shows; a marker it cannot take as one (indented,
 * in a list item) must be an error naming a line GitHub shows as HTML, never silently text.
 */
function expectAsGitHub(file: string, lines: string[]): void {
  const shown = shownByGitHub(file, lines);
  let found: number[];
  try {
    found = parseDocument(file).regions.map((r) => r.begin);
  } catch (err) {
    const line = Number(/:(\d+): a line that looks like a marker but is not one/.exec((err as Error).message)?.[1]);
    expect({ file, refused: line, shown }).toEqual({ file, refused: line, shown: expect.arrayContaining([line]) });
    return;
  }
  expect({ file, found }).toEqual({ file, found: shown });
}

const dir = mkdtempSync(join(tmpdir(), 'omg-markdown-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
console.log(`markdown property test: fast-check seed ${seed} (FC_SEED=${seed} replays it)`);

describe.skipIf(absent)("render reads a document's blocks as GitHub's parser does", () => {
  it('property: the regions found are the begin markers cmark-gfm shows as HTML', () => {
    const line = fc.constantFrom(
      ['Some text.'],
      [''],
      ['# Heading'],
      ['---'],
      ['```'],
      ['```md'],
      ['~~~'],
      ['````'],
      ['   ```'],
      ['    ```'],
      ['<pre>'],
      ['</pre>'],
      ['<!--'],
      ['-->'],
      ['<div>'],
      ['</div>'],
      ['<details>'],
      ['<summary>x</summary>'],
      ['<img src="x" alt="">'],
      ['<a id="top">'],
      ['</a>'],
      ['<textarea>'],
      ['<script>'],
      ['</script>'],
      ['<span>x</span>'],
      ['- item'],
      ['- ```'],
      ['  ```'],
      ['1. item'],
      ['   <div>'],
      ['> quote'],
      ['> ```'],
      ['* * *'],
      ['- - -'],
      ['---'],
      ['==='],
      ['-'],
      ['2. step'],
      ['   lazy text'],
      ['| a | b |'],
      ['| - | - |'],
      ['\t- item'],
      [BEGIN, END],
      [BEGIN, END],
      [`    ${BEGIN}`, `    ${END}`],
      // Markers after a character a reader does not see: GitHub shows the text between them.
      [`\u200B${BEGIN}`, `\u200B${END}`],
      // A BOM mid-document (`cat a.md b.md`): one before the first line is no part of it, for GitHub too.
      ['', `\uFEFF${BEGIN}`, `\uFEFF${END}`],
      [`\u00A0${BEGIN}`, `\u00A0${END}`],
    );
    let n = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 2, maxLength: 18 }), (parts) => {
        const lines = parts.flat();
        const file = join(dir, `d${n++}.md`);
        writeFileSync(file, `${lines.join('\n')}\n`);
        expectAsGitHub(file, lines);
      }),
      { seed, numRuns: 500 },
    );
    // 500 runs of cmark-gfm: the default timeout was passed once, with the whole suite beside it.
  }, 120_000);

  it('every fence fixture: the regions found are those cmark-gfm shows', () => {
    const docs = join(repo, 'test', 'fixtures', 'docs');
    const fixtures = readdirSync(docs).filter((f) => /^(fence-|html-)/.test(f));
    expect(fixtures.length).toBeGreaterThan(5);
    for (const f of fixtures) {
      const file = join(docs, f);
      expectAsGitHub(file, parseDocument(file).lines);
    }
  });
});

describe.skipIf(absent)('a value in a markdown table, as GitHub shows it', () => {
  const GFM = ['--unsafe', '-e', 'table', '-e', 'tagfilter', '-e', 'strikethrough', '-e', 'autolink'];
  /** The text of each body cell cmark-gfm shows: entities decoded, a line break as \n. */
  const cellsShown = (md: string): string[] => {
    const html = execFileSync('cmark-gfm', GFM, { input: md, encoding: 'utf8' });
    const body = html.slice(html.indexOf('<tbody>'));
    return [...body.matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map((m) =>
      m[1]!.replaceAll('<br>', '\n').replace(/&(lt|gt|quot|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', amp: '&' })[e]!),
    );
  };

  // A cell had shown `*x*` as emphasis, `&amp;` as &, `[a](b)` as a link: a document said what the evidence did not.
  it('property: every value reads as it is, markup characters and all', () => {
    const unit = fc.constantFrom(
      'a',
      'b',
      '1',
      ' ',
      '*',
      '_',
      '`',
      '[',
      ']',
      '(',
      ')',
      '<',
      '>',
      '/',
      '!',
      '&',
      '#',
      ';',
      '~',
      '|',
      '\\',
      '\n',
      'é',
    );
    fc.assert(
      fc.property(fc.array(fc.string({ unit, maxLength: 20 }), { minLength: 1, maxLength: 8 }), (values) => {
        const md = toMarkdown(
          [{ key: 'v' }],
          values.map((v) => ({ v })),
        );
        // GitHub trims a cell, and each of its lines shows without the spaces at its ends.
        const trimmed = values.map((v) => v.trim().replace(/ *\n */g, '\n'));
        expect(cellsShown(md).map((c) => c.trim().replace(/ *\n */g, '\n'))).toEqual(trimmed);
      }),
      { seed, numRuns: 200 },
    );
  });

  it('a URL or a www. name reads as it is, and makes no link: an autolink had shown the escapes and held them in its target', () => {
    // cmark-gfm links a www. name after `_` too, where no word boundary is.
    const values = [
      'see https://example.com/_next/static/*.js or www.x.org/~user',
      'ftp://a.b/_x_ WWW.y.com/*z*',
      'http://x',
      '_www.example.com_',
      '__www.ex.com__',
    ];
    const md = toMarkdown(
      [{ key: 'v' }],
      values.map((v) => ({ v })),
    );
    expect(md.split('\n')[2]).toBe('| see https\\://example.com/\\_next/static/\\*.js or www\\.x.org/\\~user |');
    expect(cellsShown(md)).toEqual(values);
    expect(execFileSync('cmark-gfm', GFM, { input: md, encoding: 'utf8' })).not.toContain('<a ');
  });

  it('the names of the bundled probe stay readable: no escape where nothing is markup', () => {
    const md = toMarkdown([{ key: 'v' }], [{ v: 'mcp__github__create_issue AT&T 2 > 1 a]' }, { v: 'claude-opus-5[1m] <tool_use_error>' }]);
    expect(md).toBe('| v |\n|:---|\n| mcp__github__create_issue AT&T 2 > 1 a] |\n| claude-opus-5\\[1m] \\<tool_use_error> |\n');
  });
});
