/**
 * A timer for a deadline that may be far off or none: setTimeout fires at once for a delay it cannot
 * hold (one past 2^31 - 1, about 24.8 days), so such a delay, or an infinite one, sets no timer.
 */

/** Call `fire` after `ms` (at once when `ms` has passed); undefined, and never, when `ms` is past setTimeout's range. */
export function timerAfter(ms: number, fire: () => void): ReturnType<typeof setTimeout> | undefined {
  return ms <= 2 ** 31 - 1 ? setTimeout(fire, Math.max(0, ms)) : undefined;
}

/**
 * A deadline of `ms` (none when undefined or past setTimeout's range): `fire` is called then, and
 * `race(p)` rejects with an Error('Interrupted') from then on if `p` has not settled, so that what
 * waits on something else (a slow reader of stdout) is stopped too, not only DuckDB.
 */
export function deadline(ms: number | undefined, fire: () => void): { race<T>(p: T | Promise<T>): Promise<T>; clear(): void } {
  let expired = false;
  // Only the races still waiting: Promise.race with one promise that never settles had kept every
  // value raced (each chunk of a streamed result) until the deadline, or for ever.
  const waiting = new Set<(err: Error) => void>();
  const timer =
    ms === undefined
      ? undefined
      : timerAfter(ms, () => {
          expired = true;
          fire();
          for (const reject of waiting) reject(new Error('Interrupted'));
          waiting.clear();
        });
  const race = <T>(p: T | Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (expired) return reject(new Error('Interrupted'));
      waiting.add(reject);
      Promise.resolve(p).then(
        (value) => {
          waiting.delete(reject);
          resolve(value);
        },
        (err: unknown) => {
          waiting.delete(reject);
          reject(err);
        },
      );
    });
  return { race, clear: () => clearTimeout(timer) };
}
