/** Shared test helpers: run the CLI in-process or as the real bin, and find fixtures. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach } from 'vitest';
import { main } from '../src/cli/main.js';
import type { IO } from '../src/cli/io.js';

export const repo = resolve(import.meta.dirname, '..');
export const fixtures = join(repo, 'test', 'fixtures');
export const probeFixture = (name: string) => join('test', 'fixtures', 'probes', name);
export const shared = resolve(repo, '..', 'shared');
export const bundled = join(repo, 'evidence', '0017-staged-agent-restores-layer-1');
/** The bundled probe's 12 arms, in registration order (the ADR's result table). */
export const BUNDLED_ARMS = [
  'T-REF',
  'K-CEIL',
  'K-POS',
  'K-RES',
  'K-NEG',
  'K-SKILL-POS',
  'K-COLLIDE',
  'K-UPONLY',
  'K-REPO-N',
  'K-REPO-D',
  'K-FM',
  'K-FM-GIT',
];

/**
 * Whether a test that reads `path` under ../shared must skip: when it is absent, and CI is not
 * set. It says which test and why on stdout. With CI=true the test runs, and fails on the absence.
 */
export function withoutShared(path: string, test: string): boolean {
  if (existsSync(path) || process.env.CI === 'true') return false;
  console.log(`skipped: ${test}: ${path} is absent (the shared folder sits beside the clone; with CI=true its absence fails)`);
  return true;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the CLI in this process, with captured output. Paths in messages are relative to the repo. */
export async function cli(args: string[], opts: { tty?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const io: IO = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    stdoutIsTTY: opts.tty ?? false,
    stderrIsTTY: false,
    env: { NO_COLOR: '1', ...opts.env },
  };
  const cwd = process.cwd();
  process.chdir(repo);
  try {
    const code = await main(args, io);
    return { code, stdout, stderr };
  } finally {
    process.chdir(cwd);
  }
}

/** The executable package.json names (built into dist/ by `npm run build`). */
export const binPath = join(
  repo,
  (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['omg-evidence']!,
);

/**
 * Run the built bin in a child process. One that has not ended in two minutes is killed (code -1):
 * a test of what must not hang fails, where a hang would stop the whole suite.
 */
export function bin(args: string[], opts: { input?: string | Buffer; cwd?: string; env?: NodeJS.ProcessEnv } = {}): Run {
  const r = spawnSync(process.execPath, [binPath, ...args], {
    cwd: opts.cwd ?? repo,
    input: opts.input,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...opts.env },
    timeout: 120_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const root = process.getuid?.() === 0;
/** Whether `unprivileged` can run the bin as a user who is not root (as root, it needs setpriv). */
export const canDrop = !root || spawnSync('setpriv', ['--version']).status === 0;

/** The bin run in `cwd` by a user who is not root (as root: nobody), as `bin` runs it: a mode-000 file is unreadable only so. */
export function unprivileged(args: string[], cwd: string): Run {
  const drop = root ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [];
  const [cmd, ...rest] = [...drop, process.execPath, binPath, ...args];
  const r = spawnSync(cmd!, rest, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A maker of temporary folders named `prefix…`, each removed after the test that made it. */
export function tempFolders(prefix: string): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const t of made.splice(0)) rmSync(t, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
