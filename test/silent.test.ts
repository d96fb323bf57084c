/**
 * Nothing silent (#15 §5): a transcripts folder that holds nothing, or matches nothing, is warned
 * of (exit 0); `--transcripts FILE.jsonl` reads that file; and `extract` writes a probe that loads,
 * the spawn that opened no session (K-NEG) included.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundled, cli } from './helpers.js';

const noJsonl = join('test', 'fixtures', 'silent-no-jsonl');
const otherSession = join('test', 'fixtures', 'silent-other-session');
const probeId = basename(bundled);
const bundledTranscripts = join('evidence', probeId, 'transcripts');
/** K-POS's session: one Bash call. */
const oneFile = join(bundledTranscripts, '0b79ed68-4754-42e1-a332-922c06423c22.jsonl');
const kNeg = 'd3cf0e26-a1ed-4b31-a089-d5cb5362c159';
const warning = (w: string) => `omg-evidence: warning: ${w}\n`;

describe('a transcripts folder with no *.jsonl is warned of (exit 0)', () => {
  it('census --transcripts DIR', async () => {
    const run = await cli(['census', '--transcripts', noJsonl, '--format', 'text']);
    expect(run).toEqual({ code: 0, stdout: '', stderr: warning(`${noJsonl}: holds no *.jsonl file, so no session was read`) });
  });

  it('skills --transcripts DIR', async () => {
    const run = await cli(['skills', '--transcripts', noJsonl, '--format', 'csv']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(warning(`${noJsonl}: holds no *.jsonl file, so no session was read`));
  });
});

describe('a transcripts folder none of whose lines is as Claude Code writes is warned of (exit 0)', () => {
  // A probe named by --transcripts: its records' file names had passed for three sessions that made no call.
  it('census --transcripts PROBE', async () => {
    const probe = join('test', 'fixtures', 'probes', 'git-order');
    const run = await cli(['census', '--transcripts', probe, '--format', 'csv']);
    expect(run.code).toBe(0);
    expect(
      run.stdout
        .split('\n')
        .slice(1, -1)
        .map((l) => l.split(',')[0]),
    ).toEqual(['addendum-1', 'prereg', 'results']);
    expect(run.stderr).toBe(
      warning(
        `${probe}: no line of its 3 session(s) has a version, a model, a timestamp or a tool call, as Claude Code's do: is it a folder of session transcripts (such as ~/.claude/projects/<project>)?`,
      ),
    );
  });
});

describe('a probe run with --transcripts DIR that matches none of its spawns is warned of (exit 0)', () => {
  const none = (dir: string) => warning(`${probeId}: no transcript in ${dir} holds the session of any of its 28 spawn(s)`);
  for (const dir of [noJsonl, otherSession]) {
    it(`census --from transcripts --transcripts ${basename(dir)}`, async () => {
      const run = await cli(['census', '--from', 'transcripts', '--transcripts', dir, '--format', 'text']);
      expect(run.code).toBe(0);
      expect(
        run.stdout
          .split('\n')
          .filter((l) => l !== '')
          .every((l) => / gone /.test(l)),
      ).toBe(true);
      expect(run.stderr).toBe(none(dir));
    });

    it(`census PROBE --transcripts ${basename(dir)}`, async () => {
      const run = await cli(['census', bundled, '--transcripts', dir, '--format', 'text']);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe(none(dir));
    });

    it(`skills --from transcripts --transcripts ${basename(dir)}`, async () => {
      const run = await cli(['skills', '--from', 'transcripts', '--transcripts', dir, '--format', 'csv']);
      expect(run.code).toBe(0);
      expect(run.stdout.trim()).toBe('probe,arm,session_id,tool_use_id,skill,is_error,result,definition');
      expect(run.stderr).toBe(none(dir));
    });
  }

  it('not when one spawn matches', async () => {
    const run = await cli(['census', '--from', 'transcripts', '--transcripts', oneFile, '--format', 'text']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
  });
});

describe('--transcripts FILE.jsonl reads that one file', () => {
  it('census of its session alone', async () => {
    const run = await cli(['census', '--transcripts', oneFile, '--format', 'text']);
    expect(run).toEqual({ code: 0, stdout: "0b79ed68  {'Bash': 1}\n", stderr: '' });
  });

  it('census --from transcripts: its spawn counted, every other gone', async () => {
    const run = await cli(['census', '--from', 'transcripts', '--transcripts', oneFile, '--format', 'csv']);
    expect(run.code).toBe(0);
    const counted = run.stdout.split('\n').filter((l) => l.includes('"{') || l.includes('{"'));
    expect(counted).toHaveLength(1);
    expect(counted[0]).toMatch(/^0017-staged-agent-restores-layer-1,12,K-POS,/);
  });

  it('agree compares its spawn', async () => {
    const run = await cli(['agree', '--transcripts', oneFile, '--format', 'text']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^K-POS {7}0b79ed68 {2}agree$/m);
    expect(run.stderr).toMatch(/^omg-evidence: agree: 1 of 28 spawn\(s\) compared: 1 agree, 0 differ; 27 gone /);
  });

  it('a file that is not .jsonl is an error saying so, not "no such directory" (exit 1)', async () => {
    const file = join(noJsonl, 'README.txt');
    const run = await cli(['census', '--transcripts', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `omg-evidence: ${file}: neither a folder nor a .jsonl file (pass --transcripts DIR, the folder of the session files, e.g. ~/.claude/projects/<slug>)\n`,
    );
  });
});

describe('extract', () => {
  let tmp: string;
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));
  const extract = (transcripts: string, out: string, results = join(bundled, 'results.jsonl')) =>
    cli(['extract', '--transcripts', transcripts, '--results', results, '--out', out]);

  it('warns when its transcripts match no row, and still writes the spawn that opened no session', async () => {
    tmp = mkdtempSync(join(tmpdir(), 'omg-silent-'));
    const run = await extract(otherSession, tmp);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      warning(`extract: no transcript in ${otherSession} holds the session of any of the 28 row(s) of evidence/${probeId}/results.jsonl`) +
        `omg-evidence: extract: wrote 3 file(s), 0 unchanged, in ${tmp}\n`,
    );
    expect(readdirSync(join(tmp, 'tool_use')).sort()).toEqual([`${kNeg}.err`, `${kNeg}.jsonl`]);
    expect(readFileSync(join(tmp, 'skill_results.jsonl'), 'utf8')).toBe('');
  });

  // A line of session B in session A's file: its call went to no record, and nothing said so.
  it("warns of a line of another session in a spawn's transcript file, naming file:line", async () => {
    tmp = mkdtempSync(join(tmpdir(), 'omg-silent-'));
    const dir = join('test', 'fixtures', 'extract', 'other-session-line');
    const file = join(dir, 'transcripts', 'aaaaaaaa-0000-4000-8000-000000000001.jsonl');
    const run = await extract(join(dir, 'transcripts'), tmp, join(dir, 'results.jsonl'));
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      warning(
        `${file}:4: a line of session bbbbbbbb-0000-4000-8000-000000000002 in the file of session aaaaaaaa-0000-4000-8000-000000000001: no results.jsonl row names its session; ignored`,
      ) + `omg-evidence: extract: wrote 2 file(s), 0 unchanged, in ${tmp}\n`,
    );
  });

  // The count after the first five had said "lines" of what it counts per session (review rev48a).
  it('names each other session at its first line, five of them, and counts the sessions after', async () => {
    tmp = mkdtempSync(join(tmpdir(), 'omg-silent-'));
    const dir = join('test', 'fixtures', 'extract', 'other-session-line');
    const probe = join(tmp, 'p');
    cpSync(dir, probe, { recursive: true });
    const file = join(probe, 'transcripts', 'aaaaaaaa-0000-4000-8000-000000000001.jsonl');
    const stray = readFileSync(file, 'utf8').split('\n')[3]!;
    // Seven more sessions, two lines each: 7 sessions after the first (bbbbbbbb), 14 lines.
    const more = [1, 2, 3, 4, 5, 6, 7].flatMap((i) => {
      const line = stray.replaceAll('bbbbbbbb-0000-4000-8000-000000000002', `cccccccc-0000-4000-8000-00000000000${i}`);
      return [line.replace('toolu_B', `toolu_C${i}a`), line.replace('toolu_B', `toolu_C${i}b`)];
    });
    writeFileSync(file, `${readFileSync(file, 'utf8').trimEnd()}\n${more.join('\n')}\n`);
    const run = await extract(join(probe, 'transcripts'), join(tmp, 'out'), join(probe, 'results.jsonl'));
    expect(run.code).toBe(0);
    const lines = run.stderr.split('\n').filter((l) => l.includes('warning'));
    expect(lines).toHaveLength(6);
    expect(lines[0]).toContain(`${file}:4: a line of session bbbbbbbb-0000-4000-8000-000000000002`);
    expect(lines[1]).toContain(`${file}:5: a line of session cccccccc-0000-4000-8000-000000000001`);
    expect(lines[5]).toBe(
      "omg-evidence: warning: …and 3 more session(s) with lines in another session's transcript file (each shown at its first line)",
    );
  });

  // It wrote the first copy of a call written again naming another tool in silence, where census and agree warn.
  it("gives the loader's warning of a call written again naming another tool, as census does", async () => {
    tmp = mkdtempSync(join(tmpdir(), 'omg-silent-'));
    const probe = join('test', 'fixtures', 'probes', 'forge-decoy');
    const run = await extract(join(probe, 'transcripts'), tmp, join(probe, 'results.jsonl'));
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      `${warning(
        `${probe}/transcripts/000000fa-0000-4000-8000-0000000000fa.jsonl:1: call toolu_fa1 (Read) is written again naming another tool or input: this first copy counts`,
      )}omg-evidence: extract: wrote 2 file(s), 0 unchanged, in ${tmp}\n`,
    );
  });

  it('warns of the rows that opened a session no transcript holds (one FILE.jsonl)', async () => {
    tmp = mkdtempSync(join(tmpdir(), 'omg-silent-'));
    const run = await extract(oneFile, tmp);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      `${warning(
        `extract: 26 of the 28 row(s) of evidence/${probeId}/results.jsonl opened a session no transcript in ${oneFile} holds: their tool_use record is not written`,
      )}omg-evidence: extract: wrote 4 file(s), 0 unchanged, in ${tmp}\n`,
    );
    expect(readFileSync(join(tmp, 'tool_use', '0b79ed68-4754-42e1-a332-922c06423c22.jsonl'))).toEqual(
      readFileSync(join(bundled, 'tool_use', '0b79ed68-4754-42e1-a332-922c06423c22.jsonl')),
    );
  });

  it('writes a probe that loads: K-NEG gets its empty record and its .err; census, verdict and agree read it as they read the bundled probe', async () => {
    tmp = mkdtempSync(join(tmpdir(), 'omg-silent-'));
    // The probe as the harness leaves it before extract (results, the K-NEG .err, registration,
    // notes), written into in place.
    const probe = join(tmp, probeId);
    for (const f of ['results.jsonl', 'registration', 'notes.jsonl', `tool_use/${kNeg}.err`])
      cpSync(join(bundled, f), join(probe, f), { recursive: true });
    const run = await extract(bundledTranscripts, probe, join(probe, 'results.jsonl'));
    expect(run).toEqual({ code: 0, stdout: '', stderr: `omg-evidence: extract: wrote 29 file(s), 1 unchanged, in ${probe}\n` });
    expect(readdirSync(join(probe, 'tool_use')).sort()).toEqual(readdirSync(join(bundled, 'tool_use')).sort());
    for (const f of readdirSync(join(bundled, 'tool_use')))
      expect(readFileSync(join(probe, 'tool_use', f)), f).toEqual(readFileSync(join(bundled, 'tool_use', f)));

    for (const args of [['census', '--format', 'text'], ['verdict'], ['agree', '--transcripts', bundledTranscripts, '--format', 'text']]) {
      const mine = await cli([args[0]!, probe, ...args.slice(1)]);
      const theirs = await cli([args[0]!, bundled, ...args.slice(1)]);
      expect(mine.code, args[0]).toBe(0);
      // What git says of the registration differs (the copy is in no repository); nothing above it.
      const unGit = (text: string) => text.split('**Pre-registration:**')[0];
      expect(unGit(mine.stdout), args[0]).toBe(unGit(theirs.stdout));
    }
  });
});
