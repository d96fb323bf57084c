/**
 * `work` over `items`, at most `limit` at a time, their results in the items' order. When some fail,
 * the first item's error in that order is thrown, once every started item has settled (none is
 * left running), and no item after a failed one is started; one after it already running is told
 * to stop (its signal aborts), since its answer is not needed (it had not run one by one).
 */
export async function inOrder<T, R>(items: readonly T[], limit: number, work: (item: T, signal: AbortSignal) => Promise<R>): Promise<R[]> {
  const settled: PromiseSettledResult<R>[] = new Array(items.length);
  const stops = items.map(() => new AbortController());
  let next = 0;
  let failedAt = items.length;
  const worker = async () => {
    while (next < items.length && next < failedAt) {
      const i = next++;
      try {
        settled[i] = { status: 'fulfilled', value: await work(items[i]!, stops[i]!.signal) };
      } catch (reason) {
        settled[i] = { status: 'rejected', reason };
        if (i < failedAt) {
          failedAt = i;
          for (const stop of stops.slice(i + 1, next)) stop.abort();
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  const failed = settled.find((s) => s?.status === 'rejected') as PromiseRejectedResult | undefined;
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<R>).value);
}
