/**
 * Fuzzing lives in the suite (#15 §6): a fast-check property mutates a copy of the bundled probe and of a
 * folder of sample transcripts (test/fuzz/mutate.ts), runs census, verdict, agree and skills on it with
 * the built bin, and holds every run to test/fuzz/runner.ts's rules. The seed is printed: FUZZ_SEED=<n>
 * replays a run here or in `npm run fuzz`, which runs the same property for longer (FUZZ_RUNS, default 500).
 * Before it: the mutations on a small file, exactly, and the rules on runs that break them.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixtures } from './helpers.js';
import { mutate, mutationArb, type Mutation } from './fuzz/mutate.js';
import { caseArb, runCase, sampleFolders, violations, type Case, type RunResult } from './fuzz/runner.js';

const seed = Number(process.env.FUZZ_SEED ?? process.env.FC_SEED ?? Date.now() % 2 ** 31);
/** In the suite, about a minute on two cores; `npm run fuzz` sets FUZZ_LONG and more runs. */
const numRuns = Number(process.env.FUZZ_RUNS ?? 12);
const long = process.env.FUZZ_LONG === '1';
const path = process.env.FUZZ_PATH;
const timeoutMs = Number(process.env.FUZZ_TIMEOUT_MS ?? 20_000);
// ../shared's samples join the pool only when asked (npm run fuzz does when it is there): the suite's cases depend on the seed alone.
const withShared = process.env.FUZZ_SHARED === '1';
const folders = sampleFolders(withShared);

console.log(
  `fuzz.test.ts: fast-check seed ${seed}, ${numRuns} cases over ${folders.length} sample folders (FUZZ_SEED=${seed} FUZZ_RUNS=${numRuns}${withShared ? ' FUZZ_SHARED=1' : ''} npx vitest run test/fuzz.test.ts replays them)`,
);

describe('fuzz: the mutations', () => {
  const file = '{"a":1,"b":{"c":[1,2]}}\n{"d":"x"}\n';
  const cases: [Mutation, string][] = [
    [{ kind: 'truncate-line', line: 1, permille: 500 }, '{"a":1,"b":{"c":[1,2]}}\n{"d"\n'],
    [{ kind: 'truncate-file', permille: 500 }, '{"a":1,"b":{"c":['],
    [{ kind: 'flip-bytes', flips: [{ at: 1, mask: 1 }] }, '{#a":1,"b":{"c":[1,2]}}\n{"d":"x"}\n'],
    [{ kind: 'invalid-utf8', at: 2, seq: 0 }, '{"\xffa":1,"b":{"c":[1,2]}}\n{"d":"x"}\n'],
    [{ kind: 'nul', at: 3, count: 2 }, '{"a\0\0":1,"b":{"c":[1,2]}}\n{"d":"x"}\n'],
    [{ kind: 'crlf', line: 'all' }, '{"a":1,"b":{"c":[1,2]}}\r\n{"d":"x"}\r\n'],
    [{ kind: 'crlf', line: 1 }, '{"a":1,"b":{"c":[1,2]}}\n{"d":"x"}\r\n'],
    [{ kind: 'bom', line: 1 }, '{"a":1,"b":{"c":[1,2]}}\n\xef\xbb\xbf{"d":"x"}\n'],
    [{ kind: 'repeat-line', line: 2, times: 2 }, '{"a":1,"b":{"c":[1,2]}}\n{"a":1,"b":{"c":[1,2]}}\n{"a":1,"b":{"c":[1,2]}}\n{"d":"x"}\n'],
    [{ kind: 'drop-key', line: 0, path: [1, 0] }, '{"a":1,"b":{}}\n{"d":"x"}\n'],
    [{ kind: 'change-type', line: 0, path: [0], value: 0 }, '{"a":null,"b":{"c":[1,2]}}\n{"d":"x"}\n'],
    [{ kind: 'repeat-key', line: 0, path: [0], value: 'same' }, '{"a":1,"b":{"c":[1,2]},"a":1}\n{"d":"x"}\n'],
    [{ kind: 'repeat-key', line: 0, path: [1, 0], value: 10 }, '{"a":1,"b":{"c":[1,2],"c":"many"}}\n{"d":"x"}\n'],
    [{ kind: 'non-finite', line: 1, path: [0], literal: '-Infinity' }, '{"a":1,"b":{"c":[1,2]}}\n{"d":-Infinity}\n'],
    [{ kind: 'deep-nesting', line: 1, path: [0], shape: 'object', depth: 3 }, '{"a":1,"b":{"c":[1,2]}}\n{"d":{"a":{"a":{"a":1}}}}\n'],
    [{ kind: 'deep-nesting', line: 0, path: [1, 0, 1], shape: 'array', depth: 3 }, '{"a":1,"b":{"c":[1,[[[]]]]}}\n{"d":"x"}\n'],
    [{ kind: 'huge-value', line: 1, path: [], shape: 'array', bytes: 8 }, '{"a":1,"b":{"c":[1,2]}}\n{"d":[1,1,1,1]}\n'],
  ];
  for (const [m, want] of cases) {
    it(`${m.kind} ${JSON.stringify(m)}`, () => {
      expect(Buffer.from(mutate(Buffer.from(file, 'latin1'), m)).toString('latin1')).toBe(want);
    });
  }

  it('a JSON mutation of a file with no JSON line changes nothing; a byte mutation of an empty file is empty', () => {
    expect(Buffer.from(mutate(Buffer.from('select 1\n'), { kind: 'drop-key', line: 5, path: [] })).toString()).toBe('select 1\n');
    expect(mutate(new Uint8Array(0), { kind: 'flip-bytes', flips: [{ at: 9, mask: 3 }] })).toHaveLength(0);
  });

  it(`each mutation is pure: the bytes it is given are unchanged (seed ${seed})`, () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.array(fc.nat({ max: 9 }), { maxLength: 4 }), mutationArb, (bytes, jsonLines, m) => {
        // Some lines of JSON among the random bytes, so that the JSON mutations have something to change.
        const input = Buffer.concat([bytes, ...jsonLines.map((n) => Buffer.from(`\n{"k${n}":[${n},{"v":"${n}"}],"n":${n}}`))]);
        const copy = Buffer.from(input);
        const big = m.kind === 'huge-value' ? { ...m, bytes: 64 } : m;
        mutate(input, big);
        expect(input.equals(copy)).toBe(true);
      }),
      { seed, numRuns: 300 },
    );
  });
});

describe('fuzz: the rules catch a run that breaks them', () => {
  const run = (over: Partial<RunResult>): RunResult => ({
    args: ['census', 'probe'],
    code: 0,
    signal: null,
    timedOut: false,
    ms: 1,
    stdout: '',
    stderr: '',
    ...over,
  });
  const mutated = ['probe/results.jsonl'];

  it('an error naming the mutated file, and exit 0, 3 and 4, break none', () => {
    expect(violations(run({ code: 1, stderr: 'omg-evidence: probe/results.jsonl:3: malformed JSON (fix it)\n' }), mutated)).toEqual([]);
    for (const code of [0, 3, 4]) expect(violations(run({ code, stderr: 'omg-evidence: warning: something\n' }), mutated)).toEqual([]);
    // A message about the folder that holds the file: the registration as a whole.
    expect(
      violations(run({ code: 1, stderr: 'omg-evidence: probe/registration: the registration has no conjunct\n' }), [
        'probe/registration/prereg.jsonl',
      ]),
    ).toEqual([]);
  });

  it('each broken rule is named', () => {
    expect(violations(run({ code: 2 }), mutated)).toEqual(['omg-evidence census probe: exit 2, not 0, 1, 3 or 4']);
    expect(violations(run({ code: null, signal: 'SIGSEGV' }), mutated)).toEqual([
      'omg-evidence census probe: exit SIGSEGV, not 0, 1, 3 or 4',
    ]);
    expect(violations(run({ code: null, signal: 'SIGKILL', timedOut: true }), mutated)).toEqual([
      'omg-evidence census probe: still running after the timeout, killed',
    ]);
    expect(violations(run({ code: 1, stderr: 'omg-evidence: probe/results.jsonl: unexpected error: x\n' }), mutated)).toEqual([
      'omg-evidence census probe: stderr says "unexpected error"',
    ]);
    expect(violations(run({ code: 1, stderr: 'omg-evidence: probe/results.jsonl: bad\n    at load (src/x.ts:1:2)\n' }), mutated)).toEqual([
      'omg-evidence census probe: stderr holds a stack trace',
      'omg-evidence census probe: stderr holds 1 line(s) not from omg-evidence, the first: "    at load (src/x.ts:1:2)"',
    ]);
    expect(violations(run({ code: 0, stderr: 'FATAL ERROR: Reached heap limit\n' }), mutated)).toEqual([
      'omg-evidence census probe: stderr holds 1 line(s) not from omg-evidence, the first: "FATAL ERROR: Reached heap limit"',
    ]);
    expect(
      violations(run({ code: 1, stderr: "omg-evidence: Conversion Error: Could not convert string 'many' to INT64\n" }), mutated),
    ).toEqual(['omg-evidence census probe: exit 1 without naming a mutated file (probe/results.jsonl)']);
    // The probe's own folder is not "the folder that holds" results.jsonl: that would excuse every message.
    expect(violations(run({ code: 1, stderr: 'omg-evidence: probe: something\n' }), mutated)).toHaveLength(1);
  });

  // Stand-ins for the bin (test/fixtures/fuzz/*.mjs) run through a whole case: a crash, a hang, a write.
  const one: Case = {
    folder: 0,
    format: 'json',
    from: 'records',
    edits: [{ group: 'notes', file: 0, mutation: { kind: 'repeat-line', line: 0, times: 1 } }],
  };
  const standIn = (name: string, ms = 20_000) => runCase(one, { folders, timeoutMs: ms, bin: join(fixtures, 'fuzz', name) });

  it('a bin that dies of an uncaught error breaks the stack-trace, stderr and naming rules', async () => {
    const { broken } = await standIn('crashes.mjs');
    expect(broken).toHaveLength(4 * 3);
    expect(broken[0]).toMatch(/^omg-evidence census probe -f json --from records: stderr holds a stack trace\n/);
  });

  it('a bin that never ends is killed at the timeout, and each of its runs says so', async () => {
    const { broken } = await standIn('hangs.mjs', 500);
    expect(broken.map((b) => b.split('\n')[0])).toEqual([
      'omg-evidence census probe -f json --from records: still running after the timeout, killed',
      'omg-evidence verdict probe -f json: still running after the timeout, killed',
      'omg-evidence agree probe -f json: still running after the timeout, killed',
      'omg-evidence skills probe -f json --from records: still running after the timeout, killed',
    ]);
  });

  it('a bin that writes to an input is caught by the hash of the tree', async () => {
    const { broken } = await standIn('writes-input.mjs');
    expect(broken).toEqual(['an input changed: probe/notes.jsonl changed']);
  });
});

describe('fuzz: mutated probes and transcripts', () => {
  it(
    `every run exits 0, 1, 3 or 4, prints no stack trace, names the mutated file when it fails, ends in time and changes no input (seed ${seed})`,
    async () => {
      let cases = 0;
      await fc.assert(
        fc.asyncProperty(caseArb, async (c) => {
          const outcome = await runCase(c, { folders, timeoutMs, keep: process.env.FUZZ_KEEP === '1' });
          cases++;
          if (process.env.FUZZ_VERBOSE === '1') console.log(`${outcome.described}\n    ${outcome.codes.join('\n    ')}`);
          if (outcome.broken.length > 0) throw new Error(`${outcome.described}\n  broke:\n    ${outcome.broken.join('\n    ')}`);
        }),
        // In the suite the first failure ends the run (each case is seconds of CLI runs); npm run fuzz shrinks it.
        { seed, numRuns, path, endOnFailure: !long },
      );
      expect(cases).toBe(numRuns);
    },
    long ? 24 * 3600_000 : 300_000,
  );
});
