/**
 * `sql` runs in a child process that the process the user started supervises: DuckDB heeds its
 * timeout and memory limit only between the chunks an operator makes, and a process whose DuckDB
 * call runs on libuv's threadpool cannot even exit until it returns. The supervisor loads neither
 * DuckDB nor the CLI: it starts the child, learns from it when the query starts, and kills it
 * once it has run `--timeout` and GRACE_SECONDS more, or (on Linux) once its resident memory
 * passes `--memory-limit` and what node and the loaded tables already held.
 */
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { timerAfter } from '../base/timer.js';

/** Set in the child's environment: it runs `sql` itself, and tells its supervisor what it runs. */
export const SQL_CHILD = 'OMG_EVIDENCE_SQL_CHILD';

/** Past the timeout, what DuckDB's own interrupt and the child's own message are given before the kill. */
export const GRACE_SECONDS = 5;

/**
 * What the child may hold beyond its memory at the query's start (node, DuckDB and the loaded
 * tables) and the memory limit: the rows made JavaScript text a batch at a time, and the heap
 * growing for them. DuckDB counts neither against its limit.
 */
export const MEMORY_ALLOWANCE = 256 * 2 ** 20;

/** What the child tells its supervisor: the query starts (after the load), or has ended with its rows all handed over. */
export type ChildMessage = { kind: 'query'; source: string; timeout: number; memoryLimit: string; memoryBytes: number } | { kind: 'ended' };

/** Whether this process runs `argv` by supervising a child: `sql`, unless it is that child. */
export function supervisesSql(argv: string[], env: NodeJS.ProcessEnv = process.env, channel: unknown = process.channel): boolean {
  // The child has its supervisor's channel too: the variable alone (a user's, even empty) had turned the bounds off.
  return argv[0] === 'sql' && !(env[SQL_CHILD] === '1' && channel);
}

/** In the child: its channel does not keep it alive, and a supervisor gone (killed) takes it along. */
export function childOfSupervisor(): void {
  if (process.env[SQL_CHILD] === undefined || !process.channel) return;
  process.channel.unref();
  process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
}

/** In the child (`env` holds SQL_CHILD), tell the supervisor `message`; elsewhere (the library, tests) nothing. */
export async function tellSupervisor(env: Record<string, string | undefined>, message: ChildMessage): Promise<void> {
  const send = process.send?.bind(process);
  if (env[SQL_CHILD] === undefined || !send) return;
  await new Promise<void>((done) => send(message, undefined, undefined, () => done()));
}

/** The signals that end the command at the user's asking: passed to the child, and then end this process as they would have. */
const PASSED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** A resident set size in bytes (/proc/PID/status), undefined once it cannot be read. */
function residentBytes(pid: number): number | undefined {
  try {
    const kb = /^VmRSS:\s*(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * Run `omg-evidence ARGV` (a `sql`) in a child process, stdio shared, and resolve to its exit code,
 * or to 1 once the child was killed: past its timeout, over its memory, or by a signal this
 * process did not send (the out-of-memory killer), each said in one line on stderr.
 */
export async function superviseSql(argv: string[]): Promise<number> {
  const { spawn } = await import('node:child_process');
  // Listened for before the child exists: a signal from then on reaches it.
  const pass = (signal: NodeJS.Signals) => child.kill(signal);
  for (const s of PASSED) process.on(s, pass);
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...argv], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [SQL_CHILD]: '1' },
  });
  let killedFor: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let poll: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    clearTimeout(timer);
    clearInterval(poll);
  };
  const kill = (line: string) => {
    stop();
    killedFor ??= line;
    child.kill('SIGKILL');
  };
  child.on('message', (m: ChildMessage) => {
    stop();
    if (m.kind === 'ended') return;
    const said = `omg-evidence: ${m.source}:`;
    if (m.timeout > 0) {
      timer = timerAfter((m.timeout + GRACE_SECONDS) * 1000, () =>
        kill(
          `${said} query interrupted after ${m.timeout} s (--timeout); DuckDB did not stop, so the process running it was stopped ${GRACE_SECONDS} s later (let it run longer with --timeout SECONDS, or 0 for no limit)`,
        ),
      );
    }
    // /proc is Linux's: elsewhere the memory limit is DuckDB's alone.
    const start = process.platform === 'linux' && child.pid !== undefined ? residentBytes(child.pid) : undefined;
    if (start === undefined) return;
    const most = start + m.memoryBytes + MEMORY_ALLOWANCE;
    poll = setInterval(() => {
      if ((residentBytes(child.pid!) ?? 0) > most) {
        kill(
          `${said} the query took more memory than --memory-limit allows (${m.memoryLimit}); DuckDB did not stop it, so the process running it was stopped (raise --memory-limit, or ask for less: a LIMIT, fewer columns, shorter values)`,
        );
      }
    }, 100);
  });
  // A stderr whose reader has gone leaves nothing to tell: its error does not end this process first.
  process.stderr.on('error', () => undefined);
  const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | Error>((done) => {
    child.on('exit', (code, signal) => done({ code, signal }));
    child.on('error', (err) => done(err));
  });
  stop();
  for (const s of PASSED) process.removeListener(s, pass);
  const say = (line: string) => new Promise<number>((done) => process.stderr.write(`${line}\n`, () => done(1)));
  if (ended instanceof Error) return say(`omg-evidence: cannot start the process that runs the query (${ended.message})`);
  const { code, signal } = ended;
  if (signal === null) return code ?? 1;
  if (signal === 'SIGKILL' && killedFor) return say(killedFor);
  if ((PASSED as readonly string[]).includes(signal)) {
    // Ended as the user asked (a Ctrl-C reaches both): this process ends by the same signal, or as a shell says it.
    process.kill(process.pid, signal);
    await new Promise((wait) => setTimeout(wait, 1000));
    return 128 + constants.signals[signal];
  }
  // The out-of-memory killer sends SIGKILL; any other signal is a crash or another process's.
  if (signal === 'SIGKILL') {
    return say(
      `omg-evidence: the process running the query was killed by SIGKILL, which omg-evidence did not send (the system's out-of-memory killer, perhaps) (lower --memory-limit, or ask for less: a LIMIT, fewer columns)`,
    );
  }
  return say(
    `omg-evidence: the process running the query was ended by ${signal}, which omg-evidence did not send: a crash, or another process's signal`,
  );
}
