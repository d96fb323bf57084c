/**
 * Work this process may be unable to stop, told to a supervisor that can stop the process
 * (cli/supervise.ts): DuckDB heeds its interrupt and memory limit only between the chunks an
 * operator makes, and its planner heeds neither. `sql`'s query and a probe's registered checks run
 * so. Without a supervisor (the library, tests) the work only runs.
 */

/** Past its time, what DuckDB's own interrupt and the process's own message are given before the kill. */
export const GRACE_SECONDS = 5;

/** How long, and in how much memory, a piece of work may run before its process is stopped. */
export interface Bound {
  /** Seconds it may run (0: no limit); the supervisor stops the process GRACE_SECONDS later. */
  seconds: number;
  /** The memory it may take beyond what the process holds when it starts, in bytes. */
  memoryBytes: number;
  /** What stderr says when the process was stopped past its time, and over its memory. */
  late: string;
  over: string;
}

/** What a supervised process tells its supervisor: a piece of work starts, or has ended. */
export type SupervisorMessage = ({ kind: 'watch'; id: number } & Bound) | { kind: 'unwatch'; id: number };

let tell: ((message: SupervisorMessage) => Promise<void>) | undefined;
let next = 0;

/** Tell `to` of each bounded piece of work from now on (the CLI's child, once). */
export function reportTo(to: (message: SupervisorMessage) => Promise<void>): void {
  tell = to;
}

/** Run `work`, its supervisor (if any) told of it from its start to its end. */
export async function bounded<T>(bound: Bound, work: () => Promise<T>): Promise<T> {
  const to = tell;
  if (!to) return work();
  const id = next++;
  await to({ kind: 'watch', id, ...bound });
  try {
    return await work();
  } finally {
    await to({ kind: 'unwatch', id });
  }
}
