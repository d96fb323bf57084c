/**
 * What the readers of transcripts say when the file system refuses: a file or folder they may not read
 * or search. Each is a one-line error naming the path (exit 1), never "unexpected error … this is a bug".
 * A mode-000 file is unreadable only to a user who is not root: as root, these run the bin as nobody.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canDrop, fixtures, tempFolders, unprivileged } from './helpers.js';

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
