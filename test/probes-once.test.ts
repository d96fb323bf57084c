/**
 * Several probes named together, each loaded once and told apart: one folder under two names is
 * refused as one id twice is, in every opener and in audit; export refuses an id its Parquet
 * reads back as NULL; --db keeps the order the probes are named in; and warnings name their probe.
 */
import { cpSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance, listValue } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { bundled, cli, probeFixture, tempFolders } from './helpers.js';

const folder = tempFolders('omg-once-');

describe('one probe folder under two names', () => {
  it('is refused by every opener, as one id twice is', async () => {
    const dir = folder();
    const [p, link] = [join(dir, 'x', 'p'), join(dir, 'plink')];
    cpSync(probeFixture('minimal'), p, { recursive: true });
    symlinkSync(p, link);
    const refused = `omg-evidence: ${link}: the folder of probe "p", already loaded from ${p} (a probe is loaded once: name its folder by one path, not by a link to it too)\n`;
    for (const args of [
      ['census', p, link],
      ['sql', 'select sum(cost_usd) from spawns', p, link],
      ['load', '--db', join(dir, 't.db'), p, link],
      ['export', '--parquet', join(dir, 'pq'), p, link],
    ]) {
      const run = await cli(args);
      expect({ args, code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ args, code: 1, stdout: '', stderr: refused });
    }
    expect((await cli(['load', '--db', join(dir, 't.db'), p])).code).toBe(0);
    expect(await cli(['census', '--db', join(dir, 't.db'), p, link])).toEqual({ code: 1, stdout: '', stderr: refused });
  });
});

describe('audit of one probe id twice, or of one folder twice', () => {
  it('is refused as every other command refuses it, not audited twice', async () => {
    const dir = folder();
    const [a, b, link] = [join(dir, 'x', 'p'), join(dir, 'y', 'p'), join(dir, 'leak')];
    cpSync(probeFixture('minimal'), a, { recursive: true });
    cpSync(probeFixture('home-leak'), b, { recursive: true });
    symlinkSync(b, link);
    expect(await cli(['audit', a, b, '-f', 'text'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${b}: probe id "p" is already loaded from ${a} (a probe is named by its directory; load probes whose directory names differ)\n`,
    });
    expect(await cli(['audit', b, b])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${b}: probe id "p" is already loaded from ${b} (a probe is named by its directory; load probes whose directory names differ)\n`,
    });
    expect(await cli(['audit', b, link])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${link}: the folder of probe "p", already loaded from ${b} (a probe is loaded once: name its folder by one path, not by a link to it too)\n`,
    });
  });
});

describe('export of a probe whose partition a hive reader reads as NULL', () => {
  const NULLS = ['NULL', 'null', 'nUlL', '__HIVE_DEFAULT_PARTITION__'];

  it('is refused, naming the probe and why', async () => {
    const dir = folder();
    for (const id of NULLS) {
      const probe = join(dir, 'names', id);
      cpSync(probeFixture('minimal'), probe, { recursive: true });
      expect(await cli(['export', '--parquet', join(dir, 'pq'), probe])).toEqual({
        code: 1,
        stdout: '',
        stderr:
          `omg-evidence: ${probe}: probe id "${id}" cannot be exported: a hive reader reads its partition (probe=${id}) as NULL, not as the probe ` +
          '(rename the probe folder: a probe is named by its folder)\n',
      });
    }
  });

  it('is what DuckDB reads as NULL, and no other spelling', async () => {
    const dir = folder();
    const names = [...NULLS, '__hive_default_partition__', 'NULL ', 'None', 'nil', 'NaN'];
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    try {
      await con.run(`create table t as select unnest($names::VARCHAR[]) as probe, 0 as x`, { names: listValue(names) });
      await con.run(`copy t to '${dir}/t' (format parquet, partition_by (probe))`);
      const read = await con.runAndReadAll(
        `select probe from read_parquet('${dir}/t/*/*.parquet', hive_partitioning = true, hive_types = {'probe': 'VARCHAR'}) order by all`,
      );
      const back = read.getRowObjects().map((r) => r.probe);
      expect(back.filter((p) => p === null)).toHaveLength(NULLS.length);
      expect(back.filter((p) => p !== null).sort()).toEqual(names.slice(NULLS.length).sort());
    } finally {
      con.closeSync();
      db.closeSync();
    }
  });

  it('exports a near miss, which reads back as its name', async () => {
    const dir = folder();
    const probe = join(dir, '__hive_default_partition__');
    cpSync(probeFixture('minimal'), probe, { recursive: true });
    expect((await cli(['export', '--parquet', join(dir, 'pq'), probe])).code).toBe(0);
  });
});

describe('--db with several probes', () => {
  it('keeps the order they are named in, as without --db', async () => {
    const dir = folder();
    const [a, b, db] = [join(dir, 'A'), join(dir, 'B'), join(dir, 'ab.db')];
    cpSync(bundled, a, { recursive: true });
    cpSync(bundled, b, { recursive: true });
    // Copies share their sessions: with either's transcripts/, the load refuses them (several-probes.test.ts).
    for (const p of [a, b]) rmSync(join(p, 'transcripts'), { recursive: true });
    expect((await cli(['load', '--db', db, a, b])).code).toBe(0);
    const probes = (run: { stdout: string }) => (JSON.parse(run.stdout) as { probe: string }[]).map((v) => v.probe);
    expect(probes(await cli(['verdict', b, a, '-f', 'json']))).toEqual(['B', 'A']);
    expect(probes(await cli(['verdict', '--db', db, b, a, '-f', 'json']))).toEqual(['B', 'A']);
    expect(probes(await cli(['verdict', '--db', db, '-f', 'json']))).toEqual(['A', 'B']);
    expect((await cli(['report', '--html', join(dir, 'r.html'), '--db', db, b, a])).code).toBe(0);
    expect(readFileSync(join(dir, 'r.html'), 'utf8')).toContain('<title>Probe report: B, A</title>');
  });
});

describe('warnings and summaries of several probes', () => {
  it('name the probe of each spawn; of one probe, as they were', async () => {
    const dir = folder();
    const [a, c, d] = [join(dir, 'A'), join(dir, 'C'), join(dir, 'D')];
    cpSync(bundled, a, { recursive: true });
    cpSync(bundled, c, { recursive: true });
    rmSync(join(c, 'transcripts'), { recursive: true });
    expect((await cli(['init', d])).code).toBe(0);
    const KFM =
      'K-FM a97721a8: artifact BREACH (/tmp/OMG-K-CEILING-BREACH) is forgeable: Write toolu_01WMziENcyvKY8Ottw8jY1xF wrote /tmp/OMG-K-CEILING-BREACH';
    const warnings = (run: { stderr: string }) => run.stderr.split('\n').filter((l) => l.includes(' is forgeable: '));
    for (const command of ['verdict', 'audit']) {
      const several = warnings(await cli([command, a, d, '-f', 'json']));
      expect(several).toHaveLength(13);
      expect(several.every((l) => l.startsWith('omg-evidence: warning: A: '))).toBe(true);
      expect(several).toContain(`omg-evidence: warning: A: ${KFM}`);
      expect(warnings(await cli([command, a, '-f', 'json']))).toContain(`omg-evidence: warning: ${KFM}`);
    }
    const agree = await cli(['agree', a, c, '--transcripts', join(a, 'transcripts'), '-f', 'json']);
    expect(agree.code).toBe(0);
    expect(agree.stderr).toBe(
      'omg-evidence: agree: 54 of 56 spawn(s) compared: 54 agree, 0 differ; 2 gone (no transcript: A K-NEG d3cf0e26, C K-NEG d3cf0e26)\n',
    );
    expect((await cli(['agree', a, '-f', 'json'])).stderr).toBe(
      'omg-evidence: agree: 27 of 28 spawn(s) compared: 27 agree, 0 differ; 1 gone (no transcript: K-NEG d3cf0e26)\n',
    );
  });
});

describe('--db built with --transcripts, read for the probes own transcripts/', () => {
  it('says it was built with --transcripts, not that a transcripts/ was added since', async () => {
    const dir = folder();
    const [a, c, db] = [join(dir, 'A'), join(dir, 'C'), join(dir, 't.db')];
    cpSync(bundled, a, { recursive: true });
    cpSync(bundled, c, { recursive: true });
    expect((await cli(['load', '--db', db, '--transcripts', join(a, 'transcripts'), a, c])).code).toBe(0);
    expect(await cli(['census', '--db', db, a, c])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `omg-evidence: ${db}: cannot be used: it was built with --transcripts ${a}/transcripts, not from each probe's own transcripts/ (${c}/transcripts too) ` +
        '(rebuild it with omg-evidence load … --db FILE, naming the same probes and transcripts)\n',
    });
    expect((await cli(['census', '--db', db, '--transcripts', join(a, 'transcripts'), a, c, '-f', 'json'])).code).toBe(0);
  });
});
