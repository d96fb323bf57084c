/**
 * Starting DuckDB ahead of need. node-api's own binding (@duckdb/node-bindings, the package
 * node-api is built on, pinned to the same version) can open an in-memory database before the
 * CLI's bundle, node-api's JavaScript included (~25 ms), has loaded: DuckDB then starts on a
 * worker thread while it loads (startEarly, called by prestart.ts). Database.open takes it.
 */
import { createRequire } from 'node:module';
import type * as Bindings from '@duckdb/node-bindings';

/** Every database's options: no temp directory, and no extension installed or loaded behind our back. */
export const INSTANCE_OPTIONS: Readonly<Record<string, string>> = {
  temp_directory: '',
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
};

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
