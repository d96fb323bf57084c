/**
 * Imported first by bin.ts: DuckDB starts the in-memory database on a worker thread while the rest
 * of the CLI loads and parses its arguments (Database.prestart).
 */
import { Database } from './db.js';

Database.prestart();
