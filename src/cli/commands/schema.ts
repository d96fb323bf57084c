/**
 * `omg-evidence schema`: the documented views (views.ts), each column with DuckDB's type and what
 * it means. The types are read from the tables the loaders build, so they cannot drift.
 */
import { Command } from 'commander';
import type { Row } from '../../evidence.js';
import { Evidence, withEvidence } from '../../evidence.js';
import { render, TABULAR_FORMATS, type TableStyle } from '../../output/formats.js';
import type { IO } from '../io.js';
import { chosenFormat, formatOption, tableStyle, wideOption } from '../options.js';
import { VIEWS } from '../../evidence.js';

type Format = (typeof TABULAR_FORMATS)[number];

/** One row per documented view and column: view, grain, column, type, meaning. */
export async function schemaRows(ev: Evidence): Promise<Row[]> {
  const types = await ev.viewColumns();
  const typeOf = (t: string, c: string) => String(types.find((r) => r.table_name === t && r.column_name === c)?.data_type ?? '');
  return VIEWS.flatMap((v) =>
    Object.entries(v.columns).map(([column, meaning]) => ({
      view: v.name,
      column,
      type: typeOf(v.name, column),
      meaning,
    })),
  );
}

export function formatSchema(rows: Row[], format: Format, style: TableStyle = {}): string {
  if (format === 'markdown') {
    // One table per view, under a line saying what a row is.
    return VIEWS.map((v) => {
      const mine = rows.filter((r) => r.view === v.name) as Record<string, string>[];
      const head = `**\`${v.name}\`**: one row per ${v.grain}${v.transcripts ? ' (empty unless transcripts are loaded)' : ''}.\n\n`;
      return (
        head +
        render('markdown', [{ key: 'column' }, { key: 'type' }, { key: 'meaning' }], mine, {
          cells: (r) => ({ ...r, column: `\`${r.column}\`` }),
        })
      );
    }).join('\n');
  }
  return render(format, [{ key: 'view' }, { key: 'column' }, { key: 'type' }, { key: 'meaning' }], rows as Record<string, string>[], {
    cells: (r) => r,
    style,
  });
}

export function makeSchemaCommand(io: IO): Command {
  return new Command('schema')
    .description('the views SQL can use (spawns, tool_uses, skill_calls, …): columns, types and meanings')
    .addOption(formatOption(TABULAR_FORMATS))
    .addOption(wideOption())
    .action(async (opts: { format?: Format; wide?: boolean }) => {
      const format = chosenFormat(opts.format, io);
      await withEvidence(Evidence.open([]), async (ev) => {
        io.stdout(formatSchema(await schemaRows(ev), format, tableStyle(io, opts.wide)));
      });
    });
}
