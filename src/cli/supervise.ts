/**
 * `sql`, and the commands that run a probe's registered checks (verdict, arms, render, report), run
 * in a child process that the process the user started supervises: DuckDB heeds its timeout and
 * memory limit only between the chunks an operator makes, its planner heeds neither, and a process
 * whose DuckDB call runs on libuv's threadpool cannot even exit until it returns. The supervisor
 * loads neither DuckDB nor the CLI: it starts the child, learns from it when such work starts and
 * ends (base/supervision.ts), and kills it once the work has run its time and GRACE_SECONDS more,
 * or (on Linux) once its resident memory passes the work's memory and what the process already held.
 */
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { GRACE_SECONDS, reportTo, type SupervisorMessage } from '../base/supervision.js';
import { timerAfter } from '../base/timer.js';

/** Set in the child's environment: it runs the command itself, and tells its supervisor what it runs. */
export const SQL_CHILD = 'OMG_EVIDENCE_SQL_CHILD';

/** The commands run in a supervised child: those that run SQL a probe or a user wrote. */
export const SUPERVISED = ['sql', 'verdict', 'arms', 'render', 'report'];

/**
 * What the child may hold beyond its memory at the work's start (node, DuckDB and the loaded
 * tables) and the work's memory: the rows made JavaScript text a batch at a time, and the heap
 * growing for them. DuckDB counts neither against its limit.
 */
export const MEMORY_ALLOWANCE = 256 * 2 ** 20;

/** The command `argv` runs, as commander finds it: its first word, after a leading `--` too. */
const commandOf = (argv: string[]) => argv[argv[0] === '--' ? 1 : 0];

/**
 * Whether this process runs `argv` by supervising a child: a SUPERVISED command, unless it is that
 * child. Its help too: only commander's own parse tells a `-h` that asks for it from one that is an
 * option's value (`sql -F -h`), which had run unsupervised.
 */
export function supervises(argv: string[], env: NodeJS.ProcessEnv = process.env, channel: unknown = process.channel): boolean {
  if (!SUPERVISED.includes(commandOf(argv) ?? '')) return false;
  // The child has its supervisor's channel too: the variable alone (a user's, even empty) had turned the bounds off.
  return !(env[SQL_CHILD] === '1' && channel);
}

/** In the child: its channel does not keep it alive, a supervisor gone (killed) takes it along, and bounded work is told to it. */
export function childOfSupervisor(): void {
  if (process.env[SQL_CHILD] === undefined || !process.channel) return;
  process.channel.unref();
  process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
  const send = process.send!.bind(process);
  reportTo((message) => new Promise<void>((done) => send(message, undefined, undefined, () => done())));
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
 * Run `omg-evidence ARGV` in a child process, stdio shared, and resolve to its exit code, or to 1
 * once the child was killed: past the time of the work it said it runs, over its memory, or by a
 * signal this process did not send (the out-of-memory killer), each said in one line on stderr.
 */
export async function supervise(argv: string[]): Promise<number> {
  const { spawn } = await import('node:child_process');
  // Listened for before the child exists: a signal from then on reaches it.
  const pass = (signal: NodeJS.Signals) => child.kill(signal);
  for (const s of PASSED) process.on(s, pass);
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...argv], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [SQL_CHILD]: '1' },
  });
  let killedFor: string | undefined;
  // The work running now, by id: each with its timer, and the resident memory it may reach.
  const watches = new Map<number, { timer?: ReturnType<typeof setTimeout>; most?: number; over: string }>();
  let poll: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    for (const w of watches.values()) clearTimeout(w.timer);
    watches.clear();
    clearInterval(poll);
  };
  const kill = (line: string) => {
    stop();
    killedFor ??= line;
    child.kill('SIGKILL');
  };
  child.on('message', (m: SupervisorMessage) => {
    if (m.kind === 'unwatch') {
      clearTimeout(watches.get(m.id)?.timer);
      watches.delete(m.id);
      // Between two pieces of work (one probe's checks and the next's) nothing is watched.
      if (watches.size === 0) {
        clearInterval(poll);
        poll = undefined;
      }
      return;
    }
    const timer = m.seconds > 0 ? timerAfter((m.seconds + GRACE_SECONDS) * 1000, () => kill(m.late)) : undefined;
    // /proc is Linux's: elsewhere the memory limit is DuckDB's alone.
    const start = process.platform === 'linux' && child.pid !== undefined ? residentBytes(child.pid) : undefined;
    watches.set(m.id, { timer, most: start === undefined ? undefined : start + m.memoryBytes + MEMORY_ALLOWANCE, over: m.over });
    poll ??= setInterval(() => {
      const rss = residentBytes(child.pid!) ?? 0;
      for (const w of watches.values()) if (w.most !== undefined && rss > w.most) return kill(w.over);
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
  const sql = commandOf(argv) === 'sql';
  const what = sql ? 'the query' : commandOf(argv);
  if (ended instanceof Error) return say(`omg-evidence: cannot start the process that runs ${what} (${ended.message})`);
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
      `omg-evidence: the process running ${what} was killed by SIGKILL, which omg-evidence did not send (the system's out-of-memory killer, perhaps) ${sql ? '(lower --memory-limit, or ask for less: a LIMIT, fewer columns)' : '(free some memory, or read fewer transcripts)'}`,
    );
  }
  return say(
    `omg-evidence: the process running ${what} was ended by ${signal}, which omg-evidence did not send: a crash, or another process's signal`,
  );
}
