/**
 * Finding the physical line of a bad record streams the file: it never builds the file as one
 * string (a 629 MB transcript with one bad line failed with "Cannot create a string longer than
 * 0x1fffffe8"). A line longer than DuckDB's reader allows is named by file:line.
 */
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Database, pathList } from '../src/db/database.js';
import { lineTooLong, physicalLine } from '../src/load/jsonl.js';
import { cli } from './helpers.js';

// Every whole-file read is recorded, so a test can say that the transcript was never read whole.
const wholeReads: string[] = vi.hoisted(() => []);
vi.mock('node:fs', async (original) => {
  const real = await original<typeof import('node:fs')>();
  const readFileSync = ((path: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
    wholeReads.push(String(path));
    return (real.readFileSync as (...a: unknown[]) => unknown)(path, ...rest);
  }) as typeof real.readFileSync;
  return { ...real, default: { ...real, readFileSync }, readFileSync };
});

describe('the physical line of a bad record', () => {
  let root: string;
  beforeAll(() => {
    root = fs.mkdtempSync(join(tmpdir(), 'omg-jsonl-'));
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('is found by streaming the file, past several read chunks, counting blank lines', async () => {
    // Some 3 MB of lines, blank ones among them, then a bad one: more than one chunk of the stream.
    const good = `{"type":"user","sessionId":"s","message":{"content":"${'x'.repeat(1000)}"}}\n`;
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) lines.push(i % 100 === 0 ? ' \t\r\n' : good);
    lines.push('{"type":"user",\n', good);
    const dir = join(root, 'transcripts');
    fs.mkdirSync(dir);
    fs.writeFileSync(join(dir, 's.jsonl'), lines.join(''));
    wholeReads.length = 0;
    const run = await cli(['census', '--transcripts', dir]);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${dir}/s.jsonl:3001: malformed JSON: unexpected end of data (every line must be one JSON object; fix or remove that line)\n`,
    });
    expect(wholeReads.filter((f) => f.endsWith('s.jsonl'))).toEqual([]);
    // The last line counts, with or without a newline after it, as a split on newlines counts it.
    const f = join(root, 'lines.jsonl');
    fs.writeFileSync(f, '\n{"a":1}\n\n{"a":2}');
    expect([1, 2, 3].map((rec) => physicalLine(f, rec))).toEqual([2, 4, 4]);
    fs.writeFileSync(f, '{"a":1}\n');
    expect(physicalLine(f, 2)).toBe(2);
    // DuckDB skips a line of vertical tabs or form feeds as blank: so does the count (the error after
    // such a line had named the line before it).
    fs.writeFileSync(f, '{"a":1}\n\v\n\f \t\n{"a":2}\n');
    expect(physicalLine(f, 2)).toBe(4);
  });
});

describe('lines that end in a CR alone', () => {
  it('are said to, where the error had asked whether the file was cut short', async () => {
    const dir = fs.mkdtempSync(join(tmpdir(), 'omg-cr-'));
    try {
      fs.writeFileSync(join(dir, 's.jsonl'), '{"type":"user","sessionId":"s"}\r{"type":"user","sessionId":"s"}\r');
      expect(await cli(['census', '--transcripts', dir])).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${dir}/s.jsonl:1: malformed JSON: unexpected content after document; its lines end in a CR alone (classic Mac OS), where JSON Lines end each in LF or CRLF (every line must be one JSON object; fix or remove that line)\n`,
      });
      // Past a space too.
      fs.writeFileSync(join(dir, 's.jsonl'), '{"type":"user","sessionId":"s"}\r {"type":"user","sessionId":"s"}\r');
      expect((await cli(['census', '--transcripts', dir])).stderr).toMatch(/:1: malformed JSON: .*; its lines end in a CR alone/);
      // Ending in one LF, as an editor saves it (the note had gone).
      fs.writeFileSync(join(dir, 's.jsonl'), '{"type":"user","sessionId":"s"}\r{"type":"user","sessionId":"s"}\n');
      expect((await cli(['census', '--transcripts', dir])).stderr).toMatch(/:1: malformed JSON: .*; its lines end in a CR alone/);
      // A CR inside a string is a control character JSON refuses, not a line's end (it had been said to be one),
      // even followed by a {, and in a file with no LF.
      fs.writeFileSync(join(dir, 's.jsonl'), '{"type":"user","sessionId":"x\r{y"}');
      expect((await cli(['census', '--transcripts', dir])).stderr).not.toMatch(/CR alone/);
      for (const text of ['x\ry', 'x\r{y']) {
        fs.writeFileSync(join(dir, 's.jsonl'), `{"type":"user","sessionId":"s"}\n{"type":"user","sessionId":"${text}"}\n`);
        expect((await cli(['census', '--transcripts', dir])).stderr).toBe(
          `omg-evidence: ${dir}/s.jsonl:2: malformed JSON: unexpected control character in string (every line must be one JSON object; fix or remove that line)\n`,
        );
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a line longer than the reader allows', () => {
  it("is named by file:line, not DuckDB's buffer size", async () => {
    // DuckDB's smallest maximum_object_size is 16 MB and it fails past twice that; the message is
    // the one readJsonl gives for its own limit.
    const root = fs.mkdtempSync(join(tmpdir(), 'omg-long-'));
    const f = join(root, 'long.jsonl');
    fs.writeFileSync(f, `{"a":1}\n\n{"a":"${'x'.repeat(34 * 1024 * 1024)}"}\n{"a":2}\n`);
    const db = await Database.open();
    try {
      const err = await db
        .query(`select count(json) from read_ndjson_objects($f, ignore_errors = true, maximum_object_size = ${16 * 1024 * 1024})`, {
          f: pathList([f]),
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(lineTooLong(err)?.message).toBe(`${f}:3: line is longer than 256 MB`);
      expect(lineTooLong(new Error('something else'))).toBeUndefined();
    } finally {
      db.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
