/**
 * Running git so that it only reads (SAFE_CONFIG, safeEnv), and as few processes as it takes:
 * starting a process from this one, with DuckDB mapped, blocks its main thread while it is copied
 * (bench/README.md, "git in one shell"), so commands that do not wait on each other run one after
 * the other in one `sh` (gitBatch), which starts its children at next to no cost.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import { InputError } from '../base/errors.js';
import { displayPath } from '../base/paths.js';
import { timerAfter } from '../base/timer.js';
import { type Repo, safeArgs, safeEnv } from './git-safe.js';

export type { Repo } from './git-safe.js';

/** One git command: its arguments, configuration given as key and value apart (GIT_CONFIG_KEY_n), and its standard input. */
export interface GitCall {
  args: string[];
  config?: [string, string][];
  input?: string;
  /** The exit status that means "nothing found" (git grep's 1): the output is then empty, where any other failure is null. */
  none?: number;
  /** Its messages (stderr) follow its output, for a command that can fail and still exit with `none` (git grep that cannot read a blob). */
  said?: boolean;
}

/** PATH's absolute folders: an empty or relative entry names the folder git runs in, the probe's, whose own `git` must not run. */
const absolutePath = (env: Record<string, string | undefined>) => (env.PATH ?? '').split(delimiter).filter(isAbsolute);

/** `name`'s absolute path, from PATH's absolute folders (looked up before any cwd is set), or null. */
export function program(name: 'git' | 'sh', env: Record<string, string | undefined> = process.env): string | null {
  for (const dir of absolutePath(env)) {
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return file;
    } catch {
      // Not there: the next folder.
    }
  }
  return null;
}

/** A word for sh, single-quoted. */
const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** Configuration given as key and value apart, as git reads it from its environment: for keys that name a filter driver, whose name may hold `=`. */
const configVars = (config: [string, string][] = []): [string, string][] => [
  ['GIT_CONFIG_COUNT', String(config.length)],
  ...config.flatMap(([k, v], i): [string, string][] => [
    [`GIT_CONFIG_KEY_${i}`, k],
    [`GIT_CONFIG_VALUE_${i}`, v],
  ]),
];

/** Seconds git may take in all, unless told otherwise: a .git/ is the probe's, and a FIFO among its files (HEAD, say) holds git for ever (a long history only long). */
export const GIT_SECONDS = 60;

/**
 * The process groups of the shells running git now, each with what to do when a signal stops it. A
 * Ctrl-C reaches this process's group only, and a git waiting on a FIFO would outlive the command:
 * the groups are stopped when it is stopped or exits. The signal then ends it as it would have,
 * unless the program that runs omg-evidence listens for it too; that program decides.
 */
const groups = new Map<number, () => void>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Gone already: its 'close' is on its way.
  }
}
function stopGroups(): void {
  for (const [g, stopped] of groups) {
    stopped();
    killGroup(g);
  }
  groups.clear();
  listening(false);
}
function onSignal(signal: NodeJS.Signals): void {
  stopGroups();
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}
function listening(on: boolean): void {
  // First: a program's once() listener is removed before its turn, and would not be counted.
  for (const s of SIGNALS) process[on ? 'prependListener' : 'removeListener'](s, onSignal);
  process[on ? 'on' : 'removeListener']('exit', stopGroups);
}
function tracked(pid: number | undefined, stopped: () => void): () => void {
  if (pid === undefined) return () => undefined;
  if (groups.size === 0) listening(true);
  groups.set(pid, stopped);
  return () => {
    groups.delete(pid);
    if (groups.size === 0) listening(false);
  };
}

const tooLong = (cwd: string, seconds: number) =>
  new InputError(
    `${displayPath(cwd)}: git took more than ${seconds} s and was stopped`,
    "the history may be too large to read in that time, or a FIFO or a device among the files of the probe's .git/ keeps git waiting: remove it, or give the probe without its .git/",
  );

/**
 * Run `calls` in `cwd` with `env` (less ENV and BASH_ENV, which a shell would read), each one's
 * output or null when it exits non-zero; undefined when the shell itself could not run them all
 * (the caller then runs them one by one). git's stderr is dropped, as execFile's callers drop it.
 * A batch a signal stopped is an error: its git is not run again one by one.
 */
function gitBatch(
  cwd: string,
  env: NodeJS.ProcessEnv,
  calls: GitCall[],
  maxBuffer: number,
  seconds = GIT_SECONDS,
): Promise<(string | null)[] | undefined> {
  const [sh, git] = [program('sh', env), program('git', env)];
  if (sh === null || git === null) return Promise.resolve(undefined);
  // Each output ends with this mark and its exit status: no output can hold a mark it cannot know.
  const mark = `omg-${randomBytes(16).toString('hex')}-`;
  const lines = calls.map((c) => {
    const vars = configVars(c.config)
      .map(([k, v]) => `${k}=${quote(v)}`)
      .join(' ');
    const run = `${vars} ${quote(git)} ${c.args.map(quote).join(' ')} ${c.said ? '2>&1' : '2>/dev/null'}`;
    const command = c.input === undefined ? `${run} </dev/null` : `printf '%s' ${quote(c.input)} | ${run}`;
    return `${command}; printf '%s%d\\n' ${quote(mark)} "$?"\n`;
  });
  const { ENV: _e, BASH_ENV: _b, ...rest } = env;
  const shellEnv = { ...rest, PATH: absolutePath(env).join(delimiter) };
  return new Promise((done, fail) => {
    let late = false;
    const out: Buffer[] = [];
    let size = 0;
    // A process group of its own (spawn's `detached`; execFile leaves it out), so that a git the
    // shell waits on is stopped with it.
    const child = spawn(sh, ['-s'], { cwd, env: shellEnv, detached: true, stdio: ['pipe', 'pipe', 'ignore'] });
    let signalled = false;
    const untrack = tracked(child.pid, () => {
      signalled = true;
    });
    const stopAll = () => killGroup(child.pid!);
    const timer = timerAfter(seconds * 1000, () => {
      late = true;
      stopAll();
    });
    child.stdout.on('data', (b: Buffer) => {
      size += b.length;
      if (size > maxBuffer) stopAll();
      else out.push(b);
    });
    child.on('error', () => {
      clearTimeout(timer);
      untrack();
      done(undefined);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      untrack();
      if (late) return fail(tooLong(cwd, seconds));
      if (signalled) return fail(new InputError(`${displayPath(cwd)}: git was stopped by a signal`, 'run it again'));
      if (code !== 0 || size > maxBuffer) return done(undefined);
      const all = Buffer.concat(out);
      const results: (string | null)[] = [];
      let at = 0;
      for (let k = 0; k < calls.length; k++) {
        const end = all.indexOf(mark, at, 'latin1');
        if (end < 0) return done(undefined);
        const eol = all.indexOf('\n', end);
        const status = all.toString('latin1', end + mark.length, eol);
        const ok = status === '0' || status === String(calls[k]!.none);
        results.push(ok ? all.toString('utf8', at, end) : null);
        at = eol + 1;
      }
      done(at === all.length ? results : undefined);
    });
    // A shell that exits before it has read the script says so by its exit status.
    child.stdin.on('error', () => undefined);
    child.stdin.end(lines.join(''));
  });
}

/**
 * safe.directory from the user's own system and global config: the one key kept from them, so a
 * repository another user owns (a container's volume, a CI checkout) reads as it did. Reading
 * config runs no program.
 */
export async function trustedDirectories(): Promise<string[]> {
  const scopes = ['--system', '--global'].map((scope) => ['config', scope, '--get-all', 'safe.directory']);
  const outs =
    (await gitBatch(
      tmpdir(),
      process.env,
      scopes.map((args) => ({ args })),
      MAX_OUTPUT,
    )) ?? (await Promise.all(scopes.map((args) => execGit(tmpdir(), process.env, args))));
  return outs.flatMap((out) => (out ?? '').split('\n').filter(Boolean));
}

/** One git process: its output, or null when it fails. git reads only `input`: its stdin is closed after it. */
function execGit(
  cwd: string,
  env: NodeJS.ProcessEnv,
  args: string[],
  input = '',
  seconds = GIT_SECONDS,
  call: Pick<GitCall, 'none' | 'said'> = {},
): Promise<string | null> {
  const git = program('git', env);
  if (git === null) return Promise.resolve(null);
  return new Promise((done, fail) => {
    const options = {
      cwd,
      encoding: 'utf8' as const,
      env: { ...env, PATH: absolutePath(env).join(delimiter) },
      maxBuffer: MAX_OUTPUT,
      timeout: seconds * 1000,
      killSignal: 'SIGKILL' as const,
    };
    const child = execFile(git, args, options, (err, out, said) => {
      if (err?.killed && err.signal === 'SIGKILL') return fail(tooLong(cwd, seconds));
      const all = call.said ? out + said : out;
      done(!err ? all : call.none !== undefined && err.code === call.none ? (call.said ? said : '') : null);
    });
    // A git that exits before it has read its input (EPIPE) says so by its exit status.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input);
  });
}

const MAX_OUTPUT = 256 * 1024 * 1024;

/** Several read-only git commands (safeArgs, safeEnv), in one shell (gitBatch), or one by one when no shell can. */
export async function gitAll(repo: Repo, calls: GitCall[], seconds = GIT_SECONDS): Promise<(string | null)[]> {
  const safe = safeArgs(repo);
  const batch = await gitBatch(
    repo.cwd,
    safeEnv({}),
    calls.map((c) => ({ ...c, args: [...safe, ...c.args] })),
    MAX_OUTPUT,
    seconds,
  );
  return (
    batch ??
    Promise.all(
      calls.map((c) => execGit(repo.cwd, safeEnv(Object.fromEntries(configVars(c.config))), [...safe, ...c.args], c.input, seconds, c)),
    )
  );
}

/** `git <args> -- <file>` for each of `files`, in one shell as gitAll runs them. */
export function gitEach(repo: Repo, args: string[], files: string[]): Promise<(string | null)[]> {
  return gitAll(
    repo,
    files.map((f) => ({ args: [...args, '--', f] })),
  );
}
