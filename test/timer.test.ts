/**
 * deadline() (src/base/timer.ts): what each streamed chunk is raced with. A race must not keep the
 * value it was given once that value has settled: Promise.race with a promise that never settles had
 * kept every chunk of a result alive until the deadline, or for ever (review rev42e).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { deadline } from '../src/base/timer.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('deadline', () => {
  it('a race keeps no value it was given once it has settled, with no deadline or a far one', async () => {
    for (const ms of [undefined, 3_600_000]) {
      const limit = deadline(ms, () => undefined);
      const refs: WeakRef<object>[] = [];
      for (let i = 0; i < 50; i++) {
        const chunk = { rows: new Array(1000).fill(i) };
        refs.push(new WeakRef(chunk));
        // Not expect(): an assertion keeps its last value.
        if ((await limit.race(Promise.resolve(chunk))) !== chunk) throw new Error('raced another value');
      }
      // WeakRefs hold their target to the end of the job that made them: collect after it.
      await new Promise((done) => setImmediate(done));
      gc();
      // The last may still be held by this function's own frame; the old race kept all 50.
      expect(refs.filter((r) => r.deref() !== undefined).length, String(ms)).toBeLessThanOrEqual(1);
      limit.clear();
    }
  });

  it('past the deadline, a race still waiting rejects, and so does one begun after it', async () => {
    let fired = 0;
    const limit = deadline(10, () => fired++);
    const waiting = limit.race(new Promise(() => undefined));
    await expect(waiting).rejects.toThrow('Interrupted');
    await expect(limit.race(Promise.resolve(1))).rejects.toThrow('Interrupted');
    expect(fired).toBe(1);
  });

  it('a race settles as its promise does before the deadline', async () => {
    const limit = deadline(3_600_000, () => undefined);
    expect(await limit.race(Promise.resolve('a'))).toBe('a');
    await expect(limit.race(Promise.reject(new Error('no')))).rejects.toThrow('no');
    limit.clear();
  });
});
