/**
 * What the user's SQL may not do that the locked configuration does not stop (src/db/refusals.ts),
 * a NUL byte in its text, a RETURNING before the last statement, and --timeout reaching parsing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { Evidence } from '../src/evidence.js';
import { REFUSED_FUNCTIONS } from '../src/db/refusals.js';
import { gatherStatements, statementTypes } from '../src/db/statements.js';
import { bin, bundled, cli, tempFolders } from './helpers.js';

const temp = tempFolders('omg-refusals-');
const HINT = '(leave it out: SQL here reads the evidence, and changes nothing beyond its own transaction)';
const called = (name: string, why: string, i = 1) => `omg-evidence: <argument>: statement ${i} calls ${name}(), which ${why} ${HINT}\n`;
const PRAGMA =
  'omg-evidence: <argument>: statement 1 is a PRAGMA that changes how DuckDB runs, which SQL here may not do (leave it out: a PRAGMA that reads (table_info, show_tables, version, …) runs)\n';
const LOG_ON = "turns DuckDB's log on, for every connection (it can write to stdout or a file)";

/**
 * Every table function this DuckDB has that SQL here may call: each only reads (the catalogue, the
 * log, a file, which external access refuses). One a DuckDB upgrade adds fails the test below until
 * it is put here or in REFUSED_FUNCTIONS.
 */
const READS = [
  'duckdb_approx_database_count',
  'duckdb_columns',
  'duckdb_connection_count',
  'duckdb_constraints',
  'duckdb_coordinate_systems',
  'duckdb_databases',
  'duckdb_dependencies',
  'duckdb_extensions',
  'duckdb_external_file_cache',
  'duckdb_functions',
  'duckdb_indexes',
  'duckdb_keywords',
  'duckdb_log_contexts',
  'duckdb_logs',
  'duckdb_logs_parsed',
  'duckdb_memory',
  'duckdb_optimizers',
  'duckdb_prepared_statements',
  'duckdb_profiling_settings',
  'duckdb_schemas',
  'duckdb_secret_types',
  'duckdb_secrets',
  'duckdb_sequences',
  'duckdb_settings',
  'duckdb_table_sample',
  'duckdb_tables',
  'duckdb_temporary_files',
  'duckdb_types',
  'duckdb_variables',
  'duckdb_views',
  'generate_series',
  'glob',
  'histogram',
  'histogram_values',
  'icu_calendar_names',
  'json_each',
  'json_tree',
  'parquet_bloom_probe',
  'parquet_file_metadata',
  'parquet_full_metadata',
  'parquet_kv_metadata',
  'parquet_metadata',
  'parquet_scan',
  'parquet_schema',
  'pg_timezone_names',
  'pragma_collations',
  'pragma_database_size',
  'pragma_metadata_info',
  'pragma_platform',
  'pragma_show',
  'pragma_storage_info',
  'pragma_table_info',
  'pragma_user_agent',
  'pragma_version',
  'query',
  'query_table',
  'range',
  'read_blob',
  'read_csv',
  'read_csv_auto',
  'read_duckdb',
  'read_json',
  'read_json_auto',
  'read_json_objects',
  'read_json_objects_auto',
  'read_ndjson',
  'read_ndjson_auto',
  'read_ndjson_objects',
  'read_ndjson_objects_auto',
  'read_parquet',
  'read_text',
  'repeat',
  'repeat_row',
  'seq_scan',
  'sniff_csv',
  'sql_auto_complete',
  'summary',
  'test_all_types',
  'test_vector_types',
  'unnest',
  'which_secret',
];

async function catalogue(kinds: string): Promise<{ con: DuckDBConnection; names: string[] }> {
  const con = await (await DuckDBInstance.create(':memory:')).connect();
  const reader = await con.runAndReadAll(
    `select distinct function_name from duckdb_functions() where function_type in (${kinds}) order by 1`,
  );
  return { con, names: reader.getRows().map((r) => String(r[0])) };
}

describe('SQL that would change DuckDB beyond its transaction is refused before it runs', () => {
  it("CALL enable_logging(storage='file'): exit 1 and a one-line error, where DuckDB aborted the process", () => {
    const dir = temp();
    const run = bin(['sql', `call enable_logging(storage='file', storage_path='${dir}/lg'); select 1 as ok`, bundled]);
    expect(run).toEqual({ code: 1, stdout: '', stderr: called('enable_logging', LOG_ON) });
  });

  it("CALL enable_logging(storage='stdout') puts no log line on stdout", () => {
    const run = bin(['sql', "call enable_logging(storage='stdout'); select seq, arm from spawns limit 2", bundled, '-f', 'json']);
    expect(run).toEqual({ code: 1, stdout: '', stderr: called('enable_logging', LOG_ON) });
  });

  it('in the library, sql() rejects and the process lives on', async () => {
    const ev = await Evidence.open();
    try {
      await expect(ev.sql("call enable_logging(storage='file', storage_path='/nonexistent/lg'); select 1 as ok")).rejects.toThrow(
        `query: statement 1 calls enable_logging(), which ${LOG_ON}`,
      );
      expect((await ev.sql('select 1 as ok')).objects()).toEqual([{ ok: 1 }]);
    } finally {
      await ev.close();
    }
  });

  it('the log and profiling functions, through a view, a macro and query() too', async () => {
    const cases: [string, string, string, number?][] = [
      ['call disable_logging()', 'disable_logging', "turns DuckDB's log off, for every connection"],
      ['select * from truncate_duckdb_logs()', 'truncate_duckdb_logs', "empties DuckDB's log, for every connection"],
      ['call enable_profiling()', 'enable_profiling', 'turns profiling on (it can print to stdout or write a file)'],
      ['checkpoint', 'checkpoint', 'writes the database file'],
      ['create temp view v as select * from enable_logging(); select * from v', 'enable_logging', LOG_ON, 2],
      ['create temp macro m() as table select * from "ENABLE_LOGGING"(); select 1 from m()', 'enable_logging', LOG_ON, 2],
      ["select * from query('select * from enable_' || 'logging()')", 'enable_logging', LOG_ON],
      [
        "create temp table t as select 'x;' as s; insert into t select 1 from /* ; */ disable_logging()",
        'disable_logging',
        "turns DuckDB's log off, for every connection",
        2,
      ],
    ];
    for (const [sql, name, why, i] of cases) {
      expect({ sql, ...(await cli(['sql', sql])) }).toEqual({ sql, code: 1, stdout: '', stderr: called(name, why, i) });
    }
  });

  it('a mention in a comment, a string or a column name is not a call: the plan decides', async () => {
    const sql = "select 'enable_logging()' as query; -- checkpoint";
    expect(await cli(['sql', sql, '-f', 'csv'])).toEqual({ code: 0, stdout: 'query\r\nenable_logging()\r\n', stderr: '' });
  });

  it('a PRAGMA that sets something is refused; one that reads runs', async () => {
    for (const sql of ['pragma enable_progress_bar', 'pragma enable_print_progress_bar', 'PRAGMA /* x */ enable_profiling']) {
      expect(await cli(['sql', sql])).toEqual({ code: 1, stdout: '', stderr: PRAGMA });
    }
    expect((await cli(['sql', 'pragma version', '-f', 'csv'])).code).toBe(0);
  });

  it('every table function DuckDB has is refused or known to only read', async () => {
    const { names } = await catalogue("'table', 'table_macro'");
    const refused = Object.keys(REFUSED_FUNCTIONS);
    expect(names.filter((n) => !refused.includes(n) && !READS.includes(n))).toEqual([]);
    expect(refused.filter((n) => !names.includes(n))).toEqual([]);
    // What each needs to bind; SQL cannot make the POINTERs arrow_scan takes, so DuckDB refuses it first.
    const args: Record<string, string> = { check_peg_parser: "'select 1'", json_execute_serialized_sql: "json_serialize_sql('select 1')" };
    const ev = await Evidence.open();
    try {
      for (const name of refused) {
        const said = name.startsWith('arrow_scan') ? /^query: Binder Error: No function matches/ : `query: statement 1 calls ${name}()`;
        await expect(ev.sql(`select * from ${name}(${args[name] ?? ''})`)).rejects.toThrow(said);
      }
    } finally {
      await ev.close();
    }
  }, 60_000);

  it('every PRAGMA DuckDB has either reads (DuckDB makes it a SELECT) or is refused', async () => {
    const { con, names } = await catalogue("'pragma'");
    const ev = await Evidence.open();
    try {
      for (const name of names) {
        // UNKNOWN or none: DuckDB cannot prepare it without arguments (and refuses it by type with them).
        const [type = 'UNKNOWN'] = await statementTypes(con, `pragma ${name}`);
        if (type === 'PRAGMA')
          await expect(ev.sql(`pragma ${name}`)).rejects.toThrow(`query: statement 1 is a PRAGMA that changes how DuckDB runs`);
        else expect({ name, type }).toEqual({ name, type: expect.stringMatching(/^(SELECT|UNKNOWN)$/) });
      }
    } finally {
      await ev.close();
    }
  }, 60_000);
});

describe('query text', () => {
  it('holding a NUL byte is refused, naming its line and column (DuckDB would end the query there)', async () => {
    const dir = temp();
    const file = join(dir, 'q.sql');
    writeFileSync(file, 'select count(*) as n\nfrom spawns where false\0 or true');
    const said = ': holds a NUL byte, where DuckDB would end the query (remove it: the text after it would not run)\n';
    expect(bin(['sql', '-F', file, bundled, '-f', 'csv'])).toEqual({ code: 1, stdout: '', stderr: `omg-evidence: ${file}:2:24${said}` });
    expect(bin(['sql', '-', bundled, '-f', 'csv'], { input: 'create temp table t as select 1 as x;\0 select 5 as last' })).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: <stdin>:1:38${said}`,
    });
  });

  it("DuckDB's advice to raise max_expression_depth, which the locked configuration refuses, is replaced by what can be done", async () => {
    const fixed = 'nest fewer expressions, or call a recursive macro fewer levels deep: the limit of 1,000 cannot be raised here';
    expect(await cli(['sql', `select ${'1+'.repeat(1500)}1`])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: <argument>: Parser Error: Max expression depth limit of 1000 exceeded. (${fixed})\n`,
    });
  });

  it("DuckDB's other advice to change a setting is replaced by what can be done; a user's own text saying the same is left as it is", async () => {
    const said = (message: string) => ({ code: 1, stdout: '', stderr: `omg-evidence: <argument>: ${message}\n` });
    expect(await cli(['sql', 'select (select range from range(3))'])).toEqual(
      said(
        'Invalid Input Error: More than one row returned by a subquery used as an expression - scalar subqueries can only return a single row. (make the subquery return one row, with LIMIT 1 or an aggregate such as first(): the setting cannot be changed here)',
      ),
    );
    expect(await cli(['sql', "select 1 as a order by 'a'"])).toEqual(
      said(
        "Binder Error: ORDER BY non-integer literal has no effect. (order by a column's name without quotes, or by its position, as in ORDER BY 1)",
      ),
    );
    expect(await cli(['sql', `select error('a; Use "SET memory_limit TO 1GB" now; b')`])).toEqual(
      said('Invalid Input Error: a; Use "SET memory_limit TO 1GB" now; b'),
    );
    // DuckDB's own sentence in a user's text, not after DuckDB's words or not at the end: left as it is.
    expect(await cli(['sql', "select error('check failed. Use SET pivot_limit=X to increase the limit.')"])).toEqual(
      said('Invalid Input Error: check failed. Use SET pivot_limit=X to increase the limit.'),
    );
    expect(await cli(['sql', "select 'x; * SET order_by_non_integer_literal=true to allow this behavior.'::int"])).toEqual(
      said("Conversion Error: Could not convert string 'x; * SET order_by_non_integer_literal=true to allow this behavior.' to INT32"),
    );
  });

  it('a RETURNING before the last statement is refused whatever its column is named (Count, Success)', async () => {
    for (const as of ['"Count"', '"Success"']) {
      expect(await cli(['sql', `create temp table t(x int); insert into t values (1) returning x as ${as}; select 1`])).toEqual({
        code: 1,
        stdout: '',
        stderr:
          "omg-evidence: <argument>: statement 2 of 3 returns rows, which would not be printed: only the last statement's are (run it on its own, or make it the last)\n",
      });
    }
  });
});

describe('--timeout reaches what DuckDB does not interrupt', () => {
  // DuckDB's parser and planner finish what they started, interrupt or not: a slow one is stood in for by a delay.
  const slow = <T extends object>(target: T, method: string, after: (v: unknown) => unknown = (v) => v): T =>
    new Proxy(target, {
      get(t, key) {
        const v = Reflect.get(t, key) as unknown;
        if (typeof v !== 'function') return v;
        if (key !== method) return v.bind(t);
        return async (...a: unknown[]) => {
          const got = await v.apply(t, a);
          await new Promise((r) => setTimeout(r, 1500));
          return after(got);
        };
      },
    });
  const INTERRUPTED = 'q: query interrupted after 1 s (timeout)';

  it('the deadline is armed before DuckDB splits the statements', async () => {
    const con = await (await DuckDBInstance.create(':memory:')).connect();
    await expect(gatherStatements(slow(con, 'extractStatements'), 'select 42 as x', 'q', { timeout: 1 })).rejects.toThrow(INTERRUPTED);
  });

  it('a statement prepared past the deadline fails at once, though DuckDB ignored the interrupt: it is not run', async () => {
    const con = await (await DuckDBInstance.create(':memory:')).connect();
    const ran: string[] = [];
    const watched = (p: object) =>
      new Proxy(p, {
        get(t, key) {
          const v = Reflect.get(t, key) as unknown;
          if (typeof v !== 'function') return v;
          if (key === 'run' || key === 'stream') ran.push(key);
          return v.bind(t);
        },
      });
    const box = new Proxy(con, {
      get(t, key) {
        const v = Reflect.get(t, key) as unknown;
        if (key === 'extractStatements')
          return async (sql: string) => slow(await t.extractStatements(sql), 'prepare', (p) => watched(p as object));
        return typeof v === 'function' ? v.bind(t) : v;
      },
    });
    await expect(gatherStatements(box, 'select 42 as x', 'q', { timeout: 1 })).rejects.toThrow(INTERRUPTED);
    expect(ran).toEqual([]);
  });
});
