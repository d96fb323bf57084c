/**
 * An input file edited while `load` runs, after it was hashed and before DuckDB read it, then put
 * back (its bytes as they were, its mtime new): the database holds the edit, and --db must not
 * take it for the files (src/load/database-file.ts, buildDatabaseFile).
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { probeFixture, repo } from './helpers.js';

// Run before DuckDB reads the inputs, once the hashing beside the load has read them all.
let beforeRead: (() => Promise<void>) | undefined;
vi.mock('../src/load/open.js', async (original) => {
  const real = await original<typeof import('../src/load/open.js')>();
  return {
    ...real,
    loadInputs: async (...args: Parameters<typeof real.loadInputs>) => {
      await beforeRead?.();
      return real.loadInputs(...args);
    },
  };
});
// The loader lists the probe's files itself, after fingerprinting did: this list may leave one out, as
// when the file was moved away and back in between.
let loaderSkips: string | undefined;
vi.mock('../src/load/inputs.js', async (original) => {
  const real = await original<typeof import('../src/load/inputs.js')>();
  return {
    ...real,
    discoverProbe: (path: string) => {
      const found = real.discoverProbe(path);
      return { ...found, files: found.files.filter((f) => f.rel !== loaderSkips) };
    },
  };
});
const { buildDatabaseFile } = await import('../src/load/database-file.js');

const temps: string[] = [];
afterEach(() => {
  beforeRead = undefined;
  loaderSkips = undefined;
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

function probeCopy(name = 'minimal'): { probe: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'omg-race-'));
  temps.push(dir);
  const probe = join(dir, name);
  cpSync(join(repo, probeFixture(name)), probe, { recursive: true });
  return { probe, file: join(dir, 'e.duckdb') };
}

describe('an input edited during the load, after it was hashed', () => {
  it('fails the load, naming the file, and leaves no database that --db would take for the files put back', async () => {
    const { probe, file } = probeCopy();
    const results = join(probe, 'results.jsonl');
    const original = readFileSync(results, 'utf8');
    beforeRead = async () => {
      await new Promise((done) => setTimeout(done, 300));
      writeFileSync(results, original.replace('"A-ONE"', '"A-TWO"'));
    };
    const built = buildDatabaseFile({ probes: [probe], transcripts: [] }, file, {});
    await expect(built).rejects.toThrow(`${results}: changed while it was being loaded`);
    writeFileSync(results, original);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dirname(file))).toEqual(['minimal']);
  });

  it('a file the loader did not find, as when it was moved away and back, fails the load', async () => {
    for (const rel of ['notes.jsonl', 'registration/addendum-1.jsonl']) {
      const { probe, file } = probeCopy('registered');
      loaderSkips = rel;
      await expect(buildDatabaseFile({ probes: [probe], transcripts: [] }, file, {})).rejects.toThrow(
        `${join(probe, rel)}: was moved or removed while the inputs were being loaded`,
      );
      expect(existsSync(file)).toBe(false);
    }
    loaderSkips = undefined;
    const { probe, file } = probeCopy('registered');
    await expect(buildDatabaseFile({ probes: [probe], transcripts: [] }, file, {})).resolves.toBe(true);
  });

  it('a file that appeared during the load fails it too', async () => {
    const { probe, file } = probeCopy();
    const added = join(probe, 'tool_use', 'cccccccc-0000-4000-8000-000000000003.jsonl');
    beforeRead = async () => {
      await new Promise((done) => setTimeout(done, 300));
      writeFileSync(added, '');
    };
    await expect(buildDatabaseFile({ probes: [probe], transcripts: [] }, file, {})).rejects.toThrow(
      `${added}: appeared while the inputs were being loaded`,
    );
  });
});

describe('a transcript that changes while it is read', () => {
  // What the loader checks once its pass is done (src/load/transcripts.ts): a file that shrank,
  // or was replaced or removed, gave only part of its lines; one that grew is a live session's.
  it('shrunk, replaced or removed is an error naming it; grown is not', async () => {
    const { readWhole } = await import('../src/load/fingerprint.js');
    const dir = mkdtempSync(join(tmpdir(), 'omg-whole-'));
    try {
      const file = join(dir, 's.jsonl');
      writeFileSync(file, '{}\n{}\n');
      const { size, ino } = statSync(file);
      const said = (how: string) => `${file}: changed while it was being read (${how})`;
      writeFileSync(file, '{}\n{}\n{}\n');
      expect(() => readWhole([{ abs: file, size, ino }])).not.toThrow();
      writeFileSync(file, '{}\n');
      expect(() => readWhole([{ abs: file, size, ino }])).toThrow(said(`${size} bytes became 3`));
      // Written beside it and renamed over it, as an editor saves: another inode, both at once.
      writeFileSync(`${file}.new`, '{}\n{}\n');
      renameSync(`${file}.new`, file);
      expect(() => readWhole([{ abs: file, size, ino }])).toThrow(said('it was replaced'));
      rmSync(file);
      expect(() => readWhole([{ abs: file, size, ino }])).toThrow(said('it was removed'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
