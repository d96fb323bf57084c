/**
 * The per-arm result table (queries/arms.sql) in the tabular formats: every fact of the ADR's result
 * table, in words.
 */
import { pythonDict, type ToolCount, toolsObject } from './census-block.js';
import { jsonCells, tabulate, type Cell, type Column, type Row, type TableStyle, type TabularFormat } from './formats.js';

interface Arm {
  probe: string;
  arm: string;
  phase: string;
  registered_n: number | null;
  n: number;
  status: string;
  exit_codes: { code: number; spawns: number }[];
  tools: ToolCount[];
  skills: { skill: string; definition: string | null; spawns: number }[];
  unknown_skills: { skill: string; spawns: number }[];
  artifacts: { label: string; present: number; absent: number }[];
  markers: { marker: string; spawns: number }[];
  denials: number;
  errors: string[];
  notes: string[];
}

/** The display form of one arm: every fact of the ADR's result table, in words. */
export function armCells(a: Arm): Record<string, Cell> {
  const exits = a.exit_codes.length === 1 ? String(a.exit_codes[0]!.code) : a.exit_codes.map((e) => `${e.code} ×${e.spawns}`).join(', ');
  const skills = a.skills.map((s) => {
    const resolved =
      s.definition && !s.skill.startsWith(`${s.definition}:`) ? ` → ${s.definition}` : s.definition ? '' : ' → (no namespace)';
    return `${s.skill}${resolved} ${s.spawns} of ${a.n}`;
  });
  const artifacts = a.artifacts.map((x) =>
    [x.present ? `${x.label} ×${x.present}` : '', x.absent ? `${x.present ? '' : `${x.label} `}absent ×${x.absent}` : '']
      .filter(Boolean)
      .join(', '),
  );
  return {
    probe: a.probe,
    arm: a.arm,
    phase: a.phase,
    registered_n: a.registered_n,
    n: a.n,
    status: a.status,
    exit_codes: exits,
    tools: a.n ? pythonDict(a.tools) : '',
    skills: skills.join('; '),
    unknown_skills: a.unknown_skills.map((u) => `${u.skill} → Unknown skill, ${u.spawns} of ${a.n}`).join('; '),
    artifacts: artifacts.join('; '),
    markers: a.markers.map((m) => `${m.marker} ×${m.spawns}`).join('; '),
    denials: a.denials,
    errors: a.errors.join('; '),
    notes: a.notes.join('; '),
  };
}

export function armJson(a: Arm) {
  return { ...a, tools: toolsObject(a.tools) };
}

export function formatArms(rows: Row[], format: TabularFormat, style: TableStyle = {}): string {
  const arms = rows as unknown as Arm[];
  const probes = new Set(arms.map((a) => a.probe));
  const columns: Column[] = [
    ...(probes.size > 1 || format === 'csv' ? [{ key: 'probe' }] : []),
    { key: 'arm' },
    { key: 'phase' },
    // The ADR's result table has no registered n: csv has it, as json does.
    ...(format === 'csv' ? [{ key: 'registered_n', right: true }] : []),
    { key: 'n', right: true },
    { key: 'status' },
    { key: 'exit_codes', title: 'exit' },
    { key: 'tools' },
    { key: 'skills', title: 'skills fired' },
    { key: 'unknown_skills', title: 'unknown skills' },
    { key: 'artifacts' },
    { key: 'markers' },
    { key: 'denials', right: true },
    { key: 'errors' },
    { key: 'notes' },
  ];
  // csv carries json's values (lists and objects as JSON text); the words are the table's and markdown's.
  const cells = format === 'csv' ? (a: Arm) => jsonCells(armJson(a)) : armCells;
  return tabulate(format, columns, arms, { cells, json: armJson, style });
}
