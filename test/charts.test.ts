/**
 * The charts take names written by whoever made the evidence (arms, tools, projects, models): vega sees
 * only generated keys, so a name vega would read as code (U+2028, `constructor`, `__proto__`) is drawn
 * as its label; and vega never prints: a chart it cannot draw is one OmgError line (review of #20, item 2).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OmgError } from '../src/base/errors.js';
import { chartSvg } from '../src/output/chart-svg.js';
import { type Chart, costByModelChart, spawnsOverTimeChart, toolsPerArmChart } from '../src/output/charts.js';
import { perDayChart, topSkillsChart } from '../src/output/charts-sessions.js';

const NAMES = ['constructor', 'toString', '__proto__', 'a\u2028b', 'c\u2029d', 'q\'"x'];
const consoleCalls = () => {
  const spies = (['log', 'warn', 'error', 'info', 'debug'] as const).map((m) => vi.spyOn(console, m).mockImplementation(() => {}));
  return () => spies.reduce((n, s) => n + s.mock.calls.length, 0);
};
afterEach(() => vi.restoreAllMocks());

/** The text of the SVG's <text> elements, entities read. */
const texts = (svg: string) =>
  [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) =>
    m[1]!
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&'),
  );

describe('charts over hostile names', () => {
  it('tools per arm: arms and tools named like object properties or with U+2028/9 are drawn as their labels', async () => {
    const calls = consoleCalls();
    const arms = NAMES.map((arm, i) => ({ arm, tools: NAMES.map((name, j) => ({ name, count: i + j + 1 })) }));
    const svg = await chartSvg(toolsPerArmChart(arms));
    const drawn = texts(svg);
    for (const n of NAMES) expect(drawn.filter((t) => t === n).length).toBeGreaterThanOrEqual(2); // axis label and legend label
    expect(drawn.some((t) => /^c\d+$/.test(t))).toBe(false);
    expect(svg).not.toMatch(/aria-label="[^"]*\bc\d/);
    expect(calls()).toBe(0);
  });

  it('spawns over time, per day and top skills draw the same names', async () => {
    const calls = consoleCalls();
    const spawns = NAMES.map((arm, i) => ({
      seq: i,
      arm,
      phase: NAMES[(i + 1) % NAMES.length],
      status: 'counted',
      started_at: `2026-01-01T00:0${i}:00Z`,
      seconds: 1,
    }));
    const usage = NAMES.map((model, i) => ({
      key: `2026-01-0${i + 1}`,
      model,
      is_total: false,
      is_breakdown: true,
      total_tokens: 10 + i,
      cost_usd: 1,
    }));
    for (const chart of [
      spawnsOverTimeChart(spawns),
      perDayChart(usage, 'tokens'),
      topSkillsChart(NAMES.map((skill) => ({ skill, calls: 2, sessions: 1 }))),
    ]) {
      const drawn = texts(await chartSvg(chart));
      for (const n of NAMES) expect(drawn, chart.id).toContain(n);
    }
    expect(calls()).toBe(0);
  });

  it('a chart vega cannot draw is one OmgError line, and nothing is printed', async () => {
    const calls = consoleCalls();
    const chart: Chart = {
      id: 'broken',
      title: 't',
      description: 'd',
      names: {},
      empty: false,
      table: { columns: [], rows: [] },
      spec: {
        data: { values: [{ a: 1 }] },
        mark: 'bar',
        encoding: { x: { field: 'a', type: 'quantitative', axis: { labelExpr: 'nosuchfunction(datum.value)' } } },
      },
    };
    const err = await chartSvg(chart).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OmgError);
    expect((err as Error).message).toMatch(/^chart "broken": vega could not draw it: .*nosuchfunction/);
    expect((err as Error).message).not.toContain('\n');
    expect(calls()).toBe(0);
  });

  it('cost by model, coloured by the model itself, has its model column once in its table', () => {
    const chart = costByModelChart([{ model: 'm', cost_usd: 1 }]);
    expect(chart.table.columns.map((c) => c.key)).toEqual(['model', 'cost_usd']);
  });
});
