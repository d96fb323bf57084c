/** The command line as a user meets it: exit codes, usage errors, streams, and the real bin. */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type IO, warn } from '../src/cli/io.js';
import { QueryError } from '../src/base/errors.js';
import { shorten } from '../src/cli/main.js';
import { bin, binPath, bundled, cli, probeFixture, repo } from './helpers.js';

describe('usage', () => {
  it('--version prints the package version', async () => {
    const run = await cli(['--version']);
    expect(run).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
  });

  it('an unknown option is a usage error, exit 2', async () => {
    const run = await cli(['census', '--bogus']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe("omg-evidence: unknown option '--bogus'\n(run with --help for usage)\n");
  });

  it('a --format the command does not offer is a usage error, exit 2', async () => {
    const run = await cli(['census', '--format', 'yaml']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "omg-evidence: option '-f, --format <format>' argument 'yaml' is invalid. Allowed choices are text, table, markdown, csv, json, ndjson.\n(run with --help for usage)\n",
    );
  });

  it('an unknown command is a usage error, exit 2', async () => {
    const run = await cli(['cenus']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^omg-evidence: unknown command 'cenus'/);
  });

  it('no command prints the help on stdout, exit 0', async () => {
    const run = await cli([]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^Usage: omg-evidence/);
  });
});

describe('the installed bin', () => {
  it('prints the census from any working directory, data on stdout only', () => {
    const run = bin(['census', '--format', 'text'], { cwd: '/' });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n')[0]).toBe("K-RES       1bb76aee  {'Write': 2}              -       -                 (pilot, addendum 1)");
  });

  it('exits 1 with a one-line error and no stack trace on bad input', () => {
    const run = bin(['census', 'test/fixtures/probes/malformed-literal']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^omg-evidence: test\/fixtures\/probes\/malformed-literal\/results\.jsonl:3: malformed JSON/);
  });

  it('exits 2 on a usage error', () => {
    expect(bin(['census', '--nope']).code).toBe(2);
  });

  it('writes all of a large output to a pipe before it exits', async () => {
    // Over 100 KB: more than a pipe holds at once, so the bin must wait for its reader.
    const args = ['sql', 'select * from spawns order by seq', '--format', 'json'];
    const run = bin(args);
    expect(run.code).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(100_000);
    expect(run.stdout).toBe((await cli(args)).stdout);
  });

  // A reader that stops early (`| head`) ends the output, not the command's answer: `verdict | head`
  // had exited 0 for a verdict that does not hold, so a pipeline's status read it as holding.
  it('a reader that stops reading: the command keeps its exit code (verdict 4), and a query being printed stops (exit 0)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-pipe-'));
    try {
      const probe = join(dir, 'p');
      cpSync(bundled, probe, { recursive: true });
      const prereg = join(probe, 'registration', 'prereg.jsonl');
      writeFileSync(prereg, readFileSync(prereg, 'utf8').replace('"usd":12,', '"usd":1,'));
      const status = (args: string[]) =>
        spawnSync('bash', ['-c', '"$@" 2>/dev/null | true; echo $PIPESTATUS', 'bash', process.execPath, binPath, ...args], {
          encoding: 'utf8',
          timeout: 60_000,
        }).stdout.trim();
      expect(status(['verdict', probe])).toBe('4');
      expect(status(['census', probe])).toBe('0');
      expect(status(['sql', 'select * from range(1000000000)', '--format', 'csv', '--timeout', '0'])).toBe('0');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a slow reader: sql exits 0, and waiting for it leaves no listener behind (no MaxListenersExceededWarning)', () => {
    const slow = "process.stdin.on('data', () => { process.stdin.pause(); setTimeout(() => process.stdin.resume(), 5); })";
    const r = spawnSync(
      'bash',
      [
        '-c',
        '"$@" | "$0" -e "$SLOW"; echo $PIPESTATUS',
        process.execPath,
        process.execPath,
        binPath,
        'sql',
        'select * from range(200000)',
        '--format',
        'csv',
      ],
      { encoding: 'utf8', env: { ...process.env, SLOW: slow }, timeout: 120_000 },
    );
    expect([r.stdout.trim(), r.stderr]).toEqual(['0', '']);
  });

  it('closes a database file it writes: load leaves a whole database and no write-ahead log', () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-bin-'));
    try {
      const db = join(dir, 'probe.duckdb');
      expect(bin(['load', '--db', db]).code).toBe(0);
      expect(existsSync(db)).toBe(true);
      expect(existsSync(`${db}.wal`)).toBe(false);
      expect(bin(['census', '--db', db, '--format', 'csv']).stdout).toBe(bin(['census', '--format', 'csv']).stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs as the README quick start runs it: npx omg-evidence census (the built bin is executable)', () => {
    // --no: npx must find the package's own bin, never fetch one.
    const run = spawnSync('npx', ['--no', 'omg-evidence', 'census', '--format', 'csv'], { cwd: repo, encoding: 'utf8' });
    expect({ code: run.status, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout.split(/\r?\n/)[0]).toBe(
      'probe,seq,arm,phase,session_id,status,exit_code,tools,artifacts,markers,skills,note,forgeable',
    );
  });
});

describe('what the fuzz found', () => {
  it('a huge value in a bad record is shortened in the error, never echoed whole', () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-huge-'));
    try {
      const probe = join(dir, 'p');
      cpSync(join(repo, 'test', 'fixtures', 'probes', 'minimal'), probe, { recursive: true });
      const session = 'a'.repeat(1_000_000);
      writeFileSync(join(probe, 'notes.jsonl'), `${JSON.stringify({ session_id: session, note: 'x' })}\n`);
      const run = bin(['census', probe]);
      expect(run.code).toBe(1);
      expect(run.stderr.length).toBeLessThan(1000);
      expect(run.stderr).toContain(`session "${'a'.repeat(79)}…${'a'.repeat(59)}" is not in ${join(probe, 'results.jsonl')}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('skills of transcripts with no Skill call works from any working folder', () => {
    // The previous loader globbed an empty path when no file held a Skill call.
    const dir = mkdtempSync(join(tmpdir(), 'omg-cwd-'));
    try {
      const run = bin(['skills', '--transcripts', join(repo, 'test', 'fixtures', 'transcripts', 'census-bom'), '--format', 'json'], {
        cwd: dir,
      });
      expect(run).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shortens long words, then a long message, between code points', () => {
    expect(shorten(`x "${'a'.repeat(200)}" y`)).toBe(`x "${'a'.repeat(79)}…${'a'.repeat(59)}" y`);
    const spaced = 'a '.repeat(5000);
    const cut = shorten(spaced);
    expect(Array.from(cut).length).toBe(901);
    expect(cut.startsWith('a '.repeat(300))).toBe(true);
    const emoji = '😀'.repeat(300);
    expect(shorten(emoji)).toBe(`${'😀'.repeat(80)}…${'😀'.repeat(60)}`);
    expect(shorten('short message')).toBe('short message');
  });

  // DuckDB's conversion error repeats the value: `select repeat('x', 12000000)::int` had printed a stack trace.
  it('shortens a message of ten million characters, a word or emoji, as it shortens a short one', () => {
    expect(shorten(`x "${'a'.repeat(10_000_000)}" y`)).toBe(`x "${'a'.repeat(79)}…${'a'.repeat(59)}" y`);
    expect(shorten('😀'.repeat(6_000_000))).toBe(`${'😀'.repeat(80)}…${'😀'.repeat(60)}`);
  });

  // An error() of a registered check made of line breaks: the search for DuckDB's quote of the statement had
  // been quadratic in them (200,000 took 46 s).
  it("DuckDB's words before its quote of the statement, from a message of a million line breaks", () => {
    expect(new QueryError(`Invalid Input Error: x${'\n'.repeat(1_000_000)}y\n\nLINE 1: select`).message).toBe('Invalid Input Error: x; y');
  });

  it('a query whose error repeats a value of 12 million characters: one short line, exit 1', () => {
    const run = bin(['sql', '-f', 'csv', "select repeat('x', 12000000)::int"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^omg-evidence: [^\n]*x…x[^\n]*\n$/);
    expect(run.stderr.length).toBeLessThan(1000);
  });

  it('a committed record nested more than 256 levels deep is an error at file:line, not a long wait', () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-deep-'));
    try {
      const probe = join(dir, 'p');
      cpSync(join(repo, 'test', 'fixtures', 'probes', 'minimal'), probe, { recursive: true });
      const rows = readFileSync(join(probe, 'results.jsonl'), 'utf8').split('\n');
      rows[0] = rows[0]!.replace(/}$/, `,"deep":${'['.repeat(100000)}${']'.repeat(100000)}}`);
      writeFileSync(join(probe, 'results.jsonl'), rows.join('\n'));
      const run = bin(['census', probe]);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `omg-evidence: ${probe}/results.jsonl:1: a value is nested more than 256 levels deep (RFC 8259 lets a reader limit nesting, and no record needs this much: flatten it)\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('evidence is read-only', () => {
  // A file a command writes is never inside what it reads, --force or not; extract may write a
  // probe's records into the probe, never into the transcripts they come from.
  it('report, load and extract refuse a file inside the evidence they read, and leave it as it was', () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-ro-'));
    try {
      cpSync(join(repo, 'evidence', '0017-staged-agent-restores-layer-1'), join(dir, 'p'), { recursive: true });
      const results = readFileSync(join(dir, 'p', 'results.jsonl'));
      const refused = (file: string, inside: string, what: string, where = 'every probe and transcripts folder') =>
        `omg-evidence: ${file}: inside the evidence it reads (${inside}); nothing was written (write ${what} outside ${where}: evidence is read-only)\n`;
      const cases: [string[], string][] = [
        [['report', 'p', '--html', 'p/results.jsonl', '--force'], refused('p/results.jsonl', 'p', 'the report')],
        [['report', 'p', '--html', 'p/report.html'], refused('p/report.html', 'p', 'the report')],
        [['load', 'p', '--db', 'p/results.jsonl', '--force'], refused('p/results.jsonl', 'p', 'the database')],
        [['load', 'p', '--db', 'p/transcripts/c.duckdb'], refused('p/transcripts/c.duckdb', 'p', 'the database')],
        [
          ['extract', '--transcripts', 'p/transcripts', '--results', 'p/results.jsonl', '--out', 'p/transcripts/x'],
          refused('p/transcripts/x', 'p/transcripts', 'the records', 'the transcripts folder'),
        ],
      ];
      for (const [args, stderr] of cases) expect(bin(args, { cwd: dir }), args.join(' ')).toEqual({ code: 1, stdout: '', stderr });
      expect(readFileSync(join(dir, 'p', 'results.jsonl')).equals(results)).toBe(true);
      expect(['report.html', 'transcripts/c.duckdb', 'transcripts/x'].filter((f) => existsSync(join(dir, 'p', f)))).toEqual([]);
      expect(bin(['extract', '--transcripts', 'p/transcripts', '--results', 'p/results.jsonl', '--out', ''], { cwd: dir })).toEqual({
        code: 2,
        stdout: '',
        stderr: 'omg-evidence: --out is empty (give a path; an empty one would name the current folder)\n',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('another probe is read-only too', () => {
  // report, export and load --db had refused only the probes they read: `report A --html B/results.jsonl
  // --force` replaced probe B's records with a page. init and extract already refused any probe.
  it('report, export and load --db refuse a path inside a probe they do not read, --force or not', () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-ro2-'));
    try {
      for (const p of ['a', 'b']) cpSync(join(repo, 'evidence', '0017-staged-agent-restores-layer-1'), join(dir, p), { recursive: true });
      const results = readFileSync(join(dir, 'b', 'results.jsonl'));
      const refused = (path: string, what: string) =>
        `omg-evidence: ${path}: inside the probe b; nothing was written (write ${what} outside every probe folder: a probe is evidence, and read-only)\n`;
      const cases: [string[], string][] = [
        [['report', 'a', '--html', 'b/results.jsonl', '--force'], refused('b/results.jsonl', 'the report')],
        [['report', 'a', '--html', 'b/transcripts/r.html'], refused('b/transcripts/r.html', 'the report')],
        [['export', 'a', '--parquet', 'b/registration/conjuncts', '--force'], refused('b/registration/conjuncts', 'the export')],
        [['export', 'a', '--parquet', 'b', '--force'], refused('b', 'the export')],
        [['load', 'a', '--db', 'b/c.duckdb'], refused('b/c.duckdb', 'the database')],
      ];
      for (const [args, stderr] of cases) expect(bin(args, { cwd: dir }), args.join(' ')).toEqual({ code: 1, stdout: '', stderr });
      expect(readFileSync(join(dir, 'b', 'results.jsonl')).equals(results)).toBe(true);
      expect(['transcripts/r.html', 'c.duckdb'].filter((f) => existsSync(join(dir, 'b', f)))).toEqual([]);
      expect(readdirSync(join(dir, 'b', 'registration', 'conjuncts')).some((f) => f.includes('spawns'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a results.jsonl alone makes no probe', () => {
  // Any folder holding a results.jsonl had counted as a probe: an eval harness's output, or a stray
  // ~/results.jsonl, refused every report, export and database below it.
  it('report and load --db write below a folder whose results.jsonl is no probe (no tool_use/ or registration/ beside it)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-np-'));
    try {
      writeFileSync(join(dir, 'results.jsonl'), '{"model":"gpt","score":0.9}\n');
      mkdirSync(join(dir, 'site'));
      expect(bin(['load', bundled, '--db', 'site/a.duckdb'], { cwd: dir }).code).toBe(0);
      expect(bin(['report', bundled, '--html', 'site/r.html'], { cwd: dir }).code).toBe(0);
      expect(readdirSync(join(dir, 'site')).sort()).toEqual(['a.duckdb', 'r.html']);
      // With a tool_use/ beside it, it is one.
      mkdirSync(join(dir, 'tool_use'));
      expect(bin(['report', bundled, '--html', 'site/r2.html'], { cwd: dir }).stderr).toBe(
        `omg-evidence: site/r2.html: inside the probe .; nothing was written (write the report outside every probe folder: a probe is evidence, and read-only)\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a path that is not UTF-8', () => {
  // Node reads such bytes as U+FFFD: init p\xff had made a folder named p\ufffd, another name than the one given.
  it.each([
    [['init', 'p\ufffd'], 'the dir argument "p\ufffd"'],
    [['census', 'p\ufffd'], 'the probe argument "p\ufffd"'],
    [['report', '--html', 'r\ufffd.html'], '--html "r\ufffd.html"'],
    [['render', 'd\ufffd.md'], 'the doc argument "d\ufffd.md"'],
  ])('%j is a usage error, naming it', (args, what) => {
    const cwd = mkdtempSync(join(tmpdir(), 'omg-fffd-'));
    try {
      expect(bin(args, { cwd })).toEqual({
        code: 2,
        stdout: '',
        stderr: `omg-evidence: ${what} holds U+FFFD: its bytes are not UTF-8 (or hold U+FFFD itself), and it would name another file (name it in UTF-8: rename the file or folder, or reach it through a link whose name is UTF-8)\n`,
      });
      expect(readdirSync(cwd)).toEqual([]);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

describe('what reaches the terminal', () => {
  it('control characters and bidirectional overrides of an error are written as escapes, on one line', async () => {
    const r = await cli(['census', 'no\u001b[31mpe\nx\u202e']);
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'omg-evidence: no\\u001b[31mpe\\u000ax\\u202e: no such probe directory (give the path of a probe directory, one that holds results.jsonl)\n',
    });
  });

  it('and of a warning', () => {
    let said = '';
    warn({ stderr: (t: string) => (said += t) } as unknown as IO, 'model \u001b]0;pwned\u0007 has no price');
    expect(said).toBe('omg-evidence: warning: model \\u001b]0;pwned\\u0007 has no price\n');
  });

  // A transcript's model or tool named with escapes (a window title, a cleared screen): in the
  // formats a terminal shows they are pictures (U+241B), in csv and json the data.
  it("and of the evidence's values, in table, markdown and text", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-esc-'));
    try {
      const line = {
        type: 'assistant',
        sessionId: 'e1',
        timestamp: '2026-03-01T10:00:00Z',
        message: { model: 'm\u001b]0;PWNED\u0007', content: [{ type: 'tool_use', id: 't1', name: 'Sk\u001b[2Jill', input: {} }] },
      };
      writeFileSync(join(dir, 's.jsonl'), `${JSON.stringify(line)}\n`);
      for (const format of ['table', 'markdown', 'text']) {
        const r = await cli(['census', '--transcripts', dir, '--format', format]);
        expect([r.code, /[\u0000-\u0008\u000b-\u001f\u007f]/.test(r.stdout)], format).toEqual([0, false]);
        // markdown also escapes the `[`, which would open a link there.
        expect(r.stdout, format).toContain(format === 'markdown' ? 'Sk\u241b\\[2Jill' : 'Sk\u241b[2Jill');
      }
      // csv holds the value as the query gives it: here a JSON object of tools, whose text escapes it.
      expect((await cli(['census', '--transcripts', dir, '--format', 'csv'])).stdout).toContain('Sk\\u001b[2Jill');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // A right-to-left override turned the rest of a terminal's line around; a zero-width space or a
  // tag character made two arms look one. The escape's brackets are not ASCII: a value written
  // \u200b (a backslash) stays apart from a zero-width space.
  it('an invisible character (a bidi override, a zero-width space, a tag) is its code point in table, markdown and text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-bidi-'));
    try {
      const probe = join(dir, 'p');
      cpSync(probeFixture('minimal'), probe, { recursive: true });
      const results = join(probe, 'results.jsonl');
      const rows = readFileSync(results, 'utf8').split('\n');
      rows[0] = rows[0]!.replace('"arm":"A-ONE"', '"arm":"A\\u202e\\u200bB\\udb40\\udc41"');
      rows[1] = rows[1]!.replace('"arm":"A-TWO"', '"arm":"A\\\\u200bB"');
      writeFileSync(results, rows.join('\n'));
      for (const format of ['table', 'markdown', 'text']) {
        const r = await cli(['census', probe, '--format', format, '--wide']);
        expect([r.code, /[\u200b\u202e]|\udb40/.test(r.stdout)], format).toEqual([0, false]);
        expect(r.stdout, format).toContain('A⟨U+202E⟩⟨U+200B⟩B⟨U+E0041⟩');
        expect(r.stdout, format).toMatch(/A\\{1,2}u200bB/);
      }
      expect((await cli(['census', probe, '--format', 'csv'])).stdout).toContain('A\u202e\u200bB\u{e0041}');
      // Every default-ignorable character (a Mongolian variation selector) and the C1 controls too.
      expect((await cli(['sql', "select 'K' || chr(6155) || chr(133) as a", '--format', 'markdown'])).stdout).toContain(
        'K⟨U+180B⟩⟨U+0085⟩',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // A note with a line break had added a row to a census rendered into a document (format=text).
  it('a line break or a tab in a value is a picture in text, so each row stays one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-lf-'));
    try {
      const probe = join(dir, 'p');
      cpSync(bundled, probe, { recursive: true });
      const note = { session_id: '3116a3cf-55f5-445f-ad6e-2e49def79c31', note: 'ok)\nK-COLLIDE   9f00d1e5  {}\tx' };
      appendFileSync(join(probe, 'notes.jsonl'), `${JSON.stringify(note)}\n`);
      const r = await cli(['census', probe, '--format', 'text']);
      expect(r.code).toBe(0);
      expect(r.stdout.split('\n').length).toBe(29);
      expect(r.stdout).toContain('(ok)\u240aK-COLLIDE   9f00d1e5  {}\u2409x)\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("an option's value that reads as an option", () => {
  // `report --html --force p` had written a page named --force, and `load --db --wide p` a database named --wide.
  it.each([
    [['report', '--html', '--force'], '--html --force'],
    [['load', '--db', '--wide'], '--db --wide'],
    [['census', '--transcripts', '--db', 'x'], '--transcripts --db'],
    [['sql', '-F', '-q', 'x'], '--file -q'],
    [['export', '--parquet', '--force'], '--parquet --force'],
  ])('%j is a usage error, naming it', (args, given) => {
    const value = given.split(' ')[1];
    const flag = given.split(' ')[0];
    expect(bin(args)).toEqual({
      code: 2,
      stdout: '',
      stderr: `omg-evidence: ${given}: its value looks like an option (give ${flag} a path; for a name that starts with -, ./${value})\n`,
    });
  });
});

describe('an option of one value given twice', () => {
  // The last had won: `--transcripts A --transcripts B` read B alone, A's sessions dropped without a word.
  it.each([
    [['census', '--transcripts', 'a', '--transcripts', 'b'], '--transcripts'],
    [['census', '-f', 'csv', '--format', 'json'], '--format'],
    [['verdict', '--check-timeout', '1', '--check-timeout', '60'], '--check-timeout'],
    [['sql', '-F', 'a.sql', '-F', 'b.sql'], '--file'],
  ])('%j is a usage error, naming it', (args, flag) => {
    expect(bin(args)).toEqual({ code: 2, stdout: '', stderr: `omg-evidence: ${flag} is given more than once (give ${flag} once)\n` });
  });
});

describe('an empty path', () => {
  // '' is the current folder to the OS: it had been read as a probe or sessions, written as a
  // database or a page, or (--db '') ignored, and the evidence loaded instead.
  it.each([
    [['census', '--transcripts', ''], '--transcripts is empty'],
    [['census', '--db', ''], '--db is empty'],
    [['load', '--db', ''], '--db is empty'],
    [['report', '--html', ''], '--html is empty'],
    [['sql', '-F', ''], '--file is empty'],
    [['agree', '--usage', '--pricing', ''], '--pricing is empty'],
    [['usage', '--transcripts', ''], '--transcripts is empty'],
    [['census', ''], 'the probe argument is empty'],
    [['sql', 'select 1', ''], 'the probe argument is empty'],
    [['sql', '-F', 'q.sql', ''], 'the probe argument is empty'],
    [['usage', 'daily', ''], 'the what argument is empty'],
    [['render', ''], 'the doc argument is empty'],
    [['init', ''], 'the dir argument is empty'],
  ])('%j is a usage error, naming it', (args, what) => {
    expect(bin(args)).toEqual({
      code: 2,
      stdout: '',
      stderr: `omg-evidence: ${what} (give a path; an empty one would name the current folder)\n`,
    });
  });
});
