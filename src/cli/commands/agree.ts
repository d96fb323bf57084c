/**
 * `omg-evidence agree [PROBE...]`: the census from the committed records against the census from
 * the transcripts (queries/agree.sql). Exit 0 when every spawn compared agrees (a spawn with no
 * transcript is listed as gone, not as a disagreement); exit 3 when anything differs, or when a
 * probe had nothing compared: an agreement of nothing proves nothing.
 */
import { Command } from 'commander';
import type { Row } from '../../evidence.js';
import { DiffersError } from '../../base/errors.js';
import { Evidence, withEvidence } from '../../evidence.js';
import { render, TABULAR_FORMATS, type Cell, type Column, type TableStyle } from '../../output/formats.js';
import { warn, type IO } from '../io.js';
import { progressReporter } from '../progress.js';
import { chosenFormat, dbOption, formatOption, transcriptsOption, tableStyle, wideOption } from '../options.js';

const FORMATS = ['text', ...TABULAR_FORMATS] as const;
type Format = (typeof FORMATS)[number];

/** One line per row: `K-RES       1bb76aee  agree`, or the difference with both sides. */
function textLine(r: Row): string {
  const head = `${String(r.arm).padEnd(12)}${String(r.session_id).slice(0, 8)}  `;
  if (r.verdict === 'agree') return `${head}agree`;
  if (r.verdict === 'gone') return `${head}gone: ${r.item === null ? 'no transcript' : `${r.item} holds no session`}`;
  return `${head}differs: ${r.aspect} ${r.item}: records ${r.records}, transcripts ${r.transcripts}`;
}

export function formatAgree(rows: Row[], format: Format, style: TableStyle = {}): string {
  if (format === 'text') return rows.map((r) => `${textLine(r)}\n`).join('');
  const probes = new Set(rows.map((r) => r.probe));
  const wide = format === 'csv';
  const columns: Column[] = [
    ...(probes.size > 1 || wide ? [{ key: 'probe' }] : []),
    { key: 'seq', right: true },
    { key: 'arm' },
    wide ? { key: 'session_id' } : { key: 'session' },
    { key: 'verdict' },
    { key: 'aspect' },
    { key: 'item' },
    { key: 'records' },
    { key: 'transcripts' },
  ];
  return render(format, columns, rows, {
    cells: (r) => ({ ...(r as Record<string, Cell>), session: String(r.session_id).slice(0, 8) }),
    style,
  });
}

/** Counts for the summary: spawns compared (they agree or differ), and those gone, per probe. */
export function summarize(
  rows: Row[],
  probes: string[] = [],
): { spawns: number; agree: number; differ: number; gone: Row[]; uncompared: string[] } {
  const spawns = new Map<string, Row>();
  const differ = new Set<string>();
  for (const r of rows) {
    const key = `${r.probe}/${r.session_id}`;
    spawns.set(key, r);
    if (r.verdict === 'differ') differ.add(key);
  }
  const compared = new Set([...spawns].filter(([, r]) => r.verdict !== 'gone').map(([, r]) => String(r.probe)));
  const all = [...new Set([...probes, ...[...spawns.values()].map((r) => String(r.probe))])];
  return {
    spawns: spawns.size,
    agree: rows.filter((r) => r.verdict === 'agree').length,
    differ: differ.size,
    gone: rows.filter((r) => r.verdict === 'gone'),
    uncompared: all.filter((p) => !compared.has(p)),
  };
}

/** How many gone spawns the summary names before "and N more". */
const NAMED = 5;

/** The one-line summary: `agree: 27 of 28 spawn(s) compared: 27 agree, 0 differ; 1 gone (no transcript: K-NEG d3cf0e26)`. */
export function summaryLine(s: ReturnType<typeof summarize>): string {
  const named = s.gone.slice(0, NAMED).map((r) => `${r.arm} ${String(r.session_id).slice(0, 8)}`);
  if (s.gone.length > NAMED) named.push(`and ${s.gone.length - NAMED} more`);
  const gone = s.gone.length ? ` (no transcript: ${named.join(', ')})` : '';
  return `agree: ${s.agree + s.differ} of ${s.spawns} spawn(s) compared: ${s.agree} agree, ${s.differ} differ; ${s.gone.length} gone${gone}`;
}

export function makeAgreeCommand(io: IO): Command {
  return new Command('agree')
    .description('check that the census from the committed records and the census from the transcripts agree (exit 3 if not)')
    .argument('[probe...]', 'probe directories')
    .addOption(formatOption(FORMATS))
    .addOption(wideOption())
    .addOption(transcriptsOption())
    .addOption(dbOption())
    .action(async (probes: string[], opts: { format?: Format; wide?: boolean; transcripts?: string; db?: string }) => {
      const format = chosenFormat(opts.format, io);
      await withEvidence(
        Evidence.open(probes, {
          onWarning: (w) => warn(io, w),
          transcripts: opts.transcripts ?? true,
          db: opts.db,
          queries: ['agree'],
          onProgress: progressReporter(io),
        }),
        async (ev) => {
          const rows = await ev.agreeRows();
          io.stdout(formatAgree(rows, format, tableStyle(io, opts.wide)));
          const s = summarize(
            rows,
            ev.probes.map((p) => p.id),
          );
          const line = summaryLine(s);
          if (s.uncompared.length) {
            const which = s.uncompared.length < ev.probes.length ? ` for ${s.uncompared.join(', ')}` : '';
            throw new DiffersError(
              `${line}: nothing was compared${which}`,
              "pass --transcripts DIR, the folder that holds the spawns' sessions",
            );
          }
          if (s.differ) throw new DiffersError(line);
          io.stderr(`omg-evidence: ${line}\n`);
        },
      );
    });
}
