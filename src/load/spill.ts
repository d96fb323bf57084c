/**
 * A load that may spill (load --db): DuckDB's temp directory beside the database file, and a small
 * memory_limit while the statements that build the tables run, so that DuckDB's buffer manager
 * writes table blocks and large intermediates there instead of holding them all in memory.
 */
import type { Database } from '../db/database.js';
import { defaultMemoryLimit } from '../db/engine.js';
import { sqlString } from '../db/sql-text.js';

/**
 * What DuckDB's memory_limit counts for one JSON reader: a buffer of twice the loader's
 * maximum_object_size (256 MiB), reserved whole though a line's bytes fill little of it, and the
 * working memory of the scan around it.
 */
const JSON_READER_MIB = 640;

/** The memory DuckDB may hold besides its JSON readers, in a load that spills. */
const BUDGET_MIB = 192;

/** How a loader runs `work` that may spill, with room for `readers` JSON readers at once (lean). */
export type Room = <T>(readers: number, work: () => Promise<T>) => Promise<T>;

/** The loads that spill: their DuckDB memory budget in MiB. */
const budgets = new WeakMap<Database, number>();

/** Spill `db`'s blocks into `dir` (which DuckDB makes) while lean() runs. */
export async function spillInto(db: Database, dir: string, budget = BUDGET_MIB): Promise<void> {
  await db.exec(`SET GLOBAL temp_directory = ${sqlString(dir)}`);
  budgets.set(db, budget);
}

/**
 * Run `work` on `db` with its memory budget plus room for `readers` JSON readers at once, in a load
 * that spills; the default limit is put back after. What DuckDB cannot fit in that (an aggregate's
 * lists do not spill) runs again under the default limit: `work` must be safe to run twice.
 */
export async function lean<T>(db: Database, readers: number, work: () => Promise<T>): Promise<T> {
  const budget = budgets.get(db);
  if (budget === undefined) return work();
  const limit = (l: string) => db.exec(`SET GLOBAL memory_limit = ${sqlString(l)}`);
  try {
    await limit(`${budget + readers * JSON_READER_MIB}MiB`);
    return await work();
  } catch (err) {
    if (!/Out of Memory Error/.test((err as Error).message)) throw err;
    await limit(defaultMemoryLimit());
    return await work();
  } finally {
    await limit(defaultMemoryLimit());
  }
}

/**
 * Hand back to the system what DuckDB's allocator kept of memory a large load freed (a pass's read
 * buffers), before the next statements take more: setting memory_limit, even to its value, flushes
 * it. A load that spills does so in lean().
 */
export async function giveBack(db: Database): Promise<void> {
  if (!budgets.has(db)) await db.exec(`SET GLOBAL memory_limit = ${sqlString(defaultMemoryLimit())}`);
}
