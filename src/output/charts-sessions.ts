/** The sessions' charts of a report (issue #20): usage per day, tools per project, top skills. */
import type { Row } from '../base/shapes.js';
import { type Bucket, byOrder, capped, coded, labelOf, nameField, orderField } from './chart-keys.js';
import { type Chart, colours, hbar, moneyFormat, notDrawn, spec, valued } from './charts.js';

/** Tokens, or cost, per day stacked by model (queries/usage.sql, daily, with its breakdown rows). */
export function perDayChart(usage: Row[], what: 'tokens' | 'cost'): Chart {
  const rows = usage
    // The breakdown rows, responses that name no model too (a bucket: a model may be named "(none)").
    .filter((r) => r.is_breakdown === true)
    .map((r) => ({
      day: r.key,
      model: r.model ?? ({ bucket: '(none)' } satisfies Bucket),
      value: what === 'tokens' ? r.total_tokens : r.cost_usd === null ? null : Number(r.cost_usd),
    }));
  const drawn = valued(rows, 'value');
  const models = capped(drawn, 'model', (r) => Number(r.value));
  const { values, names } = coded(models.rows, ['day', 'model']);
  const title = what === 'tokens' ? 'Tokens per day, by model' : 'Cost per day, by model';
  const description =
    what === 'tokens'
      ? `Input, output and cache tokens of the sessions’ API responses per day (UTC), stacked by model.${models.note}`
      : `What the sessions’ API responses cost per day (UTC), at the shipped price table, stacked by model.${models.note}${notDrawn(rows.length - drawn.length, `${unpriced(usage)} response(s) whose model has no price`)}`;
  const yTitle = what === 'tokens' ? 'tokens' : 'cost (USD)';
  return {
    id: `${what}-per-day`,
    title,
    description,
    spec: spec(title, description, {
      height: 220,
      data: { values },
      mark: { type: 'bar' },
      encoding: {
        x: {
          field: 'day',
          type: 'ordinal',
          title: 'day (UTC)',
          sort: byOrder('day'),
          axis: { labelAngle: -45, labelExpr: labelOf('day') },
        },
        y: {
          field: 'value',
          type: 'quantitative',
          aggregate: 'sum',
          title: yTitle,
          axis: { format: what === 'cost' ? moneyFormat(values.map((r) => r.value)) : '~s' },
        },
        color: {
          field: 'model',
          type: 'nominal',
          title: 'model',
          scale: colours(),
          sort: byOrder('model'),
          legend: { labelExpr: labelOf('model') },
        },
        order: { field: orderField('model'), type: 'quantitative' },
        tooltip: [
          { field: nameField('day'), type: 'nominal', title: 'day (UTC)' },
          { field: nameField('model'), type: 'nominal', title: 'model' },
          { field: 'value', type: 'quantitative', aggregate: 'sum', title: yTitle },
        ],
      },
    }),
    table: {
      columns: [
        { key: 'day', title: 'day (UTC)' },
        { key: 'model', title: 'model' },
        { key: 'value', title: yTitle, right: true, money: what === 'cost' },
      ],
      rows,
    },
    names,
    empty: values.length === 0,
  };
}

/** The unpriced responses of the breakdown rows with no cost (queries/usage.sql's unpriced). */
const unpriced = (usage: Row[]) =>
  usage.filter((r) => r.is_breakdown === true && r.cost_usd === null).reduce((n, r) => n + Number(r.unpriced ?? 0), 0);

/** Tool calls per project, stacked by tool (queries/tools_by_project.sql). */
export function toolsPerProjectChart(rows: Row[]): Chart {
  // The query marks its buckets by flags: a folder named "(other projects)" is a project of its own.
  const bucketed = rows.map((r) => ({
    ...r,
    project: r.other_projects ? OTHER_PROJECTS : r.project === null ? NO_PROJECT : r.project,
    tool: r.other_tools ? OTHER_TOOLS : r.tool,
  }));
  return hbar({
    id: 'tools-per-project',
    title: 'Tool calls per project, by tool',
    description:
      'Tool calls of the sessions of each project (its folder), stacked by tool: the seven most called, the rest as (other tools); past twenty projects, the rest as (other projects).',
    rows: bucketed,
    y: { field: 'project', title: 'project' },
    x: { field: 'calls', title: 'tool calls (count)' },
    colour: { field: 'tool', title: 'tool' },
  });
}

const OTHER_PROJECTS: Bucket = { bucket: '(other projects)' };
const NO_PROJECT: Bucket = { bucket: '(no project)' };
const OTHER_TOOLS: Bucket = { bucket: '(other tools)' };

/** The skills named most (queries/top_skills.sql). */
export function topSkillsChart(rows: Row[]): Chart {
  return hbar({
    id: 'top-skills',
    title: 'Top skills',
    description: 'The skills the sessions’ Skill and SlashCommand calls named most, by calls.',
    rows: rows.map((r) => ({ skill: r.skill, calls: r.calls, sessions: r.sessions })),
    y: { field: 'skill', title: 'skill' },
    x: { field: 'calls', title: 'calls (count)' },
  });
}
