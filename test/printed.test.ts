/**
 * What the commands print, from a hostile review of it: column titles shown as cells are, names made
 * distinct, csv's empty string, widths as a terminal counts them, and stderr's invisible characters.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Database } from '../src/db/database.js';
import { formatAgree } from '../src/output/agree.js';
import { esc } from '../src/output/html-parts.js';
import { displayedInTerminal, markdownText, oneLineValues, visibleControls } from '../src/output/shown.js';
import { cli } from './helpers.js';

const ESC = '\x1b';

describe("a table's column titles", () => {
  it('show their controls and tabs as pictures, as its cells do: a PIVOT makes values titles', async () => {
    const run = await cli(['sql', '-f', 'table', `select 1 as "${ESC}[31mred", 2 as "t\tb"`]);
    expect(run).toEqual({
      code: 0,
      stderr: '',
      stdout: ['┌──────────┬─────┐', '│ ␛[31mred │ t␉b │', '├──────────┼─────┤', '│        1 │   2 │', '└──────────┴─────┘', ''].join('\n'),
    });
  });

  it('left out to fit the terminal are named on stderr shown, not raw', async () => {
    const run = await cli(['sql', '-f', 'table', `select repeat('x', 30) a, 1 as "${ESC}[2Jb"`], { env: { COLUMNS: '14' } });
    expect(run.stderr).toBe('omg-evidence: left out to fit 14 columns: ␛[2Jb; --wide shows every column, as does --format markdown\n');
  });
});

describe('csv', () => {
  it('writes an empty string as "" and NULL as an empty field, as DuckDB\'s COPY does, so read_csv (allow_quoted_nulls = false) reads each back', async () => {
    const run = await cli(['sql', '-f', 'csv', "select '' e, null::varchar n, 'x' x"]);
    expect(run).toEqual({ code: 0, stdout: 'e,n,x\r\n"",,x\r\n', stderr: '' });
    const dir = mkdtempSync(join(tmpdir(), 'omg-csv-'));
    const db = await Database.open();
    try {
      writeFileSync(join(dir, 'x.csv'), run.stdout);
      const back = await db.query(`select * from read_csv('${join(dir, 'x.csv')}', all_varchar = true, allow_quoted_nulls = false)`);
      expect(back.rows).toEqual([{ e: '', n: null, x: 'x' }]);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a table's width", () => {
  it('is counted in terminal columns, as cli-table3 draws it: a wide character takes two', async () => {
    const wide = `${'漢字'.repeat(12)}漢`;
    const run = await cli(['sql', '-f', 'table', `select '${wide}' a`], { env: { COLUMNS: '30' } });
    expect(run).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        '┌────────────────────────────┐',
        '│ a                          │',
        '├────────────────────────────┤',
        '│ 漢字漢字漢字漢字漢字漢字…  │',
        '└────────────────────────────┘',
        '',
      ].join('\n'),
    });
  });
});

describe('stderr', () => {
  // A model id is the transcript's: its escape sequence and newline are shown as \u escapes, never sent to the terminal.
  it("report's warning of a model with no price shows the id's control characters escaped", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-printed-'));
    try {
      const run = await cli(['report', '--transcripts', 'test/fixtures/usage/control-model', '--html', join(dir, 'r.html')]);
      expect(run.code).toBe(0);
      expect(run.stderr.split('\n')[0]).toBe(
        'omg-evidence: warning: no price for model evil\\u001b]0;pwned\\u0007\\u000ax in data/pricing.json: the cost of its 1 response(s) is left empty (null); --pricing FILE can price it',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("shows an invisible character as its code point: a model id's zero-width space had read as the real model", async () => {
    const run = await cli(['usage', 'model', '--transcripts', 'test/fixtures/usage/invisible-model', '-f', 'csv']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      'omg-evidence: warning: no price for model claude-opus-4-5⟨U+200B⟩ in data/pricing.json: the cost of its 1 response(s) is left empty (null); --pricing FILE can price it\n',
    );
  });
});

describe("commander's errors", () => {
  const after = '(run with --help for usage)\n';
  it('are one line, shown as ours are: a query starting with a -- comment gets a hint', async () => {
    expect(await cli(['sql', '-- my query\nselect 1'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `omg-evidence: unknown option '-- my query\\u000aselect 1' (a query starting with - goes after --, or use -F FILE or stdin)\n${after}`,
    });
    expect((await cli(['sql', '--', '-- my query\nselect 1 as one'])).stdout).toBe('| one |\n|---:|\n| 1 |\n');
  });

  it('show an escape from the command line, never send it', async () => {
    expect(await cli(['sql', `--x${ESC}]52;c;aGk=\x07`])).toEqual({
      code: 2,
      stdout: '',
      stderr: `omg-evidence: unknown option '--x\\u001b]52;c;aGk=\\u0007'\n${after}`,
    });
    expect((await cli(['census', '-f', `${ESC}[2J`])).stderr).toBe(
      `omg-evidence: option '-f, --format <format>' argument '\\u001b[2J' is invalid. Allowed choices are text, table, markdown, csv, json, ndjson.\n${after}`,
    );
    expect(await cli([`${ESC}[2J`])).toEqual({ code: 2, stdout: '', stderr: `omg-evidence: unknown command '\\u001b[2J'\n${after}` });
  });

  it('keep their suggestion on a line of its own', async () => {
    expect((await cli(['census', '--formt', 'x'])).stderr).toBe(
      `omg-evidence: unknown option '--formt'\n(Did you mean --format?)\n${after}`,
    );
  });
});

// The line and paragraph separators had gone out raw: a terminal or an editor may break the line there.
it('shows the line and paragraph separators as code points in a table', async () => {
  const run = await cli(['sql', '-f', 'table', "select 'a' || chr(8232) || 'b' || chr(8233) || 'c' as v"]);
  expect(run.stdout).toContain('a⟨U+2028⟩b⟨U+2029⟩c');
});

describe('help', () => {
  it('help help is the help, exit 0', async () => {
    expect(await cli(['help', 'help'])).toEqual({ ...(await cli(['--help'])), code: 0 });
  });

  // They had printed census's help; counted as arguments, they had been usage errors.
  it('help CMD --help, help CMD -h and help -- CMD are CMD --help', async () => {
    const help = await cli(['census', '--help']);
    for (const args of [
      ['help', 'census', '--help'],
      ['help', 'census', '-h'],
      ['help', '--', 'census'],
    ]) {
      expect(await cli(args)).toEqual(help);
    }
  });

  it('help with more than a command is a usage error on stderr, exit 2', async () => {
    expect(await cli(['help', 'census', 'extra'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "omg-evidence: too many arguments for 'help'. Expected at most 1 argument but got 2.\n(run with --help for usage)\n",
    });
  });
});

describe("agree's names that differ only where a reader cannot see", () => {
  const rows = [
    {
      probe: 'P',
      seq: 1,
      arm: 'A',
      session_id: '00000000-x',
      verdict: 'differ',
      aspect: 'tool',
      item: 'Bash ',
      records: 1,
      transcripts: 0,
    },
    {
      probe: 'P',
      seq: 1,
      arm: 'A',
      session_id: '00000000-x',
      verdict: 'differ',
      aspect: 'tool id',
      item: 't1',
      records: 'E\u0301crire',
      transcripts: 'Écrire',
    },
  ];

  it('are quoted, with their combining marks as code points, in the formats people read', () => {
    expect(formatAgree(rows, 'text')).toBe(
      [
        'A           00000000  differs: tool "Bash ": records 1, transcripts 0',
        'A           00000000  differs: tool id t1: records "E⟨U+0301⟩crire", transcripts Écrire',
        '',
      ].join('\n'),
    );
    expect(formatAgree(rows, 'markdown')).toContain('| tool id | t1 | "E⟨U+0301⟩crire" | Écrire |');
  });

  it('are kept exact in csv and json', () => {
    expect(JSON.parse(formatAgree(rows, 'json')).map((r: { item: string }) => r.item)).toEqual(['Bash ', 't1']);
    expect(formatAgree(rows, 'csv')).toContain('E\u0301crire');
  });
});

// String.replace with a function gathers every match first: at about 67 million V8 stopped the process with a
// native stack trace (`sql -f markdown "select repeat(chr(1), 70000000)"`, hunt50). A long value is rewritten in
// parts, a million characters at a time.
describe('a long value', () => {
  it('of 70 million controls is shown, not a crash of the process', () => {
    const shown = visibleControls('\x01'.repeat(70_000_000));
    expect([shown.length, shown.slice(0, 2), shown.slice(-2)]).toEqual([70_000_000, '\u2401\u2401', '\u2401\u2401']);
  }, 120_000);

  const MIB = 1 << 20;
  // `seam` across the first million's boundary, each of its characters in turn the last before it, in filler that
  // no rule reads (x); and the same text in pieces short enough for one String.replace each, cut in that filler:
  // the long text must show as its pieces do. Two specials side by side (\r\r\n, \r😀) had been parted (rev50b).
  it.each([
    ['surrogate pairs, and a lone surrogate before one', '😀\u200b😀😀\ud83d😀'],
    ['CRLFs after a CR (one <br> each, not a CR and a <br>)', '\r\r\n\r\r\r\n\r😀'],
    ['controls, separators and tabs', '\x01\u2028\t\n\x7f\u2029'],
    ['markup whose meaning depends on its neighbours', 'www.x_y_ *a* &amp; <b> http://'],
  ])('is shown as its pieces are, with %s at the seam', (_, seam) => {
    for (let k = 0; k <= seam.length; k++) {
      const at = MIB - 1 - k;
      const pieces = [
        'x'.repeat(MIB - 500),
        `${'x'.repeat(at - (MIB - 500))}${seam}${'x'.repeat(MIB + 500 - at - seam.length)}`,
        'x'.repeat(1000),
      ];
      const whole = pieces.join('');
      for (const [name, f] of [
        ['displayedInTerminal', displayedInTerminal],
        ['markdownText', (t: string) => markdownText(t)],
        ['oneLineValues', (t: string) => oneLineValues(t)],
        ['esc', esc],
      ] as const) {
        expect(f(whole) === pieces.map(f).join(''), `${name}, character ${k} last before the seam`).toBe(true);
      }
    }
  });

  it('is shown as its pieces are where only its markdown passes a million characters (escapes double it)', () => {
    const [escaped, rest] = ['|'.repeat(524_287), 'x\r\r\ny'];
    expect(markdownText(escaped + rest)).toBe(markdownText(escaped) + markdownText(rest));
  });
});
