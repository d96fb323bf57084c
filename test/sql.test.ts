/**
 * Ad-hoc SQL, the documented views, safety, persisted databases, the library API and Parquet export.
 */
import {
  closeSync,
  cpSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Database } from '../src/db/database.js';
import { Evidence, transcriptTablesNamed } from '../src/evidence.js';
import { VIEWS } from '../src/db/views.js';
import { layout } from '../src/load/meta.js';
import { spawn, spawnSync } from 'node:child_process';
import { totalmem } from 'node:os';
import { DuckDBInstance } from '@duckdb/node-api';
import { binPath, bin, bundled, cli, probeFixture, repo, withoutShared } from './helpers.js';

/** The warning of the edge-cases fixture's two responses with no usage, from a load that reads usage. */
const EDGE_NO_USAGE =
  'omg-evidence: warning: test/fixtures/transcripts/edge-cases/named-otherwise.jsonl:5: no line of this response has message.usage (nor of 1 more response(s)): its tokens and cost are left empty (null), as is the cost of every total that holds it\n';
const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'omg-sql-'));
  temps.push(d);
  return d;
};

describe('sql', () => {
  it('runs the query argument over the bundled probe; numbers stay numbers in JSON', async () => {
    const run = await cli([
      'sql',
      'select arm, count(*) as spawns, round(sum(cost_usd), 4) as usd from spawns where arm like $$K-R%$$ group by arm order by arm',
      '--format',
      'json',
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      { arm: 'K-REPO-D', spawns: 3, usd: 0.2825 },
      { arm: 'K-REPO-N', spawns: 2, usd: 0.2525 },
      { arm: 'K-RES', spawns: 4, usd: 0.3546 },
    ]);
  });

  it('columns of one name keep their own values, named as the node API names them', async () => {
    expect(await cli(['sql', 'select 1 as a, 2 as a, [3] as b, [4] as b', '--format', 'csv'])).toEqual({
      code: 0,
      stdout: 'a,a:1,b,b:1\r\n1,2,[3],[4]\r\n',
      stderr: '',
    });
  });

  it("a repeated column's suffix skips a name another column has: no two columns print as one name", async () => {
    const sql = 'select 1 as a, 2 as a, 3 as "a:1", 4 as a';
    expect(await cli(['sql', sql, '--format', 'csv'])).toEqual({ code: 0, stdout: 'a,a:2,a:1,a:3\r\n1,2,3,4\r\n', stderr: '' });
    expect((await cli(['sql', sql, '--format', 'json'])).stdout).toBe('[\n  {"a":1,"a:2":2,"a:1":3,"a:3":4}\n]\n');
    expect((await cli(['sql', sql, '--format', 'table'])).stdout.split('\n').slice(1, 4)).toEqual([
      '│ a │ a:2 │ a:1 │ a:3 │',
      '├───┼─────┼─────┼─────┤',
      '│ 1 │   2 │   3 │   4 │',
    ]);
    const ev = await Evidence.open([]);
    try {
      const table = await ev.sql(sql);
      expect(table.columnNames()).toEqual(['a', 'a:2', 'a:1', 'a:3']);
      expect(table.objects()).toEqual([{ a: 1, 'a:2': 2, 'a:1': 3, 'a:3': 4 }]);
    } finally {
      await ev.close();
    }
  });

  // node-api sets an object's prototype for a key __proto__: the field was lost, and json printed
  // [object Object]; in the library a column so named lost every row.
  it('a struct field named __proto__ is refused, as is such a column in the library; a column in the CLI is printed', async () => {
    expect(await cli(['sql', "select {'__proto__': 5, 'x': 1} as sp", '--format', 'json'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'omg-evidence: <argument>: a struct field or union member is named "__proto__", which its rows cannot hold (rename it (AS))\n',
    });
    expect((await cli(['sql', 'select 7 as __proto__', '--format', 'ndjson'])).stdout).toBe('{"__proto__":7}\n');
    const ev = await Evidence.open([]);
    try {
      await expect(ev.sql('select 7 as __proto__, 1 as y from range(5)')).rejects.toThrow('a column is named "__proto__"');
      await expect(ev.sql("select [{'__proto__': 'a'}] as l")).rejects.toThrow('a struct field or union member is named "__proto__"');
      await expect(ev.sql('select union_value(__proto__ := 1) as u')).rejects.toThrow(
        'a struct field or union member is named "__proto__"',
      );
    } finally {
      await ev.close();
    }
  });

  it('reads the query from a file (-f), every argument then a probe', async () => {
    const dir = temp();
    writeFileSync(join(dir, 'q.sql'), 'select probe, count(*) as n from spawns group by probe order by probe');
    const run = await cli(['sql', '-F', join(dir, 'q.sql'), probeFixture('minimal'), probeFixture('second'), '--format', 'csv']);
    expect(run).toEqual({ code: 0, stdout: 'probe,n\r\nminimal,2\r\nsecond,1\r\n', stderr: '' });
  });

  it('reads the query from stdin when no argument gives one', () => {
    const run = bin(['sql', '--format', 'ndjson'], { input: 'select count(*) as n, count(distinct name) as tools from tool_uses' });
    expect(run).toEqual({ code: 0, stdout: '{"n":70,"tools":3}\n', stderr: '' });
  });

  it('queries the transcript views when transcripts are loaded', async () => {
    const run = await cli([
      'sql',
      'select count(distinct session_id) as sessions from transcript_tool_uses',
      '--from',
      'transcripts',
      '--format',
      'csv',
    ]);
    expect(run.stdout).toBe('sessions\r\n24\r\n');
  });

  it('warns when the query reads tables that hold no row for what was loaded (as DuckDB parses it), and runs it', async () => {
    const dir = join('test', 'fixtures', 'transcripts', 'edge-cases');
    const noProbe = (tables: string, advice = 'name the probe beside --transcripts DIR to read its tables') =>
      `omg-evidence: warning: ${tables} no row: no probe was read (${advice})\n`;
    const run = (args: string[]) => cli(['sql', ...args, '--format', 'csv']);
    expect(await run(['--transcripts', dir, 'select count(*) as spawns from spawns join tool_uses using (probe)'])).toEqual({
      code: 0,
      stdout: 'spawns\r\n0\r\n',
      stderr: noProbe('spawns, tool_uses hold'),
    });
    // Qualified by main, or in a list of tables: read all the same.
    for (const q of [
      'select count(*) from main.spawns',
      'select count(*) from "main"."spawns"',
      'select count(*) from transcript_sessions, spawns',
    ]) {
      // transcript_sessions' usage columns read the responses, two of which have no usage.
      expect((await run(['--transcripts', dir, q])).stderr).toBe(
        (q.includes('transcript_sessions') ? EDGE_NO_USAGE : '') + noProbe('spawns holds'),
      );
    }
    expect(await run(['select count(*) as n from "transcript_sessions"'])).toEqual({
      code: 0,
      stdout: 'n\r\n0\r\n',
      stderr:
        "omg-evidence: warning: transcript_sessions holds no row: no transcripts were read (add --from transcripts for the probe's own, or --transcripts DIR)\n",
    });
    // Named but not read (a CTE, a string, a comment, a column), read where it was loaded, or the
    // price table (always loaded): nothing to say.
    for (const args of [
      ['--transcripts', dir, 'with spawns as (select 1 as x) select count(*) as n from spawns'],
      ['--transcripts', dir, "select 'from spawns' as s -- join tool_uses"],
      ['--transcripts', dir, 'select count(*) as spawns from transcript_sessions'],
      ['--transcripts', dir, 'select count(*) as n from model_prices'],
      ['select count(*) as n from model_prices'],
      ['--from', 'transcripts', 'select count(*) as n from transcript_sessions join spawns using (session_id)'],
    ]) {
      const ran = await run(args);
      // Of edge-cases' two responses with no usage, where the load reads usage: not of an empty table.
      expect([ran.code, ran.stderr.replace(EDGE_NO_USAGE, '')]).toEqual([0, '']);
    }
    // A database holds what its load was given: the advice is to load it again.
    const db = join(temp(), 't.duckdb');
    expect((await cli(['load', '--transcripts', dir, '--db', db])).code).toBe(0);
    // After the warning its load gave, which a database repeats.
    expect((await run(['--transcripts', dir, '--db', db, 'select count(*) from spawns'])).stderr).toBe(
      EDGE_NO_USAGE + noProbe('spawns holds', 'the database was built without one: load it again naming the probe'),
    );
  });

  it('a query with a parameter, which nothing binds, is an error naming it', async () => {
    for (const [query, name] of [
      ['select $1', '$1'],
      ['select ?', '$1'],
      ['select count(*) from spawns where arm = $arm', '$arm'],
    ]) {
      expect(await cli(['sql', query!, '--format', 'csv'])).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: <argument>: statement 1 has a parameter (${name}), which nothing binds here (write the value into the query)\n`,
      });
    }
  });

  it('a long query is not parsed for the warning: it runs as it would without it', async () => {
    const dir = join('test', 'fixtures', 'probes', 'check-reads-transcripts', 'transcripts');
    const file = join(temp(), 'long.sql');
    writeFileSync(file, `select count(*) as n from transcript_lines where rec in (${Array(300_000).fill('1').join(',')})`);
    expect(await cli(['sql', '-F', file, '--transcripts', dir, '--memory-limit', '64MB', '--format', 'csv'])).toEqual({
      code: 0,
      stdout: 'n\r\n1\r\n',
      stderr: '',
    });
  });

  it('builds only the transcript tables the query names, each as a full load has it', async () => {
    const dir = join('test', 'fixtures', 'transcripts', 'edge-cases');
    // A query that names information_schema, even in a comment, builds every table.
    const full = (query: string) => cli(['sql', '--transcripts', dir, `${query} -- information_schema`, '--format', 'csv']);
    for (const table of transcriptTablesNamed('select * from information_schema.tables')) {
      const query = `select * from ${table} order by all`;
      const alone = await cli(['sql', '--transcripts', dir, query, '--format', 'csv']);
      expect(alone.code).toBe(0);
      expect(alone.stdout).toBe((await full(query)).stdout);
    }
    expect((await full('select count(*) as n from duckdb_tables()')).stdout).toMatch(/^n\r\n[1-9]/);
    expect(transcriptTablesNamed('select 1')).toEqual([]);
    expect(transcriptTablesNamed('select * from Transcript_Tool_Uses join "transcript_sessions" using (session_id)')).toEqual([
      'transcript_sessions',
      'transcript_tool_uses',
      'transcript_messages',
    ]);
    expect(transcriptTablesNamed('select * from transcript_tool_uses_x')).toEqual([]);
    expect(transcriptTablesNamed('select * from transcript_tool_use_copies')).toEqual(['transcript_tool_use_copies']);
    expect(transcriptTablesNamed('select * from transcript_mirrored_calls')).toEqual(['transcript_mirrored_calls']);
    // What can read a table without naming it builds them all.
    for (const q of [
      'show tables',
      'describe transcript_lines',
      "select * from query_table('transcript_' || 'lines')",
      'pragma show_tables',
    ]) {
      expect(transcriptTablesNamed(q)).toHaveLength(10);
    }
  });

  it("prints DuckDB's error on one line, prefixed by where the query came from, exit 1", async () => {
    const run = await cli(['sql', 'select verdict from tool_uses']);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'omg-evidence: <argument>: Binder Error: Referenced column "verdict" not found in FROM clause!; Candidate bindings: "ordinal", "record"\n',
    });
    const cast = await cli(['sql', 'select cast(arm as int) from spawns']);
    expect(cast.stderr).toBe(
      "omg-evidence: <argument>: Conversion Error: Could not convert string 'K-RES' to INT32 when casting from source column arm\n",
    );
    const dir = temp();
    writeFileSync(join(dir, 'bad.sql'), 'selec 1');
    expect((await cli(['sql', '-F', join(dir, 'bad.sql')])).stderr).toMatch(
      new RegExp(`^omg-evidence: ${join(dir, 'bad.sql')}: Parser Error: syntax error at or near "selec"`),
    );
  });

  it('refuses a query longer than 16 MiB, from a file or stdin, before reading it all (-F /dev/zero took every byte of memory)', () => {
    expect(bin(['sql'], { input: `select 1${' '.repeat(16 * 1024 * 1024)}` })).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'omg-evidence: <stdin>: the query is longer than 16 MiB; nothing was run (a query is SQL text: is this the file you meant?)\n',
    });
    // Second: without the bound, this read would never end.
    expect(bin(['sql', '-F', '/dev/zero'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'omg-evidence: /dev/zero: the query is longer than 16 MiB; nothing was run (a query is SQL text: is this the file you meant?)\n',
    });
  });

  it('a stdin that cannot be read is an error saying why (exit 1), not "no query"', () => {
    const fd = openSync(repo, 'r');
    try {
      const r = spawnSync(process.execPath, [binPath, 'sql'], {
        cwd: repo,
        stdio: [fd, 'pipe', 'pipe'],
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect({ code: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
        code: 1,
        stdout: '',
        stderr: 'omg-evidence: <stdin>: cannot read the query (EISDIR) (give the query as an argument, or with --file FILE)\n',
      });
    } finally {
      closeSync(fd);
    }
  });

  it("a query whose bytes are not UTF-8 is an error naming its line (a Latin-1 é had run as U+FFFD: select 'é' = chr(233) was false)", () => {
    const dir = temp();
    writeFileSync(join(dir, 'latin1.sql'), Buffer.from("select 1 as a,\n'caf\xe9' as b\n", 'latin1'));
    expect(bin(['sql', '-F', join(dir, 'latin1.sql')])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${join(dir, 'latin1.sql')}:2: the query is not UTF-8, so nothing was run (save it as UTF-8)\n`,
    });
    expect(bin(['sql'], { input: Buffer.from("select 'caf\xe9'", 'latin1') })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'omg-evidence: <stdin>:1: the query is not UTF-8, so nothing was run (save it as UTF-8)\n',
    });
    expect(bin(['sql', '-F', join(dir, 'none.sql')])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${join(dir, 'none.sql')}: cannot read the query: ENOENT (give -F a file of SQL that exists and that you may read; for stdin, leave -F out)\n`,
    });
  });

  it('an empty query is a usage error', () => {
    expect(bin(['sql'], { input: '  \n' })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'omg-evidence: no query: give it as an argument, with --file FILE, or on stdin\n',
    });
  });

  describe('cannot harm the evidence or the machine: exit 1 and nothing written', () => {
    const cases: [string, (dir: string) => string, RegExp][] = [
      [
        'COPY TO',
        (d) => `COPY spawns TO '${d}/leak.csv'`,
        /Permission Error: Cannot access file ".*leak\.csv" - file system operations are disabled/,
      ],
      ['COPY TO parquet', (d) => `COPY (select * from spawns) TO '${d}/leak.parquet' (FORMAT parquet)`, /Permission Error/],
      ['read_text', () => `select * from read_text('/etc/hostname')`, /Permission Error: Cannot access file "\/etc\/hostname"/],
      ['read_csv', () => `select * from read_csv('/etc/passwd')`, /Permission Error/],
      ['read_ndjson_objects', () => `select * from read_ndjson_objects('${bundled}/results.jsonl')`, /Permission Error/],
      ['ATTACH', (d) => `ATTACH '${d}/evil.duckdb' AS evil`, /Permission Error/],
      ['INSTALL', () => 'INSTALL httpfs', /Permission Error/],
      ['LOAD', () => 'LOAD httpfs', /Permission Error: Loading external extensions is disabled/],
      [
        'SET a locked option',
        () => 'SET enable_external_access = true',
        /Cannot change configuration option "enable_external_access" - the configuration has been locked/,
      ],
      ['SET threads', () => 'SET threads = 1', /the configuration has been locked/],
    ];
    for (const [name, sql, message] of cases) {
      it(name, async () => {
        const dir = temp();
        const run = await cli(['sql', sql(dir)]);
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(message);
        expect(readdirSync(dir)).toEqual([]);
        expect(existsSync(join(repo, '.tmp'))).toBe(false);
      });
    }
  });
});

/**
 * One golden per type (test/golden/sql-types/TYPE.md): the type's values in every format. In csv,
 * markdown and table each value is DuckDB's CAST(x AS VARCHAR), which the test checks too.
 */
const TYPES: [string, string][] = [
  [
    'INTERVAL',
    `[interval '1 year 2 months 3 days 4 hours 5 minutes 6.5 seconds', -interval '1 day 2 hours', interval '0 seconds', interval '-0.000001 seconds', NULL]`,
  ],
  ['TIME', `[time '12:34:56.789', time '00:00:00', time '24:00:00', NULL]`],
  ['DATE', `[date '2024-02-29', date '0001-01-01', date 'infinity', NULL]`],
  ['TIMESTAMP', `[timestamp '2024-02-29 12:34:56.123456', timestamp '1970-01-01', timestamp '-infinity', NULL]`],
  // node-api's text named these infinities as instants (2262-04-11T23:47:16.854775807), and a BC timestamp's
  // JSON was malformed (0044-03-15T(BC) 10:00:00); the year 1 BC it writes as 0000.
  ['TIMESTAMP_NS', `[timestamp_ns '2024-02-29 12:34:56.123456789', timestamp_ns 'infinity', timestamp_ns '-infinity', NULL]`],
  ['TIMESTAMP_S', `[timestamp_s '2024-02-29 12:34:56', timestamp_s 'infinity', timestamp_s '-infinity', NULL]`],
  ['TIMESTAMP_MS', `[timestamp_ms '2024-02-29 12:34:56.789', timestamp_ms 'infinity', timestamp_ms '-infinity', NULL]`],
  ['TIMESTAMP-BC', `[date '0044-03-15 (BC)' + time '10:00', date '0001-12-31 (BC)' + time '01:02:03', NULL]`],
  ['DATE-BC', `[date '0044-03-15 (BC)', date '0001-12-31 (BC)', NULL]`],
  ['TIMESTAMPTZ', `[timestamptz '2024-02-29 12:34:56.5+02', timestamptz '2000-01-01 00:00:00+00', NULL]`],
  ['BLOB', `['\\x00\\xFFab'::blob, 'a|b,c'::blob, ''::blob, NULL]`],
  [
    'HUGEINT',
    `[170141183460469231731687303715884105727::hugeint, -170141183460469231731687303715884105727::hugeint, 9007199254740993::hugeint, NULL]`,
  ],
  ['DECIMAL', `[123.4500::decimal(10,4), -0.0001::decimal(10,4), 12345678901234567890.123456789::decimal(38,9), 0.1::decimal(38,9), NULL]`],
  ['UUID', `['6ba7b810-9dad-11d1-80b4-00c04fd430c8'::uuid, '00000000-0000-0000-0000-000000000000'::uuid, NULL]`],
  ['ENUM', `['happy'::mood, 'sad'::mood, NULL]`],
  ['LIST', `[[1, 2, NULL], [], NULL]`],
  ['STRUCT', `[{'a': 1, 'b': 'it''s, "x"'}, {'a': NULL, 'b': 'x y'}, NULL]`],
  ['MAP', `[map {'k': 1, 'j': 2}, map {}, NULL]`],
  // Keyed by DOUBLE: a key's text is DuckDB's (1e+20), not JavaScript's (100000000000000000000).
  // Keyed by DATE: infinity is DuckDB's word for it, not the day node-api keeps it as (5881580-07-11).
  ['MAP-DATE', `[map {date 'infinity': 1, date '-infinity': 2, date '2024-02-29': 3, date '0001-12-31 (BC)': 4}, NULL]`],
  ['MAP-TIMESTAMP_NS', `[map {timestamp_ns 'infinity': 1, timestamp_ns '2024-02-29 12:34:56.123456789': 2}, NULL]`],
  ['MAP-DOUBLE', `[map {1e20::DOUBLE: 'a', 0.1::DOUBLE: 'b', 'nan'::DOUBLE: 'c', 1e-7::DOUBLE: 'd', 100::DOUBLE: 'e'}, NULL]`],
];
const ENUM = `create type mood as enum ('sad', 'happy'); `;

describe('the values sql() gives', () => {
  it('are plain and JSON-safe at any depth: no BigInt, a TIME or an INTERVAL as sql -f json writes it, infinity as text', async () => {
    const ev = await Evidence.open([]);
    try {
      const t = await ev.sql(
        `select 42::bigint as big, [1::bigint, 9007199254740993::bigint] as bigs, {'n': count(*)} as counted,
          map {'k': 2::bigint} as m, time '12:34:56.789' as tm, [time '00:00:01'] as tms, interval '1 day 2 hours' as iv,
          timetz '12:00:00+02' as ttz, '101'::bit as b, date 'infinity' as d, [timestamp '-infinity'] as ts,
          date '2024-02-29' as day, 1.5::decimal(10, 2) as dec, [timestamp_ns 'infinity', timestamp_s '-infinity'] as units`,
      );
      const row = t.object(0);
      expect(row).toEqual({
        big: 42,
        bigs: [1, '9007199254740993'],
        counted: { n: 1 },
        m: [{ key: 'k', value: 2 }],
        tm: '12:34:56.789',
        tms: ['00:00:01'],
        iv: 'P1DT2H',
        ttz: '12:00:00+02:00',
        b: '101',
        d: 'infinity',
        ts: ['-infinity'],
        day: new Date('2024-02-29T00:00:00Z'),
        dec: 1.5,
        // A TIMESTAMP_NS at infinity had been a Date of 2262-04-11.
        units: ['infinity', '-infinity'],
      });
      expect(JSON.parse(JSON.stringify(t.objects()))).toHaveLength(1);
    } finally {
      await ev.close();
    }
  });
});

describe('a DECIMAL in sql()', () => {
  it('that a double cannot give back to its last digit is its decimal string, as an unsafe BIGINT is; any other a number', async () => {
    const ev = await Evidence.open([]);
    try {
      const t = await ev.sql(
        `select 12345678901234567890123456789::decimal(38,0) as big, -98765432109876543210.5::decimal(38,1) as neg,
          [9007199254740993::decimal(20,0)] as list, 1.50::decimal(10,2) as small, 9007199254740991.25::decimal(20,2) as edge,
          225179981368524.83::decimal(38,9) as cents, 0.000000100::decimal(38,9) as tiny`,
      );
      expect(t.object(0)).toEqual({
        big: '12345678901234567890123456789',
        neg: '-98765432109876543210.5',
        list: ['9007199254740993'],
        small: 1.5,
        // Within 2^53 but not to the cent: a double reads 9007199254740991 and 225179981368524.84.
        edge: '9007199254740991.25',
        cents: '225179981368524.830000000',
        tiny: 1e-7,
      });
    } finally {
      await ev.close();
    }
  });
});

describe('every DuckDB type prints in every format', () => {
  for (const [type, values] of TYPES) {
    it(type, async () => {
      const sql = `${ENUM}select unnest(${values}) as v`;
      let golden = '';
      for (const format of ['csv', 'markdown', 'table', 'json', 'ndjson']) {
        const run = await cli(['sql', sql, '--format', format], { tty: format === 'table' });
        expect(run.stderr, format).toBe('');
        expect(run.code, format).toBe(0);
        golden += `## ${format}\n\n\`\`\`\n${run.stdout}\`\`\`\n\n`;
        if (format === 'json') expect(JSON.parse(run.stdout)).toHaveLength(JSON.parse(run.stdout).length);
      }
      await expect(`# ${type}: select unnest(${values}) as v\n\n${golden}`).toMatchFileSnapshot(`golden/sql-types/${type}.md`);
      const cast = await cli(['sql', `${ENUM}select cast(unnest(${values}) as varchar) as v`, '--format', 'csv']);
      expect((await cli(['sql', sql, '--format', 'csv'])).stdout).toBe(cast.stdout);
    });
  }
});

/** Run the built bin with a small JS heap, counting stdout's lines as they come, never holding them. */
function countLines(args: string[], heapMb: number): Promise<{ code: number | null; lines: number; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, binPath, ...args], {
      cwd: repo,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let lines = 0;
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => {
      for (const byte of b) if (byte === 10) lines++;
    });
    child.stderr.on('data', (b: Buffer) => {
      stderr += b.toString();
    });
    child.on('close', (code) => done({ code, lines, stderr }));
  });
}

describe('threads', () => {
  const threads = async (args: string[]) => {
    const run = await cli(['sql', ...args, "select current_setting('threads')::INTEGER as t", '--format', 'json']);
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout)[0].t;
  };

  it('small evidence is queried on one thread; 16 MiB of transcripts on every core', async () => {
    expect(await threads([])).toBe(1);
    const dir = temp();
    const line = `${JSON.stringify({ type: 'user', sessionId: 's1', message: { role: 'user', content: 'x'.repeat(1000) } })}\n`;
    writeFileSync(join(dir, 's1.jsonl'), line.repeat(Math.ceil((16 * 1024 * 1024) / line.length)));
    // Every core as DuckDB counts them by default (a container's CPU quota heeded).
    const duckdb = await (await DuckDBInstance.create(':memory:')).connect();
    const cores = Number((await duckdb.runAndReadAll(`select current_setting('threads') as n`)).getRows()[0]![0]);
    duckdb.closeSync();
    expect(await threads(['--transcripts', dir])).toBe(cores);
    // A line short of 16 MiB stays on one thread.
    writeFileSync(join(dir, 's1.jsonl'), line.repeat(Math.floor((16 * 1024 * 1024) / line.length) - 1));
    expect(await threads(['--transcripts', dir])).toBe(1);
  }, 60_000);

  // A container's CPU quota (cgroup v2 cpu.max), which DuckDB heeds and Node 20's availableParallelism
  // does not: faked for one process in a mount namespace of its own, where the machine allows it.
  const underQuota = (command: string[]) =>
    spawnSync(
      'unshare',
      [
        '-m',
        '--propagation',
        'private',
        'sh',
        '-c',
        `mount -t tmpfs none /sys/fs/cgroup && echo '100000 100000' > /sys/fs/cgroup/cpu.max && exec "$@"`,
        'sh',
        ...command,
      ],
      { encoding: 'utf8' },
    );
  const canFake =
    process.platform === 'linux' && readFileSync('/proc/self/cgroup', 'utf8').includes('0::/\n') && underQuota(['true']).status === 0;
  if (!canFake) console.log('threads: a CPU quota cannot be faked here (needs root, unshare and cgroup v2 at /): skipped');

  it.skipIf(!canFake)(
    '16 MiB of transcripts under a quota of one CPU is read on one thread, as DuckDB counts the CPUs',
    () => {
      const dir = temp();
      const line = `${JSON.stringify({ type: 'user', sessionId: 's1', message: { role: 'user', content: 'x'.repeat(1000) } })}\n`;
      writeFileSync(join(dir, 's1.jsonl'), line.repeat(Math.ceil((16 * 1024 * 1024) / line.length)));
      const run = underQuota([
        process.execPath,
        binPath,
        'sql',
        '--transcripts',
        dir,
        "select current_setting('threads')::INTEGER as t",
        '--format',
        'json',
      ]);
      expect([run.status, run.stderr, JSON.parse(run.stdout || 'null')]).toEqual([0, '', [{ t: 1 }]]);
    },
    60_000,
  );
});

describe('output that cannot be written', () => {
  // /dev/stdout of a pipe or a socket (as a child's stdout is here) resolves to no path
  // (/proc/<pid>/fd/pipe:[…]): named as the file to write, it is what it is, and refused as such.
  const pipe = '(FIFO \\(named pipe\\)|socket)';
  it.each([
    [['report', '--html', '/dev/stdout'], '/dev/stdout: is not a regular file \\(name the HTML file to write, e.g. report.html\\)'],
    [
      ['report', '--html', '/proc/self/fd/1', '--force'],
      '/proc/self/fd/1: is not a regular file \\(name the HTML file to write, e.g. report.html\\)',
    ],
    [['render', '/dev/stdout'], `/dev/stdout: a ${pipe}, where a markdown document is expected \\(give the path of a markdown document\\)`],
    [['load', '--db', '/dev/stdout'], `/dev/stdout: a ${pipe}, where a database file is expected \\(give the path of a database file\\)`],
  ])('%j names a pipe: an error, not a bug', (args, message) => {
    const run = bin(args);
    expect([run.code, run.stdout]).toEqual([1, '']);
    expect(run.stderr).toMatch(new RegExp(`^omg-evidence: ${message}\\n$`));
  });

  // A full disk (/dev/full) fails every write: one line on stderr, exit 1, for rows written one
  // by one (census) or streamed (sql).
  it.each([['census'], ['sql', '--format', 'json', 'select 1 as n']])('%s > /dev/full is an error, not a stack trace', (...args) => {
    const r = spawnSync('sh', ['-c', `exec "$0" "$@" > /dev/full`, process.execPath, binPath, ...args], { cwd: repo, encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual([
      1,
      'omg-evidence: cannot write the output (ENOSPC); what was written is incomplete (check the disk or device stdout goes to)\n',
    ]);
  });

  // stderr carries no data: a warning into a pipe whose reader has gone (EPIPE) had ended the command at once,
  // exit 0 and its output unwritten; an error's exit 1 had become 0 (review rev50).
  it.each([
    [['usage', '--transcripts', 'test/fixtures/usage/no-usage', '--timezone', 'UTC'], 0, 271],
    [['sql', '--transcripts', 'test/fixtures/usage/no-usage', 'select nope from transcript_messages'], 1, 0],
  ])('%j with a stderr whose reader has gone ends as it would (exit %i, %i bytes of output)', (args, code, bytes) => {
    const out = join(mkdtempSync(join(tmpdir(), 'omg-epipe-')), 'out');
    // The reader (true) has gone long before node starts and writes its first line to stderr.
    const r = spawnSync('bash', ['-c', 'set -o pipefail; "$0" "$@" 2>&1 > "$OUT" | true', process.execPath, binPath, ...args], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, OUT: out },
    });
    expect([r.status, readFileSync(out, 'utf8').length]).toEqual([code, bytes]);
  });
});

describe('sql is bounded', () => {
  it('streams a result larger than the JS heap to stdout, in every format', async () => {
    const rows = 1_000_000;
    // A 32 MB heap cannot hold 1,000,000 rows gathered whole; streamed, each format prints them all.
    const header = { csv: 1, markdown: 2, json: 2, ndjson: 0 };
    for (const [format, extra] of Object.entries(header)) {
      const run = await countLines(
        ['sql', `select i, 'row ' || i as s from range(${rows}) t(i)`, '--format', format, '--timeout', '0'],
        32,
      );
      expect({ format, ...run }).toEqual({ format, code: 0, lines: rows + extra, stderr: '' });
    }
  }, 120_000);

  it('a table holds at most 10,000 rows to size its columns; a longer result prints as markdown, with a warning', async () => {
    const run = await cli(['sql', 'select i from range(10001) t(i)'], { tty: true });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      'omg-evidence: warning: more than 10000 rows: printed as markdown, which streams (a table holds its rows to size its columns); --format csv, markdown or ndjson prints any size\n',
    );
    expect(run.stdout.split('\n').slice(0, 3)).toEqual(['| i |', '|---:|', '| 0 |']);
    expect(run.stdout.split('\n')).toHaveLength(10001 + 3);
    expect((await cli(['sql', 'select i from range(10000) t(i)'], { tty: true })).stdout).toMatch(/^┌/);
  });

  // DuckDB makes ~2,048 rows at a time: 2,048 values of 40 KB are 80 MB of text, twice the heap, were a chunk made text at once.
  it('streams rows of long values a few at a time, bounded by bytes, as text and as JSON', async () => {
    const header = { csv: 1, json: 2 };
    for (const [format, extra] of Object.entries(header)) {
      const run = await countLines(['sql', "select repeat('x', 40000) as s from range(2048)", '--format', format, '--timeout', '0'], 40);
      expect({ format, ...run }).toEqual({ format, code: 0, lines: 2048 + extra, stderr: '' });
    }
  }, 120_000);

  it('a table holds at most 16 MiB of text, or of table laid out; a larger one prints as markdown, with a warning', async () => {
    const warning =
      'omg-evidence: warning: a table of more than 16 MiB: printed as markdown, which streams (a table holds its rows to size its columns); --format csv, markdown or ndjson prints any size\n';
    // 1,000 rows of 20 KB: 20 MB held.
    const held = await cli(['sql', "select repeat('x', 20000) as s from range(1000)", '--format', 'table']);
    expect([held.code, held.stderr, held.stdout.split('\n').length]).toEqual([0, warning, 1000 + 3]);
    // 2 MB held, but each of the 200 lines padded to the widest: 20 MB laid out.
    const padded = await cli(['sql', "select if(i = 0, repeat('x', 100000), '') as s from range(200) t(i)", '--format', 'table']);
    expect([padded.code, padded.stderr, padded.stdout.split('\n').length]).toEqual([0, warning, 200 + 3]);
    // Fitted to a terminal's width, the same table is small.
    const fitted = await cli(['sql', "select if(i = 0, repeat('x', 100000), '') as s from range(200) t(i)"], {
      tty: true,
      env: { COLUMNS: '80' },
    });
    expect([fitted.code, fitted.stderr, fitted.stdout.slice(0, 1)]).toEqual([0, '', '┌']);
  });

  it("JavaScript's own limit met printing a row is said as such, never as DuckDB's error", async () => {
    const db = await Database.open();
    try {
      const sink = {
        mode: 'text' as const,
        columns: () => undefined,
        rows: () => {
          throw new RangeError('Invalid string length');
        },
      };
      await expect(db.streamStatements('select 1 as n', '<argument>', sink)).rejects.toThrow(
        /^<argument>: a row is too long to print \(Invalid string length\)$/,
      );
    } finally {
      await db.close();
    }
  });

  // A stream that fails ends as if it were complete: the rows before the failure had printed as the whole result, exit 0.
  it('a query that fails after its first rows: exit 1, never a result that looks complete, in every format', async () => {
    const query = "select case when i >= 500000 then error('boom') else i end as x from range(1000000) t(i)";
    // How many rows DuckDB makes before the failing one is its own: none, or some.
    const said =
      /^omg-evidence: <argument>: (the query failed after \d+ row\(s\), and DuckDB did not say why: what was printed is incomplete \(an aggregate over it names the error: select count\(hash\(q\)\) from \(QUERY\) as q\)|Invalid Input Error: boom)\n$/;
    for (const format of ['csv', 'json', 'ndjson', 'markdown', 'table']) {
      const run = await cli(['sql', query, '--format', format, '--timeout', '0']);
      expect({ format, code: run.code }).toEqual({ format, code: 1 });
      expect(run.stdout).not.toMatch(/\b500000\b/);
      // A table of more than 10,000 rows prints as markdown, and says so first.
      expect(run.stderr.replace(/^omg-evidence: warning: more than 10000 rows: .*\n/, '')).toMatch(said);
    }
    const ev = await Evidence.open();
    await expect(ev.sql(query, { timeout: 0 })).rejects.toThrow(/the query failed after \d+ row\(s\)|boom/);
    await ev.close();
  }, 60_000);

  it('--timeout interrupts the query: a one-line message, exit 1, nothing on stdout', async () => {
    const run = await cli(['sql', 'select count(*) from range(10000000000000)', '--timeout', '1']);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'omg-evidence: <argument>: query interrupted after 1 s (--timeout) (let it run longer with --timeout SECONDS, or 0 for no limit)\n',
    });
  });

  it('--timeout interrupts a query whose rows are being printed: exit 1, never a result that looks complete', async () => {
    const run = await cli(['sql', 'select * from range(1000000000)', '--timeout', '1', '--format', 'csv']);
    expect(run.code).toBe(1);
    expect(run.stdout.startsWith('range\r\n0\r\n1\r\n')).toBe(true);
    expect(run.stderr).toBe(
      'omg-evidence: <argument>: query interrupted after 1 s (--timeout) (let it run longer with --timeout SECONDS, or 0 for no limit)\n',
    );
  });

  it('--timeout interrupts a query whose reader has stopped reading: exit 1 then, not when the pipe closes', async () => {
    // stdout is a pipe nobody reads: it fills, and the hand-over of rows waits on it.
    const child = spawn(process.execPath, [binPath, 'sql', 'select * from range(1000000000)', '--timeout', '1', '--format', 'csv'], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const code = await new Promise<number | null>((done) => {
      const stuck = setTimeout(() => {
        child.kill('SIGKILL');
        done(null);
      }, 60_000);
      child.on('exit', (c) => {
        clearTimeout(stuck);
        done(c);
      });
    });
    child.stdout.destroy();
    expect([code, stderr]).toEqual([
      1,
      'omg-evidence: <argument>: query interrupted after 1 s (--timeout) (let it run longer with --timeout SECONDS, or 0 for no limit)\n',
    ]);
  });

  it('--timeout takes seconds, 0 for none', async () => {
    expect((await cli(['sql', 'select 1', '--timeout', 'soon'])).stderr).toBe(
      "omg-evidence: option '--timeout <seconds>' argument 'soon' is invalid. give a number of seconds, 0 for none.\n(run with --help for usage)\n",
    );
    expect((await cli(['sql', 'select 1 as n', '--timeout', '0', '--format', 'csv'])).stdout).toBe('n\r\n1\r\n');
    // In decimal digits: Number() had taken these as 16, 5 and 1000 seconds (hunt50).
    for (const v of ['0x10', ' 5', '1e3', '-1', '']) {
      expect(await cli(['sql', 'select 1', '--timeout', v]), v).toEqual({
        code: 2,
        stdout: '',
        stderr: `omg-evidence: option '--timeout <seconds>' argument '${v}' is invalid. give a number of seconds, 0 for none.\n(run with --help for usage)\n`,
      });
    }
    expect((await cli(['sql', 'select 1 as n', '--timeout', '.5', '--format', 'csv'])).stdout).toBe('n\r\n1\r\n');
  });

  it('a timeout longer than a timer can hold (2^31 ms, 24.8 days) is none, not one that fires at once', async () => {
    const slow = 'select count(*) as n from range(200000000)';
    expect(await cli(['sql', slow, '--timeout', '3000000', '--format', 'csv'])).toEqual({
      code: 0,
      stdout: 'n\r\n200000000\r\n',
      stderr: '',
    });
    const ev = await Evidence.open([]);
    try {
      expect((await ev.sql(slow, { timeout: Number.POSITIVE_INFINITY })).objects()).toEqual([{ n: 200000000 }]);
    } finally {
      await ev.close();
    }
  });

  it("--memory-limit sets DuckDB's memory_limit, by default a quarter of the machine's memory", async () => {
    const setting = `select current_setting('memory_limit') as m`;
    expect((await cli(['sql', setting, '--memory-limit', '300MiB', '--format', 'csv'])).stdout).toBe('m\r\n300.0 MiB\r\n');
    const db = join(temp(), 'p.duckdb');
    await cli(['load', '--db', db]);
    expect((await cli(['sql', setting, '--memory-limit', '300MiB', '--db', db, '--format', 'csv'])).stdout).toBe('m\r\n300.0 MiB\r\n');
    const shown = (await cli(['sql', setting, '--format', 'csv'])).stdout.split('\r\n')[1]!;
    const [n, unit] = shown.split(' ');
    const limit = Number(n) * 1024 ** ['KiB', 'MiB', 'GiB', 'TiB'].indexOf(unit!) * 1024;
    expect(Math.abs(limit - totalmem() / 4) / totalmem()).toBeLessThan(0.01);
  });

  it('a query that needs more than --memory-limit fails with a hint, exit 1', async () => {
    const run = await cli(['sql', 'select list(i) from range(20000000) t(i)', '--memory-limit', '50MB']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^omg-evidence: <argument>: Out of Memory Error: failed to allocate [^\n]* \(the query needs more than --memory-limit allows: raise it, or ask for less \(a LIMIT, fewer columns\)\)\n$/,
    );
    expect((await cli(['sql', 'select 1', '--memory-limit', 'lots'])).code).toBe(2);
    // A size of 2^64 bytes or more is no size: a usage error at once, where DuckDB had refused it with exit 1 (hunt50);
    // 2^63 is one (rev50c).
    expect((await cli(['sql', 'select 1 as n', '--memory-limit', '8388608TiB', '--format', 'csv'])).stdout).toBe('n\r\n1\r\n');
    expect(await cli(['sql', 'select 1', '--memory-limit', '99999999999999999999GB'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "omg-evidence: option '--memory-limit <size>' argument '99999999999999999999GB' is invalid. give a size such as 2GB or 512MiB, under 16 EiB.\n(run with --help for usage)\n",
    });
    expect(await cli(['sql', 'select 1', '--memory-limit', '1MB'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'omg-evidence: memory limit 1MB: Out of Memory Error: Failed to change memory limit to 1000000: could not free up enough memory for the new limit (give a size such as 2GB or 512MiB, larger than the loaded evidence)\n',
    });
  });

  it('a statement before the last that returns rows is refused, never dropped', async () => {
    expect(await cli(['sql', 'select 2 as b; select 1 as a'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "omg-evidence: <argument>: statement 1 of 2 returns rows, which would not be printed: only the last statement's are (run it on its own, or make it the last)\n",
    });
    expect((await cli(['sql', 'create temp table t as select 2 as x; insert into t values (3) returning x; select 1'])).stderr).toMatch(
      /statement 2 of 3 returns rows/,
    );
    const ok = await cli([
      'sql',
      'create temp table t as select 1e20::double as d; insert into t values (2); select d from t order by d /* ; */ ; -- done',
      '--format',
      'csv',
    ]);
    expect(ok).toEqual({ code: 0, stdout: 'd\r\n2.0\r\n1e+20\r\n', stderr: '' });
  });
});

describe('the documented views', () => {
  it('are the tables the loaders build, column for column', async () => {
    const ev = await Evidence.open([], { transcripts: true });
    try {
      for (const v of VIEWS) {
        const cols = (
          await ev.sqlResult(`select column_name from information_schema.columns where table_name = '${v.name}' order by ordinal_position`)
        ).rows.map((r) => r.column_name);
        expect(cols, v.name).toEqual(Object.keys(v.columns));
      }
    } finally {
      await ev.close();
    }
  });

  it('schema prints each with its DuckDB type', async () => {
    const rows = JSON.parse((await cli(['schema', '--format', 'json'])).stdout);
    expect(rows.find((r: { view: string; column: string }) => r.view === 'spawns' && r.column === 'cost_usd')).toEqual({
      view: 'spawns',
      column: 'cost_usd',
      type: 'DOUBLE',
      meaning: "the envelope's total_cost_usd (NULL without an envelope)",
    });
    expect(rows.every((r: { type: string }) => r.type !== '')).toBe(true);
  });
});

describe('persisted databases', () => {
  it('load writes a database that --db reads, giving the same answers', async () => {
    const db = join(temp(), 'probe.duckdb');
    const load = await cli(['load', '--db', db]);
    expect(load).toEqual({ code: 0, stdout: '', stderr: `omg-evidence: load: ${db} written\n` });
    expect((await cli(['load', '--db', db])).stderr).toBe(`omg-evidence: load: ${db} is up to date\n`);
    for (const args of [
      ['census', '--format', 'json'],
      ['arms', '--format', 'json'],
      ['cost', '--format', 'json'],
      ['sql', 'select count(*) from model_usage'],
    ]) {
      const fresh = await cli(args);
      const cached = await cli([...args, '--db', db]);
      expect(cached.stdout, args.join(' ')).toBe(fresh.stdout);
      expect(cached.code).toBe(0);
    }
  });

  it('with transcripts, for agree and the census of sessions', async () => {
    const dir = temp();
    const db = join(dir, 'tx.duckdb');
    expect((await cli(['load', '--from', 'transcripts', '--db', db])).code).toBe(0);
    expect((await cli(['agree', '--db', db])).code).toBe(0);
    const samples = join(repo, '..', 'shared', 'samples', 'claude-code', 'transcripts');
    if (withoutShared(samples, 'sql.test.ts: a database of the samples answers as they do')) return;
    const sdb = join(dir, 'sessions.duckdb');
    expect((await cli(['load', '--transcripts', samples, '--db', sdb])).code).toBe(0);
    const fresh = await cli(['census', '--transcripts', samples, '--format', 'json']);
    expect((await cli(['census', '--transcripts', samples, '--db', sdb, '--format', 'json'])).stdout).toBe(fresh.stdout);
  });

  it('says again what loading the evidence warned of, when a command reads the database', async () => {
    const db = join(temp(), 'w.duckdb');
    const fresh = await cli(['census', probeFixture('orphan-tool-use'), '--format', 'text']);
    expect(fresh.stderr).toMatch(
      /^omg-evidence: warning: orphan-tool-use\/tool_use\/dddddddd-.*: matches no row of results\.jsonl; ignored\n$/,
    );
    expect((await cli(['load', probeFixture('orphan-tool-use'), '--db', db])).stderr).toBe(
      `${fresh.stderr}omg-evidence: load: ${db} written\n`,
    );
    expect(await cli(['census', probeFixture('orphan-tool-use'), '--db', db, '--format', 'text'])).toEqual(fresh);
  });

  it('refuses a database built from other inputs than the ones named', async () => {
    const db = join(temp(), 'p.duckdb');
    await cli(['load', probeFixture('minimal'), '--db', db]);
    const run = await cli(['census', probeFixture('second'), '--db', db]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `omg-evidence: ${db}: cannot be used: it was built from test/fixtures/probes/minimal, not test/fixtures/probes/second (name what it was built from beside --db FILE: test/fixtures/probes/minimal; or load these inputs into another file)\n`,
    );
    expect((await cli(['census', '--from', 'transcripts', probeFixture('minimal'), '--db', db])).code).toBe(1);
  });

  it('refuses a database whose inputs changed since, until load rebuilds it', async () => {
    const dir = temp();
    const probe = join(dir, 'minimal');
    cpSync(join(repo, probeFixture('minimal')), probe, { recursive: true });
    const db = join(dir, 'p.duckdb');
    await cli(['load', probe, '--db', db]);
    const results = join(probe, 'results.jsonl');
    writeFileSync(results, readFileSync(results, 'utf8').replace('"exit_code":0', '"exit_code":7'));
    const run = await cli(['census', '--db', db]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`: cannot be used: ${results} changed since it was built (rebuild it`);
    expect((await cli(['load', probe, '--db', db])).stderr).toMatch(/ written\n$/);
    expect((await cli(['census', '--db', db])).code).toBe(0);
  });

  it('the layout a database records covers the SQL that builds its rows: one changed line of sql/ is another layout', () => {
    const copy = join(temp(), 'sql');
    cpSync(join(repo, 'sql'), copy, { recursive: true });
    expect(layout(copy)).toBe(layout());
    const messages = join(copy, 'transcripts', 'messages.sql');
    writeFileSync(messages, readFileSync(messages, 'utf8').replace('group by k_id, k_request, k_file, k_line', 'group by k_id'));
    expect(layout(copy)).not.toBe(layout());
  });

  it('refuses a database whose tables an older omg-evidence laid out, until load rebuilds it', async () => {
    const db = join(temp(), 'p.duckdb');
    await cli(['load', probeFixture('minimal'), '--db', db]);
    // As a build from before transcript_sessions was a documented table would have recorded it.
    const raw = await Database.open({ file: db });
    await raw.exec(`update omg_meta set value = '"0123456789abcdef"' where key = 'layout'`);
    raw.close();
    const run = await cli(['census', '--db', db]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `omg-evidence: ${db}: cannot be used: its tables are laid out as an older omg-evidence made them (rebuild it with omg-evidence load … --db FILE, naming the same probes and transcripts)\n`,
    );
    expect((await cli(['load', probeFixture('minimal'), '--db', db])).stderr).toMatch(/ written\n$/);
    expect((await cli(['census', '--db', db])).code).toBe(0);
  });

  it('a database file that does not exist, or is not one omg-evidence built', async () => {
    const dir = temp();
    expect((await cli(['census', '--db', join(dir, 'none.duckdb')])).stderr).toMatch(
      /none\.duckdb: no such database \(build it first: omg-evidence load/,
    );
    const other = join(dir, 'other.duckdb');
    const d = await Database.open({ file: other });
    await d.exec('create table t as select 1');
    d.close();
    expect((await cli(['census', '--db', other])).stderr).toMatch(/other\.duckdb: not a database omg-evidence built/);
  });

  it('a read-only database still refuses COPY, ATTACH and writes', async () => {
    const dir = temp();
    const db = join(dir, 'p.duckdb');
    await cli(['load', '--db', db]);
    expect((await cli(['sql', `COPY spawns TO '${dir}/x.csv'`, '--db', db])).stderr).toMatch(/Permission Error/);
    expect((await cli(['sql', 'drop table spawns', '--db', db])).stderr).toMatch(/read-only mode/);
    expect(readdirSync(dir)).toEqual(['p.duckdb']);
  });
});

describe('the library', () => {
  it("import { openEvidence } from 'omg-evidence' returns arquero tables", async () => {
    const { openEvidence } = await import('omg-evidence');
    const ev = await openEvidence([], { transcripts: true });
    try {
      const census = await ev.census();
      expect(census.numRows()).toBe(28);
      expect(census.columnNames()).toEqual([
        'probe',
        'seq',
        'arm',
        'phase',
        'session_id',
        'status',
        'exit_code',
        'tools',
        'artifacts',
        'markers',
        'skills',
        'note',
        'forgeable',
      ]);
      expect((await ev.census('transcripts')).filter((d: { tools: unknown }) => d.tools === null).numRows()).toBe(1);
      expect((await ev.skills()).numRows()).toBe(15);
      expect((await ev.arms()).get('arm', 0)).toBe('T-REF');
      const [verdict] = await ev.verdict();
      expect(verdict!.holds).toBe(true);
      expect(verdict!.conjuncts.numRows()).toBe(9);
      const cost = await ev.cost();
      expect(cost.totals.get('total_cost_usd', 0)).toBe(2.4616);
      expect(cost.by_model.numRows()).toBe(2);
      const t = await ev.sql('select status, count(*) as n from spawns group by status order by status');
      expect(t.objects()).toEqual([
        { status: 'counted', n: 25 },
        { status: 'pilot', n: 1 },
        { status: 'void', n: 2 },
      ]);
      await expect(ev.sql('select * from range(11)', { maxRows: 10 })).rejects.toThrow(/^query: returns more than 10 rows$/);
      await expect(ev.sql('select count(*) from range(10000000000000)', { timeout: 1 })).rejects.toThrow(
        /^query: query interrupted after 1 s \(timeout\)$/,
      );
      await expect(ev.sql('select 2 as b; select 1 as a')).rejects.toThrow(/^query: statement 1 of 2 returns rows/);
    } finally {
      await ev.close();
    }
  });
});

describe('export --parquet', () => {
  it('writes every view hive-partitioned by probe; read back, the row counts match', async () => {
    const out = join(temp(), 'pq');
    const run = await cli(['export', '--parquet', out, probeFixture('minimal'), bundled]);
    expect(run.code).toBe(0);
    expect(readdirSync(join(out, 'spawns')).sort()).toEqual(['probe=0017-staged-agent-restores-layer-1', 'probe=minimal']);
    const ev = await Evidence.open([probeFixture('minimal'), bundled]);
    const reader = await Database.open();
    try {
      for (const v of VIEWS.filter((x) => !x.source)) {
        const want = (await ev.sqlResult(`select probe, count(*) as n from ${v.name} group by probe order by probe`)).rows;
        const got = (
          await reader.query(
            `select probe, count(*) as n from read_parquet('${out}/${v.name}/*/*.parquet', hive_partitioning = true) group by probe order by probe`,
          )
        ).rows;
        expect(got, v.name).toEqual(want);
      }
    } finally {
      await ev.close();
      reader.close();
    }
  });

  it('an export that fails takes back the folders it made (out/a/b had been left behind)', async () => {
    const dir = temp();
    const run = await cli(['export', '--parquet', join(dir, 'out', 'a', 'b'), probeFixture('bad-session-id')]);
    expect(run.code).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a view with no row is a file of no row in each probe folder, so its columns and the glob hold', async () => {
    const out = join(temp(), 'pq');
    expect((await cli(['export', '--parquet', out, probeFixture('minimal')])).code).toBe(0);
    const reader = await Database.open();
    try {
      const got = await reader.query(
        `select column_name, column_type from (describe select * from read_parquet('${out}/pilot_sessions/*/*.parquet', hive_partitioning = true, hive_types = {'probe': 'VARCHAR'}))`,
      );
      expect(got.rows.map((r) => `${r.column_name} ${r.column_type}`)).toEqual(['session_id VARCHAR', 'addendum BIGINT', 'probe VARCHAR']);
      expect(readdirSync(join(out, 'pilot_sessions'))).toEqual(['probe=minimal']);
    } finally {
      reader.close();
    }
  });

  it('--force leaves no view of an earlier export that this one does not write (transcript views)', async () => {
    const out = join(temp(), 'pq');
    expect((await cli(['export', '--parquet', out, '--transcripts', join(bundled, 'transcripts')])).code).toBe(0);
    expect(readdirSync(out)).toContain('transcript_sessions.parquet');
    expect((await cli(['export', '--parquet', out, probeFixture('minimal'), '--force'])).code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(
      VIEWS.filter((v) => !v.source)
        .map((v) => v.name)
        .sort(),
    );
  });

  it('--transcripts DIR with no probe exports the sessions alone, as load saves them (the bundled probe had come too)', async () => {
    const out = join(temp(), 'pq');
    const views = VIEWS.filter((v) => v.source).map((v) => `${v.name}.parquet`);
    expect(await cli(['export', '--parquet', out, '--transcripts', 'test/fixtures/transcripts/edge-cases'])).toEqual({
      code: 0,
      stdout: '',
      stderr: `${EDGE_NO_USAGE}omg-evidence: export: ${views.length} view(s) written to ${out}\n`,
    });
    expect(readdirSync(out).sort()).toEqual(views.sort());
  });

  it('--force refuses a folder whose view folder holds a probe it does not export (it had removed the probe whole)', async () => {
    const out = join(temp(), 'pq');
    cpSync(bundled, join(out, 'transcript_lines', 'deep', 'B'), { recursive: true });
    expect(await cli(['export', '--parquet', out, probeFixture('minimal'), '--force'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${out}: exporting there would replace ${out}/transcript_lines, which holds the probe ${out}/transcript_lines/deep/B; nothing was written (name a folder outside every probe and transcripts folder: evidence is read-only)\n`,
    });
    expect(existsSync(join(out, 'transcript_lines', 'deep', 'B', 'results.jsonl'))).toBe(true);
  });

  it('an empty --parquet is a usage error: it would be the working folder', async () => {
    expect(await cli(['export', '--parquet', ''])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'omg-evidence: --parquet is empty (give a path; an empty one would name the current folder)\n',
    });
  });

  it('refuses a folder that is not empty, unless --force', async () => {
    const out = temp();
    writeFileSync(join(out, 'keep.txt'), 'x');
    const run = await cli(['export', '--parquet', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/: not empty \(name an empty or new folder, or pass --force to replace its views\)\n$/);
    expect((await cli(['export', '--parquet', out, '--force'])).code).toBe(0);
    expect((await cli(['export', '--parquet', out, '--force'])).code).toBe(0);
  });

  it('an export that fails part-way replaces nothing: the views written so far are not moved in', async () => {
    const out = temp();
    expect((await cli(['export', probeFixture('minimal'), '--parquet', out])).code).toBe(0);
    const files = () =>
      readdirSync(out, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => `${join(e.parentPath, e.name)} ${readFileSync(join(e.parentPath, e.name)).toString('base64')}`)
        .sort();
    const before = files();
    // A file size limit (8 KiB; SIGXFSZ ignored, so a write fails with EFBIG) stops the bundled probe's export at
    // its first larger Parquet file, after others were written.
    const run = spawnSync(
      'sh',
      ['-c', 'trap "" XFSZ; ulimit -f 16; exec "$0" "$@"', process.execPath, binPath, 'export', '--parquet', out, '--force'],
      {
        encoding: 'utf8',
      },
    );
    expect({ status: run.status, stderr: run.stderr }).toEqual({
      status: 1,
      stderr: expect.stringMatching(/^omg-evidence: export \w+: IO Error: Could not write file ".*": File too large\n$/),
    });
    expect(files()).toEqual(before);
    expect(readdirSync(out).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('never writes into the evidence or replaces it, --force or not', async () => {
    // A probe folder named like a view: --force would replace <out>/spawns, the probe itself.
    const out = temp();
    const probe = join(out, 'spawns');
    cpSync(probeFixture('minimal'), probe, { recursive: true });
    const before = readdirSync(probe, { recursive: true }).sort();
    const replace = await cli(['export', probe, '--parquet', out, '--force']);
    expect(replace).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${out}: exporting there would replace ${probe}, which holds the evidence it exports (${probe}); nothing was written (name a folder outside every probe and transcripts folder: evidence is read-only)\n`,
    });
    const inside = await cli(['export', probe, '--parquet', join(probe, 'pq'), '--force']);
    expect(inside.code).toBe(1);
    expect(inside.stderr).toBe(
      `omg-evidence: ${join(probe, 'pq')}: inside the evidence it exports (${probe}); nothing was written (name a folder outside every probe and transcripts folder: evidence is read-only)\n`,
    );
    expect(readdirSync(probe, { recursive: true }).sort()).toEqual(before);
  });

  it('a file, a FIFO or a link to nowhere is an error naming it, not a crash', async () => {
    const dir = temp();
    writeFileSync(join(dir, 'file'), 'x');
    symlinkSync(join(dir, 'nowhere'), join(dir, 'link'));
    expect(await cli(['export', '--parquet', join(dir, 'file')])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${join(dir, 'file')}: exists and is not a folder (name a new or empty folder for the Parquet files)\n`,
    });
    expect((await cli(['export', '--parquet', '/dev/null'])).stderr).toBe(
      'omg-evidence: /dev/null: exists and is not a folder (name a new or empty folder for the Parquet files)\n',
    );
    expect(await cli(['export', '--parquet', join(dir, 'link')])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${join(dir, 'link')}: cannot make the folder (ENOENT) (name a folder you may write to; a symbolic link there must point at a folder)\n`,
    });
  });

  it('a file where a parent folder should be is an error naming it, not a crash', async () => {
    const dir = temp();
    writeFileSync(join(dir, 'file'), 'x');
    expect(await cli(['export', '--parquet', join(dir, 'file', 'pq')])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${join(dir, 'file', 'pq')}: cannot be a folder (ENOTDIR) (name a folder whose every parent is a folder)\n`,
    });
  });

  it.skipIf(!existsSync('/proc/self'))('a folder that cannot be made under /proc/self is an error, not a hang', async () => {
    expect(await cli(['export', '--parquet', '/proc/self/omg-parquet'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'omg-evidence: /proc/self/omg-parquet: cannot make the folder (ENOENT) (name a folder you may write to; a symbolic link there must point at a folder)\n',
    });
  });
});

describe('transcript tables when no transcript is loaded', () => {
  it('have the same columns and types as when transcripts are loaded', async () => {
    const shape = async (ev: Evidence) =>
      (
        await ev.sqlResult(
          `select table_name, column_name, data_type from information_schema.columns where table_name like 'transcript_%' order by table_name, ordinal_position`,
        )
      ).rows;
    const without = await Evidence.open([]);
    const with_ = await Evidence.open([], { transcripts: true });
    try {
      expect(await shape(without)).toEqual(await shape(with_));
      expect((await without.sqlResult('select count(*) as n from transcript_lines')).rows).toEqual([{ n: 0 }]);
    } finally {
      await without.close();
      await with_.close();
    }
  });
});

describe('persisted databases of transcripts only', () => {
  it('a probe command on a transcripts-only database says so instead of printing nothing', async () => {
    const dir = temp();
    const db = join(dir, 's.duckdb');
    await cli(['load', '--transcripts', 'test/fixtures/transcripts/edge-cases', '--db', db]);
    const run = await cli(['census', '--db', db]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `omg-evidence: ${db}: holds no probe, only the transcripts in test/fixtures/transcripts/edge-cases (a command that reads transcripts names them as load was given them (--transcripts DIR --db FILE); one that reads a probe needs one loaded with them (omg-evidence load PROBE --transcripts DIR --db FILE))\n`,
    );
    // verdict takes no --transcripts: the hint had named only --transcripts DIR --db FILE, an option it does not have.
    expect((await cli(['verdict', '--db', db])).stderr).toBe(run.stderr);
    expect((await cli(['census', '--transcripts', 'test/fixtures/transcripts/edge-cases', '--db', db, '--format', 'csv'])).code).toBe(0);
    // A command that reads a probe, given the transcripts: the probe is what is missing.
    expect(await cli(['agree', '--transcripts', 'test/fixtures/transcripts/edge-cases', '--db', db])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${db}: holds no probe, only the transcripts in test/fixtures/transcripts/edge-cases (this command reads a probe: load one with them (omg-evidence load PROBE --transcripts DIR --db FILE))\n`,
    });
    // Not named at all: said before the transcripts are held to the recorded ones (there were none to name).
    for (const command of [['agree'], ['agree', '--usage'], ['usage', '--by', 'spawn']]) {
      expect(await cli([...command, '--db', db]), command.join(' ')).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${db}: holds no probe, only the transcripts in test/fixtures/transcripts/edge-cases (this command reads a probe: load one with them (omg-evidence load PROBE --transcripts DIR --db FILE))\n`,
      });
    }
  });

  it('a database of a probe, given to sql --transcripts DIR with no probe, is refused naming what is missing', async () => {
    const db = join(temp(), 'p.duckdb');
    const probe = 'test/fixtures/probes/minimal';
    const transcripts = ['--transcripts', 'test/fixtures/transcripts/edge-cases'];
    expect((await cli(['load', probe, ...transcripts, '--db', db])).code).toBe(0);
    expect(await cli(['sql', ...transcripts, '--db', db, 'select 1'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${db}: cannot be used: it was built from ${probe}, and no probe is named (name what it was built from beside --db FILE: ${probe} --transcripts test/fixtures/transcripts/edge-cases; or load these inputs into another file)\n`,
    });
    expect((await cli(['sql', 'select 1', probe, ...transcripts, '--db', db])).code).toBe(0);
  });

  it("a probe's database built without transcripts, given to a command that reads them, says to rebuild it with them", async () => {
    const db = join(temp(), 'p.duckdb');
    const probe = 'test/fixtures/probes/minimal';
    expect((await cli(['load', probe, '--db', db])).code).toBe(0);
    // The hint had been "pass --transcripts DIR", which --db then refuses: the file was built without them.
    for (const command of [['agree'], ['agree', '--usage'], ['usage', probe, '--by', 'spawn'], ['census', '--from', 'transcripts']]) {
      expect(await cli([...command, '--db', db]), command.join(' ')).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${db}: cannot be used: it was built without transcripts, which this command reads (rebuild it with them: omg-evidence load PROBE --transcripts DIR --db FILE, DIR the folder of its session files)\n`,
      });
    }
    expect((await cli(['census', '--db', db])).code).toBe(0);
  });

  it('sql --transcripts DIR reads the sessions alone, as load --transcripts DIR saved them', async () => {
    const dir = temp();
    const db = join(dir, 's.duckdb');
    const transcripts = ['--transcripts', 'test/fixtures/transcripts/edge-cases'];
    expect((await cli(['load', ...transcripts, '--db', db])).code).toBe(0);
    const query = 'select (select count(*) from spawns) as spawns, (select count(*) from transcript_tool_uses) as calls';
    const fresh = await cli(['sql', ...transcripts, query, '--format', 'csv']);
    expect(fresh).toEqual({
      code: 0,
      stdout: 'spawns,calls\r\n0,6\r\n',
      stderr:
        'omg-evidence: warning: spawns holds no row: no probe was read (name the probe beside --transcripts DIR to read its tables)\n',
    });
    // With the warning its load gave (two responses with no usage): the query reads no usage, load does.
    expect(await cli(['sql', ...transcripts, '--db', db, query, '--format', 'csv'])).toEqual({
      ...fresh,
      stderr:
        EDGE_NO_USAGE +
        'omg-evidence: warning: spawns holds no row: no probe was read (the database was built without one: load it again naming the probe)\n',
    });
  });

  it('--transcripts DIR with --from transcripts loads the bundled probe too, as census reads it', async () => {
    const dir = temp();
    const db = join(dir, 'p.duckdb');
    const args = ['--transcripts', join(bundled, 'transcripts'), '--from', 'transcripts'];
    expect((await cli(['load', ...args, '--db', db])).code).toBe(0);
    const fresh = await cli(['census', ...args, '--format', 'csv']);
    expect(fresh.code).toBe(0);
    expect(await cli(['census', ...args, '--db', db, '--format', 'csv'])).toEqual(fresh);
  });

  it('load takes --from records or transcripts, nothing else', async () => {
    const run = await cli(['load', '--from', 'transcript', '--db', join(temp(), 'x.duckdb')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^omg-evidence: option '--from <source>' argument 'transcript' is invalid\. Allowed choices are records, transcripts\./,
    );
  });

  it('a load that fails leaves no file behind', async () => {
    const dir = temp();
    const run = await cli(['load', 'test/fixtures/transcripts/edge-cases', '--db', join(dir, 'x.duckdb')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/not a probe: it has no results\.jsonl/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
