/**
 * The loaders: every physical line accounted for, and each bad input a one-line error that names
 * file:line (exit 1). Each case has its own fixture under test/fixtures/probes/.
 */
import { describe, expect, it } from 'vitest';
import { Evidence } from '../src/evidence.js';
import { cli, probeFixture } from './helpers.js';

const HINT_LINE = '(every line must be one JSON object; fix or remove that line)';
const HINT_ROW = '(see shared/evidence-format.md, "results.jsonl")';
const S1 = 'aaaaaaaa-0000-4000-8000-000000000001';
const S2 = 'bbbbbbbb-0000-4000-8000-000000000002';

const bad: [fixture: string, message: string][] = [
  ['malformed-truncated', `results.jsonl:2: malformed JSON: unexpected end of data ${HINT_LINE}`],
  ['malformed-literal', `results.jsonl:3: malformed JSON: invalid literal ${HINT_LINE}`],
  ['malformed-last-line', `results.jsonl:2: malformed JSON: unexpected end of data; the last line has no newline, was the file cut short? ${HINT_LINE}`],
  ['invalid-utf8', `results.jsonl:2: invalid UTF-8 ${HINT_LINE}`],
  ['not-an-object', `results.jsonl:2: results.jsonl row: not a JSON object (got an array) ${HINT_ROW}`],
  ['missing-key', `results.jsonl:2: results.jsonl row: missing required key "exit_code" ${HINT_ROW}`],
  ['wrong-type', `results.jsonl:2: results.jsonl row: "seq" must be an integer, got a string "2" ${HINT_ROW}`],
  ['bad-session-id', `results.jsonl:2: results.jsonl row: "session_id" must be lowercase hex and dashes (it names the file tool_use/<session_id>.jsonl) ${HINT_ROW}`],
  ['envelope-array-no-result', `results.jsonl:2: results.jsonl row: "envelope" is an array with no "type":"result" element ${HINT_ROW}`],
  ['duplicate-session', `results.jsonl:3: duplicate session_id "${S1}" (first at line 1) (each session_id must be unique within a probe)`],
  ['duplicate-seq', `results.jsonl:2: duplicate seq "1" (first at line 1) (each seq must be unique within a probe)`],
  ['missing-tool-use', `results.jsonl:2: no tool_use/${S2}.jsonl for this row (every row needs its tool_use file; an empty file means the spawn made no tool call)`],
  ['bad-tool-use-record', `tool_use/${S1}.jsonl:2: tool_use record: "name" must be a string, got an integer 7 (each line is {"id","name","input_keys":[…]} with optional "skill" and "agent_id")`],
  ['note-unknown-session', `notes.jsonl:1: notes.jsonl row: session "eeeeeeee" is not in results.jsonl (a note names the session_id of a results.jsonl row)`],
  ['bad-registration', `registration/prereg.jsonl:1: registration "budget" record: "usd" must be a number, got a string "twelve" (see the README, "The registration")`],
];

describe('bad input is a one-line error naming file:line, exit 1', () => {
  for (const [fixture, message] of bad) {
    it(fixture, async () => {
      const run = await cli(['census', probeFixture(fixture)]);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`omg-evidence: ${probeFixture(fixture)}/${message}\n`);
    });
  }

  it('a path that does not exist', async () => {
    const run = await cli(['census', 'test/fixtures/no-such-probe']);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: 'omg-evidence: test/fixtures/no-such-probe: no such probe directory (give the path of a probe directory, one that holds results.jsonl)\n',
    });
  });

  it('a directory that is not a probe', async () => {
    const run = await cli(['census', 'test/fixtures/not-a-probe']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('omg-evidence: test/fixtures/not-a-probe: not a probe: it has no results.jsonl (give the path of a probe directory, one that holds results.jsonl)\n');
  });

  it('two probes with the same directory name', async () => {
    const run = await cli(['census', probeFixture('minimal'), `${probeFixture('minimal')}/`]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^omg-evidence: test\/fixtures\/probes\/minimal: probe id "minimal" is already loaded from test\/fixtures\/probes\/minimal \(/);
  });
});

describe('what loads', () => {
  async function open(fixture: string) {
    return Evidence.open([probeFixture(fixture)]);
  }

  it('tolerates a UTF-8 byte order mark', async () => {
    const ev = await open('bom');
    expect((await ev.db.query('select seq from spawns order by seq')).rows).toEqual([{ seq: 1 }, { seq: 2 }]);
    ev.close();
  });

  it('skips blank lines but counts them in line numbers', async () => {
    const ev = await open('blank-lines');
    expect((await ev.db.query('select count(*) as n from spawns')).rows).toEqual([{ n: 2 }]);
    ev.close();
    // duplicate-session has a blank line 2: its duplicate is reported on physical line 3 (above).
  });

  it('reads an empty results.jsonl as zero spawns', async () => {
    const run = await cli(['census', probeFixture('empty'), '--format', 'json']);
    expect(run).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });

  it('keeps unknown keys, and takes the envelope from a --verbose array', async () => {
    const ev = await open('unknown-keys');
    const rows = (
      await ev.db.query(`select seq, record ->> 'harness_build' as build, cost_usd, envelope ->> 'type' as type from spawns order by seq`)
    ).rows;
    expect(rows).toEqual([
      { seq: 1, build: null, cost_usd: 0.01, type: 'result' },
      { seq: 2, build: 'k-2', cost_usd: 0.02, type: 'result' },
    ]);
    ev.close();
  });

  it('warns about a tool_use file that matches no row, and goes on (exit 0)', async () => {
    const run = await cli(['census', probeFixture('orphan-tool-use'), '--format', 'text']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      'omg-evidence: warning: orphan-tool-use/tool_use/dddddddd-0000-4000-8000-000000000004.jsonl: matches no row of results.jsonl; ignored\n',
    );
    expect(run.stdout.split('\n')).toHaveLength(3);
  });

  it('warns of each committed file that holds a home-directory path, naming its first line, and goes on (exit 0)', async () => {
    const run = await cli(['census', probeFixture('home-leak'), '--format', 'text']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      'omg-evidence: warning: home-leak/results.jsonl:2: holds the home-directory path /Users/alice ' +
        '(committed records must not leak the measuring machine: write such paths with $HOME)\n' +
        'omg-evidence: warning: home-leak/tool_use/bbbbbbbb-0000-4000-8000-000000000002.err:2: holds the home-directory path /home/bob (and 1 more line(s)) ' +
        '(committed records must not leak the measuring machine: write such paths with $HOME)\n',
    );
    // A placeholder is not a leak: the bundled probe writes $HOME, $WS and $REPO, and loads without a word.
    expect((await cli(['census', '--format', 'text'])).stderr).toBe('');
  });

  it('builds every table with a probe column', async () => {
    const ev = await Evidence.open([probeFixture('minimal'), probeFixture('second')]);
    const counts = async (t: string) =>
      (await ev.db.query(`select probe, count(*) as n from ${t} group by probe order by probe`)).rows;
    expect(await counts('spawns')).toEqual([{ probe: 'minimal', n: 2 }, { probe: 'second', n: 1 }]);
    expect(await counts('tool_uses')).toEqual([{ probe: 'minimal', n: 3 }, { probe: 'second', n: 1 }]);
    expect(await counts('model_usage')).toEqual([{ probe: 'minimal', n: 2 }, { probe: 'second', n: 1 }]);
    expect(await counts('artifacts')).toEqual([{ probe: 'minimal', n: 1 }]);
    expect(await counts('markers')).toEqual([{ probe: 'minimal', n: 1 }]);
    expect((await ev.db.query(`select agent_id from tool_uses where probe = 'second'`)).rows).toEqual([{ agent_id: 'a1' }]);
    ev.close();
  });

  it('forbids file access once loaded', async () => {
    const ev = await open('minimal');
    await expect(ev.db.query(`select * from read_text('/etc/hostname')`)).rejects.toThrow(/file system operations are disabled/);
    await expect(ev.db.exec(`SET enable_external_access = true`)).rejects.toThrow(/configuration has been locked/);
    ev.close();
  });
});
