/**
 * Persisted databases: what a database file was built from, and whether that still holds. The
 * inputs are the probe directories and the transcript folders; their fingerprint is a hash of
 * every input file's path, size and modification time (reading every byte of a large corpus again
 * would cost what the cache saves). A database whose recorded inputs differ from the ones named,
 * whose files changed since, or whose tables are laid out otherwise than this build's documented
 * views (one built by an older omg-evidence), is refused, never used stale.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Database } from './db.js';
import { InputError } from './errors.js';
import { sha256 } from './hash.js';
import { displayPath, listFiles, packageVersion } from './paths.js';
import { discoverProbe } from './probe.js';
import { listTranscriptFiles } from './transcripts.js';
import { VIEWS } from './views.js';

/** What a database is built from: probe directories and transcript folders, absolute. */
export interface Inputs {
  probes: string[];
  transcripts: string[];
}

export interface Meta {
  version: string;
  /** layout() when it was built. */
  layout: string;
  inputs: Inputs;
  fingerprint: string;
  files: number;
  /** What loading the inputs warned of; a command reading the database says it again. */
  warnings: string[];
}

/** The documented tables and their columns, hashed: what queries over a database rely on. */
export function layout(): string {
  return sha256()
    .update(JSON.stringify(VIEWS.map((v) => [v.name, Object.keys(v.columns)])))
    .digest('hex')
    .slice(0, 16);
}

function files(inputs: Inputs): string[] {
  const out: string[] = [];
  for (const p of inputs.probes) {
    out.push(...discoverProbe(p).files.map((f) => f.abs));
    // The registration's SQL is read at evaluation time, so it is an input too.
    out.push(...listFiles(join(p, 'registration'), (name) => !name.endsWith('.jsonl')));
  }
  for (const t of inputs.transcripts) if (existsSync(t)) out.push(...listTranscriptFiles(t));
  return [...new Set(out)].sort();
}

/** The fingerprint of the inputs as they are on disk now. */
export function fingerprint(inputs: Inputs): { hash: string; files: number } {
  const h = sha256();
  const list = files(inputs);
  for (const f of list) {
    const st = statSync(f);
    h.update(`${f}\t${st.size}\t${st.mtimeMs}\n`);
  }
  return { hash: h.digest('hex'), files: list.length };
}

export function normalize(inputs: Inputs): Inputs {
  return { probes: inputs.probes.map((p) => resolve(p)), transcripts: inputs.transcripts.map((t) => resolve(t)) };
}

export async function writeMeta(db: Database, inputs: Inputs, warnings: string[]): Promise<Meta> {
  const fp = fingerprint(inputs);
  const meta: Meta = { version: packageVersion, layout: layout(), inputs, fingerprint: fp.hash, files: fp.files, warnings };
  await db.exec(`create or replace table omg_meta (key VARCHAR, value VARCHAR)`);
  for (const [key, value] of Object.entries(meta)) {
    await db.exec(`insert into omg_meta values ($key, $value)`, { key, value: JSON.stringify(value) });
  }
  return meta;
}

export async function readMeta(db: Database, file: string): Promise<Meta> {
  let rows;
  try {
    rows = (await db.query(`select key, value from omg_meta`)).rows;
  } catch {
    throw new InputError(`${displayPath(file)}: not a database omg-evidence built`, 'build one with omg-evidence load … --db FILE');
  }
  // A database written before warnings were kept has none to say.
  return { warnings: [], ...Object.fromEntries(rows.map((r) => [r.key, JSON.parse(String(r.value))])) } as unknown as Meta;
}

const same = (a: string[], b: string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

/**
 * Why `meta` cannot serve `named` (the inputs a command was given), or null when it can. Named
 * probes must be exactly the recorded ones; named transcripts, when a command needs them, too.
 */
export function staleness(meta: Meta, named: Partial<Inputs>): string | null {
  if (meta.version !== packageVersion) return `it was built by omg-evidence ${meta.version}, this is ${packageVersion}`;
  if (meta.layout !== layout()) return 'its tables are laid out as an older omg-evidence made them';
  if (named.probes && !same(named.probes, meta.inputs.probes)) {
    return `it was built from ${meta.inputs.probes.map(displayPath).join(', ') || 'no probe'}, not ${named.probes.map(displayPath).join(', ')}`;
  }
  if (named.transcripts && !same(named.transcripts, meta.inputs.transcripts)) {
    return meta.inputs.transcripts.length
      ? `it was built from the transcripts in ${meta.inputs.transcripts.map(displayPath).join(', ')}, not ${named.transcripts.map(displayPath).join(', ')}`
      : 'it was built without transcripts';
  }
  const now = fingerprint(meta.inputs);
  if (now.hash !== meta.fingerprint) return `its input files changed since it was built (${meta.files} then, ${now.files} now)`;
  return null;
}
