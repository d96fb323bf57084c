/**
 * The report's charts: a Vega-Lite spec per chart, made from rows the queries gave (a probe's here,
 * the sessions' in charts-sessions.ts), drawn to SVG by chart-svg.ts. Values arrive computed; a
 * chart only maps them to marks.
 */
import type { Row } from '../base/shapes.js';
import { byOrder, capped, coded, labelOf, nameField, orderField } from './chart-keys.js';

export { byOrder, coded, labelOf, nameField, orderField } from './chart-keys.js';

/**
 * One accessible categorical palette, used by every chart: Okabe & Ito's colour-blind-safe set, with
 * grey in place of black so that it reads on a dark page too.
 */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#999999'] as const;

/** A chart to draw: its title (also the SVG's), what it shows in words, its spec, and its data as a table. */
export interface Chart {
  id: string;
  title: string;
  /** The text alternative: what the chart shows, in a sentence. */
  description: string;
  spec: Record<string, unknown>;
  /** The real names behind each coded field's keys (c0, c1…), in key order: the datasets the labels read. */
  names: Record<string, string[]>;
  /** Whether no row has a value to draw (none at all, or all null): the page then says so, and draws no empty frame. */
  empty: boolean;
  /** The chart's numbers as a table, for readers who cannot see it (and for print). */
  table: { columns: { key: string; title: string; right?: boolean; money?: boolean }[]; rows: Row[] };
}

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** The look every chart shares: transparent, so the page's light or dark background shows through. */
export const CONFIG = {
  background: 'transparent',
  // No ARIA inside the SVG: the page marks it role="img" with its own name and description, and a
  // document shows it as an <img> with alt text, so readers never reach the marks; and the marks'
  // labels would name the generated keys (c0, c1…), not the names.
  aria: false,
  font: FONT,
  view: { stroke: null },
  axis: { domainColor: '#888888', tickColor: '#888888', gridColor: '#88888844', labelColor: '#555555', titleColor: '#555555' },
  legend: { labelColor: '#555555', titleColor: '#555555', orient: 'bottom', direction: 'horizontal', columns: 4, labelLimit: 260 },
  title: { anchor: 'start', fontSize: 14, color: '#333333' },
  range: { category: [...PALETTE] },
  bar: { discreteBandSize: 14 },
};

const WIDTH = 560;

export function spec(title: string, description: string, body: Record<string, unknown>): Record<string, unknown> {
  return { title, description, width: WIDTH, config: CONFIG, ...body };
}

/**
 * A colour scale over a field sorted byOrder: its domain is the keys in that order, so the key at index i
 * has the palette's colour i (and "Unknown skill" is always the same one).
 */
export const colours = () => ({ range: [...PALETTE] });

/**
 * The rows that have a value in `field`: a null is not drawn (summed into a stack it had made a priced
 * model's bar zero-high). The text alternative says how many are left out, as `notDrawn` writes.
 */
export const valued = (rows: Row[], field: string) => rows.filter((r) => r[field] !== null && r[field] !== undefined);

/**
 * A money axis's format: cents, or as many decimals as the largest value needs to show its ticks apart
 * (responses of $0.0026 had an axis of $0.00 at every tick).
 */
export function moneyFormat(values: unknown[]): string {
  const max = Math.max(0, ...values.map((v) => Math.abs(Number(v))).filter(Number.isFinite));
  const decimals = max > 0 ? Math.min(8, Math.max(2, Math.ceil(-Math.log10(max)) + 1)) : 2;
  return `$,.${decimals}f`;
}

/** What a chart's description adds when some of its table's rows have no value and are not drawn. */
export const notDrawn = (rows: number, why: string) => (rows === 0 ? '' : ` Not drawn: ${rows} row(s) of the table, ${why}.`);

interface HBar {
  id: string;
  title: string;
  description: string;
  rows: Row[];
  /** The category on the y axis, in the order given. */
  y: { field: string; title: string };
  x: { field: string; title: string; money?: boolean };
  /** Stack by this field, coloured. */
  colour?: { field: string; title: string };
}

/** Horizontal bars, stacked by `colour` when given: the shape of most of the report's charts. */
export function hbar(c: HBar): Chart {
  // Coloured by the category itself (cost by model), the colour is a copy: capping it leaves each bar its own.
  const colour = c.colour && c.colour.field === c.y.field ? `${c.colour.field}_colour` : c.colour?.field;
  const valuedRows = valued(c.rows, c.x.field);
  const copied = colour && colour !== c.colour?.field ? valuedRows.map((r) => ({ ...r, [colour]: r[c.y.field] })) : valuedRows;
  const drawn = colour ? capped(copied, colour, (r) => Number(r[c.x.field])) : { rows: copied, note: '' };
  const { values, names } = coded(drawn.rows, colour ? [c.y.field, colour] : [c.y.field]);
  const description = `${c.description}${drawn.note}${notDrawn(c.rows.length - valuedRows.length, `with no ${c.x.title}`)}`;
  const x = {
    field: c.x.field,
    type: 'quantitative',
    aggregate: 'sum',
    title: c.x.title,
    ...(c.x.money ? { axis: { format: moneyFormat(values.map((r) => r[c.x.field])) } } : { axis: { format: ',d', tickMinStep: 1 } }),
  };
  const encoding: Record<string, unknown> = {
    y: {
      field: c.y.field,
      type: 'nominal',
      title: c.y.title,
      sort: byOrder(c.y.field),
      axis: { labelLimit: 320, labelExpr: labelOf(c.y.field) },
    },
    x,
    tooltip: [
      { field: nameField(c.y.field), type: 'nominal', title: c.y.title },
      ...(c.colour && colour ? [{ field: nameField(colour), type: 'nominal', title: c.colour.title }] : []),
      { field: c.x.field, type: 'quantitative', aggregate: 'sum', title: c.x.title },
    ],
  };
  if (c.colour && colour) {
    encoding.color = {
      field: colour,
      type: 'nominal',
      title: c.colour.title,
      scale: colours(),
      sort: byOrder(colour),
      legend: { labelExpr: labelOf(colour) },
    };
    encoding.order = { field: orderField(colour), type: 'quantitative' };
  } else encoding.color = { value: PALETTE[0] };
  const columns = [
    { key: c.y.field, title: c.y.title },
    // Coloured by the category itself (cost by model), the column is shown once.
    ...(c.colour && c.colour.field !== c.y.field ? [{ key: c.colour.field, title: c.colour.title }] : []),
    { key: c.x.field, title: c.x.title, right: true, money: c.x.money },
  ];
  return {
    id: c.id,
    title: c.title,
    description,
    spec: spec(c.title, description, { data: { values }, mark: { type: 'bar' }, encoding }),
    names,
    empty: values.length === 0,
    table: { columns, rows: c.rows },
  };
}

interface ToolCount {
  name: string;
  count: number;
}

/** Tool calls per arm, stacked by tool (queries/arms.sql: each arm's tools over its non-pilot spawns). */
export function toolsPerArmChart(arms: Row[]): Chart {
  const rows = arms.flatMap((a) => ((a.tools as ToolCount[] | null) ?? []).map((t) => ({ arm: a.arm, tool: t.name, calls: t.count })));
  return hbar({
    id: 'tools-per-arm',
    title: 'Tool calls per arm, by tool',
    description: 'Tool calls of each arm over its spawns (pilots excepted), stacked by tool; arms in registration order.',
    rows,
    y: { field: 'arm', title: 'arm' },
    x: { field: 'calls', title: 'tool calls (count)' },
    colour: { field: 'tool', title: 'tool' },
  });
}

/** Cost by arm (queries/cost_by_arm.sql), pilots and void spawns included. */
export function costByArmChart(byArm: Row[]): Chart {
  return hbar({
    id: 'cost-by-arm',
    title: 'Cost by arm',
    description: "What each arm's spawns cost, pilots and void spawns included, from their envelopes' total_cost_usd.",
    rows: byArm.map((r) => ({ arm: r.arm, spawns: r.spawns, cost_usd: r.cost_usd })),
    y: { field: 'arm', title: 'arm' },
    x: { field: 'cost_usd', title: 'cost (USD)', money: true },
  });
}

/** Cost by model (queries/cost_by_model.sql). */
export function costByModelChart(byModel: Row[]): Chart {
  return hbar({
    id: 'cost-by-model',
    title: 'Cost by model',
    description: "What each model cost over the probe's spawns, from the envelopes' modelUsage.",
    rows: byModel.map((r) => ({ model: r.model, cost_usd: r.cost_usd })),
    y: { field: 'model', title: 'model' },
    x: { field: 'cost_usd', title: 'cost (USD)', money: true },
    colour: { field: 'model', title: 'model' },
  });
}

/** Which definition answered each arm's Skill calls (queries/skill_resolution.sql). */
export function skillResolutionChart(rows: Row[]): Chart {
  return hbar({
    id: 'skill-resolution',
    title: 'Skill resolution per arm',
    description:
      'Skill calls of each arm by what answered them: the namespace of the definition launched, or Unknown skill when the CLI did not know the name.',
    rows: rows.map((r) => ({ arm: r.arm, answer: r.answer, calls: r.calls })),
    y: { field: 'arm', title: 'arm' },
    x: { field: 'calls', title: 'Skill calls (count)' },
    colour: { field: 'answer', title: 'answered by' },
  });
}

/** Each spawn as a point at its start, one row per arm, coloured by phase (queries/spawn_times.sql). */
export function spawnsOverTimeChart(rows: Row[]): Chart {
  const timed = rows.filter((r) => r.started_at !== null);
  const phases = capped(timed, 'phase', () => 1);
  const { values, names } = coded(phases.rows, ['arm', 'phase']);
  const title = 'Spawns over time, by phase';
  const description = `Each spawn at the time it started (UTC), on its arm’s row, coloured by phase; hollow points are pilots and void spawns.${phases.note}`;
  return {
    id: 'spawns-over-time',
    title,
    description,
    spec: spec(title, description, {
      height: { step: 18 },
      data: { values },
      mark: { type: 'point', size: 70, strokeWidth: 2 },
      encoding: {
        x: { field: 'started_at', type: 'temporal', title: 'started (UTC, hh:mm)', scale: { type: 'utc' }, axis: { format: '%H:%M' } },
        y: { field: 'arm', type: 'nominal', title: 'arm', sort: byOrder('arm'), axis: { labelExpr: labelOf('arm') } },
        color: {
          field: 'phase',
          type: 'nominal',
          title: 'phase',
          scale: colours(),
          sort: byOrder('phase'),
          legend: { labelExpr: labelOf('phase') },
        },
        fill: {
          condition: {
            test: "datum.status === 'counted'",
            field: 'phase',
            type: 'nominal',
            scale: colours(),
            sort: byOrder('phase'),
            legend: null,
          },
          value: 'transparent',
        },
        tooltip: [
          { field: 'seq', type: 'quantitative' },
          { field: nameField('arm'), type: 'nominal', title: 'arm' },
          { field: 'status', type: 'nominal' },
          { field: 'started_at', type: 'temporal', format: '%Y-%m-%d %H:%M:%S', scale: { type: 'utc' } },
        ],
      },
    }),
    table: {
      columns: [
        { key: 'seq', title: 'seq', right: true },
        { key: 'arm', title: 'arm' },
        { key: 'phase', title: 'phase' },
        { key: 'status', title: 'status' },
        { key: 'started_at', title: 'started (UTC)' },
        { key: 'seconds', title: 'seconds', right: true },
      ],
      rows: timed,
    },
    names,
    empty: timed.length === 0,
  };
}
