/**
 * Ad-hoc SQL, the documented views, safety, persisted databases, the library API and Parquet export.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Database } from '../src/db.js';
import { Evidence } from '../src/evidence.js';
import { VIEWS } from '../src/views.js';
import { bin, bundled, cli, probeFixture, repo } from './helpers.js';

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
    const run = await cli(['sql', 'select arm, count(*) as spawns, round(sum(cost_usd), 4) as usd from spawns where arm like $$K-R%$$ group by arm order by arm', '--format', 'json']);
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

  it('reads the query from a file (-f), every argument then a probe', async () => {
    const dir = temp();
    writeFileSync(join(dir, 'q.sql'), 'select probe, count(*) as n from spawns group by probe order by probe');
    const run = await cli(['sql', '-f', join(dir, 'q.sql'), probeFixture('minimal'), probeFixture('second'), '--format', 'csv']);
    expect(run).toEqual({ code: 0, stdout: 'probe,n\r\nminimal,2\r\nsecond,1\r\n', stderr: '' });
  });

  it('reads the query from stdin when no argument gives one', () => {
    const run = bin(['sql', '--format', 'ndjson'], { input: 'select count(*) as n, count(distinct name) as tools from tool_uses' });
    expect(run).toEqual({ code: 0, stdout: '{"n":70,"tools":3}\n', stderr: '' });
  });

  it('queries the transcript views when transcripts are loaded', async () => {
    const run = await cli(['sql', 'select count(distinct session_id) as sessions from transcript_tool_uses', '--from', 'transcripts', '--format', 'csv']);
    expect(run.stdout).toBe('sessions\r\n24\r\n');
  });

  it('prints a DuckDB error whole, prefixed by where the query came from, exit 1', async () => {
    const run = await cli(['sql', 'select verdict from tool_uses']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^omg-evidence: <argument>: Binder Error: Referenced column "verdict" not found in FROM clause!\n[\s\S]*\nLINE 1: select verdict from tool_uses\n +\^\n$/);
    const dir = temp();
    writeFileSync(join(dir, 'bad.sql'), 'selec 1');
    expect((await cli(['sql', '-f', join(dir, 'bad.sql')])).stderr).toMatch(new RegExp(`^omg-evidence: ${join(dir, 'bad.sql')}: Parser Error: syntax error at or near "selec"`));
  });

  it('an empty query is a usage error', () => {
    expect(bin(['sql'], { input: '  \n' })).toEqual({ code: 2, stdout: '', stderr: 'omg-evidence: no query: give it as an argument, with --file FILE, or on stdin\n' });
  });

  describe('cannot harm the evidence or the machine: exit 1 and nothing written', () => {
    const cases: [string, (dir: string) => string, RegExp][] = [
      ['COPY TO', (d) => `COPY spawns TO '${d}/leak.csv'`, /Permission Error: Cannot access file ".*leak\.csv" - file system operations are disabled/],
      ['COPY TO parquet', (d) => `COPY (select * from spawns) TO '${d}/leak.parquet' (FORMAT parquet)`, /Permission Error/],
      ['read_text', () => `select * from read_text('/etc/hostname')`, /Permission Error: Cannot access file "\/etc\/hostname"/],
      ['read_csv', () => `select * from read_csv('/etc/passwd')`, /Permission Error/],
      ['read_ndjson_objects', () => `select * from read_ndjson_objects('${bundled}/results.jsonl')`, /Permission Error/],
      ['ATTACH', (d) => `ATTACH '${d}/evil.duckdb' AS evil`, /Permission Error/],
      ['INSTALL', () => 'INSTALL httpfs', /Permission Error/],
      ['LOAD', () => 'LOAD httpfs', /Permission Error: Loading external extensions is disabled/],
      ['SET a locked option', () => 'SET enable_external_access = true', /Cannot change configuration option "enable_external_access" - the configuration has been locked/],
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

describe('the documented views', () => {
  it('are the tables the loaders build, column for column', async () => {
    const ev = await Evidence.open([], { transcripts: true });
    try {
      for (const v of VIEWS) {
        const cols = (await ev.db.query(`select column_name from information_schema.columns where table_name = '${v.name}' order by ordinal_position`)).rows.map((r) => r.column_name);
        expect(cols, v.name).toEqual(Object.keys(v.columns));
      }
    } finally {
      await ev.close();
    }
  });

  it('schema prints each with its DuckDB type', async () => {
    const rows = JSON.parse((await cli(['schema', '--format', 'json'])).stdout);
    expect(rows.find((r: { view: string; column: string }) => r.view === 'spawns' && r.column === 'cost_usd')).toEqual({
      view: 'spawns', column: 'cost_usd', type: 'DOUBLE', meaning: "the envelope's total_cost_usd (NULL without an envelope)",
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
    for (const args of [['census', '--format', 'json'], ['arms', '--format', 'json'], ['cost', '--format', 'json'], ['sql', 'select count(*) from model_usage']]) {
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
    const sdb = join(dir, 'sessions.duckdb');
    expect((await cli(['load', '--transcripts', samples, '--db', sdb])).code).toBe(0);
    const fresh = await cli(['census', '--transcripts', samples, '--format', 'json']);
    expect((await cli(['census', '--transcripts', samples, '--db', sdb, '--format', 'json'])).stdout).toBe(fresh.stdout);
  });

  it('says again what loading the evidence warned of, when a command reads the database', async () => {
    const db = join(temp(), 'w.duckdb');
    const fresh = await cli(['census', probeFixture('orphan-tool-use'), '--format', 'text']);
    expect(fresh.stderr).toMatch(/^omg-evidence: warning: orphan-tool-use\/tool_use\/dddddddd-.*: matches no row of results\.jsonl; ignored\n$/);
    expect((await cli(['load', probeFixture('orphan-tool-use'), '--db', db])).stderr).toBe(`${fresh.stderr}omg-evidence: load: ${db} written\n`);
    expect(await cli(['census', probeFixture('orphan-tool-use'), '--db', db, '--format', 'text'])).toEqual(fresh);
  });

  it('refuses a database built from other inputs than the ones named', async () => {
    const db = join(temp(), 'p.duckdb');
    await cli(['load', probeFixture('minimal'), '--db', db]);
    const run = await cli(['census', probeFixture('second'), '--db', db]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `omg-evidence: ${db}: cannot be used: it was built from test/fixtures/probes/minimal, not test/fixtures/probes/second (rebuild it with omg-evidence load … --db FILE, naming the same probes and transcripts)\n`,
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
    expect((await cli(['census', '--db', join(dir, 'none.duckdb')])).stderr).toMatch(/none\.duckdb: no such database \(build it first: omg-evidence load/);
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
      expect(census.columnNames()).toEqual(['probe', 'seq', 'arm', 'phase', 'session_id', 'exit_code', 'status', 'tools', 'artifacts', 'markers', 'skills', 'note', 'forgeable']);
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
      for (const v of VIEWS.filter((x) => !x.transcripts)) {
        const want = (await ev.db.query(`select probe, count(*) as n from ${v.name} group by probe order by probe`)).rows;
        const got = (
          await reader.query(`select probe, count(*) as n from read_parquet('${out}/${v.name}/*/*.parquet', hive_partitioning = true) group by probe order by probe`)
        ).rows;
        expect(got, v.name).toEqual(want);
      }
    } finally {
      await ev.close();
      reader.close();
    }
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
});

describe('transcript tables when no transcript is loaded', () => {
  it('have the same columns and types as when transcripts are loaded', async () => {
    const shape = async (ev: Evidence) =>
      (await ev.db.query(`select table_name, column_name, data_type from information_schema.columns where table_name like 'transcript_%' order by table_name, ordinal_position`)).rows;
    const without = await Evidence.open([]);
    const with_ = await Evidence.open([], { transcripts: true });
    try {
      expect(await shape(without)).toEqual(await shape(with_));
      expect((await without.db.query('select count(*) as n from transcript_lines')).rows).toEqual([{ n: 0 }]);
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
      `omg-evidence: ${db}: holds no probe, only the transcripts in test/fixtures/transcripts/edge-cases (for the census of its sessions: omg-evidence census --transcripts DIR --db FILE)\n`,
    );
    expect((await cli(['census', '--transcripts', 'test/fixtures/transcripts/edge-cases', '--db', db, '--format', 'csv'])).code).toBe(0);
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
    expect(run.stderr).toMatch(/^omg-evidence: option '--from <source>' argument 'transcript' is invalid\. Allowed choices are records, transcripts\./);
  });

  it('a load that fails leaves no file behind', async () => {
    const dir = temp();
    const run = await cli(['load', 'test/fixtures/transcripts/edge-cases', '--db', join(dir, 'x.duckdb')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/not a probe: it has no results\.jsonl/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
