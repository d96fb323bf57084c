/**
 * The bundled probe is a reconstruction (evidence/reconstruct-0017.mjs). These tests hold it to
 * every figure the reference ADR states, and hold the committed files to the script's output.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Evidence } from '../src/evidence.js';
import { UsageError } from '../src/base/errors.js';
import { VIEWS } from '../src/db/views.js';
import { bundled, cli, repo } from './helpers.js';

let ev: Evidence;
beforeAll(async () => {
  ev = await Evidence.open([]);
});
afterAll(() => ev.close());
const one = async (sql: string) => (await ev.sqlResult(sql)).rows[0]!;

describe('the bundled probe holds the ADR figures', () => {
  it('28 rows, 27 envelopes, claude 2.1.228 on every row', async () => {
    expect(
      await one(`select count(*) as rows, count(envelope) as envelopes,
                        count(*) filter (where claude_version = '2.1.228') as v from spawns`),
    ).toEqual({ rows: 28, envelopes: 27, v: 28 });
  });

  it('K-NEG exits 1 with no envelope, and its .err holds the CLI complaint', async () => {
    expect(await one(`select exit_code, envelope, stderr from spawns where arm = 'K-NEG'`)).toEqual({
      exit_code: 1,
      envelope: null,
      stderr: "--agent 'omg-probe-writer' not found. Available agents:\nclaude, Explore, general-purpose, Plan, statusline-setup\n",
    });
  });

  it('costs $2.4616 in all, and each envelope equals the sum of its modelUsage', async () => {
    expect(await one(`select round(sum(cost_usd), 4) as total from spawns`)).toEqual({ total: 2.4616 });
    expect(
      await one(`select count(*) as n from spawns s
                      where s.envelope is not null
                        and s.cost_usd <> (select sum(cost_usd) from model_usage m where m.session_id = s.session_id)`),
    ).toEqual({ n: 0 });
  });

  it('claude-opus-5[1m] in all 27 modelUsage objects, claude-haiku-4-5 in 25', async () => {
    expect((await ev.sqlResult(`select model, count(*) as n from model_usage group by model order by model`)).rows).toEqual([
      { model: 'claude-haiku-4-5', n: 25 },
      { model: 'claude-opus-5[1m]', n: 27 },
    ]);
  });

  it('permission_denials name the Bash touch in the three K-CEIL envelopes only', async () => {
    expect(
      (
        await ev.sqlResult(`select s.arm, d.tool_name, d.tool_input ->> 'command' as command
                                from permission_denials d join spawns s using (probe, session_id) order by s.seq`)
      ).rows,
    ).toEqual(Array(3).fill({ arm: 'K-CEIL', tool_name: 'Bash', command: 'touch /tmp/OMG-K-CEILING-BREACH' }));
  });

  it('pairs every Skill call with its result; the unknown skills are errors', async () => {
    expect(await one(`select count(*) as calls from tool_uses where name = 'Skill'`)).toEqual({ calls: 15 });
    expect(await one(`select count(*) as paired from skill_calls c join tool_uses t using (probe, session_id, tool_use_id)`)).toEqual({
      paired: 15,
    });
    expect(
      (await ev.sqlResult(`select left(session_id, 8) as sid, skill, result from skill_calls where is_error order by ordinal`)).rows,
    ).toEqual([
      {
        sid: '4d4c9e7b',
        skill: 'omg-probe-userplugin-only',
        result: '<tool_use_error>Unknown skill: omg-probe-userplugin-only</tool_use_error>',
      },
      {
        sid: 'fc827716',
        skill: 'omg-probe-userplugin-only',
        result: '<tool_use_error>Unknown skill: omg-probe-userplugin-only</tool_use_error>',
      },
      { sid: 'afbb2a87', skill: 'omg-repo-house-html', result: '<tool_use_error>Unknown skill: omg-repo-house-html</tool_use_error>' },
    ]);
  });

  it('has timestamps on 2026-08-12 KST, increasing in seq (and so phase) order', async () => {
    expect(
      await one(`select bool_and(started_at like '2026-08-12T%+09:00') as kst,
                             bool_and(started_at::TIMESTAMPTZ < ended_at::TIMESTAMPTZ) as ordered,
                             count(*) filter (where started_at::TIMESTAMPTZ <= prev) as backwards
                      from (select *, lag(ended_at::TIMESTAMPTZ) over (order by seq) as prev from spawns)`),
    ).toEqual({
      kst: true,
      ordered: true,
      backwards: 0,
    });
  });

  it('has a transcript for every spawn that opened a session, and none for K-NEG', () => {
    const files = readdirSync(join(bundled, 'transcripts')).sort();
    expect(files).toHaveLength(27);
    expect(files.some((f) => f.startsWith('d3cf0e26'))).toBe(false);
  });
});

describe('the reconstruction script', () => {
  it('regenerates the committed files byte for byte', () => {
    const out = mkdtempSync(join(tmpdir(), 'omg-reconstruct-'));
    try {
      execFileSync(process.execPath, [join(repo, 'evidence', 'reconstruct-0017.mjs'), '--out', out], { stdio: 'pipe' });
      const files = (dir: string): string[] =>
        readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
      const generated = files(out)
        .map((f) => relative(out, f))
        .sort();
      expect(generated).toHaveLength(1 + 1 + 28 + 1 + 27);
      for (const f of generated) expect(readFileSync(join(out, f)), f).toEqual(readFileSync(join(bundled, f)));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('leaves no home-directory path in any committed record', () => {
    const all = execFileSync('git', ['ls-files', '-co', '--exclude-standard', 'evidence/0017-staged-agent-restores-layer-1'], {
      cwd: repo,
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean);
    expect(all.length).toBeGreaterThan(50);
    for (const f of all) expect(readFileSync(join(repo, f), 'utf8'), f).not.toMatch(/\/(home|Users)\/[^/\s"]+/);
  });
});

describe('nothing the SQL of a library user does changes what the other methods return', () => {
  /** What every method but sql() returns, for the bundled probe. */
  async function answers(e: Evidence) {
    const [v] = await e.verdict();
    return {
      holds: v!.holds,
      reasons: v!.reasons,
      budget: v!.budget,
      conjuncts: v!.conjuncts.objects(),
      census: (await e.census()).objects(),
      arms: (await e.arms()).objects(),
      cost: (await e.cost()).totals.objects(),
    };
  }
  let before: Awaited<ReturnType<typeof answers>>;
  beforeAll(async () => {
    before = await answers(ev);
  });

  const attacks = [
    'update spawns set cost_usd = 100',
    'delete from markers',
    'create temp table spawns as select * replace (100.0 as cost_usd) from main.spawns',
    'create or replace table budgets as select probe, 0.01 as usd, 1 as spawns, file, record from budgets',
    "create or replace temp table conjunct_results as select probe, n, required, 'forged' as result, false as holds from conjuncts",
    'create temp view tool_uses as select * from main.tool_uses where false',
    "create macro format(a, b, c) as 'forged'",
    'drop table artifacts',
    'alter table spawns rename to spawns_before',
    'begin; commit; update spawns set cost_usd = 100',
    'commit; update spawns set cost_usd = 100',
    'rollback; update spawns set cost_usd = 100',
  ];
  for (const attack of attacks) {
    it(attack, async () => {
      const db = join(mkdtempSync(join(tmpdir(), 'omg-attack-')), 'p.duckdb');
      try {
        await Evidence.build([], { file: db });
        for (const opened of [await Evidence.open([]), await Evidence.open([], { db })]) {
          try {
            // Before the first verdict(), which evaluates the registration, and after it.
            for (let i = 0; i < 2; i++) {
              await opened.sql(attack).catch(() => undefined);
              // sqlStream, what the CLI prints from, runs the same sandbox by another path.
              const sink = { mode: 'plain' as const, columns: () => undefined, rows: () => undefined };
              await opened.sqlStream(attack, 'attack', sink).catch(() => undefined);
              expect(await answers(opened)).toEqual(before);
            }
          } finally {
            await opened.close();
          }
        }
      } finally {
        rmSync(dirname(db), { recursive: true, force: true });
      }
    });
  }

  it('its probes cannot be pointed elsewhere, emptied or replaced by property access', async () => {
    const opened = await Evidence.open([]);
    try {
      const probes = opened.probes as unknown as { dir: string }[];
      expect(() => {
        probes[0]!.dir = '/tmp/elsewhere';
      }).toThrow(TypeError);
      expect(() => probes.splice(0)).toThrow(TypeError);
      expect(() => {
        (opened as unknown as { probes: unknown }).probes = [];
      }).toThrow(TypeError);
      expect(await answers(opened)).toEqual(before);
    } finally {
      await opened.close();
    }
  });

  it('a statement that would end the transaction sql() runs in is refused, exit 1', async () => {
    expect(await cli(['sql', 'commit; update spawns set cost_usd = 100'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'omg-evidence: <argument>: statement 1 begins, commits or rolls back a transaction (leave it out: your SQL runs in a transaction of its own, which omg-evidence rolls back)\n',
    });
  });

  it('sql still runs several statements, and reads the last', async () => {
    expect(
      await cli([
        'sql',
        'create temp table t as select arm from spawns where arm like $$K-R%$$; select count(*) as n from t',
        '--format',
        'csv',
      ]),
    ).toEqual({
      code: 0,
      stdout: 'n\r\n9\r\n',
      stderr: '',
    });
  });

  it('the library hands out no unsealed evidence and no writable database', async () => {
    const lib = await import('omg-evidence');
    expect(Object.keys(lib).sort()).toEqual([
      'DiffersError',
      'EXIT',
      'Evidence',
      'InputError',
      'OmgError',
      'PROBE_REPORT_QUERIES',
      'QueryError',
      'TRANSCRIPT_REPORT_QUERIES',
      'UsageError',
      'VerdictError',
      'main',
      'openEvidence',
    ]);
    expect(Object.getOwnPropertyNames(lib.Evidence).filter((n) => /unsealed/i.test(n))).toEqual([]);
    // Its DuckDB handle is private: no property, own or inherited, reaches it.
    expect('db' in ev).toBe(false);
    expect(Object.getOwnPropertyNames(Object.getPrototypeOf(ev)).filter((n) => /^db$|database|connection/i.test(n))).toEqual([]);
  });
});

describe('openEvidence from plain JavaScript', () => {
  it('takes one probe as a string, and refuses what is not a path in words, not with a TypeError', async () => {
    const { openEvidence, UsageError } = await import('omg-evidence');
    const one = await openEvidence(bundled);
    expect((await one.census()).numRows()).toBe(28);
    // The columns in the order the CLI prints them.
    const header = (await cli(['census', bundled, '--format', 'csv'])).stdout.split('\r\n')[0];
    expect((await one.census()).columnNames().join(',')).toBe(header);
    await one.close();
    const sparse: string[] = [bundled];
    sparse[2] = bundled; // a hole at 1
    // '' would be the current folder.
    for (const bad of [42, [bundled, 7], { dir: bundled }, sparse, '', [bundled, '']]) {
      const err = await openEvidence(bad as never).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect((err as Error).message).toBe('openEvidence(paths): paths must be a probe directory or a list of them (non-empty strings)');
    }
  });
});

describe('a closed Evidence', () => {
  it('refuses every method in words (a UsageError), not with DuckDB\'s "connection disconnected"; closing again is harmless', async () => {
    const closed = await Evidence.open([]);
    await closed.census(); // evaluated once before, so no answer comes from what was kept
    await closed.close();
    await closed.close();
    const calls: [string, () => Promise<unknown>][] = [
      ['census', () => closed.census()],
      ['sql', () => closed.sql('select 1')],
      ['verdict', () => closed.verdict()],
      ['arms', () => closed.arms()],
      ['cost', () => closed.cost()],
      ['forgeable', () => closed.forgeable()],
      ['sourceFiles', () => closed.sourceFiles()],
    ];
    for (const [name, call] of calls) {
      const err = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, name).toBeInstanceOf(UsageError);
      expect((err as UsageError).message, name).toBe('this evidence is closed');
      expect((err as UsageError).hint, name).toBe('open it again with openEvidence(), and call close() when done with it');
    }
  });
});

describe('the library given the wrong types from plain JavaScript', () => {
  it('refuses each in words (a UsageError naming the argument), never a TypeError from deep inside or a silent default', async () => {
    const refused = async (call: () => Promise<unknown>) =>
      call().then(
        () => 'ran',
        (e: unknown) => (e instanceof UsageError ? e.message : `not a UsageError: ${String(e)}`),
      );
    const open = (options: unknown) => () => Evidence.open([], options as never);
    expect(await refused(open(null))).toBe('openEvidence(paths, options): options must be an object, such as { transcripts: true }');
    for (const queries of ['census', []]) {
      expect(await refused(open({ queries }))).toBe(
        'openEvidence(paths, options): queries must be a list of query names (strings), at least one',
      );
    }
    // A string that is no size was DuckDB's error (a QueryError) where the CLI gives a usage error.
    // So was one of 2^64 bytes or more, once everything had loaded (rev50c).
    for (const memoryLimit of [1, 'lots', '99999999TB', '16777216TiB']) {
      expect(await refused(open({ memoryLimit }))).toBe(
        "openEvidence(paths, options): memoryLimit must be a size such as '2GB' or '512MiB' (a string), under 16 EiB",
      );
    }
    // '' had read the current folder as sessions; db: '' had been taken for no database.
    for (const transcripts of [42, '']) {
      expect(await refused(open({ transcripts }))).toBe(
        'openEvidence(paths, options): transcripts must be true, false or a folder (a non-empty string)',
      );
    }
    expect(await refused(open({ db: '' }))).toBe('openEvidence(paths, options): db must be a database file (a non-empty string)');
    // The other openers of Evidence, which the package exports too.
    expect(await refused(() => Evidence.openTranscripts(''))).toBe(
      'Evidence.openTranscripts(dir): dir must be a folder (a non-empty string)',
    );
    // true named no probe's transcripts, so it had opened nothing, and said nothing.
    const openTranscripts = Evidence.openTranscripts as (dir: unknown, options?: unknown) => Promise<Evidence>;
    expect(await refused(() => openTranscripts(true))).toBe('Evidence.openTranscripts(dir): dir must be a folder (a non-empty string)');
    expect(await refused(() => openTranscripts(join(bundled, 'transcripts'), { transcripts: true }))).toBe(
      'Evidence.openTranscripts(dir, options): no option "transcripts"; the options are ownTranscripts, db, memoryLimit, pricing, queries, tables, onWarning, onProgress, checkTimeout',
    );
    // Evidence.build's arguments had reached the loader as they came: a TypeError from inside it.
    const build = Evidence.build as (paths: unknown, options: unknown) => Promise<boolean>;
    const never = join(tmpdir(), 'never.duckdb');
    expect(await refused(() => build([bundled], null))).toBe(
      'Evidence.build(paths, options): options must be an object, such as { transcripts: true }',
    );
    for (const paths of [bundled, [5]]) {
      expect(await refused(() => build(paths, { file: never }))).toBe(
        'Evidence.build(paths, options): paths must be a list of probe folders (strings)',
      );
    }
    expect(await refused(() => build([bundled], { file: never, force: 'yes' }))).toBe(
      'Evidence.build(paths, options): force must be true or false',
    );
    // What a build does not read had been taken and ignored: it reads no database, and builds every table.
    expect(await refused(() => build([bundled], { file: never, db: never }))).toBe(
      'Evidence.build(paths, options): no option "db"; the options are transcripts, ownTranscripts, pricing, onWarning, onProgress, file, force',
    );
    for (const option of [{ checkTimeout: 5 }, { memoryLimit: '1GB' }, { queries: ['census'] }]) {
      expect(await refused(() => build([bundled], { file: never, ...option }))).toMatch(/^Evidence\.build\(paths, options\): no option "/);
    }
    // A key given as undefined is not given, as load itself had passed db.
    const undefinedKeys = mkdtempSync(join(tmpdir(), 'omg-build-'));
    expect(await build([bundled], { file: join(undefinedKeys, 'p.duckdb'), db: undefined, memoryLimit: undefined })).toBe(true);
    rmSync(undefinedKeys, { recursive: true, force: true });
    const build3 = Evidence.build as (paths: unknown, options: unknown, probesDefault: unknown) => Promise<boolean>;
    expect(await refused(() => build3([bundled], { file: never }, 'yes'))).toBe(
      'Evidence.build(paths, options): probesDefault must be true or false',
    );
    expect(await refused(() => Evidence.openForExtract(join(bundled, 'results.jsonl'), ''))).toBe(
      'the transcripts must be a path (a non-empty string)',
    );
    expect(await refused(() => Evidence.build([], { file: '' }))).toBe('the database file must be a path (a non-empty string)');
    expect(await refused(() => Evidence.build([''], { file: join(tmpdir(), 'never.duckdb') }))).toBe(
      'a probe path must be a path (a non-empty string)',
    );
    expect(await refused(() => Evidence.build([bundled], { file: join(tmpdir(), 'never.duckdb'), transcripts: '' }))).toBe(
      'Evidence.build(paths, options): transcripts must be true, false or a folder (a non-empty string)',
    );
    const forExtract = await Evidence.openForExtract(join(bundled, 'results.jsonl'), join(bundled, 'transcripts'));
    expect(await refused(() => forExtract.extract({ out: '' }))).toBe('the output folder (out) must be a path (a non-empty string)');
    await forExtract.close();
    expect(await refused(open({ pricing: '' }))).toBe(
      'openEvidence(paths, options): pricing must be a price table file (a non-empty string)',
    );
    expect(await refused(open({ onWarning: 'console' }))).toBe('openEvidence(paths, options): onWarning must be a function');
    // A misspelt option would be the default, and say nothing.
    expect(await refused(open({ transcript: true }))).toBe(
      'openEvidence(paths, options): no option "transcript"; the options are transcripts, ownTranscripts, db, memoryLimit, pricing, queries, tables, onWarning, onProgress, checkTimeout',
    );
    const e = ev as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    expect(await refused(() => e.census!('x'))).toBe(`census(from): from must be 'records' or 'transcripts', not "x"`);
    expect(await refused(() => e.skills!(42))).toBe(`skills(from): from must be 'records' or 'transcripts', not 42`);
    // query() holds its parameters' values as the named methods do: { from: 'Records' } had given every spawn's tools as NULL.
    expect(await refused(() => e.query!('census', { from: 'Records' }))).toBe(
      `query('census', { from }): from must be 'records' or 'transcripts', not "Records"`,
    );
    expect(await refused(() => e.query!('skills', { from: null }))).toBe(
      `query('skills', { from }): from must be 'records' or 'transcripts', not null`,
    );
    await expect(e.query!('census', { from: 'transcripts' })).rejects.toThrow('transcripts were not loaded');
    expect(await refused(() => e.query!('top_sessions', { by: 'time' }))).toBe(
      `query('top_sessions', { by }): by must be 'duration' or 'cost', not "time"`,
    );
    // As written in digits: '0x10' had been DuckDB's error (a QueryError), and '1e3' and ' 5' taken (rev50c).
    for (const tolerance of [-0.01, 'x', '', null, '0x10', '1e3', ' 5']) {
      expect(await refused(() => e.query!('usage_spawns', { tolerance }))).toBe(
        `query('usage_spawns', { tolerance }): tolerance must be a number, 0 or more, not ${JSON.stringify(tolerance)}`,
      );
    }
    // A BigInt had thrown a bare TypeError from JSON.stringify; a tolerance of 0 or more is a number too.
    expect(await refused(() => e.query!('top_sessions', { by: 1n }))).toBe(
      `query('top_sessions', { by }): by must be 'duration' or 'cost', not 1n`,
    );
    expect(await refused(() => e.query!('usage_spawns', { tolerance: -1n }))).toBe(
      `query('usage_spawns', { tolerance }): tolerance must be a number, 0 or more, not -1n`,
    );
    expect((await ev.query('usage_spawns', { tolerance: 1n })).rows.length).toBeGreaterThan(0);
    expect(await refused(() => e.query!('census', null))).toBe(
      `query('census', params): params must be an object, such as { from: 'records' }`,
    );
    expect(await refused(() => e.query!('census', {}))).toBe('queries/census.sql needs the parameter(s) from');
    // A query of the registered checks' answers runs them first (it had met DuckDB's "does not exist").
    const fresh = await Evidence.open([]);
    try {
      expect((await fresh.query('completeness')).rows).toHaveLength(15);
    } finally {
      fresh.close();
    }
    // A parameter the query does not take is refused, as sql()'s unknown options are (it had been ignored).
    expect(await refused(() => e.query!('census', { from: 'records', form: 'transcripts' }))).toBe(
      'query(\'census\', params): no parameter "form"; the parameters are from',
    );
    expect(await refused(() => e.query!('forgeable', { from: 'records' }))).toBe(
      'query(\'forgeable\', params): no parameter "from"; it takes none',
    );
    expect(await refused(() => e.sql!(42))).toBe('sql(text): text must be SQL (a string)');
    for (const timeout of [-1, 'x', Number.NaN]) {
      expect(await refused(() => e.sql!('select 1', { timeout }))).toBe(
        'sql(text, { timeout }): timeout must be a number of seconds, 0 for none',
      );
    }
    for (const maxRows of [-1, '2', 1.5]) {
      expect(await refused(() => e.sql!('select 1', { maxRows }))).toBe('sql(text, { maxRows }): maxRows must be a whole number of rows');
    }
    expect(await refused(() => e.sql!('select 1', { timeOut: 1 }))).toBe(
      'sql(text, options): no option "timeOut"; the options are timeout, maxRows',
    );
    expect(await refused(() => e.sql!('select 1', null))).toBe('sql(text, options): options must be an object, such as { timeout: 10 }');
    // sqlResult() and sqlStream() are bounded as sql() is: they had taken any SQL with no timeout and no row limit.
    await expect(e.sqlResult!('select * from range(1000001)')).rejects.toThrow(/^query: returns more than 1000000 rows$/);
    expect(await refused(() => e.sqlResult!('select 1', 'query', { maxRows: -5 }))).toBe(
      'sqlResult(text, { maxRows }): maxRows must be a whole number of rows',
    );
    expect(await refused(() => e.sqlStream!('select 1', 'query', { mode: 'plain', columns() {}, rows() {} }, { timeout: -1 }))).toBe(
      'sqlStream(text, { timeout }): timeout must be a number of seconds, 0 for none',
    );
    // A misspelt limit had left the default in force, unsaid; sqlStream gathers no rows, so it takes no maxRows.
    expect(await refused(() => e.sqlResult!('select 1', 'query', { maxrows: 5 }))).toBe(
      'sqlResult(text, options): no option "maxrows"; the options are timeout, timeoutName, memoryName, maxRows',
    );
    expect(await refused(() => e.sqlStream!('select 1', 'query', { mode: 'plain', columns() {}, rows() {} }, { maxRows: 5 }))).toBe(
      'sqlStream(text, options): no option "maxRows"; the options are timeout, timeoutName, memoryName',
    );
    expect(await refused(() => e.sqlResult!('select 1', 'query', { timeoutName: 7 }))).toBe(
      'sqlResult(text, { timeoutName }): timeoutName must be a string',
    );
  });

  it('evidence opened with { tables } for sql() alone refuses its methods, whose queries may read a table not built', async () => {
    const only = await Evidence.open([], { tables: ['transcript_files'], transcripts: true });
    try {
      expect((await only.sqlResult('select count(*) as n from transcript_files')).rows).toEqual([{ n: 27 }]);
      const refusal = 'this evidence was opened with { tables } for sql() alone, and built only the tables named';
      await expect(only.census()).rejects.toThrow(`queries/census.sql: ${refusal}`);
      await expect(only.verdict()).rejects.toThrow(refusal);
    } finally {
      await only.close();
    }
  });
});

describe('evidence opened for some queries alone', () => {
  it('runs a library method once every query it runs is named, and says which one is missing before', async () => {
    const only = await Evidence.open([], { queries: ['census'] });
    try {
      await expect(only.census()).rejects.toThrow(
        'queries/forgeable.sql: this evidence was opened for census alone ({ queries }), and loads only what they read; add forgeable to queries, or open it without queries',
      );
    } finally {
      await only.close();
    }
    const both = await Evidence.open([], { queries: ['census', 'forgeable'] });
    try {
      expect((await both.census()).numRows()).toBe(28);
      // Nothing set afterwards widens what it runs: `only` and the list it holds are read-only.
      const set = both as unknown as { only: string[]; hasTranscripts: boolean };
      expect(() => {
        set.only = ['sessions'];
      }).toThrow(TypeError);
      expect(() => set.only.push('sessions')).toThrow(TypeError);
      expect(() => {
        set.hasTranscripts = true;
      }).toThrow(TypeError);
      expect(both.only).toEqual(['census', 'forgeable']);
      await expect(both.query('sessions')).rejects.toThrow('queries/sessions.sql: this evidence was opened for census, forgeable alone');
    } finally {
      await both.close();
    }
  });

  it('refuses to evaluate the registration for queries that read none of its answers (a check could read a column the load left NULL)', async () => {
    // Opened for skills, the load takes a pass that leaves a call's input_keys NULL; a check reading them had failed.
    const skills = await Evidence.open([], { queries: ['skills'] });
    try {
      await expect(skills.evaluateRegistration()).rejects.toThrow(
        'the registration: this evidence was opened for skills alone ({ queries }), and loads only what they read; open it without queries',
      );
    } finally {
      await skills.close();
    }
    const verdict = await Evidence.open([], { queries: ['verdict'] });
    try {
      await expect(verdict.evaluateRegistration()).resolves.toBeUndefined();
    } finally {
      await verdict.close();
    }
  });
});

describe('the input files', () => {
  it('are one list: every file loaded, and every file of the registration it is evaluated from, sorted and unique', async () => {
    const files = ev.inputFiles();
    expect(files).toEqual([...new Set(files)].sort());
    const loaded = await ev.sourceFiles();
    expect(loaded.filter((f) => !files.includes(f))).toEqual([]);
    const dir = ev.probes[0]!.dir;
    const registration = readdirSync(join(dir, 'registration'), { recursive: true })
      .map((f) => join(dir, 'registration', String(f)))
      .filter((f) => statSync(f).isFile());
    expect(files.filter((f) => !loaded.includes(f))).toEqual(registration.filter((f) => !loaded.includes(f)).sort());
    expect(ev.inputFiles({ transcripts: false })).toEqual(files);
  });
});

describe('where a probe sits', () => {
  it('changes no row of any documented view a registered check sees (spawn_notes.file had been the absolute path)', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'omg-where-'));
    const copies = [join(tmp, 'a'), join(tmp, 'b', 'deeper')].map((parent) => {
      mkdirSync(parent, { recursive: true });
      const copy = join(parent, 'probe');
      cpSync(bundled, copy, { recursive: true });
      return copy;
    });
    try {
      const dumps: Record<string, unknown>[] = [];
      for (const copy of copies) {
        const opened = await Evidence.open(copy, { ownTranscripts: true });
        const dump: Record<string, unknown> = {};
        // transcript_files' abs and dir say where it sits, and no registered check sees them (verdict.test.ts).
        for (const v of VIEWS) {
          const columns = v.name === 'transcript_files' ? '* exclude (abs, dir)' : '*';
          dump[v.name] = (await opened.sqlResult(`select ${columns} from ${v.name} order by all`)).rows;
        }
        await opened.close();
        dumps.push(dump);
      }
      expect(Object.keys(dumps[0]!)).toContain('spawn_notes');
      expect(dumps[1]).toEqual(dumps[0]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
