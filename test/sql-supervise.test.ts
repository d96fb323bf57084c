/**
 * `sql`, and the commands that run a probe's registered checks, run in a child process that the
 * process the user started stops (src/cli/supervise.ts): past --timeout or --check-timeout, over
 * the memory limit (Linux), and with it on a signal.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, binPath, probeFixture, repo } from './helpers.js';
import { supervises } from '../src/cli/supervise.js';
import { memoryBytes } from '../src/base/memory.js';

/** A value DuckDB builds in one call of a scalar function, heeding neither limit: some 1.5 GB, for 20 s or more. */
const HUGE = "select length(repeat('x', 1500000000))";
const linux = process.platform === 'linux';

/** The child's pid once the supervisor `sup` has started it (Linux: /proc's list of children). */
async function childOf(sup: ChildProcess): Promise<number> {
  for (;;) {
    const kids = readFileSync(`/proc/${sup.pid}/task/${sup.pid}/children`, 'utf8').trim();
    if (kids) return Number(kids.split(' ')[0]);
    await new Promise((ok) => setTimeout(ok, 20));
  }
}

/** Whether process `pid` has ended (a zombie no one reaps has too). */
const gone = (pid: number) => !existsSync(`/proc/${pid}`) || /^State:\s*Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));

/** Start `sql ARGS` in a process group of its own; resolves to its end and what it wrote on stderr. */
function started(args: string[]) {
  const sup = spawn(process.execPath, [binPath, 'sql', ...args], { cwd: repo, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  sup.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((done) =>
    sup.on('close', (code, signal) => done({ code, signal, stderr })),
  );
  return { sup, ended };
}

describe('sql: the process running the query is stopped when DuckDB does not stop', () => {
  it('past --timeout and its grace: one line, exit 1, nothing on stdout', () => {
    expect(bin(['sql', '--timeout', '1', HUGE])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'omg-evidence: <argument>: query interrupted after 1 s (--timeout); DuckDB did not stop, so the process running it was stopped 5 s later (let it run longer with --timeout SECONDS, or 0 for no limit)\n',
    });
  }, 60_000);

  it.runIf(linux)(
    'over --memory-limit: one line naming it, exit 1',
    () => {
      expect(bin(['sql', '--memory-limit', '100MB', HUGE])).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'omg-evidence: <argument>: the query took more memory than --memory-limit allows (100MB); DuckDB did not stop it, so the process running it was stopped (raise --memory-limit, or ask for less: a LIMIT, fewer columns, shorter values)\n',
      });
    },
    60_000,
  );

  it.runIf(linux)(
    'killed by a signal omg-evidence did not send (the out-of-memory killer): one line, exit 1',
    async () => {
      const { sup, ended } = started(['--timeout', '0', HUGE]);
      process.kill(await childOf(sup), 'SIGKILL');
      expect(await ended).toEqual({
        code: 1,
        signal: null,
        stderr:
          "omg-evidence: the process running the query was killed by SIGKILL, which omg-evidence did not send (the system's out-of-memory killer, perhaps) (lower --memory-limit, or ask for less: a LIMIT, fewer columns)\n",
      });
    },
    60_000,
  );

  it.runIf(linux)(
    'OMG_EVIDENCE_SQL_CHILD in the environment, even empty or 1, does not turn the bounds off (it had)',
    () => {
      for (const value of ['', '1']) {
        expect(bin(['sql', '--memory-limit', '100MB', HUGE], { env: { OMG_EVIDENCE_SQL_CHILD: value } }).stderr, value).toBe(
          'omg-evidence: <argument>: the query took more memory than --memory-limit allows (100MB); DuckDB did not stop it, so the process running it was stopped (raise --memory-limit, or ask for less: a LIMIT, fewer columns, shorter values)\n',
        );
      }
    },
    60_000,
  );

  it.runIf(linux)(
    'ended by another signal (a crash): said so, not blamed on the out-of-memory killer, exit 1',
    async () => {
      const { sup, ended } = started(['--timeout', '0', HUGE]);
      process.kill(await childOf(sup), 'SIGSEGV');
      expect(await ended).toEqual({
        code: 1,
        signal: null,
        stderr:
          "omg-evidence: the process running the query was ended by SIGSEGV, which omg-evidence did not send: a crash, or another process's signal\n",
      });
    },
    60_000,
  );

  it.runIf(linux)(
    'Ctrl-C (SIGINT to the process group) ends both, the command by SIGINT',
    async () => {
      const { sup, ended } = started(['--timeout', '0', HUGE]);
      const child = await childOf(sup);
      process.kill(-sup.pid!, 'SIGINT');
      expect(await ended).toEqual({ code: null, signal: 'SIGINT', stderr: '' });
      expect(gone(child)).toBe(true);
    },
    60_000,
  );

  it.runIf(linux)(
    'SIGTERM to the command alone (timeout(1) sends it) ends the child too',
    async () => {
      const { sup, ended } = started(['--timeout', '0', HUGE]);
      const child = await childOf(sup);
      sup.kill('SIGTERM');
      expect(await ended).toEqual({ code: null, signal: 'SIGTERM', stderr: '' });
      expect(gone(child)).toBe(true);
    },
    60_000,
  );
});

describe("a probe's registered checks: the process running them is stopped when DuckDB does not stop", () => {
  const probe = probeFixture('check-huge');
  const late = `omg-evidence: ${probe}/registration: the registered triggers and checks ran for more than 1 s in all; DuckDB did not stop them, so the process running them was stopped 5 s later (a check is one SELECT over the views, answered in moments: make it do less, or give it longer with --check-timeout SECONDS)\n`;

  it('verdict, past --check-timeout and its grace: one line naming the registration, exit 1 (it ran on, 16 s)', () => {
    expect(bin(['verdict', probe, '--check-timeout', '1'])).toEqual({ code: 1, stdout: '', stderr: late });
  }, 60_000);

  it('report --html: the same, and no file written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-sup-'));
    try {
      expect(bin(['report', probe, '--check-timeout', '1', '--html', join(dir, 'r.html')])).toEqual({ code: 1, stdout: '', stderr: late });
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  }, 60_000);

  it('the commands supervised are those that run SQL a user or a probe wrote; the child runs its command itself', () => {
    const all = ['sql', 'verdict', 'arms', 'render', 'report', 'census', 'cost', 'skills', 'agree', 'usage', 'load', 'audit'];
    expect(all.filter((c) => supervises([c], {}, undefined))).toEqual(['sql', 'verdict', 'arms', 'render', 'report']);
    expect(supervises(['verdict'], { OMG_EVIDENCE_SQL_CHILD: '1' }, {})).toBe(false);
    // After a `--`, commander runs the command all the same (it had run unsupervised); a -h may be an
    // option's value (a query file named -h, a report written to -h), which had run unsupervised too.
    for (const argv of [
      ['--', 'verdict', 'p'],
      ['sql', '-F', '-h'],
      ['report', 'p', '--html', '-h'],
      ['--', 'sql', '-h'],
    ]) {
      expect(supervises(argv, {}, undefined), argv.join(' ')).toBe(true);
    }
  });
});

it('the memory limit in bytes, as DuckDB counts them (KB, MB, … powers of 1000; KiB, MiB, … of 1024)', () => {
  expect(['100MB', '512MiB', '2GB', '1.5 GiB', '100B', '3kb', '1TB'].map(memoryBytes)).toEqual([
    1e8,
    2 ** 29,
    2e9,
    1.5 * 2 ** 30,
    100,
    3000,
    1e12,
  ]);
});
