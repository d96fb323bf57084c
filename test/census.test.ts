/**
 * The census of the bundled probe against the reference ADR's own census block, and the census's
 * shapes in every format.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pythonDict } from '../src/output/census-block.js';
import { cli, probeFixture, shared, withoutShared } from './helpers.js';

/** The "Full tool_use census per spawn" block, as printed in the reference ADR. */
function referenceBlock(): string[] {
  const adr = readFileSync(join(shared, 'reference', 'adr-0017-k-staged-agent.txt'), 'utf8').split('\n');
  const start = adr.findIndex((l) => l.startsWith('Full tool_use census per spawn')) + 1;
  const lines: string[] = [];
  for (let i = start; i < adr.length; i++) {
    if (adr[i]!.trim() === '') {
      if (lines.length) break;
      continue;
    }
    lines.push(adr[i]!);
  }
  return lines;
}

const collapse = (s: string) => s.replace(/ +/g, ' ');

describe('census of the bundled probe', () => {
  const adr = join(shared, 'reference', 'adr-0017-k-staged-agent.txt');
  it.skipIf(withoutShared(adr, 'census.test.ts: the reference ADR census block'))('reproduces the reference ADR census block', async () => {
    const ref = referenceBlock();
    expect(ref).toHaveLength(28);
    const run = await cli(['census', '--format', 'text']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const got = run.stdout.split('\n');
    expect(got.pop()).toBe('');
    expect(got).toHaveLength(ref.length);
    for (let i = 0; i < ref.length; i++) {
      // Line for line once runs of spaces are collapsed ...
      expect(collapse(got[i]!)).toBe(collapse(ref[i]!));
      // ... and byte for byte where the ADR's author placed no note by hand.
      if (!ref[i]!.includes('(')) expect(got[i]).toBe(ref[i]);
    }
  });

  it('matches its goldens in text, markdown, csv and json', async () => {
    for (const [format, file] of [
      ['text', 'census.txt'],
      ['markdown', 'census.md'],
      ['csv', 'census.csv'],
      ['json', 'census.json'],
    ] as const) {
      const run = await cli(['census', '--format', format]);
      expect(run.code).toBe(0);
      await expect(run.stdout).toMatchFileSnapshot(join('golden', file));
    }
  });

  it('prints JSON with the documented keys, one object per spawn in seq order', async () => {
    const rows = JSON.parse((await cli(['census', '--format', 'json'])).stdout);
    expect(rows).toHaveLength(28);
    expect(rows.map((r: { seq: number }) => r.seq)).toEqual([...Array(28).keys()].map((i) => i + 1));
    for (const r of rows) {
      expect(Object.keys(r)).toEqual([
        'probe',
        'seq',
        'arm',
        'phase',
        'session_id',
        'status',
        'exit_code',
        'tools',
        'artifacts',
        'markers',
        'skills',
        'note',
        'forgeable',
      ]);
      expect(Object.keys(r.tools)).toEqual(Object.keys(r.tools).sort());
    }
    expect(rows.filter((r: { status: string }) => r.status === 'counted')).toHaveLength(25);
  });

  it('defaults to markdown when stdout is not a terminal, and a table when it is', async () => {
    expect((await cli(['census'])).stdout).toBe((await cli(['census', '--format', 'markdown'])).stdout);
    const table = await cli(['census'], { tty: true });
    expect(table.stdout).toBe((await cli(['census', '--format', 'table'])).stdout);
  });
});

describe('census of other probes', () => {
  it('loads several probes at once; every row carries its probe', async () => {
    const run = await cli(['census', probeFixture('minimal'), probeFixture('second'), '--format', 'json']);
    expect(run.code).toBe(0);
    const rows = JSON.parse(run.stdout);
    expect(rows.map((r: { probe: string; seq: number }) => `${r.probe}#${r.seq}`)).toEqual(['minimal#1', 'minimal#2', 'second#1']);
    expect(rows[2]).toMatchObject({ tools: { Bash: 1 }, status: 'counted', note: null });
  });

  it('heads each probe in text and adds a probe column in the tabular formats', async () => {
    const text = await cli(['census', probeFixture('minimal'), probeFixture('second'), '--format', 'text']);
    expect(text.stdout).toBe(
      'minimal\n' +
        "A-ONE       aaaaaaaa  {'Skill': 1, 'Write': 2}  BREACH  -                 ns:thing\n" +
        'A-TWO       bbbbbbbb  {}                        -       M@HOME\n' +
        '\n' +
        'second\n' +
        "B-ONE       cccccccc  {'Bash': 1}               -       -\n",
    );
    const md = await cli(['census', probeFixture('minimal'), probeFixture('second'), '--format', 'markdown']);
    expect(md.stdout.split('\n')[0]).toBe(
      '| probe | seq | arm | phase | session | status | exit | tools | artifacts | markers | skills | note | forgeable |',
    );
  });

  it('counts every record as counted, with no notes, when a probe has no registration', async () => {
    const rows = JSON.parse((await cli(['census', probeFixture('minimal'), '--format', 'json'])).stdout);
    expect(rows.map((r: { status: string; note: null }) => [r.status, r.note])).toEqual([
      ['counted', null],
      ['counted', null],
    ]);
  });

  it('takes pilot and void status and notes from the registration', async () => {
    const run = await cli(['census', probeFixture('registered'), '--format', 'json']);
    const rows = JSON.parse(run.stdout);
    expect(rows.map((r: { status: string; note: string | null }) => [r.status, r.note])).toEqual([
      ['pilot', 'pilot, addendum 1'],
      ['void', null],
    ]);
  });

  // skill_results.jsonl lists toolu_b before toolu_a; the tool_use file calls toolu_a first.
  it('skills from records lists the calls in call order, not skill_results.jsonl line order', async () => {
    const run = await cli(['skills', probeFixture('skills-call-order'), '--format', 'json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).map((r: { tool_use_id: string }) => r.tool_use_id)).toEqual(['toolu_a', 'toolu_b']);
  });

  it('shortens namespaced skills from the second on', async () => {
    const { censusLine } = await import('../src/output/census-block.js');
    const line = censusLine({
      probe: 'p',
      seq: 1,
      arm: 'X',
      phase: 'A',
      session_id: '0123456789ab',
      exit_code: 0,
      status: 'counted',
      tools: [{ name: 'Skill', count: 3 }],
      artifacts: [],
      markers: [],
      skills: ['ns:a', 'b', 'ns:c'],
      note: 'n',
      forgeable: ['BREACH'],
    });
    expect(line).toBe("X           01234567  {'Skill': 3}              -       -                 ns:a  b  ns:…  (n)");
  });
});

describe("census's Python dict", () => {
  it("is python3's repr of the dict, a backslash escaped in a double-quoted name too", () => {
    const tools = [
      { name: 'Write', count: 1 },
      { name: "it's', 'Bash\\", count: 1 },
      { name: 'a\\b', count: 2 },
      { name: `both ' and "`, count: 3 },
    ];
    const python = spawnSync('python3', ['-c', 'import json, sys; print(repr(dict(json.load(sys.stdin))), end="")'], {
      input: JSON.stringify(tools.map((t) => [t.name, t.count])),
      encoding: 'utf8',
    });
    expect(python.status).toBe(0);
    expect(pythonDict(tools)).toBe(python.stdout);
    expect(pythonDict(tools.slice(0, 2))).toBe(`{'Write': 1, "it's', 'Bash\\\\": 1}`);
  });
});
