/**
 * Several probes loaded together: the transcript tables are keyed by session, so one probe's
 * transcripts/ must not stand in for another's. And a spawn whose transcript shows it ran cost an
 * unknown amount, whatever its envelope and exit code say.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundled, cli, probeFixture, tempFolders } from './helpers.js';

const folder = tempFolders('omg-several-');

const K_POS = '0b79ed68-4754-42e1-a332-922c06423c22';
const K_RES = '9c31834b-3b3d-43a8-a6e6-eb9d13032c30';

describe('two probes whose transcripts/ hold one session', () => {
  it('are refused: the first copy by path had hidden an edited second one', async () => {
    const dir = folder();
    const [a, b] = [join(dir, 'a'), join(dir, 'b')];
    cpSync(bundled, a, { recursive: true });
    cpSync(bundled, b, { recursive: true });
    const file = join(b, 'transcripts', `${K_POS}.jsonl`);
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('"name":"Bash"', '"name":"Edit"'));
    expect((await cli(['agree', b, '--format', 'json'])).code).toBe(3);
    const run = await cli(['agree', a, b]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `omg-evidence: ${a}/transcripts/${K_POS}.jsonl: session ${K_POS} has lines in ${b}/transcripts/${K_POS}.jsonl too: ` +
        "loaded together, one folder's copy would stand in for the other's " +
        '(load the probes one at a time, or name one folder of transcripts for all of them with --transcripts DIR (census, agree, skills, sql, usage, report, load))\n',
    );
    // One folder named for both: each spawn is matched with that folder's sessions.
    expect((await cli(['agree', a, b, '--transcripts', join(a, 'transcripts'), '--format', 'json'])).code).toBe(0);
  });
});

describe("a probe's transcripts/ holding another probe's spawn", () => {
  it('is refused, naming the file and the spawn', async () => {
    const dir = folder();
    const [mine, theirs] = [join(dir, 'mine'), join(dir, 'theirs')];
    cpSync(bundled, mine, { recursive: true });
    rmSync(join(mine, 'transcripts'), { recursive: true });
    cpSync(probeFixture('agree-call-order'), theirs, { recursive: true });
    cpSync(join(bundled, 'transcripts', `${K_RES}.jsonl`), join(theirs, 'transcripts', `${K_RES}.jsonl`));
    const run = await cli(['census', mine, theirs]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `omg-evidence: ${theirs}/transcripts/${K_RES}.jsonl: session ${K_RES} is a spawn of probe mine (seq 3), not of ${theirs}, whose transcripts/ holds it ` +
        "(a probe's transcripts/ holds its own spawns' sessions: move the file to probe mine's, or load the probes one at a time, " +
        'or name one folder of transcripts for all of them with --transcripts DIR (census, agree, skills, sql, usage, report, load))\n',
    );
    // Named for all of them, the folder is the spawns' sessions, wherever it is.
    expect((await cli(['census', mine, theirs, '--transcripts', join(theirs, 'transcripts')])).code).toBe(0);
  });

  it("copies of a probe, one with its transcripts/ and one without, are refused: the first's would stand in for the second's", async () => {
    const dir = folder();
    const [a, b] = [join(dir, 'a'), join(dir, 'b')];
    cpSync(bundled, a, { recursive: true });
    cpSync(bundled, b, { recursive: true });
    rmSync(join(b, 'transcripts'), { recursive: true });
    const run = await cli(['census', a, b]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `omg-evidence: ${a}/transcripts/${K_POS}.jsonl: session ${K_POS} is a spawn of probe b (seq 12) too: loaded together, ${a}'s transcript would stand in for b's ` +
        '(load the probes one at a time, or name one folder of transcripts for all of them with --transcripts DIR (census, agree, skills, sql, usage, report, load))\n',
    );
  });

  it("a probe inside another probe's folder holds its own transcripts/", async () => {
    const outer = join(folder(), 'outer');
    cpSync(bundled, outer, { recursive: true });
    cpSync(probeFixture('agree-call-order'), join(outer, 'inner'), { recursive: true });
    expect((await cli(['census', outer, join(outer, 'inner'), '--format', 'json'])).code).toBe(0);
  });
});

describe('a spawn with no envelope, a non-zero exit and no tool call', () => {
  it('whose transcript shows it ran cost an unknown amount: the budget cannot be checked', async () => {
    const probe = join(folder(), 'p');
    cpSync(bundled, probe, { recursive: true });
    const results = join(probe, 'results.jsonl');
    const rows = readFileSync(results, 'utf8').split('\n');
    const at = rows.findIndex((r) => r.includes(K_RES));
    rows[at] = JSON.stringify({ ...JSON.parse(rows[at]!), envelope: null, exit_code: 1 });
    writeFileSync(results, rows.join('\n'));
    writeFileSync(join(probe, 'tool_use', `${K_RES}.jsonl`), '');
    const cost = await cli(['cost', probe, '--format', 'json']);
    expect(cost.code).toBe(0);
    expect(JSON.parse(cost.stdout)).toMatchObject({ envelopes: 26, unpriced: 1 });
    const verdict = await cli(['verdict', probe, '--format', 'json']);
    expect(JSON.parse(verdict.stdout).budget).toMatchObject({ within: null, unpriced: 1 });
  });
});

describe("a session in a probe's transcripts/ that no spawn names", () => {
  it('is a warning naming its file, the first five and how many more', async () => {
    const probe = join(folder(), 'p');
    cpSync(bundled, probe, { recursive: true });
    const file = readFileSync(join(bundled, 'transcripts', `${K_POS}.jsonl`), 'utf8');
    const orphan = (i: number) => `e0000000-0000-4000-8000-00000000000${i}`;
    for (let i = 1; i <= 7; i++) writeFileSync(join(probe, 'transcripts', `${orphan(i)}.jsonl`), file.replaceAll(K_POS, orphan(i)));
    // A 2.0.x sub-agent file beside it, whose name sorts first: the session is named by its own file.
    writeFileSync(join(probe, 'transcripts', 'agent-0000000a.jsonl'), file.replaceAll(K_POS, orphan(1)));
    const run = await cli(['census', probe, '--format', 'json']);
    expect(run.code).toBe(0);
    const said = (i: number) =>
      `omg-evidence: warning: ${probe}/transcripts/${orphan(i)}.jsonl: session ${orphan(i)} is none of probe p's spawns (no results.jsonl row names it); ignored\n`;
    expect(run.stderr).toBe(
      `${[1, 2, 3, 4, 5].map(said).join('')}omg-evidence: warning: …and 2 more session(s) in a probe's transcripts/ that no results.jsonl row names\n`,
    );
    // With no transcripts of its own read (census --format text reads none), nothing is said.
    expect((await cli(['census', probe, '--format', 'text'])).stderr).toBe('');
  });
});

describe("a registered check's transcript_files", () => {
  it("holds its probe's own files, though another probe's transcripts/ holds a file of the same name", async () => {
    const dir = folder();
    const [p, q] = [join(dir, 'p'), join(dir, 'q')];
    cpSync(probeFixture('check-reads-transcript-files'), p, { recursive: true });
    const [A, D] = ['aaaaaaaa-0000-4000-8000-000000000001', 'dddddddd-0000-4000-8000-000000000004'];
    const renamed = (file: string) => readFileSync(join(p, file), 'utf8').replaceAll(A, D);
    for (const sub of ['registration', 'tool_use', 'transcripts']) mkdirSync(join(q, sub), { recursive: true });
    cpSync(join(p, 'registration'), join(q, 'registration'), { recursive: true });
    writeFileSync(join(q, 'results.jsonl'), `${renamed('results.jsonl').split('\n')[0]}\n`);
    writeFileSync(join(q, 'tool_use', `${D}.jsonl`), renamed(`tool_use/${A}.jsonl`));
    // q's session D, in a file named as p's session A's is.
    writeFileSync(join(q, 'transcripts', `${A}.jsonl`), renamed(`transcripts/${A}.jsonl`));
    const alone = JSON.parse((await cli(['verdict', p, '--format', 'json'])).stdout);
    const beside = JSON.parse((await cli(['verdict', p, q, '--format', 'json'])).stdout)[0];
    expect(beside.conjuncts).toEqual(alone.conjuncts);
    expect(alone.conjuncts[0].result).toBe('1 file(s) of 2 line(s), 1 session(s)');
  });
});
