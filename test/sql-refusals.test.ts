/**
 * The user's SQL: --timeout reaching DuckDB's parsing and planning.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { gatherStatements } from '../src/db/statements.js';

describe('--timeout reaches what DuckDB does not interrupt', () => {
  // DuckDB's parser and planner finish what they started, interrupt or not: a slow one is stood in for by a delay.
  const slow = <T extends object>(target: T, method: string, after: (v: unknown) => unknown = (v) => v): T =>
    new Proxy(target, {
      get(t, key) {
        const v = Reflect.get(t, key) as unknown;
        if (typeof v !== 'function') return v;
        if (key !== method) return v.bind(t);
        return async (...a: unknown[]) => {
          const got = await v.apply(t, a);
          await new Promise((r) => setTimeout(r, 1500));
          return after(got);
        };
      },
    });
  const INTERRUPTED = 'q: query interrupted after 1 s (timeout)';

  it('the deadline is armed before DuckDB splits the statements', async () => {
    const con = await (await DuckDBInstance.create(':memory:')).connect();
    await expect(gatherStatements(slow(con, 'extractStatements'), 'select 42 as x', 'q', { timeout: 1 })).rejects.toThrow(INTERRUPTED);
  });

  it('a statement prepared past the deadline fails at once, though DuckDB ignored the interrupt: it is not run', async () => {
    const con = await (await DuckDBInstance.create(':memory:')).connect();
    const ran: string[] = [];
    const watched = (p: object) =>
      new Proxy(p, {
        get(t, key) {
          const v = Reflect.get(t, key) as unknown;
          if (typeof v !== 'function') return v;
          if (key === 'run' || key === 'stream') ran.push(key);
          return v.bind(t);
        },
      });
    const box = new Proxy(con, {
      get(t, key) {
        const v = Reflect.get(t, key) as unknown;
        if (key === 'extractStatements')
          return async (sql: string) => slow(await t.extractStatements(sql), 'prepare', (p) => watched(p as object));
        return typeof v === 'function' ? v.bind(t) : v;
      },
    });
    await expect(gatherStatements(box, 'select 42 as x', 'q', { timeout: 1 })).rejects.toThrow(INTERRUPTED);
    expect(ran).toEqual([]);
  });
});
