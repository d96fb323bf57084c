/**
 * `omg-evidence schema`: the documented views (db/views.ts), each column with DuckDB's type and what
 * it means. The types are read from the tables the loaders build, so they cannot drift.
 */
import type { Command } from 'commander';
import { Evidence, VIEWS } from '../../evidence.js';
import { TABULAR_FORMATS, type TabularFormat } from '../../output/formats.js';
import { documentedColumns, formatSchema } from '../../output/schema.js';
import { makeEvidenceCommand } from '../command.js';
import type { IO } from '../io.js';

export function makeSchemaCommand(io: IO): Command {
  return makeEvidenceCommand(io, {
    name: 'schema',
    description: 'the views SQL can use (spawns, tool_uses, skill_calls, …): columns, types and meanings',
    arguments: [],
    formats: TABULAR_FORMATS,
    open: () => Evidence.open([]),
    rows: async (ev) => documentedColumns(VIEWS, await ev.viewColumns()),
    print: (rows, format, style) => formatSchema(VIEWS, rows, format as TabularFormat, style),
  });
}
