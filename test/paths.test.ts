import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles, walkFiles } from '../src/base/paths.js';
import { displayPath } from '../src/base/paths-shown.js';

// The file listing every reader starts from: depth first, each folder's entries sorted by name,
// symbolic links followed once the tree is walked (a file is read once, by its name when it has
// one), paths as path.join writes them.
describe('listing files', () => {
  let root: string;
  const jsonl = (name: string) => name.endsWith('.jsonl');
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'omg-list-'));
    mkdirSync(join(root, 'a', 'subagents'), { recursive: true });
    for (const f of ['b.jsonl', 'a.jsonl', 'c.txt', 'a/x.jsonl', 'a/subagents/agent-1.jsonl']) writeFileSync(join(root, f), '');
    symlinkSync(join(root, 'a', 'subagents'), join(root, 'link'));
    // Reached by name too: a folder's alias that sorts before it, a file's, and a text file's
    // under a name the reader keeps.
    symlinkSync('a', join(root, '0-alias'));
    symlinkSync('b.jsonl', join(root, 'b-copy.jsonl'));
    symlinkSync('c.txt', join(root, 'c.jsonl'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('walks depth first in name order, reads what a link reaches once, and gives each path relative to the folder', () => {
    expect(walkFiles(root, jsonl)).toEqual([
      { path: join(root, 'a', 'subagents', 'agent-1.jsonl'), rel: 'a/subagents/agent-1.jsonl' },
      { path: join(root, 'a', 'x.jsonl'), rel: 'a/x.jsonl' },
      { path: join(root, 'a.jsonl'), rel: 'a.jsonl' },
      { path: join(root, 'b.jsonl'), rel: 'b.jsonl' },
      { path: join(root, 'c.jsonl'), rel: 'c.jsonl' },
    ]);
    expect(listFiles(root)).toContain(join(root, 'c.txt'));
  });

  it('writes paths as path.join would, however the folder is spelled', () => {
    const want = listFiles(root, jsonl);
    for (const spelled of [`${root}/`, `${root}/./`, `${root}//a/..`]) expect(listFiles(spelled, jsonl)).toEqual(want);
    expect(listFiles(join(root, 'a', 'subagents'), jsonl)).toEqual([join(root, 'a', 'subagents', 'agent-1.jsonl')]);
  });

  it('an absent folder has no files', () => {
    expect(walkFiles(join(root, 'nope'))).toEqual([]);
  });
});

describe('a file name that is not UTF-8', () => {
  // Listed, it comes back with U+FFFD, a name no file has: said so, not "check that the file exists".
  it('is an error saying so, naming its folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-name-'));
    try {
      writeFileSync(Buffer.concat([Buffer.from(`${dir}/bad`), Buffer.from([0xff]), Buffer.from('.jsonl')]), '{}\n');
      expect(() => walkFiles(dir, (n) => n.endsWith('.jsonl'))).toThrow(
        `${dir}/bad\ufffd.jsonl: its name is not UTF-8, so it cannot be opened by name`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// `export --parquet ./-` had said "written to -", which reads as stdout (rev50b).
describe('a path shown to the user', () => {
  it('is relative inside the working folder, and one starting with - is shown as ./-, as one would type it', () => {
    expect(displayPath(join(process.cwd(), 'a', 'b'))).toBe(join('a', 'b'));
    expect(displayPath(join(process.cwd(), '-'))).toBe('./-');
    expect(displayPath(join(process.cwd(), '-work-demo', 's.jsonl'))).toBe('./-work-demo/s.jsonl');
    expect(displayPath('/elsewhere/-')).toBe('/elsewhere/-');
  });
});
