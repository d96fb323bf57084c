/**
 * What the readers of transcripts say when the file system refuses: a file or folder they may not read
 * or search. Each is a one-line error naming the path (exit 1), never "unexpected error … this is a bug".
 * A mode-000 file is unreadable only to a user who is not root: as root, these run the bin as nobody.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binPath, canDrop, fixtures, tempFolders, unprivileged } from './helpers.js';

const temp = tempFolders('omg-readers-');
const SESSION = join(fixtures, 'transcripts', 'census-two-sessions', 'aaaaaaaa-0000-4000-8000-000000000002.jsonl');
const error = (message: string) => ({ code: 1, stdout: '', stderr: `omg-evidence: ${message}\n` });
const READ_HINT = '(check that the file exists and that you may read it)';

/** A folder every user may enter, holding `s.jsonl` (a session) in `sub/`. */
function folder(): string {
  const dir = temp();
  mkdirSync(join(dir, 'sub'));
  copyFileSync(SESSION, join(dir, 'sub', 's.jsonl'));
  spawnSync('chmod', ['-R', 'a+rwX', dir]);
  return dir;
}

describe.skipIf(!canDrop)('a transcript the reader may not read', () => {
  it('--transcripts FILE.jsonl that cannot be read, in every command (it was "unexpected error: EACCES")', () => {
    const dir = folder();
    chmodSync(join(dir, 'sub', 's.jsonl'), 0o000);
    for (const args of [['census'], ['usage', 'session'], ['sql', 'select 1'], ['skills']]) {
      expect(unprivileged([...args, '--transcripts', 'sub/s.jsonl'], dir)).toEqual(
        error(`sub/s.jsonl: cannot be read (EACCES) ${READ_HINT}`),
      );
    }
  });

  it('--transcripts FILE.jsonl in a folder that can be listed, not searched (it was "no such transcripts directory")', () => {
    const dir = folder();
    chmodSync(join(dir, 'sub'), 0o444);
    expect(unprivileged(['census', '--transcripts', 'sub/s.jsonl'], dir)).toEqual(
      error(`sub/s.jsonl: cannot be read (EACCES) ${READ_HINT}`),
    );
  });
});

/** The bin run in `cwd`, as a user runs it. */
function inFolder(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [binPath, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

// Every command that opens a probe: census, verdict, usage and report had said "unexpected error … this
// is a bug" (the probe's own transcripts/ was looked for with a stat that throws on these), and arms
// "no such probe directory", which sends the user after the wrong cause.
const PROBE_COMMANDS = [
  ['census'],
  ['verdict'],
  ['arms'],
  ['usage', 'model'],
  ['load', '--db', 'x.duckdb'],
  ['report', '--html', 'x.html'],
];

describe('a probe path the system refuses', () => {
  it('a path through a file (ENOTDIR), a loop of links (ELOOP) or a name too long (ENAMETOOLONG): the path and the code, exit 1', () => {
    const dir = temp();
    writeFileSync(join(dir, 'file'), '');
    symlinkSync('loop-b', join(dir, 'loop-a'));
    symlinkSync('loop-a', join(dir, 'loop-b'));
    const long = 'a'.repeat(300);
    for (const args of PROBE_COMMANDS) {
      expect(inFolder([...args, 'file/x'], dir)).toEqual(
        error(`file/x: a path through a file, where a folder is expected (ENOTDIR) ${READ_HINT}`),
      );
      expect(inFolder([...args, 'loop-a'], dir)).toEqual(
        error('loop-a: a symbolic link loop (ELOOP) (point the link at a file or folder that exists, or give another path)'),
      );
      const run = inFolder([...args, long], dir);
      expect([run.code, run.stdout, run.stderr.split('\n').length, run.stderr]).toEqual([
        1,
        '',
        2,
        expect.stringMatching(/: cannot be read \(ENAMETOOLONG\) \(shorten the name/),
      ]);
    }
  });

  it.skipIf(!canDrop)('a folder the user may not enter (EACCES), as a probe and as the folder of --db or --html', () => {
    const dir = folder();
    mkdirSync(join(dir, 'locked'));
    mkdirSync(join(dir, 'locked', 'inner'));
    chmodSync(join(dir, 'locked'), 0o700);
    for (const args of PROBE_COMMANDS) {
      expect(unprivileged([...args, 'locked/inner'], dir)).toEqual(error(`locked/inner: cannot be read (EACCES) ${READ_HINT}`));
    }
    const bundled = join(fixtures, '..', '..', 'evidence', '0017-staged-agent-restores-layer-1');
    expect(unprivileged(['load', bundled, '--db', 'locked/inner/x.duckdb'], dir)).toEqual(
      error(`locked/inner: cannot be read (EACCES) ${READ_HINT}`),
    );
    expect(unprivileged(['report', bundled, '--html', 'locked/inner/x.html'], dir)).toEqual(
      error(`locked/inner: cannot be read (EACCES) ${READ_HINT}`),
    );
  });
});

// agree and usage looked for the probe's transcripts/ first, and said "the probe has no transcripts/
// folder" of a path that does not exist, or cannot be read: every command now says what the path is.
const EVERY_PROBE_COMMAND = [
  ...PROBE_COMMANDS,
  ['agree'],
  ['usage', 'daily'],
  ['skills'],
  ['cost'],
  ['audit'],
  ['census', '--from', 'transcripts'],
];
const PROBE_HINT = '(give the path of a probe directory, one that holds results.jsonl)';

describe('a probe path that is no probe, in every command that opens one', () => {
  it('missing, a file, or a folder without results.jsonl: the same message, exit 1', () => {
    const dir = temp();
    writeFileSync(join(dir, 'file'), '');
    mkdirSync(join(dir, 'empty'));
    for (const args of EVERY_PROBE_COMMAND) {
      expect([args, inFolder([...args, 'nope'], dir)]).toEqual([args, error(`nope: no such probe directory ${PROBE_HINT}`)]);
      expect([args, inFolder([...args, 'file'], dir)]).toEqual([
        args,
        error(`file: not a directory, where a probe directory is expected ${PROBE_HINT}`),
      ]);
      expect([args, inFolder([...args, 'empty'], dir)]).toEqual([args, error(`empty: not a probe: it has no results.jsonl ${PROBE_HINT}`)]);
    }
  });

  it.skipIf(!canDrop)('a probe folder the user may not read (mode 000): its results.jsonl cannot be read, exit 1', () => {
    const dir = folder();
    mkdirSync(join(dir, 'p'));
    writeFileSync(join(dir, 'p', 'results.jsonl'), '');
    chmodSync(join(dir, 'p'), 0o000);
    for (const args of EVERY_PROBE_COMMAND) {
      expect([args, unprivileged([...args, 'p'], dir)]).toEqual([args, error(`p/results.jsonl: cannot be read (EACCES) ${READ_HINT}`)]);
    }
  });
});
