/** The command factory: a description becomes a commander command that hands its action one call. */
import { describe, expect, it } from 'vitest';
import { type Call, makeCommand } from '../src/cli/command.js';
import type { IO } from '../src/cli/io.js';
import { dbOption } from '../src/cli/options.js';
import { documentedColumns, formatSchema, type ViewDoc } from '../src/output/schema.js';

const io = (tty: boolean): IO => ({ stdout: () => {}, stderr: () => {}, stdoutIsTTY: tty, stderrIsTTY: false, env: {} });

/** Run a command made from `spec` on `argv`, and return the call its action was given. */
async function called(argv: string[], spec: Partial<Parameters<typeof makeCommand>[1]> = {}, tty = false) {
  let got: Call<Record<string, unknown>> | undefined;
  const cmd = makeCommand<Record<string, unknown>>(io(tty), {
    name: 'probe-command',
    description: 'a test command',
    ...spec,
    action: async (call) => {
      got = call;
    },
  });
  await cmd.exitOverride().parseAsync(argv, { from: 'user' });
  return got!;
}

describe('makeCommand', () => {
  it('takes probe directories by default, and offers --format and --wide before its own options', async () => {
    const call = await called(['a', 'b', '--db', 'x.duckdb', '-f', 'csv'], { formats: ['text', 'csv'], options: [dbOption()] });
    expect(call.probes).toEqual(['a', 'b']);
    expect(call.args).toEqual([['a', 'b']]);
    expect(call.opts).toEqual({ db: 'x.duckdb', format: 'csv' });
    expect(call.format).toBe('csv');
    const help = makeCommand(io(false), { name: 'c', description: 'd', formats: ['text'], options: [dbOption()], action: async () => {} })
      .helpInformation()
      .split('\n')
      .filter((l) => l.trim().startsWith('-'))
      .map((l) => l.trim().split(/\s+/)[0]);
    expect(help).toEqual(['-f,', '--wide', '--db', '-h,']);
  });

  it('picks the default format for where stdout goes: markdown in a pipe, table on a terminal', async () => {
    expect((await called([], { formats: ['table', 'markdown'] })).format).toBe('markdown');
    expect((await called([], { formats: ['table', 'markdown'] }, true)).format).toBe('table');
    expect((await called([])).format).toBe('');
  });

  it('hands other arguments as given, and no probes when the first argument is not [probe...]', async () => {
    const call = await called(['SELECT 1', 'p'], {
      arguments: [
        ['[query]', 'the SQL'],
        ['[probe...]', 'probe directories'],
      ],
    });
    expect(call.args).toEqual(['SELECT 1', ['p']]);
    expect(call.probes).toEqual([]);
    expect((await called([], { arguments: [] })).args).toEqual([]);
  });
});

describe('the schema table', () => {
  const views: ViewDoc[] = [
    { name: 'spawns', grain: 'spawn', columns: { probe: 'the probe', seq: 'its order' } },
    { name: 'turns', grain: 'turn', source: 'transcripts', columns: { uuid: 'the line' } },
  ];
  const types = [
    { table_name: 'spawns', column_name: 'probe', data_type: 'VARCHAR' },
    { table_name: 'turns', column_name: 'uuid', data_type: 'UUID' },
  ];

  it("gives each documented column DuckDB's type, blank when no table has it", () => {
    expect(documentedColumns(views, types)).toEqual([
      { view: 'spawns', column: 'probe', type: 'VARCHAR', meaning: 'the probe' },
      { view: 'spawns', column: 'seq', type: '', meaning: 'its order' },
      { view: 'turns', column: 'uuid', type: 'UUID', meaning: 'the line' },
    ]);
  });

  it('prints one markdown table per view, under a line saying what a row is', () => {
    expect(formatSchema(views, documentedColumns(views, types), 'markdown')).toBe(
      [
        '**`spawns`**: one row per spawn.',
        '',
        '| column | type | meaning |',
        '|:---|:---|:---|',
        '| `probe` | VARCHAR | the probe |',
        '| `seq` |  | its order |',
        '',
        '**`turns`**: one row per turn (empty unless transcripts are loaded).',
        '',
        '| column | type | meaning |',
        '|:---|:---|:---|',
        '| `uuid` | UUID | the line |',
        '',
      ].join('\n'),
    );
  });
});
