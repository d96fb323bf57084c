/**
 * The record a database file keeps of what it was built from (its omg_meta table): the inputs, their
 * fingerprint, the layout of its tables, and what loading warned of. database-file.ts decides from
 * it whether the file can serve the inputs a command names.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../base/errors.js';
import { sha256 } from '../base/hash.js';
import { displayPath, packageVersion, sqlDir } from '../base/paths.js';
import type { Database } from '../db/database.js';
import { VIEWS } from '../db/views.js';
import { type Fingerprint, isFingerprint } from './fingerprint.js';
import type { Inputs } from './inputs.js';

export interface Meta {
  version: string;
  /** layout() when it was built. */
  layout: string;
  inputs: Inputs;
  /** A string (one hash of paths, sizes and mtimes) in a database an older omg-evidence built. */
  fingerprint: Fingerprint | string;
  files: number;
  /** What loading the inputs warned of; a command reading the database says it again. */
  warnings: string[];
  /** Whether --transcripts named its transcripts, not each probe's own transcripts/ (absent: not recorded). */
  transcriptsNamed?: boolean;
}

/**
 * The documented tables and their columns, and the SQL that builds them (sql/), hashed: what queries over a
 * database rely on. A change in how rows are made (messages.sql's keys) makes an older database stale too.
 */
export function layout(sql = sqlDir): string {
  const hash = sha256().update(JSON.stringify(VIEWS.map((v) => [v.name, Object.keys(v.columns)])));
  const files = (readdirSync(sql, { recursive: true }) as string[]).filter((f) => f.endsWith('.sql')).sort();
  for (const f of files) hash.update(`\0${f}\0`).update(readFileSync(join(sql, f)));
  return hash.digest('hex').slice(0, 16);
}

/** Record in `db` what it was built from: `fp` is the inputs' fingerprint, taken as they were loaded. */
export async function writeMeta(
  db: Database,
  inputs: Inputs,
  warnings: string[],
  fp: Fingerprint,
  transcriptsNamed = false,
): Promise<Meta> {
  const meta: Meta = {
    version: packageVersion,
    layout: layout(),
    inputs,
    fingerprint: fp,
    files: fp.stamps.length,
    warnings,
    transcriptsNamed,
  };
  await db.exec(`create or replace table omg_meta (key VARCHAR, value VARCHAR)`);
  for (const [key, value] of Object.entries(meta)) {
    await db.exec(`insert into omg_meta values ($key, $value)`, { key, value: JSON.stringify(value) });
  }
  return meta;
}

export const NO_META = 'no omg_meta table that it reads';

/** Database file `file` refused as one omg-evidence did not build, for `why`. */
export const notBuiltHere = (file: string, why: string) =>
  new InputError(`${displayPath(file)}: not a database omg-evidence built (${why})`, 'build one with omg-evidence load … --db FILE');

/** Read `db`'s omg_meta: only once database-file.ts has held its definition to the layout (a plain table). */
export async function readMeta(db: Database, file: string): Promise<Meta> {
  const refused = (why: string) => notBuiltHere(file, why);
  let rows: Record<string, unknown>[];
  try {
    rows = (await db.query(`select key, value from omg_meta`)).rows;
  } catch {
    throw refused(NO_META);
  }
  // A database written before warnings were kept has none to say.
  const meta: Record<string, unknown> = { warnings: [] };
  for (const r of rows) {
    try {
      meta[String(r.key)] = JSON.parse(String(r.value));
    } catch {
      throw refused(`its omg_meta "${r.key}" is not JSON`);
    }
  }
  // A record edited by hand is refused as a whole, never read as far as it goes.
  const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');
  const inputs = meta.inputs as Inputs | null | undefined;
  const bad = [
    typeof meta.version !== 'string' && 'version',
    typeof meta.layout !== 'string' && 'layout',
    !(typeof inputs === 'object' && inputs !== null && strings(inputs.probes) && strings(inputs.transcripts)) && 'inputs',
    !(typeof meta.fingerprint === 'string' || isFingerprint(meta.fingerprint)) && 'fingerprint',
    !strings(meta.warnings) && 'warnings',
    !['undefined', 'boolean'].includes(typeof meta.transcriptsNamed) && 'transcriptsNamed',
  ].find(Boolean);
  if (bad) throw refused(`its omg_meta "${bad}" is not as load writes it`);
  return meta as unknown as Meta;
}
