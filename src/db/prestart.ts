/**
 * Imported first by bin.ts, before the modules that load node-api: DuckDB starts the in-memory
 * database on a worker thread while the rest of the CLI loads and parses its arguments
 * (engine.ts).
 */
import { startEarly } from './engine.js';

startEarly();
