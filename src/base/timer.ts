/**
 * A timer for a deadline that may be far off or none: setTimeout fires at once for a delay it cannot
 * hold (one past 2^31 - 1, about 24.8 days), so such a delay, or an infinite one, sets no timer.
 */

/** Call `fire` after `ms` (at once when `ms` has passed); undefined, and never, when `ms` is past setTimeout's range. */
export function timerAfter(ms: number, fire: () => void): ReturnType<typeof setTimeout> | undefined {
  return ms <= 2 ** 31 - 1 ? setTimeout(fire, Math.max(0, ms)) : undefined;
}
