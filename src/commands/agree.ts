/**
 * `omg-evidence agree [PROBE...]`: the census from the committed records against the census from
 * the transcripts (queries/agree.sql). Exit 0 when every spawn agrees (a spawn with no transcript
 * is listed as gone, not as a disagreement); exit 3 when anything differs.
 */
import { Command } from 'commander';
import type { Row } from '../db.js';
import { DiffersError } from '../errors.js';
import { Evidence, withEvidence } from '../evidence.js';
import { render, TABULAR_FORMATS, type Cell, type Column } from '../format.js';
import { useColor, warn, type IO } from '../io.js';
import { progressReporter } from '../progress.js';
import { chosenFormat, dbOption, formatOption, transcriptsOption } from '../options.js';

const FORMATS = ['text', ...TABULAR_FORMATS] as const;
type Format = (typeof FORMATS)[number];

/** One line per row: `K-RES       1bb76aee  agree`, or the difference with both sides. */
function textLine(r: Row): string {
  const head = `${String(r.arm).padEnd(12)}${String(r.session_id).slice(0, 8)}  `;
  if (r.verdict === 'agree') return `${head}agree`;
  if (r.verdict === 'gone') return `${head}gone: no transcript`;
  return `${head}differs: ${r.aspect} ${r.item}: records ${r.records}, transcripts ${r.transcripts}`;
}

export function formatAgree(rows: Row[], format: Format, color = false): string {
  if (format === 'text') return rows.map((r) => textLine(r) + '\n').join('');
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
    color,
  });
}

/** Counts for the summary: spawns that agree, have no transcript, differ. */
export function summarize(rows: Row[]): { agree: number; gone: Row[]; differ: Set<string> } {
  const differ = new Set(rows.filter((r) => r.verdict === 'differ').map((r) => `${r.probe}/${r.session_id}`));
  return {
    agree: rows.filter((r) => r.verdict === 'agree').length,
    gone: rows.filter((r) => r.verdict === 'gone'),
    differ,
  };
}

export function makeAgreeCommand(io: IO): Command {
  return new Command('agree')
    .description('check that the census from the committed records and the census from the transcripts agree (exit 3 if not)')
    .argument('[probe...]', 'probe directories')
    .addOption(formatOption(FORMATS))
    .addOption(transcriptsOption())
    .addOption(dbOption())
    .action(async (probes: string[], opts: { format?: Format; transcripts?: string; db?: string }) => {
      const format = chosenFormat(opts.format, io);
      await withEvidence(Evidence.open(probes, { onWarning: (w) => warn(io, w), transcripts: opts.transcripts ?? true, db: opts.db, onProgress: progressReporter(io) }), async (ev) => {
        const rows = await ev.agreeRows();
        io.stdout(formatAgree(rows, format, useColor(io)));
        const s = summarize(rows);
        const gone = s.gone.length
          ? `, ${s.gone.length} gone (no transcript: ${s.gone.map((r) => `${r.arm} ${String(r.session_id).slice(0, 8)}`).join(', ')})`
          : '';
        if (s.differ.size) {
          throw new DiffersError(`${s.differ.size} spawn(s) differ between records and transcripts; ${s.agree} agree${gone}`);
        }
        io.stderr(`omg-evidence: agree: ${s.agree} spawn(s) agree${gone}\n`);
      });
    });
}
