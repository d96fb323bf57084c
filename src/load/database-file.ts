/**
 * Persisted databases: what a database file was built from, and whether that still holds. The
 * inputs are the probe directories and the transcript folders; the database records them and its
 * input files' fingerprint (fingerprint.ts) in its omg_meta (meta.ts). A database whose recorded inputs differ from the ones
 * named, whose files changed since, or whose tables or record of its files are laid out otherwise
 * than this build's (one built by an older omg-evidence), is refused.
 */
import { closeSync, existsSync, readSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { checkPath } from '../base/path-given.js';
import { Database } from '../db/database.js';
import { randomBytes } from 'node:crypto';
import { InputError } from '../base/errors.js';
import { folderStays, refuseInsideEvidence, refuseInsideProbe } from '../base/replace-file.js';
import { displayPath, namedFile, packageVersion } from '../base/paths.js';
import { statThere } from '../base/io-error.js';
import { filesChanged, fingerprinting, isFingerprint, loadedAsListed, openFile, unmovedSince } from './fingerprint.js';
import { layout, type Meta, NO_META, notBuiltHere, readMeta, writeMeta } from './meta.js';
import { type Inputs, namedInputs } from './inputs.js';
import { type LoadInputsOptions, loadInputs, type OpenOptions } from './open.js';
import { lean } from './spill.js';
import { layoutDiffers, notBuilt, readCatalog } from './database-catalogue.js';

/**
 * `db`'s record (omg_meta), what its catalog holds that load does not build, and how its tables differ
 * from what this build's load makes (database-catalogue.ts). The catalog is read first, which runs
 * none of the file's SQL: omg_meta is read only as a table laid out as load makes it, never as a view
 * or through a generated column, whose SQL would run unbounded (meta is null when it is not read). A
 * file an older omg-evidence built (its record says so) is laid out as that one made it: staleness says so.
 */
async function catalogDiffers(db: Database, file: string): Promise<{ meta: Meta | null; added: string[]; altered: string | null }> {
  const catalog = await readCatalog(db);
  if (!catalog.some((e) => e.name === 'main.omg_meta' || e.name === 'view main.omg_meta')) throw notBuiltHere(file, NO_META);
  const added = notBuilt(catalog);
  const record = layoutDiffers(catalog, ['main.omg_meta']);
  if (added.length || record) return { meta: null, added, altered: record };
  const meta = await readMeta(db, file);
  const ours = meta.version === packageVersion && meta.layout === layout();
  return { meta, added, altered: ours ? layoutDiffers(catalog) : null };
}

/** Whether regular file `path` starts as a DuckDB database does: "DUCK" at bytes 8 to 11. */
function isDuckDbFile(path: string): boolean {
  const head = Buffer.alloc(12);
  const fd = openFile(path);
  try {
    return readSync(fd, head, 0, 12, 0) === 12 && head.toString('latin1', 8, 12) === 'DUCK';
  } finally {
    closeSync(fd);
  }
}

/**
 * Open the DuckDB database at `real` (the real path of `file`, so that DuckDB's sealed file access
 * allows its .wal beside it), read-only; what DuckDB says of a file it cannot open names `file`.
 */
async function openReadOnly(file: string, real: string, memoryLimit?: string): Promise<Database> {
  try {
    return await Database.open({ file: real, readOnly: true, memoryLimit });
  } catch (err) {
    const said = ((err as Error).cause as Error | undefined)?.message ?? (err as Error).message;
    throw new InputError(`${displayPath(file)}: ${said.split('\n')[0]}`, 'is it a DuckDB database that no other process holds open?', {
      cause: err,
    });
  }
}

/**
 * Refuse `file` when a write-ahead log is beside it (at `real`): load leaves none, so it holds writes made
 * after load, which DuckDB replays as it opens the file, though the file's own bytes are as load wrote them.
 */
function refuseLog(file: string, real: string, said: (log: string) => string, hint: string): void {
  if (!existsSync(`${real}.wal`)) return;
  throw new InputError(
    `${displayPath(file)}: ${said(`a write-ahead log beside it (${displayPath(`${file}.wal`)}) holds writes made after load`)}`,
    hint,
  );
}

const same = (a: string[], b: string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

/**
 * Why `meta` cannot serve `named` (the inputs a command was given), or null when it can. Named
 * probes must be exactly the recorded ones; named transcripts, when a command needs them, too.
 * `exact` (for `load`): a file whose mtime changed counts as changed even when its content did not,
 * so that load rebuilds the database and later commands read only the file's edges again.
 */
export function staleness(meta: Meta, named: Partial<Inputs>, exact = false, own = false): string | null {
  if (meta.version !== packageVersion) return `it was built by omg-evidence ${meta.version}, this is ${packageVersion}`;
  if (meta.layout !== layout()) return 'its tables are laid out as an older omg-evidence made them';
  if (!isFingerprint(meta.fingerprint)) return 'it records its input files as an older omg-evidence did';
  if (named.probes && !same(named.probes, meta.inputs.probes)) {
    const built = meta.inputs.probes.map(displayPath).join(', ') || 'no probe';
    return `it was built from ${built}, ${named.probes.length ? `not ${named.probes.map(displayPath).join(', ')}` : 'and no probe is named'}`;
  }
  if (named.transcripts && !same(named.transcripts, meta.inputs.transcripts)) {
    return meta.inputs.transcripts.length
      ? `it was built from the transcripts in ${meta.inputs.transcripts.map(displayPath).join(', ')}, not ${named.transcripts.map(displayPath).join(', ')}`
      : 'it was built without transcripts';
  }
  // A folder that held no file is recorded by no stamp: that it is gone shows only here.
  const gone = [...meta.inputs.probes, ...meta.inputs.transcripts].find((p) => !existsSync(p));
  if (gone) return `${displayPath(gone)} was removed since it was built`;
  // For a command that reads the probes' own transcripts, from a database built from them (load's
  // default) or from none: a probe's transcripts/ made since would be read without --db.
  const mine = meta.inputs.probes.map((p) => join(p, 'transcripts'));
  const foreign = meta.inputs.transcripts.some((t) => !mine.includes(t));
  // From others (--transcripts DIR): without --db the command reads the probes' own, once one has any.
  const now = mine.filter((t) => existsSync(t));
  if (own && foreign && now.length) return staleness(meta, { transcripts: now });
  if (own && !foreign) {
    const added = mine.find((t) => !meta.inputs.transcripts.includes(t) && existsSync(t));
    const named = meta.inputs.transcripts.map(displayPath).join(', ');
    if (added && meta.transcriptsNamed)
      return `it was built with --transcripts ${named}, not from each probe's own transcripts/ (${displayPath(added)} too)`;
    if (added) return `${displayPath(added)} was added since it was built`;
  }
  return filesChanged(meta.fingerprint, meta.inputs, exact);
}

/**
 * When the file is current but other inputs are named, what to name instead: a rebuild, which the
 * hint had said, would only make a file for these inputs (`usage --db F` names ~/.claude/projects).
 */
function builtFrom(meta: Meta, named: Partial<Inputs>): string | undefined {
  const other = (k: 'probes' | 'transcripts') => named[k] !== undefined && !same(named[k], meta.inputs[k]);
  if (staleness(meta, {}) || !(other('probes') || other('transcripts'))) return undefined;
  const given = meta.transcriptsNamed ? meta.inputs.transcripts.map((t) => `--transcripts ${displayPath(t)}`) : [];
  const inputs = [...meta.inputs.probes.map(displayPath), ...given].join(' ') || 'no input';
  return `name what it was built from beside --db FILE: ${inputs}; or load these inputs into another file`;
}

/**
 * Build database file `file` from `inputs`: loaded in memory, then copied into a file beside it
 * (Database.copyTo) and renamed into place. Returns false, writing nothing, when `file` is already
 * current (unless `options.force`).
 */
export async function buildDatabaseFile(
  inputs: Inputs,
  path: string,
  options: LoadInputsOptions & Pick<OpenOptions, 'transcripts'> & { force?: boolean },
): Promise<boolean> {
  const file = resolve(checkPath('the database file', path));
  const folder = dirname(file);
  const there = statThere(folder);
  if (!there) throw new InputError(`${displayPath(folder)}: no such folder`, 'make it first, or give --db a file in a folder that exists');
  if (!there.isDirectory()) throw new InputError(`${displayPath(folder)}: not a folder`, 'give --db a file in a folder');
  if (statThere(file)?.isDirectory()) {
    throw new InputError(`${displayPath(file)}: is a folder, not a database file`, 'give --db the path of a file');
  }
  refuseInsideEvidence(file, [...inputs.probes, ...inputs.transcripts], 'the database');
  refuseInsideProbe(file, 'the database');
  const stays = folderStays(file);
  const real = namedFile(file, 'a database file');
  if (real && !options.force) {
    const notOurs = new InputError(
      `${displayPath(file)}: not a database omg-evidence built, so it is left as it is`,
      'name another file, or give --force to replace it',
    );
    if (!isDuckDbFile(real)) throw notOurs;
    // Writes made after load, as a table added is: every --db command refuses it.
    refuseLog(file, real, (log) => `${log}, so it is left as it is`, 'name another file, or give --force to replace it');
    const db = await openReadOnly(file, real);
    try {
      // Someone's own DuckDB database is never replaced unasked.
      const { meta, added, altered } = (await catalogDiffers(db, file).catch(() => null)) ?? { meta: null, added: [], altered: null };
      // A table, view or macro someone added to it is theirs: the file is not replaced unasked, and
      // it is not current either (a command would refuse to read it).
      // So is a table someone altered (a column's type or collation): the rows read otherwise.
      const theirs = added.length ? `holds what omg-evidence did not build (${added.join(', ')})` : altered;
      if (theirs) {
        throw new InputError(`${displayPath(file)}: ${theirs}, so it is left as it is`, 'name another file, or give --force to replace it');
      }
      if (!meta) throw notOurs;
      if (staleness(meta, inputs, true) === null) return false;
    } finally {
      db.close();
    }
  }
  // Through a symbolic link, the file it points at is replaced, not the link.
  const target = real ?? file;
  // A name of its own: a file already at a name this run could guess is someone else's, never
  // removed (nor opened by DuckDB as a database to copy into).
  // Its temporary file and DuckDB's spill folder add 40 bytes to the name, of the 255 a name may have.
  if (Buffer.byteLength(basename(target)) > 215) {
    throw new InputError(
      `${displayPath(file)}: the name is too long for the temporary file load writes beside it`,
      'give --db a name of at most 215 bytes',
    );
  }
  const tmp = `${target}.omg-evidence-${randomBytes(8).toString('hex')}.tmp`;
  // DuckDB's temp directory for this load: it is left behind when the in-memory database is not closed.
  const spill = `${tmp}.spill`;
  // The copy and its WAL: removed before a copy is made again, and with the spill folder when the load fails.
  const uncopy = () => {
    rmSync(tmp, { force: true });
    rmSync(`${tmp}.wal`, { force: true });
  };
  const clean = () => {
    uncopy();
    rmSync(spill, { recursive: true, force: true });
  };
  try {
    // Hashed while DuckDB loads them (fingerprinting says how an edit meanwhile is caught).
    const stop = new AbortController();
    const { loaded: listed, fingerprint: hashing } = fingerprinting(inputs, stop.signal);
    hashing.catch(() => undefined);
    let loaded: Awaited<ReturnType<typeof loadInputs>>;
    try {
      loaded = await loadInputs(inputs, { ...options, spill });
    } catch (err) {
      stop.abort();
      throw err;
    }
    try {
      const fp = await hashing;
      unmovedSince(fp, inputs);
      const built = await loaded.db.query('select abs from source_files union all select abs from transcript_files');
      loadedAsListed(
        listed,
        built.rows.map((r) => String(r.abs)),
      );
      await writeMeta(loaded.db, inputs, loaded.warnings, fp, typeof options.transcripts === 'string');
      // In the load's small memory limit, DuckDB writes the copied blocks out instead of holding them;
      // a copy that runs out of it is made again from the start (spill.ts).
      const db = loaded.db;
      stays();
      await lean(db, 0, async () => {
        uncopy();
        await db.copyTo(tmp);
      });
    } finally {
      loaded.db.close();
    }
    rmSync(spill, { recursive: true, force: true });
    rmSync(`${target}.wal`, { force: true });
    // The folder as it was checked, right before the file goes into place (folderStays).
    stays();
    renameSync(tmp, target);
  } catch (err) {
    // A failed build leaves nothing behind, and the file it would have replaced untouched.
    clean();
    throw err;
  }
  return true;
}

/**
 * Open database file `file` read-only for the named inputs (`--db FILE`), refusing it when it was
 * built from other inputs or they changed, and repeating the warnings its load gave.
 */
export async function openDatabaseFile(
  file: string,
  paths: string[],
  options: Pick<OpenOptions, 'transcripts' | 'ownTranscripts' | 'memoryLimit' | 'onWarning'>,
  probesDefault: boolean,
): Promise<{ db: Database; meta: Meta }> {
  const rebuild = 'rebuild it with omg-evidence load … --db FILE, naming the same probes and transcripts';
  // A file written to after load is not rebuilt unasked (it may hold someone's work): --force.
  const rebuildForce = 'rebuild it with omg-evidence load … --db FILE --force, naming the same probes and transcripts';
  const real = namedFile(file, 'a database file');
  if (!real)
    throw new InputError(
      `${displayPath(file)}: no such database`,
      'build it first: omg-evidence load [PROBE...] [--transcripts DIR] --db FILE',
    );
  if (!isDuckDbFile(real))
    throw new InputError(`${displayPath(file)}: not a DuckDB database file`, 'give --db a file that omg-evidence load built');
  refuseLog(file, real, (log) => `cannot be used: ${log}`, rebuildForce);
  const db = await openReadOnly(file, real, options.memoryLimit);
  try {
    const { meta, added, altered } = await catalogDiffers(db, file);
    if (added.length) {
      throw new InputError(`${displayPath(file)}: cannot be used: it holds what load did not build (${added.join(', ')})`, rebuildForce);
    }
    // No record read (meta null) comes with something added or altered.
    if (altered || !meta)
      throw new InputError(`${displayPath(file)}: cannot be used: ${altered ?? 'its omg_meta was not read'}`, rebuildForce);
    // Before staleness: with no probe recorded, the transcripts a command would name are none.
    if (probesDefault && meta.inputs.probes.length === 0 && paths.length === 0) {
      throw new InputError(
        `${displayPath(file)}: holds no probe, only the transcripts in ${meta.inputs.transcripts.map(displayPath).join(', ')}`,
        options.transcripts === undefined
          ? // The load layer does not know the command: verdict, arms and cost take no --transcripts.
            'a command that reads transcripts names them as load was given them (--transcripts DIR --db FILE); one that reads a probe needs one loaded with them (omg-evidence load PROBE --transcripts DIR --db FILE)'
          : 'this command reads a probe: load one with them (omg-evidence load PROBE --transcripts DIR --db FILE)',
      );
    }
    // Probes named on the command line must be the recorded ones; none named means the recorded.
    const named: Partial<Inputs> = {};
    if (paths.length || (!probesDefault && options.transcripts !== undefined)) named.probes = namedInputs(paths, undefined, false).probes;
    // A command that reads the probes' own transcripts, from a file built without any: what the probe's
    // folder holds now is not the question (its hint, --transcripts DIR, would meet the next refusal).
    if (options.transcripts === true && meta.inputs.transcripts.length === 0) {
      throw new InputError(
        `${displayPath(file)}: cannot be used: it was built without transcripts, which this command reads`,
        'rebuild it with them: omg-evidence load PROBE --transcripts DIR --db FILE, DIR the folder of its session files',
      );
    }
    if (options.transcripts !== undefined) {
      const probes = named.probes ?? meta.inputs.probes;
      named.transcripts = namedInputs(probes, options.transcripts, false).transcripts;
    }
    const why = staleness(meta, named, false, options.ownTranscripts === true && options.transcripts === undefined);
    if (why) throw new InputError(`${displayPath(file)}: cannot be used: ${why}`, builtFrom(meta, named) ?? rebuild);
    // What loading the evidence warned of is said again: the database holds what it was built from.
    for (const w of meta.warnings) options.onWarning?.(w);
    return { db, meta };
  } catch (err) {
    db.close();
    throw err;
  }
}
