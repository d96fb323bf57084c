/**
 * `omg-evidence audit`: every file of a probe searched for home paths and secrets. One fixture per
 * kind of secret and one with every spelling of a home path (test/fixtures/audit/<name>/), each with
 * its golden text output beside it (<name>.txt); `clean` holds near misses only. Every secret in
 * the fixtures is fake.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listValue } from '@duckdb/node-api';
import { firstHomePath, HOME_PATH_RE2, hide, homePaths } from '../src/base/home-paths.js';
import { Database } from '../src/db/database.js';
import { base64Leaks } from '../src/analysis/audit-read.js';
import { findLeaks } from '../src/base/leaks.js';
import { listFiles } from '../src/base/paths.js';
import { bundled, cli, fixtures, shared, withoutShared } from './helpers.js';

const dir = join(fixtures, 'audit');
const at = (name: string) => join('test', 'fixtures', 'audit', name);
const lastLine = (text: string) => text.split('\n').filter(Boolean).at(-1);
const HINT = '(write home paths as $HOME; a secret must be revoked, and removed from the git history too)';

describe('audit', () => {
  const leaky = readdirSync(dir).filter((n) => n !== 'clean' && statSync(join(dir, n)).isDirectory());

  it('has a fixture for every kind it finds', () => {
    expect(leaky).toEqual([
      'anthropic-key',
      'aws-keys',
      'aws-secret-near',
      'base64-key',
      'bearer-token',
      'github-token',
      'google-api-key',
      'google-oauth',
      'home-paths',
      'home-spellings',
      'json-escapes',
      'netrc-password',
      'openai-key',
      'private-key',
      'slack-app-token',
      'slack-token',
      'slack-webhook',
      'url-password',
    ]);
    const kinds = new Set(
      leaky.flatMap((n) =>
        readFileSync(join(dir, `${n}.txt`), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => l.split(': ')[1]),
      ),
    );
    expect([...kinds].sort()).toEqual([
      'anthropic-key',
      'aws-access-key-id',
      'aws-secret-key',
      'bearer-token',
      'github-token',
      'google-api-key',
      'google-client-secret',
      'google-oauth-token',
      'home-path',
      'netrc-password',
      'openai-key',
      'private-key',
      'slack-token',
      'slack-webhook',
      'url-password',
    ]);
  });

  it.each(leaky)('%s: each finding with file:line, kind and the match masked; exit 3', async (name) => {
    const run = await cli(['audit', at(name), '--format', 'text']);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe(readFileSync(join(dir, `${name}.txt`), 'utf8'));
    const n = run.stdout.split('\n').filter(Boolean);
    const homes = n.filter((l) => l.includes(': home-path: ')).length;
    expect(lastLine(run.stderr)).toMatch(
      new RegExp(
        `^omg-evidence: audit: ${homes} home-directory path\\(s\\) and ${n.length - homes} secret\\(s\\) in \\d+ of \\d+ file\\(s\\) of 1 probe\\(s\\) \\(write home paths`,
      ),
    );
  });

  it('prints the summary on stderr, one line', async () => {
    const run = await cli(['audit', at('home-paths'), '--format', 'text']);
    expect(run.stderr).toBe(
      'omg-evidence: warning: home-paths: 9 registered marker(s) or artifact(s) of 9 spawn(s) may be forgeable: no transcript shows what made them ' +
        '(A-1 11111111, A-2 22222222, A-3 33333333, A-4 44444444, A-5 55555555, A-6 66666666, A-7 77777777, A-8 88888888, A-9 99999999); ' +
        "put the session files in the probe's transcripts/ to check\n" +
        `omg-evidence: audit: 11 home-directory path(s) and 0 secret(s) in 3 of 13 file(s) of 1 probe(s) ${HINT}\n`,
    );
  });

  it('warns when the probes do not load, so forgeable markers go unchecked; the findings and exit 3 stand', async () => {
    const run = await cli(['audit', at('url-password'), '--format', 'text']);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      'omg-evidence: warning: forgeable markers and artifacts not checked: test/fixtures/audit/url-password/notes.jsonl:1: notes.jsonl row: session "aaaaaaaa-0000-4000-8000-000000000001" is not in test/fixtures/audit/url-password/results.jsonl\n' +
        `omg-evidence: audit: 0 home-directory path(s) and 1 secret(s) in 1 of 2 file(s) of 1 probe(s) ${HINT}\n`,
    );
  });

  it('never prints a secret whole', async () => {
    for (const name of leaky) {
      const run = await cli(['audit', at(name), '--format', 'json']);
      for (const f of listFiles(join(dir, name))) {
        for (const secret of readFileSync(f, 'utf8').match(/FAKE[A-Za-z0-9_.-]{8,}|fAkE[A-Za-z0-9]{8,}/g) ?? [])
          expect(run.stdout, name).not.toContain(secret);
      }
    }
  });

  it('finds nothing in near misses, and warns that a binary file was searched as bytes (exit 0)', async () => {
    const run = await cli(['audit', at('clean'), '--format', 'text']);
    expect(run).toEqual({
      code: 0,
      stdout: '',
      stderr:
        'omg-evidence: warning: clean/screenshot.png: binary (a NUL byte in it): searched as bytes; what it holds compressed or encoded is not seen\n' +
        'omg-evidence: audit: no home-directory path or secret in 3 file(s) of 1 probe(s)\n',
    });
  });

  it('searches a binary file as bytes, and as UTF-16: a token there is found, with its line', async () => {
    const root = mkdtempSync(join(tmpdir(), 'omg-audit-'));
    try {
      cpSync(join(dir, 'clean'), join(root, 'p'), { recursive: true });
      const token = 'ghp_FAKEfake0123456789FAKEfake0123456789';
      writeFileSync(join(root, 'p', 'utf16.txt'), Buffer.from(`\ufeffnotes\ntoken ${token}\n`, 'utf16le'));
      writeFileSync(join(root, 'p', 'blob.bin'), Buffer.concat([Buffer.from([0, 1, 2, 10]), Buffer.from(`x ${token} y`)]));
      const run = await cli(['audit', join(root, 'p'), '--format', 'text']);
      expect(run.code).toBe(3);
      expect(run.stdout).toBe('p/blob.bin:2: github-token: ghp_FAKE********\np/utf16.txt:2: github-token: ghp_FAKE********\n');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("passes over .git, a folder that is git's (a socket in it is no error)", async () => {
    const root = mkdtempSync(join(tmpdir(), 'omg-audit-'));
    try {
      cpSync(join(dir, 'clean'), join(root, 'p'), { recursive: true });
      mkdirSync(join(root, 'p', '.git'));
      writeFileSync(join(root, 'p', '.git', 'config'), '[core]\n\tworktree = /home/alice/p\n');
      execFileSync('python3', [
        '-c',
        `import socket; socket.socket(socket.AF_UNIX).bind(${JSON.stringify(join(root, 'p', '.git', 'fsmonitor.ipc'))})`,
      ]);
      const run = await cli(['audit', join(root, 'p'), '--format', 'text']);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('reads UTF-16 that starts with its byte-order mark as UTF-16, whatever its first 8 KiB hold', async () => {
    const root = mkdtempSync(join(tmpdir(), 'omg-audit-'));
    try {
      cpSync(join(dir, 'clean'), join(root, 'p'), { recursive: true });
      const text = `\ufeff${'中'.repeat(4200)}\nC:\\Users\\alice\\x\n`;
      writeFileSync(join(root, 'p', 'le.txt'), Buffer.from(text, 'utf16le'));
      writeFileSync(join(root, 'p', 'be.txt'), Buffer.from(text, 'utf16le').swap16());
      const run = await cli(['audit', join(root, 'p'), '--format', 'text']);
      expect([run.code, run.stdout]).toEqual([3, 'p/be.txt:2: home-path: C:\\Users\\a****\np/le.txt:2: home-path: C:\\Users\\a****\n']);
      expect(run.stderr).not.toMatch(/(le|be)\.txt: binary/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('reads UTF-32 that starts with its byte-order mark as UTF-32, either byte order', async () => {
    const root = mkdtempSync(join(tmpdir(), 'omg-audit-'));
    try {
      cpSync(join(dir, 'clean'), join(root, 'p'), { recursive: true });
      const chars = [...'\ufeffnotes\n/home/alice/x\n'];
      const le = Buffer.alloc(4 * chars.length);
      const be = Buffer.alloc(4 * chars.length);
      chars.forEach((c, i) => {
        le.writeUInt32LE(c.codePointAt(0)!, 4 * i);
        be.writeUInt32BE(c.codePointAt(0)!, 4 * i);
      });
      writeFileSync(join(root, 'p', 'le.txt'), le);
      writeFileSync(join(root, 'p', 'be.txt'), be);
      const run = await cli(['audit', join(root, 'p'), '--format', 'text']);
      expect([run.code, run.stdout]).toEqual([3, 'p/be.txt:2: home-path: /home/a****\np/le.txt:2: home-path: /home/a****\n']);
      expect(run.stderr).not.toMatch(/(le|be)\.txt: binary/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('searches UTF-16 that starts after the first 8 KiB of a file, with no byte-order mark', async () => {
    const root = mkdtempSync(join(tmpdir(), 'omg-audit-'));
    try {
      cpSync(join(dir, 'clean'), join(root, 'p'), { recursive: true });
      const text = Buffer.concat([
        Buffer.from(`${'x'.repeat(9000)}\n`),
        Buffer.from('token ghp_FAKEfake0123456789FAKEfake0123456789\n', 'utf16le'),
      ]);
      writeFileSync(join(root, 'p', 'late.err'), text);
      const run = await cli(['audit', join(root, 'p'), '--format', 'text']);
      expect([run.code, run.stdout]).toEqual([3, 'p/late.err:2: github-token: ghp_FAKE********\n']);
      expect(run.stderr).toContain('omg-evidence: warning: p/late.err: binary (a NUL byte in it): searched as bytes;');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  // What git commits of a file besides its bytes: its path, and a link's target. Line 0 is the name.
  it("finds a home in a file's name, a session folder's name, and a link's target", async () => {
    const root = mkdtempSync(join(tmpdir(), 'omg-audit-'));
    try {
      const p = join(root, 'p');
      cpSync(join(dir, 'clean'), p, { recursive: true });
      writeFileSync(join(p, 'x=%2Fhome%2Fbob%2Fnotes.txt'), 'clean\n');
      mkdirSync(join(p, 'transcripts', '-Users-alice-work-repo'), { recursive: true });
      writeFileSync(join(p, 'transcripts', '-Users-alice-work-repo', 's.jsonl'), '{}\n');
      // Claude Code on Windows names C:\Users\bob\repo's sessions' folder C--Users-bob-repo.
      mkdirSync(join(p, 'transcripts', 'C--Users-bob-repo'), { recursive: true });
      writeFileSync(join(p, 'transcripts', 'C--Users-bob-repo', 's.jsonl'), '{}\n');
      // An absolute link inside the probe: its text holds $HOME, as the test sets it.
      writeFileSync(join(p, 'target.txt'), 'clean\n');
      symlinkSync(join(p, 'target.txt'), join(p, 'link.txt'));
      const run = await cli(['audit', p, '--format', 'text'], { env: { HOME: root } });
      expect(run.code).toBe(3);
      expect(run.stdout.split('\n').filter((l) => l.includes(':0: '))).toEqual([
        `p/link.txt:0: home-path: ${root.replace(/[^/]+$/, (u) => hide(u, 1))}`,
        'p/transcripts/-Users-a****-work-repo/s.jsonl:0: home-path: -Users-a****',
        'p/transcripts/C--Users-b**-repo/s.jsonl:0: home-path: -Users-b**',
        'p/x=%2Fhome%2Fb**%2Fnotes.txt:0: home-path: %2Fhome%2Fb**',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  // audit prints back nothing it finds: a name that holds a home path or a secret shows it masked, wherever it is named.
  it('masks what it finds in the names it prints: every format, the binary warning, a session folder', async () => {
    const root = mkdtempSync(join(tmpdir(), 'omg-audit-'));
    try {
      const p = join(root, 'p');
      cpSync(join(dir, 'clean'), p, { recursive: true });
      writeFileSync(join(p, 'notes-sk-ant-api03-FAKEfake0123456789FAKEfake0123.txt'), 'clean\n');
      writeFileSync(join(p, '%2Fhome%2Fbob.txt'), 'clean\n');
      mkdirSync(join(p, 'transcripts', '-home-alice-repo'), { recursive: true });
      writeFileSync(join(p, 'transcripts', '-home-alice-repo', 's.jsonl'), '{}\n{"cwd":"/home/alice/repo"}\n');
      writeFileSync(join(p, 'transcripts', '-home-alice-repo', 'b.bin'), Buffer.from([0, 1, 2]));
      const run = await cli(['audit', p, '--format', 'text']);
      expect(run.code).toBe(3);
      expect(run.stdout).toBe(
        'p/%2Fhome%2Fb******:0: home-path: %2Fhome%2Fb******\n' +
          'p/notes-sk-ant-api0********.txt:0: anthropic-key: sk-ant-api0********\n' +
          'p/transcripts/-home-a****-repo/b.bin:0: home-path: -home-a****\n' +
          'p/transcripts/-home-a****-repo/s.jsonl:0: home-path: -home-a****\n' +
          'p/transcripts/-home-a****-repo/s.jsonl:2: home-path: /home/a****\n',
      );
      expect(run.stderr).toContain(
        'omg-evidence: warning: p/transcripts/-home-a****-repo/b.bin: binary (a NUL byte in it): searched as bytes;',
      );
      for (const format of ['json', 'ndjson', 'csv', 'markdown']) {
        const out = await cli(['audit', p, '--format', format]);
        expect(out.code).toBe(3);
        expect(`${out.stdout}${out.stderr}`, format).not.toMatch(/FAKEfake|%2Fbob|alice/);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  // A `/` before `%2Fhome%2Fc` is no boundary in text; in a path, each name stands alone.
  it("finds a percent-encoded home in a name inside a folder, and masks it in the file's path", async () => {
    const root = mkdtempSync(join(tmpdir(), 'omg-audit-'));
    try {
      const p = join(root, 'p');
      cpSync(join(dir, 'clean'), p, { recursive: true });
      mkdirSync(join(p, 'notes'));
      writeFileSync(join(p, 'notes', '%2Fhome%2Fcarol'), 'clean\n');
      mkdirSync(join(p, 'x', '%2FUsers%2Fdave'), { recursive: true });
      writeFileSync(join(p, 'x', '%2FUsers%2Fdave', 'a.txt'), 'clean\n');
      const run = await cli(['audit', p, '--format', 'text']);
      expect([run.code, run.stdout]).toEqual([
        3,
        'p/notes/%2Fhome%2Fc****:0: home-path: %2Fhome%2Fc****\np/x/%2FUsers%2Fd***/a.txt:0: home-path: %2FUsers%2Fd***\n',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  // A name's two readings (as written, with each / as a space) find leaks that overlap: the key's tail is
  // the home path's drive. Each is counted, and neither shows what the other hides (the home had shown in clear).
  it('masks and counts both of two leaks in a name that overlap, and keeps its /', async () => {
    const root = mkdtempSync(join(tmpdir(), 'omg-audit-'));
    try {
      const p = join(root, 'p');
      cpSync(join(dir, 'clean'), p, { recursive: true });
      mkdirSync(join(p, 'notes', 'aws_secret_access_key'), { recursive: true });
      writeFileSync(
        join(p, 'notes', 'aws_secret_access_key', 'aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY1z2Z3y+C:\\Users\\alice\\notes.txt'),
        'clean\n',
      );
      const run = await cli(['audit', p, '--format', 'text']);
      const file = 'p/notes/aws_secret_access_key/aB3d********:\\Users\\a****\\notes.txt';
      expect([run.code, run.stdout]).toEqual([
        3,
        `${file}:0: aws-secret-key: aws_secret_access_key/aB3d********\n${file}:0: home-path: *:\\Users\\a****\n`,
      ]);
      expect(lastLine(run.stderr)).toMatch(/^omg-evidence: audit: 1 home-directory path\(s\) and 1 secret\(s\) in 1 of /);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('counts two files whose names show alike, masked, as two', async () => {
    const root = mkdtempSync(join(tmpdir(), 'omg-audit-'));
    try {
      const p = join(root, 'p');
      cpSync(join(dir, 'clean'), p, { recursive: true });
      for (const k of ['AAAA', 'BBBB']) writeFileSync(join(p, `ghp_FAKEfake0123456789FAKEfake012345${k}`), 'clean\n');
      const run = await cli(['audit', p, '--format', 'text']);
      expect(run.stdout).toBe('p/ghp_FAKE********:0: github-token: ghp_FAKE********\n'.repeat(2));
      expect(lastLine(run.stderr)).toBe(
        `omg-evidence: audit: 0 home-directory path(s) and 2 secret(s) in 2 of 5 file(s) of 1 probe(s) ${HINT}`,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("masks a home path and a secret in an error's names: a dangling link's own name and its target (exit 1)", async () => {
    const root = mkdtempSync(join(tmpdir(), 'omg-audit-'));
    try {
      const p = join(root, 'p');
      cpSync(join(dir, 'clean'), p, { recursive: true });
      symlinkSync('/home/alice/.ssh/id_rsa', join(p, 'key-ghp_FAKEfake0123456789FAKEfake0123456789'));
      const run = await cli(['audit', p, '--format', 'text']);
      expect(run).toEqual({
        code: 1,
        stdout: '',
        stderr:
          `omg-evidence: ${p}/key-ghp_FAKE********: a dangling symbolic link: it points at /home/a****/.ssh/id_rsa, which does not exist ` +
          '(an input folder holds only regular files and folders: remove it, or put the file itself in its place)\n',
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("loading masks the home in a dangling link's target too, as every command that walks a folder does", async () => {
    const root = mkdtempSync(join(tmpdir(), 'omg-audit-'));
    try {
      const p = join(root, 'p');
      cpSync(join(dir, 'clean'), p, { recursive: true });
      symlinkSync('/home/alice/.ssh/id_rsa', join(p, 'notes.jsonl'));
      const run = await cli(['census', p, '--format', 'text']);
      expect([run.code, run.stderr]).toEqual([
        1,
        `omg-evidence: ${p}/notes.jsonl: a dangling symbolic link: it points at /home/a****/.ssh/id_rsa, which does not exist ` +
          '(an input folder holds only regular files and folders: remove it, or put the file itself in its place)\n',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  // The load-time warning runs the same pattern in DuckDB (RE2): it finds each of the fixture's spellings as JavaScript does.
  it("finds home-spellings' every spelling in DuckDB too, as the load-time warning does", async () => {
    const lines = readFileSync(join(dir, 'home-spellings', 'notes.md'), 'utf8')
      .split('\n')
      .filter(Boolean);
    const db = await Database.open();
    try {
      const sql = `select regexp_extract(t, $re, 1, 'i') || regexp_extract(t, $re, 2, 'i') as p from unnest($texts) with ordinality as u(t, i) order by i`;
      const { rows } = await db.query(sql, { re: HOME_PATH_RE2, texts: listValue(lines) });
      expect(rows.map((r) => r.p)).toEqual(lines.map((l) => firstHomePath(l)?.text));
      expect(rows.every((r) => r.p !== '')).toBe(true);
    } finally {
      db.close();
    }
  });

  // A host or a volume's name is read up to a separator that cannot start inside it: a name that could
  // run into a %2F run, tried at each of its splits, took quadratic time (file://x%2F… of a megabyte, minutes).
  it('reads a hostile line of a megabyte in one pass, in every spelling that takes a name before the home', () => {
    const M = 1_000_000;
    for (const line of [
      `file://x${'%2F'.repeat(M / 3)}`,
      `/wsl$/x${'%2F'.repeat(M / 3)}`,
      `vscode://x${'%2F'.repeat(M / 3)}`,
      `\\\\x${'%2F'.repeat(M / 3)}`,
      `/Volumes/${'a b'.repeat(M / 3)}`,
      ` ..${'/..'.repeat(M / 3)}`,
      ' -I'.repeat(M / 3),
      '\\\\?\\'.repeat(M / 4),
    ])
      expect(homePaths(line), line.slice(0, 12)).toEqual([]);
  });

  it('decodes a megabyte of base64, in one run or in many, in one pass', () => {
    for (const line of ['A'.repeat(1_000_000), 'abcdefghijklmnopqrstuvwxyz '.repeat(37_000)])
      expect(base64Leaks(line, {}), line.slice(0, 12)).toEqual([]);
  });

  it('the bundled probe audits clean, every file of it, transcripts included (exit 0)', async () => {
    const run = await cli(['audit', '--format', 'json']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('[]\n');
    expect(lastLine(run.stderr)).toBe('omg-evidence: audit: no home-directory path or secret in 74 file(s) of 1 probe(s)');
  });

  it("warns of the bundled probe's forgeable markers and artifacts, K-FM's breach file among them, and exits 0", async () => {
    const run = await cli(['audit', '--format', 'json']);
    expect(run.code).toBe(0);
    const warnings = run.stderr.split('\n').filter((l) => l.startsWith('omg-evidence: warning: '));
    expect(warnings).toHaveLength(13);
  });

  it("checks each probe's forgeable markers alone: one that does not load hides no other's", async () => {
    const run = await cli(['audit', bundled, 'test/fixtures/probes/malformed-last-line', '--format', 'json']);
    expect(run.code).toBe(0);
    const warnings = run.stderr.split('\n').filter((l) => l.startsWith('omg-evidence: warning: '));
    expect(warnings.filter((l) => l.includes(' is forgeable: '))).toHaveLength(13);
    expect(warnings.filter((l) => !l.includes(' is forgeable: '))).toEqual([
      'omg-evidence: warning: forgeable markers and artifacts not checked: test/fixtures/probes/malformed-last-line/results.jsonl:2: ' +
        'malformed JSON: unexpected end of data; the last line has no newline, was the file cut short?',
    ]);
  });

  // A forgeable call's command quotes the record: audit prints back nothing it finds, on stderr either.
  it("masks a secret and a home path in a forgeable call's warning as its findings show them", async () => {
    const root = mkdtempSync(join(tmpdir(), 'omg-audit-'));
    try {
      const p = join(root, 'p');
      cpSync(bundled, p, { recursive: true });
      const t = join(p, 'transcripts', 'c70d6473-1dca-44a0-a1a3-485c4a8ad342.jsonl');
      const command = 'ANTHROPIC_API_KEY=sk-ant-api03-FAKEfake0123456789FAKEfake0123 touch /tmp/OMG-K-CEILING-BREACH /home/alice/notes';
      writeFileSync(t, readFileSync(t, 'utf8').replace('"command":"touch /tmp/OMG-K-CEILING-BREACH"', `"command":"${command}"`));
      const run = await cli(['audit', p, '--format', 'json']);
      expect(run.code).toBe(3);
      expect(run.stderr).toContain(
        'omg-evidence: warning: T-REF c70d6473: artifact BREACH (/tmp/OMG-K-CEILING-BREACH) is forgeable: Bash toolu_01x7ioN422bc7P2tLa73y8Vz ' +
          'ran ANTHROPIC_API_KEY=sk-ant-api0******** touch /tmp/OMG-K-CEILING-BREACH /home/a****/notes\n',
      );
      expect(run.stderr).not.toMatch(/FAKEfake|alice/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("masks a file's name in the warning that a probe does not load", async () => {
    const root = mkdtempSync(join(tmpdir(), 'omg-audit-'));
    try {
      const p = join(root, 'p');
      cpSync(bundled, p, { recursive: true });
      writeFileSync(join(p, 'tool_use', 'sk-ant-api03-FAKEfake0123456789FAKEfake0123.jsonl'), '{}\n');
      const run = await cli(['audit', p, '--format', 'json']);
      expect(run.code).toBe(3);
      expect(run.stderr.split('\n').filter((l) => l.includes('not checked'))).toEqual([
        `omg-evidence: warning: forgeable markers and artifacts not checked: ${p}/tool_use/sk-ant-api0********.jsonl:1: tool_use record: missing required key "id"`,
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('counts $HOME as set, with or without its trailing slash', async () => {
    for (const HOME of ['/srv/operator', '/srv/operator/']) {
      const run = await cli(['audit', at('home-paths'), '--format', 'text'], { env: { HOME } });
      expect(run.code).toBe(3);
      expect(run.stdout).toContain('home-paths/notes.md:3: home-path: /srv/o*******\n');
    }
  });

  it('prints data in every format: json, ndjson, csv, markdown', async () => {
    const args = ['audit', at('url-password'), at('slack-token'), '--format'];
    const json = await cli([...args, 'json']);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toEqual([
      { probe: 'url-password', file: 'notes.jsonl', line: 1, kind: 'url-password', match: 'https://bob:FA********@git.example.com' },
      { probe: 'slack-token', file: 'notes.md', line: 3, kind: 'slack-token', match: 'xoxb-0000********' },
    ]);
    expect(
      (await cli([...args, 'ndjson'])).stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    ).toEqual(JSON.parse(json.stdout));
    expect((await cli([...args, 'csv'])).stdout).toBe(
      'probe,file,line,kind,match\r\nurl-password,notes.jsonl,1,url-password,https://bob:FA********@git.example.com\r\nslack-token,notes.md,3,slack-token,xoxb-0000********\r\n',
    );
    expect((await cli([...args, 'markdown'])).stdout).toBe(
      // markdown escapes the mask's stars, which would make emphasis there.
      '| where | kind | match |\n|:---|:---|:---|\n| url-password/notes.jsonl:1 | url-password | https\\://bob:FA\\*\\*\\*\\*\\*\\*\\*\\*@git.example.com |\n| slack-token/notes.md:3 | slack-token | xoxb-0000\\*\\*\\*\\*\\*\\*\\*\\* |\n',
    );
    expect(lastLine(json.stderr)).toBe(
      `omg-evidence: audit: 0 home-directory path(s) and 2 secret(s) in 2 of 4 file(s) of 2 probe(s) ${HINT}`,
    );
  });

  it('masks what it finds in the names of a refusal: two probes of one id, one folder under two names (exit 1)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'omg-audit-'));
    try {
      const key = join(root, 'sk-ant-api03-FAKEfake0123456789FAKEfake0123', 'clean');
      cpSync(join(dir, 'clean'), key, { recursive: true });
      const twice = await cli(['audit', key, at('clean')]);
      expect(twice).toEqual({
        code: 1,
        stdout: '',
        stderr:
          `omg-evidence: test/fixtures/audit/clean: probe id "clean" is already loaded from ${root}/sk-ant-api0********/clean ` +
          '(a probe is named by its directory; load probes whose directory names differ)\n',
      });
      symlinkSync(key, join(root, 'x=%2Fhome%2Falice'));
      const linked = await cli(['audit', key, join(root, 'x=%2Fhome%2Falice')]);
      expect(linked).toEqual({
        code: 1,
        stdout: '',
        stderr:
          `omg-evidence: ${root}/x=%2Fhome%2Fa****: the folder of probe "clean", already loaded from ${root}/sk-ant-api0********/clean ` +
          '(a probe is loaded once: name its folder by one path, not by a link to it too)\n',
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses a folder that is not a probe (exit 1)', async () => {
    const run = await cli(['audit', join('test', 'fixtures', 'not-a-probe')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'omg-evidence: test/fixtures/not-a-probe: not a probe: it has no results.jsonl (give the path of a probe directory, one that holds results.jsonl)\n',
    );
  });
});

describe('secrets, as found in text', () => {
  const kinds = (text: string) => findLeaks(text).map((l) => `${l.line} ${l.kind} ${l.masked}`);

  it('a bearer token that is a provider key counts once, as that key', () => {
    expect(kinds('Authorization: Bearer sk-ant-api03-FAKEfake0123456789FAKEfake0123')).toEqual(['1 anthropic-key sk-ant-api0********']);
  });

  it('a bare secret access key counts only within two lines of an access key id', () => {
    const key = 'fAkE0sEcReT1kEy2fAkE3sEcReT4kEy5fAkE6sEc';
    expect(kinds(`${key}\n`)).toEqual([]);
    expect(kinds(`AKIAFAKEFAKE01234567\n\n${key}\n`)).toEqual(['1 aws-access-key-id AKIAFAKE********', '3 aws-secret-key fAkE********']);
    expect(kinds(`AKIAFAKEFAKE01234567\n\n\n${key}\n`)).toEqual(['1 aws-access-key-id AKIAFAKE********']);
  });

  it('a URL password with no user name', () => {
    expect(kinds('cache: redis://:FAKEs3cretpass@cache:6379/0')).toEqual(['1 url-password redis://:FAK********@cache']);
  });

  it("a URL's user part that is a token is masked too; a short one shows", () => {
    expect(kinds('git clone https://FAKE0fake1FAKE2fake3FAKE4fake5FAKE6fake7:x-oauth-basic@github.com/acme/r.git')).toEqual([
      '1 url-password https://FAKE********:x-o********@github.com',
    ]);
    expect(kinds('https://bob:FAKEs3cretpass@git.example.com')).toEqual(['1 url-password https://bob:FAK********@git.example.com']);
  });

  it('a .netrc entry inside a JSON string', () => {
    expect(kinds('{"text":"machine api.example.com\\n  login bob\\n  password FAKEs3cret"}')).toEqual([
      '1 netrc-password machine api.example.com\\n login bob\\n password FA********',
    ]);
  });
});

// The samples are real transcripts: they hold their authors' home paths (SOURCES.md lists them) and no secret.
const samples = join(shared, 'samples');
describe.skipIf(withoutShared(samples, 'audit.test.ts: the samples in ../shared'))('the samples in ../shared', () => {
  it('give home paths only, never a secret', () => {
    const found = listFiles(samples).flatMap((f) => findLeaks(readFileSync(f, 'utf8')).map((l) => ({ f, ...l })));
    expect(found.filter((l) => l.kind !== 'home-path')).toEqual([]);
    expect(new Set(found.map((l) => l.masked))).toEqual(
      // Two of them name their session's folder too (`-Users-g***-…` under ~/.claude/projects/).
      new Set([
        '/Users/g***',
        '/home/m****',
        '/Users/c***',
        '/home/c***',
        '/home/U***',
        '/home/U****',
        '/Users/d**',
        '-Users-g***',
        '-home-m****',
      ]),
    );
  });
});
