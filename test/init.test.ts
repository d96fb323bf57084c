/**
 * `init DIR` scaffolds a probe that the front door's guide runs as it stands: census, verdict (the
 * conjunct holds, exit 0) and render, then render --check finds the README current. Nothing existing
 * is overwritten: a folder that is not empty, or a path that is a file, is an error (exit 1) that
 * leaves it as it was.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { execFile, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bin, binPath } from './helpers.js';

const temps: string[] = [];
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'omg-init-'));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});

const FILES = [
  'README.md',
  'registration/conjuncts/1-example-exits-0.sql',
  'registration/prereg.jsonl',
  'results.jsonl',
  'tool_use/00000000-0000-4000-8000-000000000001.jsonl',
];

describe('init', () => {
  it('scaffolds a probe that census, verdict and render work on', async () => {
    const cwd = temp();
    const init = bin(['init', 'my-probe'], { cwd });
    expect(init.stderr).toBe(
      FILES.map((f) => `${f}\n`).join('') +
        'omg-evidence: init: wrote a probe of 5 files to my-probe; next: omg-evidence census my-probe, verdict my-probe, render my-probe/README.md\n',
    );
    expect(init.stdout).toBe('');
    expect(init.code).toBe(0);
    // The probe id is filled in where the templates ask for it.
    expect(readFileSync(join(cwd, 'my-probe', 'registration', 'prereg.jsonl'), 'utf8')).toContain(
      '{"kind":"probe","title":"my-probe: replace with what the probe measures"}',
    );

    const census = bin(['census', 'my-probe', '--format', 'csv'], { cwd });
    expect(census.stderr).toBe('');
    expect(census.stdout).toBe(
      'probe,seq,arm,phase,session_id,status,exit_code,tools,artifacts,markers,skills,note,forgeable\r\n' +
        'my-probe,1,EXAMPLE,A,00000000-0000-4000-8000-000000000001,counted,0,"{""Bash"":1}",[],[],[],,[]\r\n',
    );
    expect(census.code).toBe(0);

    const verdict = bin(['verdict', 'my-probe', '--format', 'markdown'], { cwd });
    expect(verdict.stderr).toBe('');
    await expect(verdict.stdout).toMatchFileSnapshot(join('golden', 'init', 'verdict.md'));
    expect(verdict.code).toBe(0);

    const render = bin(['render', 'my-probe/README.md'], { cwd });
    expect(render.stderr).toBe('omg-evidence: render: my-probe/README.md: 1 of 1 region(s) rewritten\n');
    expect(render.code).toBe(0);
    await expect(readFileSync(join(cwd, 'my-probe', 'README.md'), 'utf8')).toMatchFileSnapshot(join('golden', 'init', 'README.md'));

    const check = bin(['render', '--check', 'my-probe/README.md'], { cwd });
    expect(check.stdout).toBe('');
    expect(check.code).toBe(0);
  });

  // The files were listed on stdout: a stdout that failed made a probe written whole exit 1, its
  // folder left behind (and init of it again refused: not empty).
  it('a stdout that cannot be written (> /dev/full) does not fail it: the probe is whole, exit 0', () => {
    const cwd = temp();
    const r = spawnSync('sh', ['-c', 'exec "$0" "$@" > /dev/full', process.execPath, binPath, 'init', 'p'], { cwd, encoding: 'utf8' });
    expect([r.status, r.stderr.split('\n').at(-2)]).toEqual([
      0,
      'omg-evidence: init: wrote a probe of 5 files to p; next: omg-evidence census p, verdict p, render p/README.md',
    ]);
    expect(bin(['verdict', 'p', '--format', 'json'], { cwd }).code).toBe(0);
  });

  // stderr carries no data: init 2>/dev/full had exited 1 with its probe written whole.
  it('a stderr that cannot be written (2> /dev/full) does not fail it either: exit 0, the probe whole', () => {
    const cwd = temp();
    const r = spawnSync('sh', ['-c', 'exec "$0" "$@" 2> /dev/full', process.execPath, binPath, 'init', 'p'], { cwd, encoding: 'utf8' });
    expect([r.status, r.stdout]).toEqual([0, '']);
    expect(bin(['verdict', 'p', '--format', 'json'], { cwd }).code).toBe(0);
  });

  it('writes into an empty folder', () => {
    const cwd = temp();
    mkdirSync(join(cwd, 'empty'));
    const run = bin(['init', 'empty'], { cwd });
    expect(run.code).toBe(0);
    expect(readdirSync(join(cwd, 'empty')).sort()).toEqual(['README.md', 'registration', 'results.jsonl', 'tool_use']);
  });

  it('refuses a folder that is not empty, and leaves it as it was', () => {
    const cwd = temp();
    mkdirSync(join(cwd, 'mine'));
    writeFileSync(join(cwd, 'mine', 'notes.txt'), 'mine\n');
    const run = bin(['init', 'mine'], { cwd });
    expect(run.stderr).toBe('omg-evidence: mine: not empty (name a new or empty folder for the probe; init never overwrites)\n');
    expect(run.stdout).toBe('');
    expect(run.code).toBe(1);
    expect(readdirSync(join(cwd, 'mine'))).toEqual(['notes.txt']);
    expect(readFileSync(join(cwd, 'mine', 'notes.txt'), 'utf8')).toBe('mine\n');
  });

  it('refuses a path that is a file', () => {
    const cwd = temp();
    writeFileSync(join(cwd, 'probe'), 'a file\n');
    const run = bin(['init', 'probe'], { cwd });
    expect(run.stderr).toBe('omg-evidence: probe: exists and is not a folder (name a new or empty folder for the probe)\n');
    expect(run.code).toBe(1);
    expect(readFileSync(join(cwd, 'probe'), 'utf8')).toBe('a file\n');
  });

  it('names the file it cannot write, with the system code', () => {
    const cwd = temp();
    writeFileSync(join(cwd, 'file'), '');
    const run = bin(['init', 'file/probe'], { cwd });
    expect(run.stderr).toBe('omg-evidence: file/probe: cannot write (ENOTDIR) (name a new or empty folder you can write to)\n');
    expect(run.code).toBe(1);
  });

  // Node's recursive mkdirSync retried /proc/self forever: its parent exists, mkdir says ENOENT.
  it.skipIf(!existsSync('/proc/self'))('a folder that cannot be made under /proc/self is an error, not a hang', () => {
    const run = bin(['init', '/proc/self/omg-probe'], { cwd: temp() });
    expect(run.stderr).toBe('omg-evidence: /proc/self/omg-probe: cannot write (ENOENT) (name a new or empty folder you can write to)\n');
    expect(run.code).toBe(1);
  });

  it('leaves nothing behind when it cannot make the folder', () => {
    const cwd = temp();
    // A name too long for a folder.
    const long = 'p'.repeat(300);
    const run = bin(['init', long], { cwd });
    // The error printer shortens a word that long (the colon is part of it) to its first 80 and last 60 characters.
    const shown = `${long.slice(0, 80)}…${long.slice(-59)}:`;
    expect(run.stderr).toBe(
      `omg-evidence: ${shown} cannot write (ENAMETOOLONG) (shorten the name or the path: it is longer than the file system allows)\n`,
    );
    expect(run.code).toBe(1);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('takes back what it wrote when a write fails midway, and leaves an empty folder it was given as it was', () => {
    const cwd = temp();
    // A folder whose path is so long that README.md fits under PATH_MAX (4096) and
    // registration/conjuncts/1-example-exits-0.sql does not: the first file is written, a later one fails.
    let deep = cwd;
    while (deep.length < 4096 - 30) deep = join(deep, 'd'.repeat(Math.min(200, 4096 - 30 - deep.length - 1)));
    mkdirSync(deep, { recursive: true });
    for (const given of [false, true]) {
      const probe = join(deep, 'p');
      if (given) mkdirSync(probe);
      const run = bin(['init', probe], { cwd });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /: cannot write \(ENAMETOOLONG\) \(shorten the name or the path: it is longer than the file system allows\)\n$/,
      );
      expect(readdirSync(deep)).toEqual(given ? ['p'] : []);
      if (given) expect(readdirSync(probe)).toEqual([]);
      rmSync(probe, { recursive: true, force: true });
    }
  });

  it('of two inits at once, one into a folder inside the other (a/b and a/b/tool_use), never both win', async () => {
    // A race: without the check of the written folder, about one pair in thirty both succeeded,
    // a probe inside the other's tool_use/. Now at most one does, whole (5 files); when each sees
    // the other's files, both take theirs back and nothing of either is left.
    const cwd = temp();
    const run = (dir: string) =>
      new Promise<number>((done) => {
        execFile(process.execPath, [binPath, 'init', dir], { cwd }, (err) => done(err ? ((err.code as number) ?? -1) : 0));
      });
    for (let i = 0; i < 10; i++) {
      const codes = (await Promise.all([run(`p${i}/b`), run(`p${i}/b/tool_use`)])).sort();
      // Both losing take back every folder they made, p${i} too.
      const made = existsSync(join(cwd, `p${i}`)) ? readdirSync(join(cwd, `p${i}`), { recursive: true, withFileTypes: true }) : [];
      const files = made.filter((e) => e.isFile());
      expect(codes[1], 'never both').toBe(1);
      expect(files.length, `codes ${codes}`).toBe(codes[0] === 0 ? 5 : 0);
    }
  });

  it('refuses a folder inside a probe (it had written a probe into registration/, and the probe no longer loaded)', () => {
    const cwd = temp();
    expect(bin(['init', 'p'], { cwd }).code).toBe(0);
    for (const dir of ['p/registration/draft', 'p/tool_use/x', 'p/transcripts/y']) {
      expect(bin(['init', dir], { cwd }), dir).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${dir}: inside the probe p; nothing was written (name a folder outside every probe: a probe is evidence, and read-only)\n`,
      });
    }
    expect(existsSync(join(cwd, 'p', 'transcripts'))).toBe(false);
    expect(bin(['verdict', 'p'], { cwd }).code).toBe(0);
  });

  it('init . fills the current folder, which stays the same folder', () => {
    const cwd = temp();
    mkdirSync(join(cwd, 'here'));
    const before = statSync(join(cwd, 'here')).ino;
    const run = bin(['init', '.'], { cwd: join(cwd, 'here') });
    expect(run.code).toBe(0);
    expect(statSync(join(cwd, 'here')).ino).toBe(before);
    expect(bin(['census', '.'], { cwd: join(cwd, 'here') }).code).toBe(0);
  });

  it('a folder whose name starts with a dash is suggested as ./-name, so the next command does not read it as an option', () => {
    const cwd = temp();
    const run = bin(['init', '--', '-dash'], { cwd });
    expect(run.code).toBe(0);
    expect(run.stderr.split('\n').at(-2)).toBe(
      'omg-evidence: init: wrote a probe of 5 files to ./-dash; next: omg-evidence census ./-dash, verdict ./-dash, render ./-dash/README.md',
    );
  });

  it('quotes a folder with spaces or quotes in the commands it suggests next', () => {
    const cwd = temp();
    const run = bin(['init', "Bob's probe"], { cwd });
    expect(run.code).toBe(0);
    expect(run.stderr.split('\n').at(-2)).toBe(
      `omg-evidence: init: wrote a probe of 5 files to Bob's probe; next: omg-evidence census 'Bob'\\''s probe', verdict 'Bob'\\''s probe', render 'Bob'\\''s probe/README.md'`,
    );
    expect(bin(['census', "Bob's probe"], { cwd }).code).toBe(0);
  });

  // A newline in the name had split the README's title, or ended its region (its own render then
  // refused it), and the commands suggested next named the folder in no way a shell could use.
  it.each([
    ['a line break', 'nl\nx', 'nl\\u000ax', 'U+000A'],
    ['a line break before an end marker', 'h\n<!-- omg-evidence:end -->', 'h\\u000a<!-- omg-evidence:end -->', 'U+000A'],
    ['a tab', 't\tx', 't\\u0009x', 'U+0009'],
    ['DEL', 'd\u007f', 'd\\u007f', 'U+007F'],
    ['a C1 control (NEL)', 'c\u0085d', 'c\\u0085d', 'U+0085'],
    ['the line separator', 'p\u2028q', 'p\\u2028q', 'U+2028'],
    ['the paragraph separator', 'p\u2029q', 'p\\u2029q', 'U+2029'],
    // Invisible: init had printed next commands as 'a\u202eb', which names no folder.
    ['a right-to-left override', 'a\u202eb', 'a\\u202eb', 'U+202E'],
    ['a zero-width space', 'z\u200bw', 'z\\u200bw', 'U+200B'],
    ['a tag character', 't\u{e0041}x', 't\\u{e0041}x', 'U+E0041'],
    ['a Hangul filler (default-ignorable, not a format character)', 'a\u3164b', 'a\\u3164b', 'U+3164'],
  ])('a folder name holding %s is refused, named escaped on one line, and nothing is written', (_, name, shown, code) => {
    const cwd = temp();
    expect(bin(['init', name], { cwd })).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${shown}: the probe's folder name holds a control or invisible character (${code}); nothing was written (name the folder with printable characters only)\n`,
    });
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('init . in a folder whose name holds a line break: the probe id is that name', () => {
    const cwd = join(temp(), 'a\nb');
    mkdirSync(cwd);
    expect(bin(['init', '.'], { cwd })).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: .: the probe's folder name holds a control or invisible character (U+000A); nothing was written (name the folder with printable characters only)\n`,
    });
    expect(readdirSync(cwd)).toEqual([]);
  });
});
