/**
 * `omg-evidence arms [PROBE...]`: the per-arm result table (queries/arms.sql), one row per arm in
 * registration order.
 */
import { Command } from 'commander';
import { pythonDict, type ToolCount } from '../../output/census-block.js';
import type { Row } from '../../evidence.js';
import { Evidence, withEvidence } from '../../evidence.js';
import { render, TABULAR_FORMATS, type Cell, type Column, type TableStyle } from '../../output/formats.js';
import { warn, type IO } from '../io.js';
import { chosenFormat, dbOption, formatOption, tableStyle, wideOption } from '../options.js';

type Format = (typeof TABULAR_FORMATS)[number];

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
  return { ...a, tools: Object.fromEntries(a.tools.map((t) => [t.name, t.count])) };
}

export function formatArms(rows: Row[], format: Format, style: TableStyle = {}): string {
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
  return render(format, columns, arms, { cells: armCells, json: armJson, style });
}

export function makeArmsCommand(io: IO): Command {
  return new Command('arms')
    .description('the per-arm result table, in registration order')
    .argument('[probe...]', 'probe directories')
    .addOption(formatOption(TABULAR_FORMATS))
    .addOption(wideOption())
    .addOption(dbOption())
    .action(async (probes: string[], opts: { format?: Format; wide?: boolean; db?: string }) => {
      const format = chosenFormat(opts.format, io);
      await withEvidence(Evidence.open(probes, { onWarning: (w) => warn(io, w), db: opts.db }), async (ev) => {
        io.stdout(formatArms(await ev.armRows(), format, tableStyle(io, opts.wide)));
      });
    });
}
