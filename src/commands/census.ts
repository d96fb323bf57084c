/**
 * `omg-evidence census [PROBE...]`: the per-spawn tool_use census (queries/census.sql), in the
 * ADR's fixed-width text block or any tabular format.
 */
import { Command, Option } from 'commander';
import { censusBlock, skillList, toolsText, type CensusRow } from '../census-text.js';
import { Evidence } from '../evidence.js';
import { defaultFormat, render, TABULAR_FORMATS, type Cell, type Column, type TabularFormat } from '../format.js';
import { useColor, warn, type IO } from '../io.js';

const FORMATS = ['text', ...TABULAR_FORMATS] as const;
type Format = (typeof FORMATS)[number];

/** The JSON form of a census row: `tools` as an object with sorted keys (null when gone). */
export function censusJson(r: CensusRow) {
  return {
    probe: r.probe,
    seq: r.seq,
    arm: r.arm,
    phase: r.phase,
    session_id: r.session_id,
    exit_code: r.exit_code,
    status: r.status,
    tools: r.tools === null ? null : Object.fromEntries(r.tools.map((t) => [t.name, t.count])),
    artifacts: r.artifacts,
    markers: r.markers,
    skills: r.skills,
    note: r.note,
  };
}

/** Render census rows in `format`. Several probes get a probe column (text: a heading per probe). */
export function formatCensus(rows: CensusRow[], format: Format, color = false): string {
  const probes = [...new Set(rows.map((r) => r.probe))];
  if (format === 'text') {
    if (probes.length <= 1) return censusBlock(rows);
    return probes.map((p) => `${p}\n${censusBlock(rows.filter((r) => r.probe === p))}`).join('\n');
  }
  const wide = format === 'csv';
  const columns: Column[] = [
    ...(probes.length > 1 || wide ? [{ key: 'probe' }] : []),
    { key: 'seq', right: true },
    { key: 'arm' },
    { key: 'phase' },
    wide ? { key: 'session_id' } : { key: 'session' },
    { key: 'status' },
    { key: 'exit_code', title: wide ? 'exit_code' : 'exit', right: true },
    { key: 'tools' },
    { key: 'artifacts' },
    { key: 'markers' },
    { key: 'skills' },
    { key: 'note' },
  ];
  const display: Record<string, Cell>[] = rows.map((r) => ({
    probe: r.probe,
    seq: r.seq,
    arm: r.arm,
    phase: r.phase,
    session: r.session_id.slice(0, 8),
    session_id: r.session_id,
    status: r.status,
    exit_code: r.exit_code,
    tools: wide ? (r.tools === null ? null : JSON.stringify(censusJson(r).tools)) : toolsText(r.tools),
    artifacts: r.artifacts.join(' '),
    markers: r.markers.join(' '),
    skills: (wide ? r.skills : skillList(r.skills)).join(' '),
    note: r.note,
  }));
  return render(format as TabularFormat, columns, display, rows.map(censusJson), color);
}

export function makeCensusCommand(io: IO): Command {
  return new Command('census')
    .description('per-spawn tool_use census of one or more probes (default: the bundled probe)')
    .argument('[probe...]', 'probe directories')
    .addOption(
      new Option('-f, --format <format>', 'text is the ADR block; default: table on a terminal, else markdown').choices(FORMATS),
    )
    .action(async (probes: string[], opts: { format?: Format }) => {
      const format = opts.format ?? defaultFormat(io.stdoutIsTTY);
      const ev = await Evidence.open(probes, { onWarning: (w) => warn(io, w) });
      try {
        io.stdout(formatCensus(await ev.censusRows(), format, useColor(io)));
      } finally {
        ev.close();
      }
    });
}

