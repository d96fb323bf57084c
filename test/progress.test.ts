/** Progress of long loads: on a terminal only, redrawn in place, cleared at the end. */
import { describe, expect, it } from 'vitest';
import type { IO } from '../src/cli/io.js';
import { progressLine, progressReporter } from '../src/cli/progress.js';
import { join } from 'node:path';
import { cli, shared, withoutShared } from './helpers.js';

const io = (tty: boolean) => {
  const out = { text: '' };
  const value: IO = {
    stdout: () => {},
    stderr: (t) => {
      out.text += t;
    },
    stdoutIsTTY: false,
    stderrIsTTY: tty,
    env: {},
  };
  return { io: value, out };
};

/** A progress reporter on a terminal, with a clock the test sets, and what it printed. */
const reporter = () => {
  const { io: t, out } = io(true);
  const clock = { now: 10 };
  return { report: progressReporter(t, () => clock.now)!, clock, out };
};

describe('progress', () => {
  it('says files and bytes done, and the rate', () => {
    expect(progressLine({ files: 1476, bytes: 564 * 1024 * 1024, fraction: 0.41 }, 2)).toBe(
      'reading transcripts: 41% · ~605 of 1,476 files · 231 of 564 MB · 116 MB/s',
    );
  });

  it('counts in KB under 10 MB (the bundled probe had read "0 of 0 MB")', () => {
    expect(progressLine({ files: 27, bytes: 376_832, fraction: 0.83 }, 0.5)).toBe(
      'reading transcripts: 83% · ~22 of 27 files · 305 of 368 KB · 611 KB/s',
    );
  });

  it('prints nothing when stderr is not a terminal', () => {
    expect(progressReporter(io(false).io)).toBeUndefined();
  });

  it('on a terminal, redraws one line and clears it when the load ends', () => {
    const { report, clock, out } = reporter();
    clock.now = 11;
    report({ files: 10, bytes: 10 * 1024 * 1024, fraction: 0.5 });
    report({ files: 10, bytes: 10 * 1024 * 1024, fraction: 1 });
    expect(out.text).toBe('\r\x1b[Kreading transcripts: 50% · ~5 of 10 files · 5 of 10 MB · 5 MB/s\r\x1b[K');
  });

  const samples = join(shared, 'samples', 'claude-code', 'transcripts');
  it.skipIf(withoutShared(samples, 'progress.test.ts: a census of the samples piped to a file'))(
    'a census of transcripts piped to a file writes nothing on stderr',
    async () => {
      const run = await cli(['census', '--transcripts', '../shared/samples/claude-code/transcripts', '--format', 'csv']);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
    },
  );
});
