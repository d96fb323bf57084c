/** Sizes of memory as DuckDB's memory_limit takes them, for DuckDB and for the process that runs `sql` (cli/supervise.ts). */
import { totalmem } from 'node:os';
import { MEMORY_SIZE } from './shapes.js';

/** DuckDB's memory_limit when none is given: a quarter of the machine's memory. */
export function defaultMemoryLimit(): string {
  return `${Math.floor(totalmem() / 4 / 2 ** 20)}MiB`;
}

/**
 * Whether `size` is one DuckDB's memory_limit takes: MEMORY_SIZE's form, under 2^64 bytes (its count; 2^64 had
 * wrapped to 0, and past it DuckDB refused the size only once the evidence had loaded).
 */
export const isMemorySize = (size: string): boolean => MEMORY_SIZE.test(size.trim()) && memoryBytes(size) < 2 ** 64;

/** The bytes of a size MEMORY_SIZE accepts, as DuckDB counts them: KB, MB, … are powers of 1000, KiB, MiB, … of 1024. */
export function memoryBytes(size: string): number {
  const [, n = '0', unit = 'B'] = /^(\d+(?:\.\d+)?)\s*(\S+)$/.exec(size.trim()) ?? [];
  if (!MEMORY_SIZE.test(size.trim())) throw new RangeError(`not a memory size: ${size}`);
  const u = unit.toUpperCase();
  const power = ' KMGT'.indexOf(u[0] === 'B' ? ' ' : u[0]!);
  return Math.floor(Number(n) * (u.includes('I') ? 1024 : 1000) ** power);
}
