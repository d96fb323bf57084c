/**
 * Starting DuckDB ahead of need. node-api's own binding (@duckdb/node-bindings, the package
 * node-api is built on, pinned to the same version) can open an in-memory database before the
 * CLI's bundle, node-api's JavaScript included, has loaded: DuckDB then starts on a
 * worker thread while it loads (startEarly, called by prestart.ts). Database.open takes it.
 */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Bindings from '@duckdb/node-bindings';

/**
 * Every database's options: no temp directory, no extension installed or loaded behind our back,
 * and one thread. A statement over a small table runs faster on the thread that asked for it than
 * handed out to DuckDB's workers (bench/README.md, "One thread for small inputs"); a load of at least
 * PARALLEL_BYTES asks for every core (Database.useThreads).
 */
export const INSTANCE_OPTIONS: Readonly<Record<string, string>> = {
  temp_directory: '',
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
  threads: '1',
};

/** Inputs of this many bytes or more are read, and queried, on every core; smaller ones on one. */
export const PARALLEL_BYTES = 16 * 1024 * 1024;

/**
 * INSTANCE_OPTIONS for a database file: every core for one as large as an input read on every core,
 * as DuckDB counts them (its default `threads`, which heeds a container's CPU quota).
 */
export function fileOptions(file: string): Record<string, string> {
  const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  if (size < PARALLEL_BYTES) return { ...INSTANCE_OPTIONS };
  const { threads: _one, ...everyCore } = INSTANCE_OPTIONS;
  return everyCore;
}

export { defaultMemoryLimit } from '../base/memory.js';

/** The in-memory database startEarly opened, until takeEarly takes it. */
let early: Promise<Bindings.Database> | undefined;

/** Open an in-memory database with INSTANCE_OPTIONS now, for the next takeEarly. */
export function startEarly(): void {
  if (early) return;
  const bindings = createRequire(import.meta.url)('@duckdb/node-bindings') as typeof Bindings;
  const config = bindings.create_config();
  // What node-api's DuckDBInstance.create names itself to DuckDB as.
  bindings.set_config(config, 'duckdb_api', 'node-neo-api');
  for (const [name, value] of Object.entries(INSTANCE_OPTIONS)) bindings.set_config(config, name, value);
  early = bindings.open(':memory:', config);
  early.catch(() => undefined); // a failure shows where it is taken
}

/** The database startEarly opened, once; undefined when none was started or it was taken. */
export function takeEarly(): Promise<Bindings.Database> | undefined {
  const taken = early;
  early = undefined;
  return taken;
}
