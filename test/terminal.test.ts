/**
 * The terminal (#18 §5): help on stdout, one -f, colour as NO_COLOR and FORCE_COLOR say, tables
 * that fit the terminal's width, money in dollars, one column order in every format, and no probe
 * columns where there is no probe.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeProgram } from '../src/cli/main.js';
import { dollars, fitWidths, toCsv, toMarkdown, toTable, type Cell, type Column } from '../src/output/formats.js';
import { processIO } from '../src/cli/io.js';
import { cli } from './helpers.js';

/** fast-check's seed: FC_SEED=<n> replays a run; printed so that a failure reproduces. */
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`terminal.test.ts: fast-check seed ${seed} (FC_SEED=${seed} npx vitest run test/terminal.test.ts replays it)`);

const ESC = '\x1b';
const widest = (s: string) =>
  Math.max(
    ...s
      .trimEnd()
      .split('\n')
      .map((l) => [...l].length),
  );

describe('help', () => {
  it('help prints the help on stdout, exit 0', async () => {
    const run = await cli(['help']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toBe((await cli(['--help'])).stdout);
    expect(run.stdout).toMatch(/^Usage: omg-evidence \[options\] \[command\]\n/);
  });

  it('help CMD prints the command help on stdout, exit 0, as CMD --help does', async () => {
    const run = await cli(['help', 'census']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^Usage: omg-evidence census \[options\] \[probe\.\.\.\]\n/);
    expect(run.stdout).toBe((await cli(['census', '--help'])).stdout);
  });

  it('a bare omg-evidence prints the help on stdout, exit 0', async () => {
    const run = await cli([]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toBe((await cli(['--help'])).stdout);
  });

  it('help for a command that does not exist is a usage error, exit 2', async () => {
    const run = await cli(['help', 'cenus']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe("omg-evidence: unknown command 'cenus'\n(Did you mean census?)\n(run with --help for usage)\n");
  });
});

describe('-f is --format', () => {
  it('in every command that has --format', () => {
    const program = makeProgram(processIO);
    const withFormat = program.commands.filter((c) => c.options.some((o) => o.long === '--format'));
    expect(withFormat.map((c) => c.name())).toEqual([
      'census',
      'skills',
      'agree',
      'arms',
      'verdict',
      'cost',
      'usage',
      'sql',
      'schema',
      'audit',
    ]);
    for (const c of withFormat) expect([c.name(), c.options.find((o) => o.long === '--format')!.short]).toEqual([c.name(), '-f']);
  });

  it('sql -f csv prints csv; its file is -F or --file', async () => {
    expect(await cli(['sql', '-f', 'csv', 'select 1 as x'])).toEqual({ code: 0, stdout: 'x\r\n1\r\n', stderr: '' });
    const dir = mkdtempSync(join(tmpdir(), 'omg-term-'));
    try {
      writeFileSync(join(dir, 'q.sql'), 'select 2 as y');
      expect(await cli(['sql', '-F', join(dir, 'q.sql'), '-f', 'csv'])).toEqual({ code: 0, stdout: 'y\r\n2\r\n', stderr: '' });
      expect(await cli(['sql', '--file', join(dir, 'q.sql'), '--format', 'csv'])).toEqual({ code: 0, stdout: 'y\r\n2\r\n', stderr: '' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('colour', () => {
  const args = ['schema', '--format', 'table'];
  it('on a terminal, without NO_COLOR: bold header, grey borders', async () => {
    const run = await cli(args, { tty: true, env: { NO_COLOR: undefined } });
    expect(run.stdout.split('\n')[1]).toMatch(/^\x1b\[90m│\x1b\[39m\x1b\[1m view +\x1b\[22m\x1b\[90m│/);
  });

  it('NO_COLOR turns it off on a terminal', async () => {
    const run = await cli(args, { tty: true, env: { NO_COLOR: '1' } });
    expect(run.stdout).not.toContain(ESC);
    expect(run.stdout.split('\n')[0]).toMatch(/^┌─/);
  });

  it('TERM=dumb turns it off on a terminal (it had written escapes there); FORCE_COLOR still turns it on', async () => {
    const run = await cli(args, { tty: true, env: { NO_COLOR: undefined, TERM: 'dumb' } });
    expect(run.stdout).not.toContain(ESC);
    const forced = await cli(args, { tty: true, env: { NO_COLOR: undefined, TERM: 'dumb', FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain(ESC);
  });

  it('FORCE_COLOR turns it on in a pipe, and wins over NO_COLOR', async () => {
    for (const env of [{ FORCE_COLOR: '1' }, { FORCE_COLOR: '', NO_COLOR: '1' }, { FORCE_COLOR: '3' }]) {
      const run = await cli(args, { env });
      expect(run.stdout.split('\n')[0]).toMatch(/^\x1b\[90m┌─/);
    }
  });

  it('FORCE_COLOR=0 or false turns it off on a terminal', async () => {
    for (const FORCE_COLOR of ['0', 'false']) {
      const run = await cli(args, { tty: true, env: { NO_COLOR: undefined, FORCE_COLOR } });
      expect(run.stdout).not.toContain(ESC);
    }
  });
});

describe('tables fit the terminal', () => {
  it('fitWidths: narrow columns keep their width, wide ones share the rest', () => {
    // 80 - 4 borders - 6 padding = 70 for [3, 10, 100]: 3 and 10 kept, 57 left for the last.
    expect(fitWidths([3, 10, 100], 80)).toEqual({ widths: [3, 10, 57], kept: 3 });
    expect(fitWidths([50, 3, 60], 80)).toEqual({ widths: [33, 3, 34], kept: 3 });
    expect(fitWidths([3, 10, 20], 80)).toEqual({ widths: [3, 10, 20], kept: 3 });
  });

  it('fitWidths: columns are left out from the right when even shortened they would not fit', () => {
    // Each at least 8 wide (or its own width when narrower): 5 columns need 5×8 + 16 = 56 > 40.
    expect(fitWidths([30, 30, 30, 30, 30], 40)).toEqual({ widths: [10, 10, 10], kept: 3 });
    expect(fitWidths([2, 30, 30, 30, 30], 40)).toEqual({ widths: [2, 8, 8, 9], kept: 4 });
  });

  it('a table is never wider than the width it is given, and keeps its first columns (property)', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '…', '→', '|'), maxLength: 60 });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 12, max: 200 }),
        fc.array(fc.array(cell, { minLength: 12, maxLength: 12 }), { maxLength: 6 }),
        (n, width, cells) => {
          const columns: Column[] = Array.from({ length: n }, (_, i) => ({ key: `c${i}`, right: i % 2 === 1 }));
          const rows = cells.map((r) => Object.fromEntries(columns.map((c, i) => [c.key, r[i] as Cell])));
          let dropped: string[] = [];
          const out = toTable(columns, rows, { width, onDrop: (t) => (dropped = t) });
          const kept = out
            .split('\n')[1]!
            .split('│')
            .slice(1, -1)
            .map((h) => h.trim());
          expect(widest(out)).toBeLessThanOrEqual(width);
          expect([...kept.map((h) => h.replace(/…$/, '')), ...dropped].every((h, i) => `c${i}`.startsWith(h))).toBe(true);
          expect(kept.length + dropped.length).toBe(n);
        },
      ),
      { seed, numRuns: 300 },
    );
  });

  it('arms in 80 columns: shortened with …, columns left out named on stderr', async () => {
    const run = await cli(['arms', '--format', 'table'], { env: { COLUMNS: '80' } });
    expect(run.code).toBe(0);
    expect(widest(run.stdout)).toBeLessThanOrEqual(80);
    expect(run.stdout).toContain('…');
    expect(run.stderr).toBe(
      'omg-evidence: left out to fit 80 columns: artifacts, markers, denials, errors, notes; --wide shows every column, as does --format markdown\n',
    );
  });

  it('--wide, or a pipe with no COLUMNS, prints the table as wide as its cells', async () => {
    const piped = await cli(['arms', '--format', 'table']);
    expect(widest(piped.stdout)).toBeGreaterThan(300);
    expect(piped.stderr).toBe('');
    expect(await cli(['arms', '--format', 'table', '--wide'], { env: { COLUMNS: '80' } })).toEqual(piped);
  });

  it('other formats are never fitted', async () => {
    const md = await cli(['arms', '--format', 'markdown']);
    expect(await cli(['arms', '--format', 'markdown'], { env: { COLUMNS: '80' } })).toEqual(md);
  });

  it('sql select * from spawns fits 80 columns', async () => {
    const run = await cli(['sql', 'select * from spawns', '--format', 'table'], { env: { COLUMNS: '80' } });
    expect(run.code).toBe(0);
    expect(widest(run.stdout)).toBeLessThanOrEqual(80);
    expect(run.stderr).toMatch(
      /^omg-evidence: left out to fit 80 columns: [^\n]*; --wide shows every column, as does --format markdown\n$/,
    );
  });

  it('census in 80 columns keeps every row, one line each', async () => {
    const wide = await cli(['census', '--format', 'table']);
    const run = await cli(['census', '--format', 'table'], { env: { COLUMNS: '80' } });
    expect(widest(run.stdout)).toBeLessThanOrEqual(80);
    expect(run.stdout.split('\n')).toHaveLength(wide.stdout.split('\n').length);
  });
});

describe('money', () => {
  it('a decimal string is rounded to 4 places on its own digits, half up, never through a double', () => {
    expect(['225179981368524.830000000', '0.000049999', '0.00005', '-1.23456', '12', '0.1'].map((v) => dollars(v))).toEqual([
      '$225179981368524.8300',
      '$0.0000',
      '$0.0001',
      '$-1.2346',
      '$12.0000',
      '$0.1000',
    ]);
    // A number is rounded on the digits it prints, as a DECIMAL's string is: toFixed gave $0.0003 for 0.00035.
    expect([0.00035, 0.145952, -0.5, 1e-7, -0.00004].map((v) => dollars(v))).toEqual([
      '$0.0004',
      '$0.1460',
      '$-0.5000',
      '$0.0000',
      '$0.0000',
    ]);
    // A number in exponent form has its digits written out: $1e+21 and a cost of 5e-7 shown as $0.000000 before.
    expect([dollars(1e21), dollars(1.2345678901234568e29), dollars(5e-7, 6)]).toEqual([
      '$1000000000000000000000.0000',
      '$123456789012345680000000000000.0000',
      '$0.000001',
    ]);
    expect(dollars('225179981368524.830000000', 6)).toBe('$225179981368524.830000');
  });

  it('prints as dollars to 4 places in markdown and table, a spawn with no envelope blank, not $0', async () => {
    const md = await cli(['cost', '--format', 'markdown']);
    expect(md.code).toBe(0);
    const lines = md.stdout.split('\n');
    expect(lines).toContain('| T-REF | 2 | $0.1460 |');
    expect(lines).toContain('| K-REPO-D | 3 | $0.2826 |');
    expect(lines).toContain('| K-NEG | 1 |  |');
    expect(lines).toContain('| claude-opus-5\\[1m] | 27 | $2.3896 | 594 | 19769 | 1301996 | 198620 |');
    // The ADR's own words for the total and the bound stay as it writes them.
    expect(lines).toContain('**Spent:** $2.4616 over 28 spawns (27 with an envelope): 20.51% of the $12 bound, 70% of the 40 spawns');
    const table = (await cli(['cost', '--format', 'table'])).stdout.split('\n');
    expect(table).toContain('│ T-REF       │      2 │  $0.1460 │');
    expect(table).toContain('│ K-NEG       │      1 │          │');
  });

  it('is the exact number in json, and null where there is no envelope', async () => {
    const c = JSON.parse((await cli(['cost', '--format', 'json'])).stdout);
    const arm = (name: string) => c.by_arm.find((a: { arm: string }) => a.arm === name);
    expect(arm('T-REF')).toEqual({ arm: 'T-REF', spawns: 2, cost_usd: 0.145952 });
    expect(arm('K-NEG')).toEqual({ arm: 'K-NEG', spawns: 1, cost_usd: null });
  });

  it("the verdict's budget line: what was spent to 4 places, the bound as registered", async () => {
    const run = await cli(['verdict', '--format', 'markdown']);
    expect(run.stdout.split('\n')).toContain('**Budget:** $2.4616 of $12 (20.51%), 28 of 40 spawns (70%): within');
  });
});

describe('a list cell', () => {
  // csv had joined a list by spaces: a label holding a space read back as two, and no label ([]) as unknown (null).
  it('is a JSON array in csv, read back whole, and its words in a table or markdown', () => {
    const col: Column[] = [{ key: 'x' }];
    const field = (csv: string) => {
      const f = csv.split('\r\n')[1]!;
      return f.startsWith('"') ? f.slice(1, -1).replaceAll('""', '"') : f;
    };
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom('a', ' ', ',', '"', '[', '\n', 'é') })), (list) => {
        expect(JSON.parse(field(toCsv(col, [{ x: list }])))).toEqual(list);
      }),
      { seed, numRuns: 300 },
    );
    expect(toCsv(col, [{ x: [] }, { x: null }])).toBe('x\r\n[]\r\n\r\n');
    expect(toMarkdown(col, [{ x: ['a b', 'c'] }])).toBe('| x |\n|:---|\n| a b c |\n');
  });
});

describe('one column order in every format', () => {
  const csvHeader = (out: string) => out.split('\r\n')[0]!.split(',');
  const jsonKeys = (out: string) => Object.keys((JSON.parse(out) as Record<string, unknown>[])[0]!);
  const commands: [string, string[]][] = [
    ['census', ['census']],
    ['census of sessions', ['census', '--transcripts', 'test/fixtures/transcripts/census-two-sessions']],
    ['skills', ['skills']],
    ['arms', ['arms']],
    ['agree', ['agree']],
    ['audit', ['audit', 'test/fixtures/audit/home-paths']],
    ['schema', ['schema']],
  ];
  for (const [name, args] of commands) {
    it(`${name}: json's keys are csv's columns, in csv's order, and table and markdown keep that order`, async () => {
      const csv = await cli([...args, '--format', 'csv']);
      const json = await cli([...args, '--format', 'json']);
      expect(jsonKeys(json.stdout)).toEqual(csvHeader(csv.stdout));
      // The display forms show a subset (one probe needs no probe column) under titles of their own.
      const titled: Record<string, string> = {
        session: 'session_id',
        exit: name === 'arms' ? 'exit_codes' : 'exit_code',
        'skills fired': 'skills',
        'unknown skills': 'unknown_skills',
        where: 'file',
      };
      const md = (await cli([...args, '--format', 'markdown'])).stdout;
      if (name === 'schema') return; // markdown: one table per view
      const shown = md
        .split('\n')[0]!
        .split('|')
        .slice(1, -1)
        .map((h) => h.trim())
        .map((h) => titled[h] ?? h);
      const order = csvHeader(csv.stdout);
      expect(shown.map((h) => order.indexOf(h))).toEqual([...shown.map((h) => order.indexOf(h))].sort((a, b) => a - b));
      expect(shown.every((h) => order.includes(h))).toBe(true);
    });
  }
});

describe('transcripts alone: no probe, no arm', () => {
  const dir = 'test/fixtures/transcripts/census-differing-skills';
  it('skills --transcripts DIR has no probe or arm column, in any format', async () => {
    const md = await cli(['skills', '--transcripts', dir, '--format', 'markdown']);
    expect(md.stdout.split('\n')[0]).toBe('| session | tool_use_id | skill | is_error | result | definition |');
    const csv = await cli(['skills', '--transcripts', dir, '--format', 'csv']);
    expect(csv.stdout.split('\r\n')[0]).toBe('session_id,tool_use_id,skill,is_error,result,definition');
    const json = JSON.parse((await cli(['skills', '--transcripts', dir, '--format', 'json'])).stdout);
    expect(Object.keys(json[0])).toEqual(['session_id', 'tool_use_id', 'skill', 'is_error', 'result', 'definition']);
  });

  it('census --transcripts DIR has none either', async () => {
    const csv = await cli(['census', '--transcripts', dir, '--format', 'csv']);
    expect(csv.stdout.split('\r\n')[0]).toBe('session_id,first_timestamp,versions,models,tools,skills,lines,files');
  });

  it('with a probe, skills keeps its probe and arm', async () => {
    const csv = await cli(['skills', '--format', 'csv']);
    expect(csv.stdout.split('\r\n')[0]).toBe('probe,arm,session_id,tool_use_id,skill,is_error,result,definition');
  });
});
