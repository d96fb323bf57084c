import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { floatText } from '../src/base/float-text.js';
import { Database } from '../src/db/database.js';
import { startEarly, takeEarly } from '../src/db/engine.js';

// Database.select reads a SELECT of strings, booleans, integers, and lists and structs of them
// through to_json (the rows joined into one text, parsed by JSON.parse); anything else value by value, as
// Database.query does. Either way a value must come out as the same JS value.
/** fast-check's seed: FC_SEED reproduces a run; otherwise a fresh one, printed so a failure can be replayed. */
const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
console.log(`db property tests: fast-check seed ${seed} (FC_SEED=${seed} replays them)`);

describe('select results', () => {
  let db: Database;
  beforeAll(async () => {
    db = await Database.open();
  });
  afterAll(() => db.close());

  it("query keys a repeated column past the names other columns have (node-api's row objects had given two a:1)", async () => {
    const res = await db.query('select 1 as a, 2 as a, 3 as "a:1"');
    expect(res.columns).toEqual(['a', 'a:2', 'a:1']);
    expect(res.rows).toEqual([{ a: 1, 'a:2': 2, 'a:1': 3 }]);
  });

  it('nested lists and structs of strings, booleans and integers', async () => {
    const res = await db.select(
      `select 'a"b\\' || chr(10) as s, true as b, 3::HUGEINT as h, -2::TINYINT as t, null::VARCHAR as n,
              [{'name': 'Read', 'count': 2::BIGINT}, {'name': 'Bash', 'count': null}] as tools, []::VARCHAR[] as none`,
    );
    expect(res.columns).toEqual(['s', 'b', 'h', 't', 'n', 'tools', 'none']);
    expect(res.types).toEqual([
      'VARCHAR',
      'BOOLEAN',
      'HUGEINT',
      'TINYINT',
      'VARCHAR',
      'STRUCT("name" VARCHAR, "count" BIGINT)[]',
      'VARCHAR[]',
    ]);
    expect(res.rows).toEqual([
      {
        s: 'a"b\\\n',
        b: true,
        h: 3,
        t: -2,
        n: null,
        tools: [
          { name: 'Read', count: 2 },
          { name: 'Bash', count: null },
        ],
        none: [],
      },
    ]);
  });

  it('keeps the order of the query', async () => {
    const res = await db.select(`select i, [i::VARCHAR] as l from range(5000) t(i) order by i desc`);
    expect(res.rows.map((r) => r.i)).toEqual(Array.from({ length: 5000 }, (_, k) => 4999 - k));
    // An order unlike the rows' own, over many chunks that DuckDB sorts on several threads.
    const shuffled = `select i, md5(i::VARCHAR) as h from range(200000) t(i) order by h`;
    expect((await db.select(shuffled)).rows).toEqual((await db.query(shuffled)).rows);
  });

  it('no rows', async () => {
    const res = await db.select(`select 'x' as s, [1] as l where false`);
    expect(res).toEqual({ columns: ['s', 'l'], types: ['VARCHAR', 'INTEGER[]'], rows: [] });
  });

  it('an integer JSON.parse would round stays exact (a decimal string, as BIGINT always gives)', async () => {
    const res = await db.select(`select 9007199254740993 as big, [9007199254740992::BIGINT] as l, 'id 12345678901234567' as s`);
    expect(res.rows).toEqual([{ big: '9007199254740993', l: ['9007199254740992'], s: 'id 12345678901234567' }]);
  });

  it('a JSON column stays its text', async () => {
    const res = await db.select(`select '{"a": [1]}'::JSON as j, ['[2]'::JSON] as l, 'x' as s`);
    expect(res.rows).toEqual([{ j: '{"a": [1]}', l: ['[2]'], s: 'x' }]);
  });

  it('floats, decimals and dates keep their JS values', async () => {
    const res = await db.select(`select 'nan'::DOUBLE as d, 1.25::DECIMAL(5, 2) as m, DATE '2025-01-02' as day, [0.5] as f, 'x' as s`);
    expect(res.rows[0]!.d).toBeNaN();
    expect(res.rows[0]!.m).toBe(1.25);
    expect(res.rows[0]!.day).toEqual(new Date('2025-01-02T00:00:00Z'));
    expect(res.rows[0]!.f).toEqual([0.5]);
  });

  it("property: a DOUBLE's text (a MAP key's in JSON) is DuckDB's own CAST(x AS VARCHAR)", async () => {
    const edges = [
      0,
      -0,
      Number.NaN,
      Infinity,
      -Infinity,
      1e15,
      1e16,
      1e-4,
      1e-5,
      0.1,
      123456789012345.67,
      5e-324,
      1.7976931348623157e308,
      2 ** 53 + 2,
    ];
    const xs = [...edges, ...fc.sample(fc.double(), { seed, numRuns: 5000 })];
    // Each value reaches DuckDB as the text of its exact digits (toExponential() reads back as the same double).
    const literal = (x: number) =>
      Number.isNaN(x) ? "'nan'" : Number.isFinite(x) ? (Object.is(x, -0) ? '-0.0' : x.toExponential()) : `'${x > 0 ? 'inf' : '-inf'}'`;
    const res = await db.select(
      `select v::VARCHAR as s from unnest([${xs.map((x) => `${literal(x)}::DOUBLE`).join(',')}]) with ordinality as t(v, i) order by i`,
    );
    expect(xs.map((x) => floatText(x, false))).toEqual(res.rows.map((r) => r.s));
  });

  it('statements that are not a plain SELECT', async () => {
    await db.exec(`create table t (a VARCHAR, b BIGINT[])`);
    expect((await db.select(`describe t`)).rows.map((r) => [r.column_name, r.column_type])).toEqual([
      ['a', 'VARCHAR'],
      ['b', 'BIGINT[]'],
    ]);
    expect((await db.select(`insert into t values ('x', [1]) returning *`)).rows).toEqual([{ a: 'x', b: [1] }]);
    await expect(db.select(`select no_such_column from t`, undefined, 'q.sql')).rejects.toThrow(/^q\.sql: Binder Error/);
  });

  it('takes bound parameters', async () => {
    const res = await db.select(`select [$name] as l, $n::INTEGER as n`, { name: 'K-RES', n: 4 });
    expect(res.rows).toEqual([{ l: ['K-RES'], n: 4 }]);
  });
});

describe('a database started early (engine.ts)', () => {
  const settings = async (db: Database) =>
    (
      await db.query(
        `select current_setting('temp_directory') as temp, current_setting('autoload_known_extensions') as autoload, current_setting('TimeZone') as tz`,
      )
    ).rows[0];

  it('the next in-memory open takes the started database, with the settings every database has', async () => {
    startEarly();
    const first = await Database.open();
    const second = await Database.open();
    try {
      expect(await settings(first)).toEqual({ temp: '', autoload: false, tz: 'UTC' });
      expect(await settings(second)).toEqual(await settings(first));
      // Two opens, two databases.
      await first.exec(`create table only_here (x INTEGER)`);
      expect((await second.query(`select count(*) as n from duckdb_tables() where table_name = 'only_here'`)).rows).toEqual([{ n: 0 }]);
      // Taken once.
      expect(takeEarly()).toBeUndefined();
    } finally {
      first.close();
      second.close();
    }
  });
});

describe('Database.inParallel', () => {
  it("runs on two connections, returns both results, and throws the second one's error first", async () => {
    const db = await Database.open();
    try {
      await db.exec(`create table shared as select 1 as x`);
      const [a, b] = await db.inParallel(
        async (here) => (await here.query(`select x + 1 as y from shared`)).rows,
        async (there) => (await there.query(`select x + 2 as y from shared`)).rows,
      );
      expect({ a, b }).toEqual({ a: [{ y: 2 }], b: [{ y: 3 }] });
      const failing = db.inParallel(
        (here) => here.query(`select no_such_column from shared`, undefined, 'here'),
        (there) => there.query(`select other_column from shared`, undefined, 'there'),
      );
      await expect(failing).rejects.toThrow(/^there: Binder Error/);
    } finally {
      db.close();
    }
  });
});

describe('Database.copyTo', () => {
  it('writes the tables and views to a new file, compactly, without the temporary tables', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-copy-'));
    const file = join(dir, 'copy.duckdb');
    const db = await Database.open();
    try {
      // Enough rows for DuckDB to write row groups of its own; a dropped column and a dropped table
      // are what leave free blocks in a file built in place.
      await db.exec(
        `create table big as select i, md5(i::VARCHAR) as h from range(300000) t(i);
         create table gone as select * from big;
         drop table gone;
         alter table big drop column h;
         create view evens as select i from big where i % 2 = 0;
         create temp table scratch as select 1 as x;`,
      );
      await db.copyTo(file);
    } finally {
      db.close();
    }
    const copy = await Database.open({ file, readOnly: true });
    try {
      const objects = await copy.query(
        `select table_name as name from duckdb_tables() union all select view_name from duckdb_views() where not internal order by name`,
      );
      expect(objects.rows).toEqual([{ name: 'big' }, { name: 'evens' }]);
      expect((await copy.query(`select count(*) as n, sum(i) as s from big`)).rows).toEqual([{ n: 300000, s: 44999850000 }]);
      expect((await copy.query(`select count(*) as n from evens`)).rows).toEqual([{ n: 150000 }]);
      expect((await copy.query(`select free_blocks from pragma_database_size()`)).rows).toEqual([{ free_blocks: 0 }]);
    } finally {
      copy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('makes the copy again after one that failed half-way, which had left the file attached', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-copy-'));
    const file = join(dir, 'copy.duckdb');
    const db = await Database.open();
    try {
      await db.exec(`create table big as select i, md5(i::VARCHAR) as h from range(300000) t(i)`);
      // A file that holds a table of that name already: the copy fails once the file is attached.
      const there = await Database.open({ file });
      await there.exec('create table big (i INTEGER)');
      there.close();
      await expect(db.copyTo(file)).rejects.toThrow(/already exists/);
      rmSync(file, { force: true });
      rmSync(`${file}.wal`, { force: true });
      await db.copyTo(file);
    } finally {
      db.close();
    }
    const copy = await Database.open({ file, readOnly: true });
    try {
      expect((await copy.query(`select count(*) as n from big`)).rows).toEqual([{ n: 300000 }]);
    } finally {
      copy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Database.sandbox', () => {
  it('runs on a connection of its own, in a transaction that is rolled back: nothing it does lasts or shows elsewhere', async () => {
    const db = await Database.open();
    try {
      await db.exec(`create table spawns as select 1.5 as cost_usd; create temp table results as select true as holds`);
      await db.seal();
      const inside = await db.sandbox(async (box) => {
        // The loading connection's temporary tables are not there to replace or shadow.
        await expect(box.query(`select * from results`)).rejects.toThrow(/Table with name results does not exist/);
        await box.exec(
          `update spawns set cost_usd = 0; create temp table results as select false as holds; create macro twice(x) as 2 * x`,
        );
        return (await box.query(`select cost_usd, (select holds from results) as holds, twice(2) as four from spawns`)).rows;
      });
      expect(inside).toEqual([{ cost_usd: 0, holds: false, four: 4 }]);
      expect((await db.query(`select cost_usd, (select holds from results) as holds from spawns`)).rows).toEqual([
        { cost_usd: 1.5, holds: true },
      ]);
      await expect(db.query(`select twice(2)`)).rejects.toThrow(/twice does not exist/);
      // CALL enable_logging(), which turns DuckDB's logger on for every connection, is refused before it runs
      // (refusals.ts): the logger stays off and its log empty.
      await expect(db.sandbox((box) => box.statements(`call enable_logging(level = 'trace'); select 1 as a`, 'q'))).rejects.toThrow(
        /statement 1 calls enable_logging\(\)/,
      );
      expect(
        (await db.query(`select current_setting('enable_logging')::BOOLEAN as on, (select count(*) from duckdb_logs) as n`)).rows,
      ).toEqual([{ on: false, n: 0 }]);
      // The time zone every connection has, though the configuration is locked.
      expect(await db.sandbox(async (box) => (await box.query(`select current_setting('TimeZone') as tz`)).rows)).toEqual([{ tz: 'UTC' }]);
    } finally {
      db.close();
    }
  });

  it('statements: runs each in turn and reads the last; refuses one that would end the transaction, before it runs', async () => {
    const db = await Database.open();
    try {
      await db.exec(`create table spawns as select 1.5 as cost_usd`);
      const last = await db.sandbox((box) => box.statements(`create temp table t as select 2 as x; select x from t`, 'q'));
      expect(last.rows).toEqual([{ x: 2 }]);
      for (const sql of [
        'commit; update spawns set cost_usd = 0',
        'update spawns set cost_usd = 0; rollback; update spawns set cost_usd = 0',
        'begin transaction',
      ]) {
        await expect(db.sandbox((box) => box.statements(sql, 'q'))).rejects.toThrow(
          /^q: statement \d begins, commits or rolls back a transaction$/,
        );
      }
      expect((await db.query(`select cost_usd from spawns`)).rows).toEqual([{ cost_usd: 1.5 }]);
      await expect(db.sandbox((box) => box.statements('selec 1', 'q'))).rejects.toThrow(
        /^q: Parser Error: syntax error at or near "selec"/,
      );
    } finally {
      db.close();
    }
  });

  it('parse: DuckDB parses without binding or running', async () => {
    const db = await Database.open();
    try {
      const parsed = await db.parse(`select * from no_such_table; select 2`);
      expect(parsed.error).toBe(false);
      expect(parsed.error === false && parsed.statements.length).toBe(2);
      expect(await db.parse(`create table x as select 1`)).toMatchObject({ error: true, error_type: 'not implemented' });
      expect(await db.statementTypes(`create table x as select 1; select 1`)).toEqual(['CREATE', 'SELECT']);
      expect((await db.query(`select count(*) as n from duckdb_tables() where table_name = 'x'`)).rows).toEqual([{ n: 0 }]);
    } finally {
      db.close();
    }
  });
});
