/**
 * What `report` shows, gathered from the public queries and the verdict: for each probe its
 * verdict, arms, cost, skill resolution, spawn times, census, forgeable markers and the audit of
 * its files; for the sessions, usage per day, tools per project, top skills and the longest and
 * costliest sessions. output/html.ts lays it out.
 */
import type { DuckDBValue } from '@duckdb/node-api';
import { InputError } from '../base/errors.js';
import type { Row } from '../base/shapes.js';
import type { Result } from '../db/database.js';
import type { Audit } from './audit.js';
import { costReports } from './cost.js';
import { type Verdict, VERDICT_QUERIES } from './verdict.js';

/** The queries a probe's report runs: what `report` opens the evidence for (OpenOptions.queries). */
export const PROBE_REPORT_QUERIES = [
  ...VERDICT_QUERIES,
  ...['arms', 'arm_roles', 'census'],
  ...['cost', 'cost_by_arm', 'cost_by_model', 'skill_resolution', 'spawn_times', 'probe_summary'],
];

/** The queries the sessions' part of a report runs. */
export const TRANSCRIPT_REPORT_QUERIES = ['usage', 'tools_by_project', 'top_skills', 'top_sessions'];

/** What the report reads: the opened evidence (a parameter, so that analysis/ never reaches up to the facade). */
export interface ReportSource {
  readonly probes: readonly Readonly<{ id: string; dir: string }>[];
  readonly hasTranscripts: boolean;
  query(name: string, params?: Record<string, DuckDBValue>): Promise<Result>;
  verdicts(): Promise<Verdict[]>;
  armRows(): Promise<Row[]>;
  censusRows(from: 'records', options: { forgeable: false }): Promise<readonly object[]>;
  forgeableRows(): Promise<readonly object[]>;
}

const rows = async (ev: ReportSource, name: string, params?: Record<string, DuckDBValue>) => (await ev.query(name, params)).rows;

/** One entry per probe, in load order; `audit` searches one probe directory. */
export async function probeReports(ev: ReportSource, audit: (dir: string) => Audit) {
  const [verdicts, arms, roles, costs, skills, spawns, summaries, census, forgeable] = await Promise.all([
    ev.verdicts(),
    ev.armRows(),
    rows(ev, 'arm_roles'),
    costReports(ev),
    rows(ev, 'skill_resolution'),
    rows(ev, 'spawn_times'),
    rows(ev, 'probe_summary'),
    ev.censusRows('records', { forgeable: false }),
    ev.forgeableRows(),
  ] as const);
  return verdicts.map((v) => {
    const mine = <T>(list: readonly T[]) => list.filter((r) => (r as { probe?: unknown }).probe === v.probe);
    const found = audit(ev.probes.find((p) => p.id === v.probe)!.dir);
    return {
      probe: v.probe,
      summary: mine(summaries)[0] ?? {},
      verdict: v,
      arms: mine(arms),
      roles: mine(roles),
      cost: costs.find((c) => c.probe === v.probe)!,
      skills: mine(skills),
      spawns: mine(spawns),
      census: mine(census),
      audit: { files: found.files, findings: found.findings },
      forgeable: mine(forgeable),
    };
  });
}

/** The sessions' part, days in UTC so that the page reads the same anywhere. */
export async function transcriptReport(ev: ReportSource, source: string, files: number) {
  if (!ev.hasTranscripts) throw new InputError('transcripts were not loaded', 'open with { transcripts: true } or a transcripts directory');
  const usage = { period: 'daily', timezone: 'UTC', since: '', until: '', breakdown: true };
  const [daily, tools, skills, longest, costliest] = await Promise.all([
    rows(ev, 'usage', usage),
    rows(ev, 'tools_by_project'),
    rows(ev, 'top_skills'),
    rows(ev, 'top_sessions', { by: 'duration' }),
    rows(ev, 'top_sessions', { by: 'cost' }),
  ]);
  return { source, files, usage: daily, tools, skills, longest, costliest };
}
