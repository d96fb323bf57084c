/**
 * The `schema` table: each documented view's columns, with DuckDB's type and what each means, in
 * the tabular formats; markdown gives one table per view under a line saying what a row is.
 */
import { tabulate, type Row, type TableStyle, type TabularFormat } from './formats.js';

/** A documented view as db/views.ts describes it: what this module reads of it. */
export interface ViewDoc {
  name: string;
  /** One row per … */
  grain: string;
  /** What fills it: a probe's records (absent), the transcripts, or the price table. */
  source?: 'transcripts' | 'pricing';
  columns: Record<string, string>;
}

/** One row per documented view and column: view, column, type (from `types`, DuckDB's columns), meaning. */
export function documentedColumns(views: readonly ViewDoc[], types: Row[]): Row[] {
  const typeOf = (t: string, c: string) => String(types.find((r) => r.table_name === t && r.column_name === c)?.data_type ?? '');
  return views.flatMap((v) =>
    Object.entries(v.columns).map(([column, meaning]) => ({
      view: v.name,
      column,
      type: typeOf(v.name, column),
      meaning,
    })),
  );
}

export function formatSchema(views: readonly ViewDoc[], rows: Row[], format: TabularFormat, style: TableStyle = {}): string {
  if (format === 'markdown') {
    // One table per view, under a line saying what a row is.
    return views
      .map((v) => {
        const mine = rows.filter((r) => r.view === v.name) as Record<string, string>[];
        const head = `**\`${v.name}\`**: one row per ${v.grain}${v.source === 'transcripts' ? ' (empty unless transcripts are loaded)' : ''}.\n\n`;
        return (
          head +
          tabulate(
            'markdown',
            [
              { key: 'column', markdown: true },
              { key: 'type', markdown: true },
              { key: 'meaning', markdown: true },
            ],
            mine,
            {
              cells: (r) => ({ ...r, column: `\`${r.column}\`` }),
            },
          )
        );
      })
      .join('\n');
  }
  return tabulate(format, [{ key: 'view' }, { key: 'column' }, { key: 'type' }, { key: 'meaning' }], rows as Record<string, string>[], {
    cells: (r) => r,
    style,
  });
}
