/**
 * `omg-evidence arms [PROBE...]`: the per-arm result table (queries/arms.sql), one row per arm in
 * registration order.
 */
import type { Command } from 'commander';
import { formatArms } from '../../output/arms.js';
import { TABULAR_FORMATS, type TabularFormat } from '../../output/formats.js';
import { makeEvidenceCommand } from '../command.js';
import type { IO } from '../io.js';
import { checkTimeoutOption, dbOption } from '../options.js';

export function makeArmsCommand(io: IO): Command {
  return makeEvidenceCommand(io, {
    name: 'arms',
    description: 'the per-arm result table, in registration order',
    formats: TABULAR_FORMATS,
    options: [dbOption(), checkTimeoutOption()],
    rows: (ev) => ev.armRows(),
    print: (rows, format, style) => formatArms(rows, format as TabularFormat, style),
  });
}
