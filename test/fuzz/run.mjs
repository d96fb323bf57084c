/**
 * `npm run fuzz [-- --runs N] [--seed N] [--path P] [--no-shared] [--keep] [--verbose]`: the suite's fuzz
 * property (test/fuzz.test.ts) for longer: FUZZ_RUNS cases (default 500), no time cap, a failure shrunk
 * to a smallest case, and ../shared's sample transcripts in the pool when they are there. The options
 * and the FUZZ_* variables are the same knobs; an option wins.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const repo = resolve(import.meta.dirname, '..', '..');
const { values } = parseArgs({
  options: {
    runs: { type: 'string' },
    seed: { type: 'string' },
    path: { type: 'string' },
    'no-shared': { type: 'boolean' },
    keep: { type: 'boolean' },
    verbose: { type: 'boolean' },
  },
});

const env = { ...process.env, FUZZ_LONG: '1' };
env.FUZZ_RUNS = values.runs ?? env.FUZZ_RUNS ?? '500';
if (values.seed !== undefined) env.FUZZ_SEED = values.seed;
if (values.path !== undefined) env.FUZZ_PATH = values.path;
if (values.keep) env.FUZZ_KEEP = '1';
if (values.verbose) env.FUZZ_VERBOSE = '1';
const samples = join(repo, '..', 'shared', 'samples', 'claude-code', 'transcripts');
env.FUZZ_SHARED ??= !values['no-shared'] && existsSync(samples) ? '1' : '0';
if (values['no-shared']) env.FUZZ_SHARED = '0';

const vitest = join(repo, 'node_modules', 'vitest', 'vitest.mjs');
const r = spawnSync(process.execPath, [vitest, 'run', 'test/fuzz.test.ts', '-t', 'fuzz: mutated probes'], {
  cwd: repo,
  env,
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
