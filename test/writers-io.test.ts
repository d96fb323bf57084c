/**
 * What the writers (report, export, init, render's charts) say when the file system refuses: a file or
 * folder they may not read, a name too long, a NUL in a name. Each is a one-line error naming the path
 * (exit 1), never "unexpected error … this is a bug". A mode-000 file is unreadable only to a user who is
 * not root: as root, these tests run the bin as nobody (setpriv), and are skipped where that cannot be done.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ioError, onPath } from '../src/base/io-error.js';
import { InputError } from '../src/base/errors.js';
import { folderStays, replaceFile } from '../src/base/replace-file.js';
import { bin, binPath, bundled, canDrop, type Run, tempFolders, unprivileged } from './helpers.js';

const temp = tempFolders('omg-writers-');

/** A folder every user may write into, holding a copy of the bundled probe as `p` when asked. */
function open(withProbe = false): string {
  const dir = temp();
  if (withProbe) cpSync(bundled, join(dir, 'p'), { recursive: true });
  spawnSync('chmod', ['-R', 'a+rwX', dir]);
  return dir;
}

const region = (options: string) => `# d\n\n<!-- omg-evidence:begin arms probe=p ${options}-->\n<!-- omg-evidence:end -->\n`;
const error = (message: string) => ({ code: 1, stdout: '', stderr: `omg-evidence: ${message}\n` });

describe.skipIf(!canDrop)('a file or folder the writer may not read', () => {
  it('report --html FILE that cannot be read, with --force or not (it was "unexpected error: EACCES")', () => {
    const dir = open();
    writeFileSync(join(dir, 'r.html'), 'x');
    chmodSync(join(dir, 'r.html'), 0o000);
    const said = error('r.html: cannot be read (EACCES) (name a file you may read and write, in a folder you may write)');
    expect(unprivileged(['report', bundled, '--html', 'r.html'], dir)).toEqual(said);
    expect(unprivileged(['report', bundled, '--html', 'r.html', '--force'], dir)).toEqual(said);
  });

  it('export --parquet DIR and init DIR where DIR cannot be listed (it was "unexpected error: EACCES … scandir")', () => {
    const dir = open();
    for (const d of ['x', 'i']) {
      mkdirSync(join(dir, d));
      chmodSync(join(dir, d), 0o333);
    }
    expect(unprivileged(['export', '--parquet', 'x', bundled], dir)).toEqual(
      error('x: cannot be listed (EACCES) (name a folder you may read and write)'),
    );
    expect(unprivileged(['init', 'i'], dir)).toEqual(
      error('i: cannot be listed (EACCES) (name a new or empty folder you may read and write)'),
    );
  });

  it("render --check where a region's chart cannot be read: at the region's line", () => {
    const dir = open(true);
    writeFileSync(join(dir, 'doc.md'), region('format=svg '));
    writeFileSync(join(dir, 'doc.arms.svg'), '<svg/>\n');
    chmodSync(join(dir, 'doc.arms.svg'), 0o000);
    expect(unprivileged(['render', '--check', 'doc.md'], dir)).toEqual(
      error('doc.md:3: doc.arms.svg: cannot be read (EACCES) (check that the file exists and that you may read it)'),
    );
  });
});

/** The bin run in `cwd` with files limited to `blocks` (ulimit -f): a write past it fails part-way (EFBIG), as a full disk's would (ENOSPC). */
function limited(blocks: number, args: string[], cwd: string): Run {
  const r = spawnSync('sh', ['-c', `ulimit -f ${blocks}; exec "$0" "$@"`, process.execPath, binPath, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 120_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe('a write that fails part-way leaves nothing behind (the temporary file had been kept, half-written)', () => {
  it('report --html, a rendered document and its chart', () => {
    const dir = open(true);
    expect(limited(4, ['report', 'p', '--html', 'r.html'], dir)).toEqual(
      error('r.html: cannot write the report (EFBIG) (check that the file and its folder are writable)'),
    );
    const census = (options: string) => `# d\n\n<!-- omg-evidence:begin census probe=p ${options}-->\n<!-- omg-evidence:end -->\n`;
    writeFileSync(join(dir, 'doc.md'), census(''));
    expect(limited(1, ['render', 'doc.md'], dir)).toEqual(
      error('doc.md: cannot write the document (EFBIG) (check that it and its folder are writable)'),
    );
    writeFileSync(join(dir, 'chart.md'), census('format=svg '));
    expect(limited(1, ['render', 'chart.md'], dir)).toEqual(
      error('chart.census.svg: cannot write the chart (EFBIG) (check that it and its folder are writable)'),
    );
    expect(readdirSync(dir).sort()).toEqual(['chart.md', 'doc.md', 'p']);
  });

  it('extract into a new --out folder, and into the probe itself with --force', () => {
    const dir = open(true);
    const hint = 'check that --out names a folder you may write to, and that nothing in it is in the way';
    const args = ['extract', '--transcripts', 'p/transcripts', '--results', 'p/results.jsonl', '--out'];
    expect(limited(2, [...args, 'ex'], dir)).toEqual(error(`ex/skill_results.jsonl: cannot write (EFBIG) (${hint})`));
    expect(readdirSync(dir)).toEqual(['p']);
    const listed = readdirSync(join(dir, 'p')).sort();
    writeFileSync(join(dir, 'p', 'skill_results.jsonl'), '\n', { flag: 'a' });
    expect(limited(2, [...args, 'p', '--force'], dir)).toEqual(error(`p/skill_results.jsonl: cannot write (EFBIG) (${hint})`));
    expect(readdirSync(join(dir, 'p')).sort()).toEqual(listed);
  });

  it('init DIR: its first file and DIR are taken back', () => {
    const dir = open();
    expect(limited(0, ['init', 'np'], dir)).toEqual(error('np: cannot write (EFBIG) (name a new or empty folder you can write to)'));
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("a probe's transcripts/ that is a link to a folder outside it (each command wrote into it)", () => {
  it('init, report, load, export and extract refuse it, as they refuse the probe itself', () => {
    const dir = open(true);
    mkdirSync(join(dir, 'shared'));
    renameSync(join(dir, 'p', 'transcripts'), join(dir, 'shared', 't'));
    symlinkSync('../shared/t', join(dir, 'p', 'transcripts'));
    const before = readdirSync(join(dir, 'shared', 't')).sort();
    const inside = (path: string, what: string) =>
      error(
        `${path}: inside the probe p; nothing was written (write ${what} outside every probe folder: a probe is evidence, and read-only)`,
      );
    expect(bin(['init', 'p/transcripts/np'], { cwd: dir })).toEqual(
      error(
        'p/transcripts/np: inside the probe p; nothing was written (name a folder outside every probe: a probe is evidence, and read-only)',
      ),
    );
    expect(bin(['report', bundled, '--html', 'p/transcripts/r.html'], { cwd: dir })).toEqual(inside('p/transcripts/r.html', 'the report'));
    expect(bin(['load', bundled, '--db', 'p/transcripts/x.db'], { cwd: dir })).toEqual(inside('p/transcripts/x.db', 'the database'));
    expect(bin(['export', bundled, '--parquet', 'p/transcripts/exp'], { cwd: dir })).toEqual(inside('p/transcripts/exp', 'the export'));
    cpSync(join(dir, 'shared', 't'), join(dir, 't2'), { recursive: true });
    expect(bin(['extract', '--transcripts', 't2', '--results', 'p/results.jsonl', '--out', 'p/transcripts'], { cwd: dir })).toEqual(
      error(
        'p/transcripts: inside the probe it reads (p), where the probe keeps no such record; nothing was written (--out the probe itself or a folder outside it: evidence is read-only)',
      ),
    );
    expect(readdirSync(join(dir, 'shared', 't')).sort()).toEqual(before);
  });

  it('a folder of a transcripts folder read that is a link: load, export and report refuse it', () => {
    const dir = open();
    cpSync(join(bundled, 'transcripts'), join(dir, 'tr'), { recursive: true });
    mkdirSync(join(dir, 'else'));
    symlinkSync('../else', join(dir, 'tr', 'sub'));
    const hint = 'outside every probe and transcripts folder: evidence is read-only';
    expect(bin(['load', '--transcripts', 'tr', '--db', 'tr/sub/x.db'], { cwd: dir })).toEqual(
      error(`tr/sub/x.db: inside the evidence it reads (tr); nothing was written (write the database ${hint})`),
    );
    expect(bin(['export', '--transcripts', 'tr', '--parquet', 'tr/sub/exp'], { cwd: dir })).toEqual(
      error(`tr/sub/exp: inside the evidence it exports (tr); nothing was written (name a folder ${hint})`),
    );
    expect(bin(['report', '--transcripts', 'tr', '--html', 'tr/sub/r.html'], { cwd: dir })).toEqual(
      error(`tr/sub/r.html: inside the evidence it reads (tr); nothing was written (write the report ${hint})`),
    );
    expect(readdirSync(join(dir, 'else'))).toEqual([]);
  });
});

describe('a folder on the path swapped for a link between the check and the write (report and load wrote through it)', () => {
  it('replaceFile, given folderStays, refuses before the temporary file and before the rename', () => {
    const dir = open(true);
    mkdirSync(join(dir, 'out'));
    const file = join(dir, 'out', 'r.html');
    const say = { changed: 'changed', again: 'again', what: 'the report', writable: 'writable' };
    const listed = readdirSync(join(dir, 'p')).sort();
    const swap = () => {
      renameSync(join(dir, 'out'), join(dir, 'out.was'));
      symlinkSync('p', join(dir, 'out'));
    };
    const refused = (stays: () => void) =>
      expect(() => replaceFile(file, null, 'x', say, stays)).toThrow(
        /its folder now resolves to .*\/p, not .*\/out as when it was checked; nothing was written/,
      );
    const stays = folderStays(file);
    swap();
    refused(stays);
    expect(readdirSync(join(dir, 'p')).sort()).toEqual(listed);
    // Swapped after the temporary file is written: the rename is refused. The temporary file stays in the folder
    // moved away, which its path no longer names.
    rmSync(join(dir, 'out'));
    renameSync(join(dir, 'out.was'), join(dir, 'out'));
    const again = folderStays(file);
    let calls = 0;
    refused(() => {
      if (++calls === 2) swap();
      again();
    });
    expect(readdirSync(join(dir, 'p')).sort()).toEqual(listed);
    expect(readdirSync(join(dir, 'out.was'))).toEqual([expect.stringMatching(/^r\.html\.omg-evidence-\d+\.tmp$/)]);
  });
});

describe('a name the file system cannot hold', () => {
  const TOO_LONG = 'shorten the name or the path: it is longer than the file system allows';

  it('a file= name of 304 bytes, and a legal 251-byte document whose chart would be named with 257 (they were ENAMETOOLONG crashes)', () => {
    const dir = open(true);
    writeFileSync(join(dir, 'doc.md'), region(`format=svg file=${'a'.repeat(300)}.svg `));
    const hint = 'give the region file=NAME.svg, a shorter name';
    expect(bin(['render', '--check', 'doc.md'], { cwd: dir })).toEqual(
      error(`doc.md:3: the chart's file name is 304 bytes, more than a name may hold (255) (${hint})`),
    );
    const doc = `${'d'.repeat(248)}.md`;
    writeFileSync(join(dir, doc), region('format=svg '));
    const run = bin(['render', '--check', doc], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /\.md:3: the chart's file name is 257 bytes, more than a name may hold \(255\) \(give the region file=NAME\.svg, a shorter name\)\n$/,
    );
  });

  it('a NUL in file= is refused at its line (it was "unexpected error: … without null bytes")', () => {
    const dir = open(true);
    writeFileSync(join(dir, 'doc.md'), region('format=svg file=a\0b.svg '));
    expect(bin(['render', '--check', 'doc.md'], { cwd: dir })).toEqual(
      error('doc.md:3: file must name an .svg file beside the document; got "a\\u0000b.svg"'),
    );
  });

  it('report --html with a 305-byte name (it was "unexpected error: ENAMETOOLONG … lstat")', () => {
    const dir = open();
    const name = `${'r'.repeat(300)}.html`;
    const run = bin(['report', bundled, '--html', name], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`r\\.html: cannot be read \\(ENAMETOOLONG\\) \\(${TOO_LONG}\\)\\n$`));
  });

  it('a legal 240-byte document and report are written: their temporary files have short names', () => {
    const dir = open(true);
    const doc = `${'d'.repeat(237)}.md`;
    writeFileSync(join(dir, doc), region(''));
    const rendered = bin(['render', doc], { cwd: dir });
    expect(rendered.stderr).toMatch(/: 1 of 1 region\(s\) rewritten\n$/);
    expect(rendered.code).toBe(0);
    const page = `${'r'.repeat(240)}.html`;
    const reported = bin(['report', 'p', '--html', page], { cwd: dir });
    expect(reported.stderr).toMatch(/ written\n$/);
    expect(reported.code).toBe(0);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('ioError names the path and the cause; onPath passes on what is not a system error', () => {
    const nul = Object.assign(new TypeError("The argument 'path' must be … without null bytes"), { code: 'ERR_INVALID_ARG_VALUE' });
    expect(ioError('/x/a\0b', nul, 'cannot write')).toEqual(
      new InputError('/x/a\\0b: cannot write: a path cannot hold a NUL byte', 'remove the NUL from the name'),
    );
    expect(() =>
      onPath(
        '/x/y',
        () => {
          throw Object.assign(new Error('EACCES: denied'), { code: 'EACCES' });
        },
        'cannot be listed',
        'h',
      ),
    ).toThrow(new InputError('/x/y: cannot be listed (EACCES)', 'h'));
    const bug = new Error('not the file system');
    expect(() =>
      onPath('/x/y', () => {
        throw bug;
      }),
    ).toThrow(bug);
  });
});
