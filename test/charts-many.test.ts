/**
 * The charts over many categories and over what cannot be drawn (review s35a): a thousand arms drawn
 * on one axis (vega-lite had compiled a sort by an array of keys into a nested expression that
 * overflowed vega's parser's stack); and values that are null, left out of what is drawn (summed into a
 * stack they had made a priced bar zero-high) and said in the text alternative; and more categories
 * than the palette's eight colours, the seven largest coloured and the rest one "(n others)".
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chartSvg } from '../src/output/chart-svg.js';
import { costByModelChart } from '../src/output/charts.js';
import { perDayChart } from '../src/output/charts-sessions.js';
import { cli } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'omg-charts-many-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A valid probe of `n` registered arms, A-0…A-(n-1), of one spawn each with one Write call. */
function manyArms(n: number): string {
  const dir = join(tmp, `arms-${n}`);
  mkdirSync(join(dir, 'tool_use'), { recursive: true });
  mkdirSync(join(dir, 'registration', 'conjuncts'), { recursive: true });
  const rows: string[] = [];
  for (let i = 0; i < n; i++) {
    const session = `${String(i).padStart(8, '0')}-0000-4000-8000-000000000001`;
    const envelope = {
      type: 'result',
      subtype: 'success',
      is_error: false,
      session_id: session,
      total_cost_usd: 0.01,
      permission_denials: [],
    };
    rows.push(
      JSON.stringify({
        seq: i + 1,
        arm: `A-${i}`,
        phase: 'A',
        session_id: session,
        mode: 'candidate',
        argv_file: null,
        plugin_dir: null,
        started_at: '2026-08-12T14:01:00.000+09:00',
        ended_at: '2026-08-12T14:01:30.000+09:00',
        exit_code: 0,
        claude_version: '2.1.228',
        envelope,
        artifacts: [],
        markers: [],
      }),
    );
    writeFileSync(
      join(dir, 'tool_use', `${session}.jsonl`),
      `${JSON.stringify({ id: `toolu_${i}`, name: 'Write', input_keys: ['file_path'] })}\n`,
    );
  }
  writeFileSync(join(dir, 'results.jsonl'), `${rows.join('\n')}\n`);
  const prereg = [
    { kind: 'budget', usd: 100, spawns: n },
    ...rows.map((_, i) => ({ kind: 'arm', arm: `A-${i}`, phase: 'A', n: 1 })),
    { kind: 'conjunct', n: 1, required: 'the arms ran', check: 'conjuncts/1-ran.sql' },
  ];
  writeFileSync(join(dir, 'registration', 'prereg.jsonl'), `${prereg.map((r) => JSON.stringify(r)).join('\n')}\n`);
  writeFileSync(
    join(dir, 'registration', 'conjuncts', '1-ran.sql'),
    "-- 1-ran: conjunct 1, the arms ran.\n--\n-- reads:   spawns\n-- params:  probe\n-- returns: one row (holds BOOLEAN, result VARCHAR)\n\nselect count(*) > 0 as holds, format('{} spawn(s)', count(*)) as result\nfrom spawns\n",
  );
  return dir;
}

describe('a thousand categories', () => {
  const probe = manyArms(1000);

  it('report --html draws every chart of a probe of 1,000 arms, each arm on the axis', async () => {
    const file = join(tmp, 'many.html');
    const r = await cli(['report', probe, '--html', file]);
    expect(r.stderr).toMatch(/^omg-evidence: report: .*many\.html written\n$/);
    const html = readFileSync(file, 'utf8');
    const costs = html.match(/<figure class="chart" id="p1-cost-by-arm">[\s\S]*?<\/svg>/)![0];
    expect(costs).toContain('>A-0</text>');
    expect(costs).toContain('>A-999</text>');
  }, 60_000);

  it("render's format=svg region of cost draws them too", async () => {
    const doc = join(tmp, 'adr.md');
    writeFileSync(doc, `# ADR\n\n<!-- omg-evidence:begin cost probe=arms-1000 format=svg -->\n<!-- omg-evidence:end -->\n`);
    const r = await cli(['render', doc]);
    expect(r.stderr).toMatch(/: 1 of 1 region\(s\) rewritten\n$/);
    expect(readFileSync(join(tmp, 'adr.cost.svg'), 'utf8')).toContain('>A-999</text>');
  }, 60_000);

  it('tokens per day over 1,000 days draws each day', async () => {
    const usage = Array.from({ length: 1000 }, (_, i) => ({
      key: `day ${i}`,
      model: 'm',
      is_total: false,
      is_breakdown: true,
      total_tokens: 1,
      cost_usd: 1,
    }));
    expect(await chartSvg(perDayChart(usage, 'tokens'))).toContain('>day 999</text>');
  });
});

/** A figure of a report page: its drawn text, its text alternative and what it says when it draws nothing. */
function figureOf(html: string, id: string) {
  const f = html.match(new RegExp(`<figure class="chart" id="${id}">[\\s\\S]*?</figure>`))![0];
  return {
    svg: f.match(/<svg[\s\S]*<\/svg>/)?.[0] ?? null,
    labels: [...f.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]),
    alt: f.match(/<p class="alt" id="[^"]+">([^<]*)<\/p>/)![1],
    none: f.match(/<p class="none">([^<]*)<\/p>/)?.[1] ?? null,
  };
}

describe('values that are null', () => {
  it("cost per day draws the priced model's cost under an unpriced one, and says what it leaves out", async () => {
    const file = join(tmp, 'unpriced.html');
    expect((await cli(['report', '--transcripts', join('test', 'fixtures', 'usage', 'unpriced'), '--html', file])).code).toBe(0);
    const cost = figureOf(readFileSync(file, 'utf8'), 't-cost-per-day');
    // One bar, of the priced model's $0.0026: 207 of the 220 pixels high, not zero.
    expect(cost.svg).toMatch(/<path d="M[\d.]+,[\d.]+h14v207\.\d+h-14Z" fill="#0072B2"\/>/);
    expect(cost.labels.filter((l) => l.startsWith('$'))).toEqual(['$0.0000', '$0.0005', '$0.0010', '$0.0015', '$0.0020', '$0.0025']);
    expect(cost.labels).not.toContain('claude-imaginary-9');
    expect(cost.alt).toBe(
      'What the sessions’ API responses cost per day (UTC), at the shipped price table, stacked by model. Not drawn: 1 row(s) of the table, 2 response(s) whose model has no price.',
    );
  });

  it('tokens per day count the responses that name no model, as (none); cost per day says they are unpriced (both had been dropped unsaid)', async () => {
    const file = join(tmp, 'no-model.html');
    expect((await cli(['report', '--transcripts', join('test', 'fixtures', 'usage', 'no-model'), '--html', file])).code).toBe(0);
    const html = readFileSync(file, 'utf8');
    const tokens = figureOf(html, 't-tokens-per-day');
    expect(tokens.labels).toEqual(expect.arrayContaining(['(none)', 'claude-opus-4-5']));
    expect(figureOf(html, 't-cost-per-day').alt).toBe(
      'What the sessions’ API responses cost per day (UTC), at the shipped price table, stacked by model. Not drawn: 1 row(s) of the table, 1 response(s) whose model has no price.',
    );
  });

  it('cost by arm when no spawn has an envelope says there is nothing to draw, as a chart with no row does', async () => {
    const file = join(tmp, 'no-envelope.html');
    expect((await cli(['report', join('test', 'fixtures', 'probes', 'no-envelope'), '--html', file])).code).toBe(0);
    const cost = figureOf(readFileSync(file, 'utf8'), 'p1-cost-by-arm');
    expect([cost.svg, cost.none]).toEqual([null, 'Nothing to draw: no row has a value.']);
    expect(cost.alt).toBe(
      'What each arm&#39;s spawns cost, pilots and void spawns included, from their envelopes&#39; total_cost_usd. Not drawn: 2 row(s) of the table, with no cost (USD).',
    );
  });
});

/** The fill colours of a chart's bars (the legend's symbols are paths of their own, not counted). */
const barColours = (svg: string) => [...svg.matchAll(/<path d="M[^"]*h[\d.]+v[\d.]+h-[\d.]+Z" fill="(#[0-9A-F]{6})"\/>/g)].map((m) => m[1]);

describe('more categories than colours', () => {
  it('nine tools in one arm: the seven most called keep a colour each, the other two are one, and the table has all nine', async () => {
    const file = join(tmp, 'nine-tools.html');
    expect((await cli(['report', join('test', 'fixtures', 'probes', 'nine-tools'), '--html', file])).code).toBe(0);
    const html = readFileSync(file, 'utf8');
    const tools = figureOf(html, 'p1-tools-per-arm');
    const colours = barColours(tools.svg!);
    expect([colours.length, new Set(colours).size]).toEqual([8, 8]);
    const tool = (n: number) => Array.from({ length: n }, (_, i) => `Tool${i + 1}`);
    expect(tools.labels.slice(tools.labels.indexOf('arm') + 1, -2)).toEqual([...tool(7), '(2 others)']);
    expect(tools.alt).toBe(
      'Tool calls of each arm over its spawns (pilots excepted), stacked by tool; arms in registration order. Coloured: the seven with the most, the other 2 together as (2 others); the table has each.',
    );
    const table = html.match(/<figure class="chart" id="p1-tools-per-arm">[\s\S]*?<\/figure>/)![0].match(/<tbody>[\s\S]*<\/tbody>/)![0];
    expect([...table.matchAll(/<bdi>(Tool\d)<\/bdi>/g)].map((m) => m[1])).toEqual(tool(9));
  });

  it('cost by nine models: each model its bar on the axis, no two bars of one colour but the two in (2 others)', async () => {
    const chart = costByModelChart(Array.from({ length: 9 }, (_, i) => ({ model: `m${i}`, cost_usd: 9 - i })));
    const svg = await chartSvg(chart);
    for (let i = 0; i < 9; i++) expect(svg).toContain(`>m${i}</text>`);
    const colours = barColours(svg);
    expect(colours).toHaveLength(9);
    expect(new Set(colours.slice(0, 7)).size).toBe(7);
    expect(colours[7]).toBe(colours[8]);
    expect(colours.slice(0, 7)).not.toContain(colours[7]);
    expect(svg).toContain('>(2 others)</text>');
  });

  it('tokens per day by nine models: eight colours, the last the two smallest models', async () => {
    const usage = Array.from({ length: 9 }, (_, i) => ({
      key: '2026-01-01',
      model: `m${i}`,
      is_total: false,
      is_breakdown: true,
      total_tokens: 9 - i,
      cost_usd: 1,
    }));
    const svg = await chartSvg(perDayChart(usage, 'tokens'));
    expect(new Set(barColours(svg)).size).toBe(8);
    expect(svg).toContain('>m6</text>');
    expect(svg).not.toContain('>m7</text>');
    expect(svg).toContain('>(2 others)</text>');
  });
});

/** Sessions of one tool call each under ~/.claude/projects-like folders: `calls` maps a folder to its calls' tool names. */
function sessions(name: string, calls: Record<string, string[]>): string {
  const dir = join(tmp, name);
  let n = 0;
  for (const [folder, tools] of Object.entries(calls)) {
    mkdirSync(join(dir, folder), { recursive: true });
    const session = `${String(++n).padStart(8, '0')}-0000-4000-8000-000000000001`;
    const lines = tools.map((tool, i) =>
      JSON.stringify({
        parentUuid: null,
        isSidechain: false,
        userType: 'external',
        cwd: '/work',
        sessionId: session,
        version: '2.1.228',
        type: 'assistant',
        message: {
          model: 'claude-opus-4-6',
          role: 'assistant',
          content: [{ type: 'tool_use', id: `toolu_${n}_${i}`, name: tool, input: {} }],
        },
        uuid: `u${n}-${i}`,
        timestamp: `2026-08-12T05:00:0${i}.000Z`,
      }),
    );
    writeFileSync(join(dir, folder, `${session}.jsonl`), `${lines.join('\n')}\n`);
  }
  return dir;
}

describe('buckets', () => {
  it('a project folder named "(other projects)" is a project of its own, not the bucket of the projects past twenty', async () => {
    const calls: Record<string, string[]> = { '(other projects)': ['other', 'other', 'Read'] };
    for (let i = 1; i <= 19; i++) calls[`p${i}`] = ['Read', 'Read'];
    calls.p20 = ['Read'];
    calls.p21 = ['Read'];
    const file = join(tmp, 'buckets.html');
    expect((await cli(['report', '--transcripts', sessions('buckets', calls), '--html', file])).code).toBe(0);
    const html = readFileSync(file, 'utf8');
    const tools = figureOf(html, 't-tools-per-project');
    // On the axis: the folder first (most calls), the bucket last; in the legend, the tool "other".
    expect(tools.labels.filter((l) => l === '(other projects)')).toHaveLength(2);
    expect(tools.labels.indexOf('(other projects)')).toBeLessThan(tools.labels.indexOf('p1'));
    expect(tools.labels.lastIndexOf('(other projects)')).toBeGreaterThan(tools.labels.indexOf('p19'));
    expect(tools.labels).toContain('other');
    const table = html.match(/<figure class="chart" id="t-tools-per-project">[\s\S]*?<\/figure>/)![0];
    expect(table).toContain('<tr><td><bdi>(other projects)</bdi></td><td><bdi>other</bdi></td><td class="num">2</td></tr>');
    expect(table).toContain('<tr><td><em>(other projects)</em></td><td><bdi>Read</bdi></td><td class="num">2</td></tr>');
  });
});
