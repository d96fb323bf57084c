/**
 * A database file `load` built is refused when any input file's content changed since, even with
 * its size kept and its mtime restored (as `cp -p`, `tar` and `rsync -t` keep mtimes): src/load/database-file.ts.
 * Every mtime here is set to a whole second first, so that restoring it gives the very value recorded
 * and the check takes its fast path (size and mtime as recorded: only the first and last blocks are
 * read again).
 */
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  rmdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Database } from '../src/db/database.js';
import { listFiles } from '../src/base/paths.js';
import { EDGE, fingerprinting } from '../src/load/fingerprint.js';
import { cli, probeFixture, repo } from './helpers.js';

const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'omg-store-'));
  temps.push(d);
  return d;
};

const rebuild = '(rebuild it with omg-evidence load … --db FILE, naming the same probes and transcripts)';
const refused = (db: string, why: string) => ({ code: 1, stdout: '', stderr: `omg-evidence: ${db}: cannot be used: ${why} ${rebuild}\n` });

// A whole second, so that the mtime read back is exactly the one set.
const WHEN = 1_767_225_600;
const setTime = (file: string, when = WHEN) => utimesSync(file, when, when);

/** Overwrite the bytes of `file` at offset `at` with `now`, keeping its size, and restore its mtime. */
function editInPlace(file: string, at: number, now: string): void {
  const before = statSync(file);
  const bytes = readFileSync(file);
  expect(bytes.subarray(at, at + now.length).toString()).not.toBe(now);
  bytes.write(now, at);
  writeFileSync(file, bytes);
  utimesSync(file, before.atime, before.mtimeMs / 1000);
  expect(statSync(file).size).toBe(before.size);
  expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
}

/** A copy of probe fixture `name` in a new folder, every file's mtime set to WHEN. */
function probeCopy(name: string): string {
  const probe = join(temp(), name);
  cpSync(join(repo, probeFixture(name)), probe, { recursive: true });
  for (const f of listFiles(probe)) setTime(f);
  return probe;
}

const SID = 'cccccccc-0000-4000-8000-000000000003';
const line = (type: string, n: number, content: unknown) =>
  JSON.stringify({
    type,
    sessionId: SID,
    version: '2.1.228',
    uuid: `u${n}`,
    timestamp: `2026-08-12T05:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}.000Z`,
    message: type === 'user' ? { role: 'user', content } : { model: 'claude-opus-4-6', role: 'assistant', content },
  });

/**
 * A transcripts folder with one session file of more than two EDGE blocks: a tool call, then user
 * prompts of 'a's. Returns the folder and the file.
 */
function largeTranscripts(): { dir: string; file: string } {
  const dir = join(temp(), 'transcripts');
  const file = join(dir, `${SID}.jsonl`);
  const lines = [
    line('user', 0, 'go'),
    line('assistant', 1, [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a' } }]),
  ];
  for (let n = 2; lines.join('\n').length < 3 * EDGE; n++) lines.push(line('user', n, 'a'.repeat(1000)));
  cpSync(join(repo, 'test', 'fixtures', 'transcripts', 'census-two-sessions'), dir, { recursive: true });
  writeFileSync(file, `${lines.join('\n')}\n`);
  for (const f of listFiles(dir)) setTime(f);
  return { dir, file };
}

describe('a database whose input files changed since it was built', () => {
  it('an exit_code edited to another of the same size, the mtime restored, is refused; load rebuilds', async () => {
    const probe = probeCopy('minimal');
    const db = join(temp(), 'p.duckdb');
    expect((await cli(['load', probe, '--db', db])).code).toBe(0);
    const results = join(probe, 'results.jsonl');
    editInPlace(results, readFileSync(results, 'utf8').indexOf('"exit_code":0') + '"exit_code":'.length, '7');
    expect(await cli(['census', '--db', db])).toEqual(refused(db, `${results} changed since it was built`));
    expect(await cli(['census', probe, '--db', db])).toEqual(refused(db, `${results} changed since it was built`));
    expect((await cli(['load', probe, '--db', db])).stderr).toBe(`omg-evidence: load: ${db} written\n`);
    const fresh = await cli(['census', probe, '--format', 'json']);
    expect(await cli(['census', '--db', db, '--format', 'json'])).toEqual(fresh);
  });

  it('a probe copied away and back with cp -p (mtimes kept) is accepted; one copied elsewhere is another input', async () => {
    const probe = probeCopy('minimal');
    const db = join(temp(), 'p.duckdb');
    await cli(['load', probe, '--db', db]);
    const fresh = await cli(['census', probe, '--format', 'json']);
    // Moved aside, so that the copy's files are new files (other inodes, a new ctime), with the old mtimes.
    const aside = join(temp(), 'minimal');
    renameSync(probe, aside);
    cpSync(aside, probe, { recursive: true, preserveTimestamps: true });
    expect(statSync(join(probe, 'results.jsonl')).ino).not.toBe(statSync(join(aside, 'results.jsonl')).ino);
    expect(statSync(join(probe, 'results.jsonl')).mtimeMs).toBe(WHEN * 1000);
    expect(await cli(['census', '--db', db, '--format', 'json'])).toEqual(fresh);
    expect((await cli(['load', probe, '--db', db])).stderr).toBe(`omg-evidence: load: ${db} is up to date\n`);
    // Named otherwise, the file is current: the fix is to name what it holds, not to rebuild it.
    expect(await cli(['census', aside, '--db', db])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${db}: cannot be used: it was built from ${probe}, not ${aside} (name what it was built from beside --db FILE: ${probe}; or load these inputs into another file)\n`,
    });
  });

  it('a file touched but not edited is accepted; load rebuilds it all the same', async () => {
    const probe = probeCopy('minimal');
    const db = join(temp(), 'p.duckdb');
    await cli(['load', probe, '--db', db]);
    const fresh = await cli(['census', probe, '--format', 'json']);
    setTime(join(probe, 'results.jsonl'), WHEN + 3600);
    expect(await cli(['census', '--db', db, '--format', 'json'])).toEqual(fresh);
    // Rebuilt, so that later commands find its mtime as recorded and read only its edges again.
    expect((await cli(['load', probe, '--db', db])).stderr).toBe(`omg-evidence: load: ${db} written\n`);
    expect((await cli(['load', probe, '--db', db])).stderr).toBe(`omg-evidence: load: ${db} is up to date\n`);
  });

  it("a probe's transcripts/ made since it was built from the probes' own is named: the command without --db reads it", async () => {
    const dir = temp();
    cpSync(join(repo, probeFixture('minimal')), join(dir, 'p'), { recursive: true });
    const file = join(dir, 'c.duckdb');
    expect((await cli(['load', join(dir, 'p'), '--db', file])).code).toBe(0);
    mkdirSync(join(dir, 'p', 'transcripts'));
    expect(await cli(['census', join(dir, 'p'), '--db', file])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${file}: cannot be used: ${join(dir, 'p', 'transcripts')} was added since it was built (rebuild it with omg-evidence load … --db FILE, naming the same probes and transcripts)\n`,
    });
    expect((await cli(['load', join(dir, 'p'), '--db', file])).code).toBe(0);
    expect((await cli(['census', join(dir, 'p'), '--db', file])).code).toBe(0);
  });

  it("one built with --transcripts DIR is refused by a command reading each probe's own transcripts/, once a probe has one", async () => {
    const dir = temp();
    const p = join(dir, 'p');
    cpSync(join(repo, probeFixture('minimal')), p, { recursive: true });
    mkdirSync(join(dir, 'tx'));
    const file = join(dir, 'c.duckdb');
    expect((await cli(['load', p, '--transcripts', join(dir, 'tx'), '--db', file])).code).toBe(0);
    // With none of its own, census reads through --db the transcripts load was given (as verdict does).
    expect((await cli(['census', p, '--db', file])).code).toBe(0);
    mkdirSync(join(p, 'transcripts'));
    const why = `it was built from the transcripts in ${join(dir, 'tx')}, not ${join(p, 'transcripts')}`;
    for (const command of ['census', 'verdict']) expect(await cli([command, p, '--db', file]), command).toEqual(refused(file, why));
    // agree names p/transcripts, which the file was not built from: it is current for --transcripts tx.
    expect(await cli(['agree', p, '--db', file])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${file}: cannot be used: ${why} (name what it was built from beside --db FILE: ${p} --transcripts ${join(dir, 'tx')}; or load these inputs into another file)\n`,
    });
  });

  it('an input file added or removed is named', async () => {
    const probe = probeCopy('minimal');
    const db = join(temp(), 'p.duckdb');
    await cli(['load', probe, '--db', db]);
    const err = join(probe, 'tool_use', 'aaaaaaaa-0000-4000-8000-000000000001.err');
    writeFileSync(err, 'x\n');
    expect(await cli(['census', '--db', db])).toEqual(refused(db, `${err} was added since it was built`));
    rmSync(err);
    expect((await cli(['census', '--db', db])).code).toBe(0);
    const tool = join(probe, 'tool_use', 'bbbbbbbb-0000-4000-8000-000000000002.jsonl');
    rmSync(tool);
    expect(await cli(['census', '--db', db])).toEqual(refused(db, `${tool} was removed since it was built`));
  });

  it('a transcripts folder that held no file and was removed since is named, as the command without --db would', async () => {
    const dir = join(temp(), 'sessions');
    mkdirSync(dir);
    const db = join(temp(), 't.duckdb');
    expect((await cli(['load', '--transcripts', dir, '--db', db])).code).toBe(0);
    expect((await cli(['usage', '--transcripts', dir, '--db', db])).code).toBe(0);
    rmdirSync(dir);
    for (const command of ['usage', 'census']) {
      expect(await cli([command, '--transcripts', dir, '--db', db])).toEqual(refused(db, `${dir} was removed since it was built`));
    }
  });

  it(`a large file (more than 2 × ${EDGE} bytes): an edit in its first or last ${EDGE} bytes is refused, one between them is not`, async () => {
    const { dir, file } = largeTranscripts();
    const db = join(temp(), 't.duckdb');
    const loaded = await cli(['load', '--transcripts', dir, '--db', db]);
    expect(loaded.code).toBe(0);
    const fresh = await cli(['census', '--transcripts', dir, '--format', 'json']);
    expect(fresh.code).toBe(0);
    // Unchanged: accepted, with the warnings its load gave (its responses without usage: census alone reads none).
    const replayed = loaded.stderr.replace(`omg-evidence: load: ${db} written\n`, '');
    expect(replayed).toContain('no line of this response has message.usage');
    expect(await cli(['census', '--transcripts', dir, '--db', db, '--format', 'json'])).toEqual({
      ...fresh,
      stderr: fresh.stderr + replayed,
    });

    const text = readFileSync(file, 'utf8');
    const size = statSync(file).size;
    expect(size).toBeGreaterThan(2 * EDGE);
    const first = text.indexOf('a'.repeat(1000)) + 10;
    const last = text.lastIndexOf('a'.repeat(1000)) + 990;
    const middle = text.indexOf('a'.repeat(1000), Math.floor(size / 2)) + 500;
    expect({ first: first < EDGE, last: last >= size - EDGE, middle: middle >= EDGE && middle < size - EDGE }).toEqual({
      first: true,
      last: true,
      middle: true,
    });
    const original = readFileSync(file);
    const restore = () => {
      writeFileSync(file, original);
      setTime(file);
    };

    editInPlace(file, first, 'b');
    expect(await cli(['census', '--transcripts', dir, '--db', db])).toEqual(refused(db, `${file} changed since it was built`));
    restore();
    expect((await cli(['census', '--transcripts', dir, '--db', db])).code).toBe(0);

    editInPlace(file, last, 'b');
    expect(await cli(['census', '--transcripts', dir, '--db', db])).toEqual(refused(db, `${file} changed since it was built`));
    restore();

    // Not detected, as README.md says: the middle of a large file is read again only when its mtime changed.
    editInPlace(file, middle, 'b');
    expect((await cli(['census', '--transcripts', dir, '--db', db])).code).toBe(0);
    setTime(file, WHEN + 1);
    expect(await cli(['census', '--transcripts', dir, '--db', db])).toEqual(refused(db, `${file} changed since it was built`));
  });

  it('a database that recorded its files as an older omg-evidence did is refused, until load rebuilds it', async () => {
    const db = join(temp(), 'p.duckdb');
    await cli(['load', probeFixture('minimal'), '--db', db]);
    // Before contents were hashed, the fingerprint was one SHA-256 of paths, sizes and mtimes.
    const raw = await Database.open({ file: db });
    await raw.exec(`update omg_meta set value = '"${'0'.repeat(64)}"' where key = 'fingerprint'`);
    raw.close();
    expect(await cli(['census', '--db', db])).toEqual(refused(db, 'it records its input files as an older omg-evidence did'));
    expect((await cli(['load', probeFixture('minimal'), '--db', db])).stderr).toBe(`omg-evidence: load: ${db} written\n`);
    expect((await cli(['census', '--db', db])).code).toBe(0);
  });
});

describe('load hashes its inputs while DuckDB loads them', () => {
  it('a file edited once the load began is never recorded: the load fails, naming it', async () => {
    const probe = probeCopy('minimal');
    const results = join(probe, 'results.jsonl');
    // Sizes and mtimes are taken as it begins; each file's bytes are read later, beside the load.
    const hashing = fingerprinting({ probes: [probe], transcripts: [] }, new AbortController().signal).fingerprint;
    appendFileSync(results, '\n');
    await expect(hashing).rejects.toThrow(`${results}: changed while it was being loaded`);
  });

  it('unchanged, every file is recorded with its size, mtime and both hashes, in path order', async () => {
    const probe = probeCopy('minimal');
    const fp = await fingerprinting({ probes: [probe], transcripts: [] }, new AbortController().signal).fingerprint;
    const paths = fp.stamps.map((s) => s.path);
    expect(paths).toEqual([...paths].sort());
    expect(paths).toContain(join(probe, 'results.jsonl'));
    for (const s of fp.stamps) {
      const bytes = readFileSync(s.path);
      expect(s).toEqual({
        path: s.path,
        size: bytes.length,
        mtimeMs: WHEN * 1000,
        content: createHash('sha256').update(bytes).digest('hex'),
        edges: createHash('sha256').update(bytes).digest('hex'),
      });
    }
  });

  it('stops between reads when told to', async () => {
    const probe = probeCopy('minimal');
    const stop = new AbortController();
    const hashing = fingerprinting({ probes: [probe], transcripts: [] }, stop.signal).fingerprint;
    stop.abort();
    await expect(hashing).rejects.toThrow(/abort/i);
  });
});

describe('what load --db will not write over or into', () => {
  it("someone's own DuckDB database is left as it is, unless --force", async () => {
    const file = join(temp(), 'mine.duckdb');
    const db = await Database.open({ file });
    await db.exec('create table precious as select 42 as x');
    db.close();
    const run = await cli(['load', '--db', file]);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${file}: not a database omg-evidence built, so it is left as it is (name another file, or give --force to replace it)\n`,
    });
    const kept = await Database.open({ file, readOnly: true });
    expect((await kept.query('select x from precious')).rows).toEqual([{ x: 42 }]);
    kept.close();
    expect((await cli(['load', '--db', file, '--force'])).code).toBe(0);
  });

  it('a folder is not a database file, with or without --force, and nothing is left beside it', async () => {
    const dir = temp();
    const target = join(dir, 'adir');
    mkdirSync(target);
    for (const force of [[], ['--force']]) {
      expect(await cli(['load', '--db', target, ...force])).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${target}: is a folder, not a database file (give --db the path of a file)\n`,
      });
    }
    expect(readdirSync(dir)).toEqual(['adir']);
  });

  // A load of 16 MiB or more spills into DuckDB's temp directory beside the file (src/load/spill.ts).
  it('a load large enough to spill builds the tables one that does not would, and leaves only the file, or nothing when it fails', async () => {
    const dir = temp();
    const sessions = join(dir, 'sessions');
    execFileSync(process.execPath, [join(repo, 'bench/gen.mjs'), '--out', sessions, '--scale', '0.04'], { stdio: 'ignore' });
    const db = join(dir, 'x.db');
    expect((await cli(['load', '--transcripts', sessions, '--db', db])).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['sessions', 'x.db']);
    const census = (more: string[]) => cli(['census', '--transcripts', sessions, '--format', 'csv', ...more]);
    expect(await census(['--db', db])).toEqual(await census([]));
    rmSync(db);
    const [first] = readdirSync(sessions);
    const file = join(sessions, first!, readdirSync(join(sessions, first!)).find((f) => f.endsWith('.jsonl'))!);
    appendFileSync(file, '{"type":\n');
    expect((await cli(['load', '--transcripts', sessions, '--db', db])).code).toBe(1);
    expect(readdirSync(dir)).toEqual(['sessions']);
  }, 60_000);

  // 216 or 217 bytes had been 'unexpected error: ENAMETOOLONG … this is a bug', at the spill folder's name.
  it('a name too long for the temporary file beside it is refused in words, and nothing is left', async () => {
    const dir = temp();
    const db = join(dir, 'f'.repeat(216));
    const run = await cli(['load', '--db', db]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /: the name is too long for the temporary file load writes beside it \(give --db a name of at most 215 bytes\)\n$/,
    );
    expect(readdirSync(dir)).toEqual([]);
    expect((await cli(['load', '--db', join(dir, 'f'.repeat(215))])).code).toBe(0);
  });

  it('a --db path under a file is named as such', async () => {
    const file = join(temp(), 'text.db');
    writeFileSync(file, 'text\n');
    expect(await cli(['load', '--db', join(file, 'x.db')])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${file}: not a folder (give --db a file in a folder)\n`,
    });
  });

  it('a file in a folder that does not exist is refused before anything loads', async () => {
    const folder = join(temp(), 'no-such-folder');
    const run = await cli(['load', '--db', join(folder, 'x.duckdb')]);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${folder}: no such folder (make it first, or give --db a file in a folder that exists)\n`,
    });
  });

  it('a file that is not a DuckDB database is left as it is; --force replaces it', async () => {
    const file = join(temp(), 'notes.db');
    writeFileSync(file, 'my notes\n');
    expect(await cli(['load', '--db', file])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${file}: not a database omg-evidence built, so it is left as it is (name another file, or give --force to replace it)\n`,
    });
    expect(readFileSync(file, 'utf8')).toBe('my notes\n');
    expect((await cli(['load', '--db', file, '--force'])).code).toBe(0);
    expect((await cli(['census', '--db', file])).code).toBe(0);
  });

  it('a table someone added to a database load built is theirs: a rebuild leaves the file as it is, --force replaces it', async () => {
    const dir = temp();
    cpSync(join(repo, probeFixture('minimal')), join(dir, 'p'), { recursive: true });
    const file = join(dir, 'c.duckdb');
    expect((await cli(['load', join(dir, 'p'), '--db', file])).code).toBe(0);
    const db = await Database.open({ file });
    await db.exec('create table my_notes (x INTEGER)');
    await db.exec('create schema mine; create table mine.t (x INTEGER); create macro twice(a) as 2 * a');
    db.close();
    // Current or not, it is not up to date: a command would refuse to read it.
    expect(await cli(['load', join(dir, 'p'), '--db', file])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${file}: holds what omg-evidence did not build (macro main.twice, main.my_notes, mine.t, schema mine), so it is left as it is (name another file, or give --force to replace it)\n`,
    });
    expect((await cli(['load', join(dir, 'p'), '--db', file, '--force'])).code).toBe(0);
  });

  it('through a symbolic link, the file it points at is replaced and the link kept', async () => {
    const dir = temp();
    const real = join(dir, 'real.duckdb');
    const link = join(dir, 'link.duckdb');
    expect((await cli(['load', '--db', real])).code).toBe(0);
    symlinkSync('real.duckdb', link);
    expect((await cli(['load', probeFixture('minimal'), '--db', link, '--force'])).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['link.duckdb', 'real.duckdb']);
    // Read through the link: DuckDB's sealed access had refused the .wal beside the real file.
    expect((await cli(['census', probeFixture('minimal'), '--db', link])).code).toBe(0);
  });
});

describe('what --db will not read', () => {
  // Built by load, then written to: what queries read would not be what load built from the evidence.
  const built = async () => {
    const dir = temp();
    const file = join(dir, 'b.duckdb');
    expect((await cli(['load', '--db', file])).code).toBe(0);
    return file;
  };
  /** A database load built, then changed by `sql` (with `params`). */
  const builtThen = async (sql: string, params?: Record<string, string>) => {
    const file = await built();
    const db = await Database.open({ file });
    await db.exec(sql, params);
    db.close();
    return file;
  };
  const refused = (file: string, what: string) => ({
    code: 1,
    stdout: '',
    stderr: `omg-evidence: ${file}: cannot be used: it holds what load did not build (${what}) (rebuild it with omg-evidence load … --db FILE --force, naming the same probes and transcripts)\n`,
  });

  it('a macro added to it, which shadows a function in every query (sum: the verdict held over budget)', async () => {
    const file = await builtThen('create macro sum(x) as 0.5');
    expect(await cli(['verdict', '--db', file])).toEqual(refused(file, 'macro main.sum'));
    expect(await cli(['cost', '--db', file])).toEqual(refused(file, 'macro main.sum'));
  });

  it('a type of its own, which shadows a built-in one (json) in every query', async () => {
    const file = await builtThen('create type json as integer');
    expect(await cli(['census', '--db', file])).toEqual(refused(file, 'type main.json'));
  });

  it('a view standing in for a table, and a schema', async () => {
    const file = await builtThen(
      'alter table spawns rename to spawns_real; create view spawns as select * from spawns_real; create schema s',
    );
    expect(await cli(['census', '--db', file])).toEqual(refused(file, 'main.spawns_real, schema s, view main.spawns'));
  });

  // Reading a view or a generated column runs the file's own SQL, for as long as it likes (a view over
  // range(1e11), a column building 1 GB a row): error() here shows whether it ran before the refusal.
  const ran = "error('the file''s own SQL ran')";
  it('an omg_meta that is a view: refused from the catalog, its SQL never run', async () => {
    const file = await builtThen(
      `alter table omg_meta rename to omg_meta_t; create view omg_meta as select * from omg_meta_t where ${ran} is null`,
    );
    for (const command of ['census', 'verdict', 'sql']) {
      expect(await cli([command, '--db', file, ...(command === 'sql' ? ['select 1'] : [])]), command).toEqual(
        refused(file, 'main.omg_meta_t, view main.omg_meta'),
      );
    }
    expect(await cli(['load', '--db', file])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${file}: holds what omg-evidence did not build (main.omg_meta_t, view main.omg_meta), so it is left as it is (name another file, or give --force to replace it)\n`,
    });
  });

  it('an omg_meta table with a generated column or a default: held to the layout before it is read', async () => {
    // Its SQL runs as omg-evidence reads it (read-only), not as the test writes the row.
    const late = `CASE WHEN current_setting('access_mode') = 'read_only' THEN ${ran} ELSE key END`;
    for (const [sql, column] of [
      [
        `drop table omg_meta; create table omg_meta (key VARCHAR, "value" VARCHAR AS (${late})); insert into omg_meta (key) values ('version')`,
        `"value" VARCHAR GENERATED ALWAYS AS(CASE  WHEN ((current_setting('access_mode') = 'read_only')) THEN ("error"('the file''s own SQL ran')) ELSE "key" END)`,
      ],
      [`alter table omg_meta alter column "value" set default 'x'`, `"value" VARCHAR DEFAULT('x')`],
    ]) {
      const file = await builtThen(sql!);
      const why = `its column omg_meta.value is ${column}, not "value" VARCHAR as load makes it`;
      expect(await cli(['census', '--db', file]), sql).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${file}: cannot be used: ${why} (rebuild it with omg-evidence load … --db FILE --force, naming the same probes and transcripts)\n`,
      });
      expect((await cli(['load', '--db', file])).stderr, sql).toBe(
        `omg-evidence: ${file}: ${why}, so it is left as it is (name another file, or give --force to replace it)\n`,
      );
    }
  });

  it('an index added to it', async () => {
    const file = await builtThen('create index by_arm on spawns (arm)');
    expect(await cli(['census', '--db', file])).toEqual(refused(file, 'index main.by_arm'));
  });

  it('a table altered, no row changed: a collation, a type, a default, NOT NULL, a column or table gone or added', async () => {
    const file = await built();
    for (const [sql, why] of [
      // NOCASE: records naming bash and a transcript naming Bash agreed.
      [
        'alter table tool_uses alter column name set data type VARCHAR COLLATE NOCASE',
        'its column tool_uses.name is "name" VARCHAR COLLATE NOCASE, not "name" VARCHAR as load makes it',
      ],
      // $1.40 read as $1: an over-budget verdict held.
      [
        'alter table spawns alter column cost_usd set data type DECIMAL(10,0)',
        'its column spawns.cost_usd is cost_usd DECIMAL(10,0), not cost_usd DOUBLE as load makes it',
      ],
      [
        "alter table spawns alter column arm set default 'K'",
        "its column spawns.arm is arm VARCHAR DEFAULT('K'), not arm VARCHAR as load makes it",
      ],
      ['alter table spawns alter column seq set not null', 'its column spawns.seq is seq BIGINT NOT NULL, not seq BIGINT as load makes it'],
      ['alter table spawns rename column arm to "my arm"', 'its column spawns.arm is "my arm" VARCHAR, not arm VARCHAR as load makes it'],
      ['alter table spawns drop column record', 'its table spawns lacks record JSON, which load makes'],
      ['alter table spawns add column x INTEGER', 'its table spawns holds x INTEGER, which load does not make'],
      ['drop table budgets', 'it has no table budgets, which load makes'],
    ]) {
      const copy = join(temp(), 'altered.duckdb');
      cpSync(file, copy);
      const db = await Database.open({ file: copy });
      await db.exec(sql!);
      db.close();
      expect(await cli(['census', '--db', copy]), sql).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${copy}: cannot be used: ${why} (rebuild it with omg-evidence load … --db FILE --force, naming the same probes and transcripts)\n`,
      });
    }
  });

  it('a table altered is left as it is by load, as current as it otherwise is; --force replaces it', async () => {
    const file = await builtThen('alter table tool_uses alter column name set data type VARCHAR COLLATE NOCASE');
    expect(await cli(['load', '--db', file])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${file}: its column tool_uses.name is "name" VARCHAR COLLATE NOCASE, not "name" VARCHAR as load makes it, so it is left as it is (name another file, or give --force to replace it)\n`,
    });
    expect((await cli(['load', '--db', file, '--force'])).code).toBe(0);
    expect((await cli(['census', '--db', file])).code).toBe(0);
  });

  it('a write-ahead log beside it: DuckDB would replay writes made after load', async () => {
    const file = await built();
    writeFileSync(`${file}.wal`, '');
    expect(await cli(['census', '--db', file])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${file}: cannot be used: a write-ahead log beside it (${file}.wal) holds writes made after load (rebuild it with omg-evidence load … --db FILE --force, naming the same probes and transcripts)\n`,
    });
  });

  it('a write-ahead log beside it is left as it is by load, not called up to date; --force replaces both', async () => {
    const file = await built();
    writeFileSync(`${file}.wal`, '');
    expect(await cli(['load', '--db', file])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${file}: a write-ahead log beside it (${file}.wal) holds writes made after load, so it is left as it is (name another file, or give --force to replace it)\n`,
    });
    expect((await cli(['load', '--db', file, '--force'])).code).toBe(0);
    expect(readdirSync(dirname(file))).toEqual([basename(file)]);
    expect((await cli(['census', '--db', file])).code).toBe(0);
  });

  it('a record of what it was built from (omg_meta) that is not as load writes it: said so, never a crash', async () => {
    for (const [key, value, why] of [
      ['version', '{', 'its omg_meta "version" is not JSON'],
      ['warnings', '5', 'its omg_meta "warnings" is not as load writes it'],
      ['inputs', 'null', 'its omg_meta "inputs" is not as load writes it'],
      ['inputs', '{"probes":[],"transcripts":5}', 'its omg_meta "inputs" is not as load writes it'],
      ['fingerprint', '{"format":"x","stamps":[null]}', 'its omg_meta "fingerprint" is not as load writes it'],
    ] as const) {
      const file = await builtThen('update omg_meta set value = $value where key = $key', { key, value });
      expect(await cli(['census', '--db', file]), `${key}=${value}`).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${file}: not a database omg-evidence built (${why}) (build one with omg-evidence load … --db FILE)\n`,
      });
    }
  });

  it('a FIFO is named, never waited on, by load and by a reader', async () => {
    const fifo = join(temp(), 'pipe.duckdb');
    execFileSync('mkfifo', [fifo]);
    const said = {
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${fifo}: a FIFO (named pipe), where a database file is expected (give the path of a database file)\n`,
    };
    expect(await cli(['load', '--db', fifo, '--force'])).toEqual(said);
    expect(await cli(['census', '--db', fifo])).toEqual(said);
  });

  it('a file that is not a DuckDB database, or empty, is said to be so', async () => {
    for (const body of ['', 'SQLite format 3\u0000 and more than twelve bytes']) {
      const file = join(temp(), 'x.db');
      writeFileSync(file, body);
      expect(await cli(['census', '--db', file])).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${file}: not a DuckDB database file (give --db a file that omg-evidence load built)\n`,
      });
    }
  });

  it('a dangling symbolic link says where it points', async () => {
    const link = join(temp(), 'gone.duckdb');
    symlinkSync('nowhere.duckdb', link);
    expect(await cli(['census', '--db', link])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${link}: a dangling symbolic link: it points at nowhere.duckdb, which does not exist (give the path of a database file)\n`,
    });
  });
});

describe('sql/database-layout.sql: the tables load builds, as --db holds a file to them', () => {
  const header = [
    '-- What load builds into a database file: each table, defined as DuckDB writes it (duckdb_tables().sql).',
    "-- A --db file whose tables differ from these at all (a column's type, collation, default, constraint or",
    '-- place, a column or table more or less) is refused: load/database-catalogue.ts. Never run. Written by',
    '-- test/store.test.ts from what load builds: after a change to the tables, `npx vitest run test/store.test.ts -u`.',
  ];
  const tables = async (file: string) => {
    const db = await Database.open({ file, readOnly: true });
    try {
      return (await db.query('select sql from duckdb_tables() order by table_name')).rows.map((r) => String(r.sql));
    } finally {
      db.close();
    }
  };

  it('a load of the bundled probe and one of transcripts alone build the same tables, as the file says', async () => {
    const dir = temp();
    const [probe, transcripts] = [join(dir, 'p.duckdb'), join(dir, 't.duckdb')];
    expect((await cli(['load', '--db', probe])).code).toBe(0);
    expect((await cli(['load', '--transcripts', 'test/fixtures/transcripts/edge-cases', '--db', transcripts])).code).toBe(0);
    const built = await tables(probe);
    expect(await tables(transcripts)).toEqual(built);
    await expect([...header, ...built, ''].join('\n')).toMatchFileSnapshot(join('..', 'sql', 'database-layout.sql'));
  });
});
