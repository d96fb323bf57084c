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
  let expire: (err: Error) => void = () => undefined;
  const expired = new Promise<never>((_, reject) => {
    expire = reject;
  });
  expired.catch(() => undefined);
  const timer =
    ms === undefined
      ? undefined
      : timerAfter(ms, () => {
          fire();
          expire(new Error('Interrupted'));
        });
  return { race: (p) => Promise.race([Promise.resolve(p), expired]), clear: () => clearTimeout(timer) };
}
