/**
 * agree means something was compared: exit 3 when no spawn of a probe has a transcript (an empty
 * folder, someone else's sessions), a transcript file that holds no session beside records that
 * show calls is a difference, and the summary always counts compared, differing and gone spawns.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundled, cli, probeFixture } from './helpers.js';

const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

const HINT = "(pass --transcripts DIR, the folder that holds the spawns' sessions)";

describe('agree with nothing to compare exits 3', () => {
  it('a transcripts folder with no session in it', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'omg-agree-'));
    temps.push(empty);
    const run = await cli(['agree', '--transcripts', empty, '--format', 'json']);
    expect(run.code).toBe(3);
    expect(JSON.parse(run.stdout).every((r: { verdict: string }) => r.verdict === 'gone')).toBe(true);
    expect(run.stderr).toBe(
      'omg-evidence: agree: 0 of 28 spawn(s) compared: 0 agree, 0 differ; 28 gone ' +
        '(no transcript: K-RES 1bb76aee, K-RES 4588218c, K-RES 9c31834b, K-RES 20f57f7b, K-NEG d3cf0e26, and 23 more): ' +
        `nothing was compared ${HINT}\n`,
    );
  });

  it("a folder of someone else's sessions", async () => {
    const run = await cli(['agree', '--transcripts', join(probeFixture('disagree'), 'transcripts'), '--format', 'text']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(
      /^omg-evidence: agree: 0 of 28 spawn\(s\) compared: 0 agree, 0 differ; 28 gone \(.*\): nothing was compared \(/,
    );
  });

  it('one probe of two with no spawn compared names that probe', async () => {
    const run = await cli([
      'agree',
      bundled,
      probeFixture('agree-other-session'),
      '--transcripts',
      join(probeFixture('agree-other-session'), 'transcripts'),
    ]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/: nothing was compared for 0017-staged-agent-restores-layer-1 \(pass --transcripts DIR/);
  });
});

describe('a transcript file that holds no session', () => {
  it('empty, beside records that show three calls, is a difference; beside none, gone', async () => {
    const run = await cli(['agree', probeFixture('agree-empty-transcript'), '--format', 'text']);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe(
      'A           aaaaaaaa  agree\n' +
        'B           bbbbbbbb  differs: session bbbbbbbb-0000-4000-8000-000000000002.jsonl: records 3 tool call(s), transcripts no session\n' +
        'E           eeeeeeee  gone: eeeeeeee-0000-4000-8000-000000000005.jsonl holds no session\n',
    );
    expect(run.stderr).toBe('omg-evidence: agree: 2 of 3 spawn(s) compared: 1 agree, 1 differ; 1 gone (no transcript: E eeeeeeee)\n');
  });

  it('the same through --db', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-agree-'));
    temps.push(dir);
    const probe = probeFixture('agree-empty-transcript');
    const db = join(dir, 'e.duckdb');
    expect((await cli(['load', probe, '--transcripts', join(probe, 'transcripts'), '--db', db])).code).toBe(0);
    const direct = await cli(['agree', probe, '--format', 'json']);
    const viaDb = await cli(['agree', '--db', db, '--format', 'json']);
    // With the warning its load gave: agree reads no usage, load does.
    const noUsage =
      'omg-evidence: warning: test/fixtures/probes/agree-empty-transcript/transcripts/aaaaaaaa-0000-4000-8000-000000000001.jsonl:1: no line of this response has message.usage: its tokens and cost are left empty (null), as is the cost of every total that holds it\n';
    expect(viaDb).toEqual({ ...direct, stderr: noUsage + direct.stderr });
    expect(viaDb.code).toBe(3);
  });

  it("holding only another session's lines, beside a record of a call, is a difference", async () => {
    const run = await cli(['agree', probeFixture('agree-other-session'), '--format', 'json']);
    expect(run.code).toBe(3);
    expect(JSON.parse(run.stdout)[1]).toEqual({
      probe: 'agree-other-session',
      seq: 2,
      arm: 'C',
      session_id: 'cccccccc-0000-4000-8000-000000000003',
      verdict: 'differ',
      aspect: 'session',
      item: 'cccccccc-0000-4000-8000-000000000003.jsonl',
      records: '1 tool call(s)',
      transcripts: 'no session',
    });
    expect(JSON.parse(run.stdout)[2]).toMatchObject({
      aspect: 'session',
      item: 'cccccccc-0000-4000-8000-000000000003.jsonl',
      records: 'none',
      transcripts: 'lines of session "99999999-0000-4000-8000-000000000009"',
    });
    // The other session's lines are no spawn's: said, as a tool_use file that matches no row is.
    expect(run.stderr).toBe(
      `omg-evidence: warning: test/fixtures/probes/agree-other-session/transcripts/cccccccc-0000-4000-8000-000000000003.jsonl: session 99999999-0000-4000-8000-000000000009 is none of probe agree-other-session's spawns (no results.jsonl row names it); ignored\n` +
        'omg-evidence: agree: 2 of 2 spawn(s) compared: 1 agree, 1 differ; 0 gone\n',
    );
  });
});

describe('a spawn without a transcript', () => {
  it('is gone, and the calls its records show are said, unchecked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-agree-'));
    temps.push(dir);
    const probe = join(dir, 'p');
    cpSync(bundled, probe, { recursive: true });
    // K-NEG exited before a session: no transcript, and its records had no call.
    writeFileSync(
      join(probe, 'tool_use', 'd3cf0e26-a1ed-4b31-a089-d5cb5362c159.jsonl'),
      '{"id":"toolu_X1","name":"Bash","input_keys":["command"]}\n',
    );
    const run = await cli(['agree', probe, '--format', 'text']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').filter((l) => !l.endsWith('agree'))).toEqual([
      'K-NEG       d3cf0e26  gone: no transcript; records 1 tool call(s), unchecked',
      '',
    ]);
    expect(run.stderr).toBe(
      'omg-evidence: agree: 27 of 28 spawn(s) compared: 27 agree, 0 differ; 1 gone (no transcript: K-NEG d3cf0e26)\n',
    );
  });
});

describe('the ids of the calls', () => {
  it('a record whose id no transcript holds differs, though every count agrees', async () => {
    const copy = join(mkdtempSync(join(tmpdir(), 'omg-agree-')), 'probe');
    temps.push(join(copy, '..'));
    cpSync(bundled, copy, { recursive: true });
    const file = join(copy, 'tool_use', '0b79ed68-4754-42e1-a332-922c06423c22.jsonl');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"toolu_01pemILAptxCQOt6bdaMdpBh"', '"toolu_01forgedForgedForgedFo"'));
    const run = await cli(['agree', copy, '--format', 'text']);
    expect(run.code).toBe(3);
    expect(run.stdout.split('\n').filter((l) => !l.endsWith('  agree'))).toEqual([
      'K-NEG       d3cf0e26  gone: no transcript',
      'K-POS       0b79ed68  differs: tool id toolu_01forgedForgedForgedFo: records Bash, transcripts no call',
      'K-POS       0b79ed68  differs: tool id toolu_01pemILAptxCQOt6bdaMdpBh: records no call, transcripts Bash',
      '',
    ]);
    expect(run.stderr).toBe(
      'omg-evidence: agree: 27 of 28 spawn(s) compared: 26 agree, 1 differ; 1 gone (no transcript: K-NEG d3cf0e26)\n',
    );
  });
});

describe('the answer to each Skill call', () => {
  it('a row that says the call was launched, where the transcript holds no answer, differs; one unanswered on both sides agrees', async () => {
    const run = await cli(['agree', probeFixture('agree-result-unanswered'), '--format', 'text']);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe(
      'A           aaaaaaaa  agree\n' +
        'B           bbbbbbbb  differs: skill result toolu_b1: records is_error=false Launching skill: ns:x, transcripts no answer\n',
    );
    expect(run.stderr).toBe('omg-evidence: agree: 2 of 2 spawn(s) compared: 1 agree, 1 differ; 0 gone\n');
  });

  it("an answer in the transcript with no row in the probe's skill_results.jsonl differs", async () => {
    const run = await cli(['agree', probeFixture('agree-result-no-row'), '--format', 'text']);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe(
      'A           aaaaaaaa  differs: skill result toolu_a1: records no row, transcripts is_error=false Launching skill: ns:x\n' +
        'A           aaaaaaaa  differs: skills call order: records , transcripts ns:x\n',
    );
  });

  // Its conjuncts would read no answer: deleting the file had turned a skill's launches into none.
  // The probe no longer loads (loader.test.ts, skill-results-absent), so agree compares nothing.
  it('a probe without skill_results.jsonl whose Skill call names a skill is refused', async () => {
    const run = await cli(['agree', probeFixture('agree-no-skill-results'), '--format', 'text']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'omg-evidence: test/fixtures/probes/agree-no-skill-results/tool_use/aaaaaaaa-0000-4000-8000-000000000001.jsonl:1: tool_use record: Skill call "toolu_a1" names a skill, and there is no test/fixtures/probes/agree-no-skill-results/skill_results.jsonl (a probe whose Skill calls name skills commits skill_results.jsonl, a row per call: run `omg-evidence extract`, or commit the file)\n',
    );
  });
});

describe('each call both sides hold', () => {
  it('out of its place in the transcript differs: the records are in transcript order', async () => {
    const run = await cli(['agree', probeFixture('agree-call-order'), '--format', 'text']);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe(
      'A           aaaaaaaa  agree\n' +
        'B           bbbbbbbb  differs: call order toolu_b1: records 3 of 3, transcripts 1 of 3\n' +
        'B           bbbbbbbb  differs: call order toolu_b2: records 1 of 3, transcripts 2 of 3\n' +
        'B           bbbbbbbb  differs: call order toolu_b3: records 2 of 3, transcripts 3 of 3\n',
    );
    expect(run.stderr).toBe('omg-evidence: agree: 2 of 2 spawn(s) compared: 1 agree, 1 differ; 0 gone\n');
  });

  it("naming a sub-agent the transcript does not, or none for a sub-agent's call, differs", async () => {
    const run = await cli(['agree', probeFixture('agree-agent-id'), '--format', 'text']);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe(
      'A           aaaaaaaa  agree\n' +
        'B           bbbbbbbb  differs: agent id toolu_b1: records a-fake, transcripts none\n' +
        'B           bbbbbbbb  differs: agent id toolu_b2: records none, transcripts b1\n',
    );
  });

  it('with other input key names differs; the same names in another order agree', async () => {
    const run = await cli(['agree', probeFixture('agree-input-keys'), '--format', 'json']);
    expect(run.code).toBe(3);
    expect(JSON.parse(run.stdout)).toEqual([
      expect.objectContaining({ arm: 'A', verdict: 'agree', aspect: null }),
      expect.objectContaining({
        arm: 'B',
        verdict: 'differ',
        aspect: 'input keys',
        item: 'toolu_b1',
        records: '["command"]',
        transcripts: '["content","file_path"]',
      }),
    ]);
  });
});

describe('what the transcripts show that no record does', () => {
  // Its own file missing, the records extract makes lack the sub-agent's calls too; its Task's
  // result counts them (a progress line may mirror each one).
  it("a sub-agent's calls that the result counts and the records lack differ", async () => {
    const run = await cli(['agree', probeFixture('agree-subagent-missing'), '--format', 'text']);
    expect(run).toEqual({
      code: 3,
      stdout: 'A           aaaaaaaa  differs: sub-agent a1b2c3d: records 0 call(s), transcripts 2 call(s), as its result(s) count them\n',
      stderr: 'omg-evidence: agree: 1 of 1 spawn(s) compared: 0 agree, 1 differ; 0 gone\n',
    });
  });

  it('a sub-agent whose calls the records hold, as many as its result counts, agrees', async () => {
    const run = await cli(['agree', probeFixture('agree-subagent-whole'), '--format', 'text']);
    expect(run).toEqual({
      code: 0,
      stdout: 'A           aaaaaaaa  agree\n',
      stderr: 'omg-evidence: agree: 1 of 1 spawn(s) compared: 1 agree, 0 differ; 0 gone\n',
    });
  });

  // A line given another sessionId counts for no census of its spawn: it had hidden a Bash, whether the
  // session was none of the probe's or another spawn's (B's here, whose census it joins).
  it("a line of another session in a spawn's own file differs", async () => {
    const run = await cli(['agree', probeFixture('agree-foreign-call'), '--format', 'text']);
    expect(run).toEqual({
      code: 3,
      stdout:
        'A           aaaaaaaa  differs: session aaaaaaaa-0000-4000-8000-000000000001.jsonl: records none, transcripts lines of session "bbbbbbbb-0000-4000-8000-000000000002"\n' +
        'B           bbbbbbbb  differs: tool Bash: records 0, transcripts 1\n' +
        'B           bbbbbbbb  differs: tool id toolu_a2: records no call, transcripts Bash\n',
      stderr: 'omg-evidence: agree: 2 of 2 spawn(s) compared: 0 agree, 2 differ; 0 gone\n',
    });
  });

  // A background Task's result counts no calls: with no file of its sub-agent, nothing shows them.
  it('a sub-agent that no result counts and whose file is missing differs', async () => {
    const run = await cli(['agree', probeFixture('agree-subagent-uncounted'), '--format', 'text']);
    expect(run).toEqual({
      code: 3,
      stdout:
        'A           aaaaaaaa  differs: sub-agent a1b2c3d: records 0 call(s), transcripts no file of it, and no result counts its calls\n',
      stderr: 'omg-evidence: agree: 1 of 1 spawn(s) compared: 0 agree, 1 differ; 0 gone\n',
    });
  });
});
