/**
 * Progress of a long load, on stderr, only when stderr is a terminal: files and bytes done and the
 * rate, redrawn in place and cleared at the end. Nothing at all is printed otherwise.
 */
import type { IO } from './io.js';
import type { Progress } from '../evidence.js';

const MB = 1024 * 1024;

/**
 * One progress line: `reading transcripts: 41% · ~605 of 1,476 files · 231 of 564 MB · 97 MB/s`;
 * in KB under 10 MB, where MB would round to "0 of 0".
 */
export function progressLine(p: Progress, seconds: number): string {
  const [unit, size] = p.bytes < 10 * MB ? ['KB', 1024] : ['MB', MB];
  const done = p.bytes * p.fraction;
  const rate = seconds > 0 ? done / size / seconds : 0;
  const n = (bytes: number) => Math.round(bytes / size).toLocaleString('en-US');
  return (
    `reading transcripts: ${Math.floor(p.fraction * 100)}% · ~${Math.round(p.files * p.fraction).toLocaleString('en-US')} of ` +
    `${p.files.toLocaleString('en-US')} files · ${n(done)} of ${n(p.bytes)} ${unit} · ${Math.round(rate).toLocaleString('en-US')} ${unit}/s`
  );
}

/** A progress callback for `io`, or undefined when stderr is not a terminal. `now` gives seconds. */
export function progressReporter(io: IO, now: () => number = () => performance.now() / 1000): ((p: Progress) => void) | undefined {
  if (!io.stderrIsTTY) return undefined;
  const start = now();
  let shown = false;
  return (p) => {
    if (p.fraction >= 1) {
      if (shown) io.stderr('\r\x1b[K');
      return;
    }
    shown = true;
    io.stderr(`\r\x1b[K${progressLine(p, now() - start)}`);
  };
}
