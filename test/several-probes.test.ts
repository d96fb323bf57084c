/**
 * Several probes loaded together: the transcript tables are keyed by session, so one probe's
 * transcripts/ must not stand in for another's. And a spawn whose transcript shows it ran cost an
 * unknown amount, whatever its envelope and exit code say.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
        '(load the probes one at a time, or name one folder of transcripts for all of them with --transcripts DIR)\n',
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
      `omg-evidence: ${theirs}/transcripts/${K_RES}.jsonl: session ${K_RES} is a spawn of probe mine (seq 3), not of ${theirs}, ` +
        "whose transcripts/ holds it (a probe's transcripts/ holds its own spawns' sessions: move the file to probe mine's, " +
        'or load the probes one at a time)\n',
    );
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
    const orphan = (i: number) => `00000000-0000-4000-8000-00000000000${i}`;
    for (let i = 1; i <= 7; i++) writeFileSync(join(probe, 'transcripts', `${orphan(i)}.jsonl`), file.replaceAll(K_POS, orphan(i)));
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
