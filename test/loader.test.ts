/**
 * The loaders: every physical line accounted for, and each bad input a one-line error that names
 * file:line (exit 1). Each case has its own fixture under test/fixtures/probes/.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { left } from '../src/base/quoted.js';
import { Evidence } from '../src/evidence.js';
import { replaceDocument } from '../src/regions/write-document.js';
import { bundled, cli, probeFixture, repo } from './helpers.js';

const HINT_LINE = '(every line must be one JSON object; fix or remove that line)';
const HINT_ROW = '(see docs/evidence-format.md#results-jsonl)';
const COST_SUM =
  '"envelope.total_cost_usd" must not be less than the sum of its "modelUsage" entries\' "costUSD" (by more than a micro-dollar)';
const S1 = 'aaaaaaaa-0000-4000-8000-000000000001';
const S2 = 'bbbbbbbb-0000-4000-8000-000000000002';
const TOKENS =
  'every "envelope.modelUsage" entry\'s token counts ("inputTokens", "outputTokens", "cacheReadInputTokens", "cacheCreationInputTokens") must be integers from 0 to 2^63 - 1';

const bad: [fixture: string, message: string][] = [
  ['malformed-truncated', `results.jsonl:2: malformed JSON: unexpected end of data ${HINT_LINE}`],
  ['malformed-literal', `results.jsonl:3: malformed JSON: invalid literal ${HINT_LINE}`],
  [
    'malformed-last-line',
    `results.jsonl:2: malformed JSON: unexpected end of data; the last line has no newline, was the file cut short? ${HINT_LINE}`,
  ],
  ['invalid-utf8', `results.jsonl:2: invalid UTF-8 ${HINT_LINE}`],
  ['not-an-object', `results.jsonl:2: results.jsonl row: not a JSON object (got an array) ${HINT_ROW}`],
  ['missing-key', `results.jsonl:2: results.jsonl row: missing required key "exit_code" ${HINT_ROW}`],
  ['wrong-type', `results.jsonl:2: results.jsonl row: "seq" must be an integer, got a string "2" ${HINT_ROW}`],
  ['null-type', `results.jsonl:2: results.jsonl row: "seq" must be an integer, got null ${HINT_ROW}`],
  // A value is shown to its 60th character, then an ellipsis: cut without one, it had read as the whole value (hunt50).
  [
    'wrong-type-long',
    `results.jsonl:2: results.jsonl row: "seq" must be an integer, got a string "222222222222222222222222222222</td><script>xxxxxxxxxxxxxxxx… ${HINT_ROW}`,
  ],
  [
    'marker-dir-long',
    `results.jsonl:2: results.jsonl row: "markers" item 1: "dir" must be "REPO", "HOME" or "TMP", got "${'D'.repeat(59)}… ${HINT_ROW}`,
  ],
  // An addendum names what it declares as the records spell it.
  [
    'void-unknown-arm',
    'registration/addendum-1.jsonl:1: addendum voids arm "a-two", which is not registered (a void names an arm of an "arm" record, spelled as it is there)',
  ],
  [
    'pilot-unknown-session',
    'registration/addendum-1.jsonl:1: addendum declares pilot session "aaaaaaaa", which is not in test/fixtures/probes/pilot-unknown-session/results.jsonl (a pilot is named by the full session_id of a results.jsonl row)',
  ],
  // DuckDB's cast takes "+09" (and "epoch", zone names), which the dates of git are not compared with.
  ['timestamp-not-rfc3339', `results.jsonl:2: results.jsonl row: "started_at" must be an RFC 3339 timestamp ${HINT_ROW}`],
  // The cast also takes an offset past ±23:59 (+05:99 read as +06:39) and the hour 24.
  ['timestamp-offset-past-range', `results.jsonl:2: results.jsonl row: "started_at" must be an RFC 3339 timestamp ${HINT_ROW}`],
  ['timestamp-hour-24', `results.jsonl:2: results.jsonl row: "ended_at" must be an RFC 3339 timestamp ${HINT_ROW}`],
  [
    'bad-session-id',
    `results.jsonl:2: results.jsonl row: "session_id" must be lowercase hex and dashes (it names the file tool_use/<session_id>.jsonl) ${HINT_ROW}`,
  ],
  ['envelope-array-no-result', `results.jsonl:2: results.jsonl row: "envelope" is an array with no "type":"result" element ${HINT_ROW}`],
  // Of two results, the first's cost ($50 here) and denials had been dropped unread.
  [
    'envelope-array-two-results',
    'results.jsonl:2: results.jsonl row: "envelope" is an array with more than one "type":"result" element (the CLI writes one per run) (keep the one result the run printed: each results.jsonl row is one run of the CLI)',
  ],
  ['duplicate-session', `results.jsonl:3: duplicate session_id "${S1}" (first at line 1) (each session_id must be unique within a probe)`],
  ['duplicate-seq', `results.jsonl:2: duplicate seq "1" (first at line 1) (each seq must be unique within a probe)`],
  [
    'missing-tool-use',
    `results.jsonl:2: no tool_use/${S2}.jsonl for this row (every row needs its tool_use file; an empty file means the spawn made no tool call)`,
  ],
  [
    'bad-tool-use-record',
    `tool_use/${S1}.jsonl:2: tool_use record: "name" must be a string, got an integer 7 (each line is {"id","name","input_keys":[…]} with optional "skill" and "agent_id"; see docs/evidence-format.md#tool-use)`,
  ],
  // census had listed a Bash call's "skill" beside the Skill calls' skills, which skills and arms never show.
  [
    'tool-use-skill-other-call',
    `tool_use/${S1}.jsonl:2: tool_use record: "skill" is the skill a Skill or SlashCommand call named, and this is a call of "Bash" (leave "skill" out of any other call's record; see docs/evidence-format.md#tool-use)`,
  ],
  // The verdict counts skill_results' rows: each pairs one Skill call of the spawn's tool_use
  // records, its skill and its arm, and each call of a probe that has the file has its row.
  [
    'skill-result-no-call',
    `skill_results.jsonl:1: skill_results.jsonl row: call "toolu_9" is no Skill call of session "${S2}" in tool_use/ (a skill result pairs a Skill call of its spawn's tool_use/<session_id>.jsonl, by its id)`,
  ],
  [
    'skill-result-other-skill',
    'skill_results.jsonl:1: skill_results.jsonl row: its "skill" is not the one its call records ("ns:x") (a skill result names the skill its call named)',
  ],
  // A row whose is_error says nothing answered, beside a text that says something did: the
  // conjuncts read the text.
  [
    'skill-result-error-null',
    'skill_results.jsonl:1: skill_results.jsonl row: "is_error" is null (nothing answered the call) but "result" holds a text (an answered call has "is_error" true or false; one nothing answered has "is_error" and "result" null)',
  ],
  // is_error false beside no answer, or beside the error the transcripts read: arms had listed the call both fired and Unknown.
  [
    'skill-result-false-unanswered',
    'skill_results.jsonl:1: skill_results.jsonl row: "is_error" is false (something answered the call) but "result" is null (nothing did) (an answered call has its text in "result"; one nothing answered has "is_error" and "result" null)',
  ],
  [
    'skill-result-false-tool-use-error',
    'skill_results.jsonl:1: skill_results.jsonl row: "is_error" is false but "result" holds a <tool_use_error>, which the transcripts read as an error (a result holding <tool_use_error> has "is_error" true, as agree and skills read it from the transcripts)',
  ],
  // A call that records no skill: a row would name any skill it liked.
  [
    'skill-result-unnamed-call',
    // The call's file is named too: the fuzz had dropped its skill, and the error named only the row (seed 1362160877).
    `skill_results.jsonl:2: skill_results.jsonl row: call "toolu_4" of test/fixtures/probes/skill-result-unnamed-call/tool_use/${S2}.jsonl records no skill, so no row answers it (a skill result pairs a Skill call that names a skill; extract writes none for a call that names none)`,
  ],
  [
    'skill-result-other-arm',
    `skill_results.jsonl:1: skill_results.jsonl row: its "arm" is not its spawn's ("B" in results.jsonl) (a skill result names its spawn's arm, or none)`,
  ],
  [
    'skill-call-no-result',
    // It names the file the row is missing from, not only the file whose line is in it.
    `tool_use/${S2}.jsonl:2: tool_use record: Skill call "toolu_3" has no row in test/fixtures/probes/skill-call-no-result/skill_results.jsonl (skill_results.jsonl holds one row per Skill call of the probe)`,
  ],
  // Deleting the file had emptied every row at once: a conjunct that reads them saw no launch, and held.
  [
    'skill-results-absent',
    `tool_use/${S1}.jsonl:3: tool_use record: Skill call "toolu_02" names a skill, and there is no test/fixtures/probes/skill-results-absent/skill_results.jsonl (a probe whose Skill calls name skills commits skill_results.jsonl, a row per call: run \`omg-evidence extract\`, or commit the file)`,
  ],
  // A second note or pilot listing of a spawn had joined it to spawns twice: two spawns, its cost twice.
  [
    'duplicate-note',
    `notes.jsonl:3: duplicate session_id of a note "${S2}" (first at line 2) (each session_id of a note must be unique within notes.jsonl: one note per spawn)`,
  ],
  [
    'duplicate-pilot',
    `registration/addendum-2.jsonl:1: duplicate pilot session_id "${S1}" (first at test/fixtures/probes/duplicate-pilot/registration/addendum-1.jsonl:1) (each pilot session_id must be unique within a probe's addenda)`,
  ],
  // A second void of an arm had been kept as one, its reason dropped in silence.
  [
    'duplicate-void',
    `registration/addendum-2.jsonl:1: duplicate voided arm "A-TWO" (first at test/fixtures/probes/duplicate-void/registration/addendum-1.jsonl:1) (each voided arm must be unique within a probe's addenda: an arm is voided once, for one reason)`,
  ],
  [
    'duplicate-void-one-addendum',
    `registration/addendum-1.jsonl:1: duplicate voided arm "A-TWO" (first at line 1) (each voided arm must be unique within a probe's addenda: an arm is voided once, for one reason)`,
  ],
  // The first of two registration records is the first in registration order: prereg.jsonl, then
  // each addendum by number (the names sort the other way).
  [
    'reg-duplicate-budget',
    'registration/addendum-1.jsonl:2: duplicate budget record "budget" (first at test/fixtures/probes/reg-duplicate-budget/registration/prereg.jsonl:2) (each budget record must be unique within a probe)',
  ],
  [
    'reg-conjunct-repeat-addendum',
    'registration/addendum-1.jsonl:2: conjunct 1 is registered twice (first at test/fixtures/probes/reg-conjunct-repeat-addendum/registration/prereg.jsonl:3) (number the conjuncts 1..N, with no gap and no repeat)',
  ],
  // An addendum is the file its number names: "n" 2 in addendum-1.jsonl had loaded.
  // A file is placed by its name: addendum-1.jsonl comes after prereg.jsonl whatever it holds.
  [
    'reg-addendum-file-no-record',
    'registration/addendum-1.jsonl:1: duplicate registered arm "A-ONE" (first at test/fixtures/probes/reg-addendum-file-no-record/registration/prereg.jsonl:1) (each registered arm must be unique within a probe)',
  ],
  // prereg.jsonl comes first, whatever another file of the pre-registration is called (extra < prereg by name).
  [
    'reg-other-file-before-prereg',
    'registration/extra.jsonl:1: duplicate registered arm "A-ONE" (first at test/fixtures/probes/reg-other-file-before-prereg/registration/prereg.jsonl:1) (each registered arm must be unique within a probe)',
  ],
  // Numbered from 0, an addendum would have come before the pre-registration.
  [
    'reg-addendum-zero',
    'registration/addendum-0.jsonl:1: registration "addendum" record: "n" must be an integer ≥ 1 (see docs/registration.md)',
  ],
  // An arm's number of counted spawns, as a budget's bounds: never below 0.
  ['reg-arm-negative', 'registration/prereg.jsonl:2: registration "arm" record: "n" must not be negative (see docs/registration.md)'],
  // An arm's "addendum" and "replaces" are what its note says: they had loaded naming nothing.
  [
    'reg-arm-addendum-file',
    'registration/prereg.jsonl:2: registration "arm" record: "addendum" is not the n of its file (see docs/registration.md)',
  ],
  [
    'reg-arm-replaces-unknown',
    'registration/addendum-1.jsonl:2: arm replaces arm "NOPE", which is not registered ("replaces" names a registered arm, spelled as it is there)',
  ],
  [
    'reg-addendum-number',
    'registration/addendum-1.jsonl:1: registration "addendum" record: an addendum must be in the file its "n" names: "registration/addendum-2.jsonl" (each addendum has a file of its own, named by its number, so that git dates it apart; see docs/registration.md)',
  ],
  [
    'note-unknown-session',
    `notes.jsonl:1: notes.jsonl row: session "eeeeeeee" is not in test/fixtures/probes/note-unknown-session/results.jsonl (a note names the session_id of a results.jsonl row)`,
  ],
  [
    'bad-registration',
    `registration/prereg.jsonl:1: registration "budget" record: "usd" must be a number, got a string "twelve" (see docs/registration.md)`,
  ],
  // JSON is JSON: what DuckDB's reader lets through but RFC 8259 does not.
  ['json-nan', `results.jsonl:2: NaN is not a JSON value (RFC 8259 has no NaN or Infinity) (write a finite number, or null)`],
  [
    'json-infinity',
    `registration/prereg.jsonl:1: -Infinity is not a JSON value (RFC 8259 has no NaN or Infinity) (write a finite number, or null)`,
  ],
  ['json-duplicate-key', `results.jsonl:2: key "costUSD" is repeated within one object (readers disagree on which copy wins: keep one)`],
  ['json-trailing-comma', 'results.jsonl:2: a trailing comma before ] or } (RFC 8259 has none) (remove the comma)'],
  // 1e999 is JSON that DuckDB reads as no number: a cost or a budget must be finite.
  ['infinite-cost', `results.jsonl:2: results.jsonl row: "envelope.total_cost_usd" must be a finite number ${HINT_ROW}`],
  [
    'infinite-budget',
    'registration/prereg.jsonl:1: registration "budget" record: "usd" must be a finite number (see docs/registration.md)',
  ],
  // A JSON null in a list reads as SQL NULL; a check of its type must still see it.
  [
    'null-input-key',
    `tool_use/${S1}.jsonl:1: tool_use record: "input_keys" must hold strings only (each line is {"id","name","input_keys":[…]} with optional "skill" and "agent_id"; see docs/evidence-format.md#tool-use)`,
  ],
  // A probe's transcripts are committed records too: every value of every line is held to RFC 8259.
  [
    'transcript-nan',
    `transcripts/000000f1-0000-4000-8000-0000000000f1.jsonl:2: NaN is not a JSON value (RFC 8259 has no NaN or Infinity) (write a finite number, or null)`,
  ],
  [
    'transcript-duplicate-key',
    `transcripts/000000f1-0000-4000-8000-0000000000f1.jsonl:3: key "type" is repeated within one object (readers disagree on which copy wins: keep one)`,
  ],
  [
    'envelope-other-session',
    `results.jsonl:2: results.jsonl row: "envelope.session_id" must be the row's "session_id" (an envelope names the session it ran) ${HINT_ROW}`,
  ],
  ['negative-cost', `results.jsonl:2: results.jsonl row: "envelope.total_cost_usd" must not be negative ${HINT_ROW}`],
  ['negative-tokens', `results.jsonl:2: results.jsonl row: ${TOKENS} ${HINT_ROW}`],
  ['fractional-tokens', `results.jsonl:2: results.jsonl row: ${TOKENS} ${HINT_ROW}`],
  ['usage-wrong-type', `results.jsonl:2: results.jsonl row: ${TOKENS} ${HINT_ROW}`],
  // Past 2^63 - 1 the tables' BIGINT columns cannot hold an integer: refused, never loaded as NULL.
  ['bigint-seq', `results.jsonl:2: results.jsonl row: "seq" must be an integer of at most 2^63 - 1, got 9223372036854775808 ${HINT_ROW}`],
  // Past 2^64 - 1 DuckDB types it DOUBLE: still an integer, too large, and said so.
  ['huge-seq', `results.jsonl:2: results.jsonl row: "seq" must be an integer of at most 2^63 - 1, got 18446744073709551616 ${HINT_ROW}`],
  [
    'bigint-exit-code',
    `results.jsonl:2: results.jsonl row: "exit_code" must be an integer of at least -2^63, got -9223372036854775809 ${HINT_ROW}`,
  ],
  ['bigint-tokens', `results.jsonl:2: results.jsonl row: ${TOKENS} ${HINT_ROW}`],
  // Each count fits; their sum would not, in any total a report shows.
  [
    'token-total-past-bigint',
    "results.jsonl:2: results.jsonl row: the envelopes' modelUsage token counts up to this row add up to 13223372036854775827, past 2^63 - 1 (no total can hold them; no spawn counts so many tokens)",
  ],
  // Two costs of 1e308 each fit a DOUBLE; their sum is Infinity, which json printed as null ("unknown").
  [
    'cost-total-past-double',
    "results.jsonl:2: results.jsonl row: the envelopes' costs up to this row add up past the largest number a total can hold (no spawn costs so much: check total_cost_usd and modelUsage costUSD)",
  ],
  // The budget reads total_cost_usd: a total of $0 under $0.01 of model costs had held any bound.
  ['cost-total-below-models', `results.jsonl:2: results.jsonl row: ${COST_SUM} ${HINT_ROW}`],
  // An entry without costUSD leaves the sum unknown, but never below the costs that are known.
  ['cost-total-below-known', `results.jsonl:2: results.jsonl row: ${COST_SUM} ${HINT_ROW}`],
  // Each denial is held to its keys' kinds: the table had read one that is no object as a row of
  // NULLs (a denial counted), and 5 or ["a"] as the text '5' or '["a"]'.
  ['denial-null', `results.jsonl:2: results.jsonl row: "envelope.permission_denials" item 2: not a JSON object (got null) ${HINT_ROW}`],
  [
    'denial-wrong-type',
    `results.jsonl:2: results.jsonl row: "envelope.permission_denials" item 1: "tool_name" must be a string, got an integer 5 ${HINT_ROW}`,
  ],
  [
    'denial-no-tool-use-id',
    `results.jsonl:2: results.jsonl row: "envelope.permission_denials" item 1: missing required key "tool_use_id" ${HINT_ROW}`,
  ],
  [
    'denial-input-string',
    `results.jsonl:2: results.jsonl row: "envelope.permission_denials" item 1: "tool_input" must be an object or null, got a string "ls" ${HINT_ROW}`,
  ],
  // A marker's dir is REPO, HOME or TMP; a key of another kind had been read as its text ('[1]').
  [
    'marker-dir-elsewhere',
    `results.jsonl:2: results.jsonl row: "markers" item 1: "dir" must be "REPO", "HOME" or "TMP", got "ELSEWHERE" ${HINT_ROW}`,
  ],
  [
    'marker-file-array',
    `results.jsonl:2: results.jsonl row: "markers" item 1: "file" must be a string or null, got an array [1] ${HINT_ROW}`,
  ],
  [
    'artifact-path-number',
    `results.jsonl:2: results.jsonl row: "artifacts" item 1: "path" must be a string or null, got an integer 5 ${HINT_ROW}`,
  ],
  [
    'duplicate-tool-use-id',
    `tool_use/${S1}.jsonl:2: duplicate tool_use id "toolu_01" (first at line 1) (each tool_use id must be unique within a spawn's tool_use file)`,
  ],
  [
    'duplicate-skill-result',
    `skill_results.jsonl:2: duplicate (session_id, tool_use_id) ("${S2}", "toolu_2") (first at line 1) (each (session_id, tool_use_id) must be unique within skill_results.jsonl)`,
  ],
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

  it("a probe inside a folder named tool_use or registration: the note's error names the probe's own results.jsonl", async () => {
    // The probe had been found by searching the path for /tool_use/: the folder above it was named instead.
    const dir = mkdtempSync(join(tmpdir(), 'omg-in-'));
    try {
      for (const above of ['tool_use', 'registration']) {
        const probe = join(dir, above, 'P');
        cpSync(probeFixture('note-unknown-session'), probe, { recursive: true });
        expect((await cli(['census', probe])).stderr, above).toBe(
          `omg-evidence: ${probe}/notes.jsonl:1: notes.jsonl row: session "eeeeeeee" is not in ${probe}/results.jsonl (a note names the session_id of a results.jsonl row)\n`,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('several problems in one file are each named, with the hint once (several-problems)', async () => {
    const f = `${probeFixture('several-problems')}/results.jsonl`;
    const run = await cli(['census', probeFixture('several-problems')]);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: [
        `omg-evidence: ${f}:1: results.jsonl row: missing required key "seq" ${HINT_ROW}`,
        `omg-evidence: ${f}:1: results.jsonl row: missing required key "arm"`,
        `omg-evidence: ${f}:1: results.jsonl row: "exit_code" must be an integer, got a string "zero"`,
        `omg-evidence: ${f}:2: results.jsonl row: missing required key "phase"`,
        '',
      ].join('\n'),
    });
  });

  it('at most 20 problems of a file are named, and the rest counted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-problems-'));
    try {
      cpSync(probeFixture('minimal'), dir, { recursive: true });
      const file = join(dir, 'results.jsonl');
      const [first] = readFileSync(file, 'utf8').split('\n');
      const row = JSON.parse(first!);
      // 25 rows, each without its seq: 25 problems, 20 named.
      const rows = Array.from({ length: 25 }, (_, i) => JSON.stringify({ ...row, seq: undefined, session_id: `s-${i}` }));
      writeFileSync(file, `${rows.join('\n')}\n`);
      const run = await cli(['census', dir]);
      const lines = run.stderr.trimEnd().split('\n');
      expect(run.code).toBe(1);
      expect(lines).toHaveLength(21);
      expect(lines[19]).toMatch(/results\.jsonl:20: results\.jsonl row: missing required key "seq"$/);
      expect(lines[20]).toMatch(/results\.jsonl: 5 more problem\(s\) not shown: mend these and run again$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a check that follows from a wrong type is not reported too (a cost that is a string is not "negative")', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-cascade-'));
    try {
      cpSync(probeFixture('minimal'), dir, { recursive: true });
      const file = join(dir, 'results.jsonl');
      const [first, ...rest] = readFileSync(file, 'utf8').split('\n');
      const row = JSON.parse(first!);
      row.envelope = { ...row.envelope, total_cost_usd: '-1' };
      writeFileSync(file, [JSON.stringify(row), ...rest].join('\n'));
      const run = await cli(['census', dir]);
      expect(run.code).toBe(1);
      expect(run.stderr.trimEnd().split('\n')).toEqual([
        expect.stringMatching(/results\.jsonl:1: results\.jsonl row: "envelope\.total_cost_usd" must be a number/),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('render names every problem of a bad record too, after the region that loaded it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-render-problems-'));
    try {
      const probe = join(dir, 'p');
      cpSync(probeFixture('several-problems'), probe, { recursive: true });
      writeFileSync(join(dir, 'doc.md'), '<!-- omg-evidence:begin census probe=p -->\n<!-- omg-evidence:end -->\n');
      const run = await cli(['render', join(dir, 'doc.md')]);
      expect(run.code).toBe(1);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(4);
      expect(run.stderr).toContain('results.jsonl:2: results.jsonl row: missing required key "phase"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a registration record over 1 MiB (a pilot list of 200,000 numbers) is refused at its line before any table is built', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-oversized-'));
    try {
      cpSync(probeFixture('registered'), dir, { recursive: true });
      const pilot = Array.from({ length: 200_000 }, (_, i) => i);
      writeFileSync(join(dir, 'registration', 'addendum-1.jsonl'), `${JSON.stringify({ kind: 'addendum', n: 1, text: 'x', pilot })}\n`);
      const run = await cli(['census', dir]);
      expect(run).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${dir}/registration/addendum-1.jsonl:1: a record of 1.2 MiB, over the 1 MiB a registration record or a note may hold (a registration or a note is a few lines of JSON: shorten it)\n`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a path that does not exist', async () => {
    const run = await cli(['census', 'test/fixtures/no-such-probe']);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'omg-evidence: test/fixtures/no-such-probe: no such probe directory (give the path of a probe directory, one that holds results.jsonl)\n',
    });
  });

  it('a file where a probe directory is expected', async () => {
    for (const command of ['census', 'audit']) {
      expect(await cli([command, 'README.md'])).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'omg-evidence: README.md: not a directory, where a probe directory is expected (give the path of a probe directory, one that holds results.jsonl)\n',
      });
    }
  });

  it('a directory that is not a probe', async () => {
    const run = await cli(['census', 'test/fixtures/not-a-probe']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'omg-evidence: test/fixtures/not-a-probe: not a probe: it has no results.jsonl (give the path of a probe directory, one that holds results.jsonl)\n',
    );
  });

  it('two probes with the same directory name', async () => {
    const run = await cli(['census', probeFixture('minimal'), `${probeFixture('minimal')}/`]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^omg-evidence: test\/fixtures\/probes\/minimal: probe id "minimal" is already loaded from test\/fixtures\/probes\/minimal \(/,
    );
  });
});

describe('what loads', () => {
  async function open(fixture: string) {
    return Evidence.open([probeFixture(fixture)]);
  }

  it('tolerates a UTF-8 byte order mark', async () => {
    const ev = await open('bom');
    expect((await ev.sqlResult('select seq from spawns order by seq')).rows).toEqual([{ seq: 1 }, { seq: 2 }]);
    ev.close();
  });

  it('skips blank lines but counts them in line numbers', async () => {
    const ev = await open('blank-lines');
    expect((await ev.sqlResult('select count(*) as n from spawns')).rows).toEqual([{ n: 2 }]);
    ev.close();
    // duplicate-session has a blank line 2: its duplicate is reported on physical line 3 (above).
  });

  it('reads an optional marker, artifact or denial key given as null as unknown, as before items were checked', async () => {
    const ev = await open('marker-null-keys');
    expect((await ev.sqlResult('select label, token, file, dir from markers')).rows).toEqual([
      { label: 'M', token: null, file: null, dir: 'HOME' },
    ]);
    ev.close();
  });

  it("reads a total within a micro-dollar of its models' costs, or above them, as the CLI writes it at times", async () => {
    const ev = await open('cost-total-rounding');
    expect((await ev.sqlResult('select cost_usd from spawns order by seq')).rows).toEqual([{ cost_usd: 0.0099996 }, { cost_usd: 0.5 }]);
    ev.close();
    // A 2.1.3 capture (../shared/samples/claude-code/print-output/…cc-2.1.3/result_success.json): 0.24722425 over 0.22844625.
    const above = await open('cost-total-above-models');
    expect((await above.sqlResult('select cost_usd from spawns order by seq')).rows).toEqual([
      { cost_usd: 0.01 },
      { cost_usd: 0.24722425 },
    ]);
    above.close();
    // The sum DuckDB adds differs from the total by 7e-21, across a half micro-dollar: rounding both had refused it.
    const order = await open('cost-total-float-order');
    expect((await order.sqlResult('select cost_usd from spawns order by seq')).rows).toEqual([
      { cost_usd: 3.749999999999999e-5 },
      { cost_usd: 0.01 },
    ]);
    order.close();
  });

  it('reads an empty results.jsonl as zero spawns', async () => {
    const run = await cli(['census', probeFixture('empty'), '--format', 'json']);
    expect(run).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });

  it('keeps unknown keys, and takes the envelope from a --verbose array', async () => {
    const ev = await open('unknown-keys');
    const rows = (
      await ev.sqlResult(`select seq, record ->> 'harness_build' as build, cost_usd, envelope ->> 'type' as type from spawns order by seq`)
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
    const counts = async (t: string) => (await ev.sqlResult(`select probe, count(*) as n from ${t} group by probe order by probe`)).rows;
    expect(await counts('spawns')).toEqual([
      { probe: 'minimal', n: 2 },
      { probe: 'second', n: 1 },
    ]);
    expect(await counts('tool_uses')).toEqual([
      { probe: 'minimal', n: 3 },
      { probe: 'second', n: 1 },
    ]);
    expect(await counts('model_usage')).toEqual([
      { probe: 'minimal', n: 2 },
      { probe: 'second', n: 1 },
    ]);
    expect(await counts('artifacts')).toEqual([{ probe: 'minimal', n: 1 }]);
    expect(await counts('markers')).toEqual([{ probe: 'minimal', n: 1 }]);
    expect((await ev.sqlResult(`select agent_id from tool_uses where probe = 'second'`)).rows).toEqual([{ agent_id: 'a1' }]);
    ev.close();
  });

  it('forbids file access once loaded', async () => {
    const ev = await open('minimal');
    await expect(ev.sqlResult(`select * from read_text('/etc/hostname')`)).rejects.toThrow(/file system operations are disabled/);
    await expect(ev.sqlResult(`SET enable_external_access = true`)).rejects.toThrow(/configuration has been locked/);
    ev.close();
  });
});

/**
 * What is not a regular file inside the probe is refused by its path before anything opens it. FIFOs,
 * links and folders cannot be committed as fixtures, so each case mutates a copy of `minimal` (or of
 * `git-order`, for a registered check file) in a temporary folder.
 */
describe('the file system: anything in a probe that is not a regular file inside it is an error naming its path, exit 1', () => {
  const S1 = 'aaaaaaaa-0000-4000-8000-000000000001';
  const HINT_FILE = '(an input folder holds only regular files and folders: remove it, or put the file itself in its place)';
  const HINT_OUT = '(evidence is read from inside its folder: copy the file in rather than linking to it)';
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'omg-fs-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** A fresh copy of a fixture probe, changed by `change` (given the copy's path). */
  let n = 0;
  function probe(change: (dir: string) => void, fixture = 'minimal'): string {
    const dir = join(root, `${++n}`, fixture);
    cpSync(join(repo, probeFixture(fixture)), dir, { recursive: true });
    change(dir);
    return dir;
  }
  const refused = async (dir: string, args: string[] = ['census']) => {
    const run = await cli([...args, dir]);
    return { code: run.code, stdout: run.stdout, stderr: run.stderr };
  };
  const error = (message: string) => ({ code: 1, stdout: '', stderr: `omg-evidence: ${message}\n` });

  it('a FIFO is refused, never opened (it would hang every command)', async () => {
    const dir = probe((d) => execFileSync('mkfifo', [join(d, 'notes.jsonl')]));
    expect(await refused(dir)).toEqual(
      error(`${dir}/notes.jsonl: a FIFO (named pipe), where a file is expected; nothing was read from it ${HINT_FILE}`),
    );
  });

  it('a FIFO in tool_use/', async () => {
    const dir = probe((d) => {
      rmSync(join(d, 'tool_use', `${S1}.jsonl`));
      execFileSync('mkfifo', [join(d, 'tool_use', `${S1}.jsonl`)]);
    });
    expect(await refused(dir)).toEqual(
      error(`${dir}/tool_use/${S1}.jsonl: a FIFO (named pipe), where a file is expected; nothing was read from it ${HINT_FILE}`),
    );
  });

  it('a directory named *.jsonl or *.err', async () => {
    const jsonl = probe((d) => {
      // minimal's Skill call has its row: the file gives way to the folder.
      rmSync(join(d, 'skill_results.jsonl'));
      mkdirSync(join(d, 'skill_results.jsonl'));
    });
    expect(await refused(jsonl)).toEqual(
      error(`${jsonl}/skill_results.jsonl: a directory, where a file is expected; nothing was read from it ${HINT_FILE}`),
    );
    const err = probe((d) => mkdirSync(join(d, 'tool_use', `${S1}.err`)));
    expect(await refused(err)).toEqual(
      error(`${err}/tool_use/${S1}.err: a directory, where a file is expected; nothing was read from it ${HINT_FILE}`),
    );
  });

  it('a dangling symbolic link, and a loop', async () => {
    const dangling = probe((d) => symlinkSync('no-such-file.jsonl', join(d, 'notes.jsonl')));
    expect(await refused(dangling)).toEqual(
      error(`${dangling}/notes.jsonl: a dangling symbolic link: it points at no-such-file.jsonl, which does not exist ${HINT_FILE}`),
    );
    const loop = probe((d) => {
      mkdirSync(join(d, 'registration'));
      symlinkSync('../registration/a.jsonl', join(d, 'registration', 'a.jsonl'));
    });
    expect(await refused(loop)).toEqual(error(`${loop}/registration/a.jsonl: a symbolic link loop (ELOOP) ${HINT_FILE}`));
  });

  // The path given had read "no such probe directory", though the user can see it there.
  it('a probe path, or a --transcripts folder, that is a dangling link says where it points', async () => {
    const link = join(root, `${++n}-dangling`);
    symlinkSync(join(root, 'gone'), link);
    const said = `${link}: a dangling symbolic link: it points at ${root}/gone, which does not exist`;
    for (const command of ['census', 'verdict', 'agree']) {
      expect(await refused(link, [command])).toEqual(error(`${said} (give the path of a probe directory, one that holds results.jsonl)`));
    }
    expect(await refused(link, ['usage', '--transcripts'])).toEqual(
      error(`${said} (pass --transcripts DIR, the folder of the session files, e.g. ~/.claude/projects/<slug>)`),
    );
    // Through a link to a link, each is named: the one before the last exists, as a link (rev50).
    const chain = join(root, `${++n}-chain`);
    symlinkSync(link, chain);
    expect(await refused(chain, ['census'])).toEqual(
      error(
        `${chain}: a dangling symbolic link: it points at ${link}, a link to ${root}/gone, which does not exist (give the path of a probe directory, one that holds results.jsonl)`,
      ),
    );
    // Each hop from its link's real folder, as the system goes: d/x's ../y is real/y (missing), not the top's y.
    const top = join(root, `${++n}-real`);
    mkdirSync(join(top, 'real', 'deep'), { recursive: true });
    symlinkSync(join(top, 'real', 'deep'), join(top, 'd'));
    symlinkSync('../y', join(top, 'd', 'x'));
    symlinkSync('/no/such/probe', join(top, 'y'));
    expect(await refused(join(top, 'd', 'x'), ['census'])).toEqual(
      error(
        `${top}/d/x: a dangling symbolic link: it points at ../y, which does not exist (give the path of a probe directory, one that holds results.jsonl)`,
      ),
    );
  });

  it('a symbolic link that resolves outside the probe', async () => {
    const dir = probe((d) => symlinkSync('/etc/passwd', join(d, 'notes.jsonl')));
    expect(await refused(dir)).toEqual(
      error(`${dir}/notes.jsonl: a symbolic link that resolves outside ${dir} (to /etc/passwd); nothing was read from it ${HINT_OUT}`),
    );
  });

  it("the probe's transcripts/ linked out of it, or dangling, is refused by every command (census walked `/` through one)", async () => {
    for (const [target, said] of [
      ['/', `a symbolic link that resolves outside {dir} (to /); nothing was read from it ${HINT_OUT}`],
      ['/no/such/sessions', `a dangling symbolic link: it points at /no/such/sessions, which does not exist ${HINT_FILE}`],
    ]) {
      const dir = probe((d) => symlinkSync(target!, join(d, 'transcripts')));
      const message = error(`${dir}/transcripts: ${said!.replace('{dir}', dir)}`);
      for (const args of [['census'], ['census', '--from', 'transcripts'], ['agree'], ['usage', 'session']]) {
        expect(await refused(dir, args)).toEqual(message);
      }
      expect(await refused(dir, ['sql', 'select count(*) from transcript_files', '--from', 'transcripts'])).toEqual(message);
    }
  });

  it('a registered check linked to /etc/passwd is refused, never echoed', async () => {
    const check = join('registration', 'conjuncts', '1-a-ran.sql');
    const dir = probe((d) => {
      rmSync(join(d, check));
      symlinkSync('/etc/passwd', join(d, check));
    }, 'git-order');
    const run = await refused(dir, ['verdict']);
    expect(run).toEqual(
      error(
        `${dir}/${check}: a symbolic link that resolves outside ${dir}/registration (to /etc/passwd); nothing was read from it ${HINT_OUT}`,
      ),
    );
    expect(run.stderr).not.toMatch(/root/);
  });

  it('a registered check that is a FIFO', async () => {
    const check = join('registration', 'conjuncts', '1-a-ran.sql');
    const dir = probe((d) => {
      rmSync(join(d, check));
      execFileSync('mkfifo', [join(d, check)]);
    }, 'git-order');
    expect(await refused(dir, ['verdict'])).toEqual(
      error(`${dir}/${check}: a FIFO (named pipe), where a file is expected; nothing was read from it ${HINT_FILE}`),
    );
  });

  it('tool_use being a file (ENOTDIR)', async () => {
    const dir = probe((d) => {
      rmSync(join(d, 'tool_use'), { recursive: true });
      writeFileSync(join(d, 'tool_use'), '');
    });
    expect(await refused(dir)).toEqual(error(`${dir}/tool_use: a file, where a folder is expected (ENOTDIR) ${HINT_FILE}`));
  });

  it('a tool_use/<session_id>.err over 1 MiB, refused before it is read (600 MB was "unexpected error: Cannot create a string …")', async () => {
    const err = (d: string) => join(d, 'tool_use', `${S1}.err`);
    const big = probe((d) => writeFileSync(err(d), 'x'.repeat(3 * 2 ** 20)));
    expect(await refused(big)).toEqual(
      error(
        `${big}/tool_use/${S1}.err: a .err file of 3.0 MiB, over the 1 MiB a spawn's stderr may hold (a spawn's .err holds the text it wrote on stderr: keep the part that says why it failed)`,
      ),
    );
    expect((await refused(probe((d) => writeFileSync(err(d), 'x'.repeat(2 ** 20))))).code).toBe(0);
  });

  it('a tool_use file whose name is not UTF-8, as in registration/ (it was "No files found")', async () => {
    const dir = probe((d) =>
      writeFileSync(Buffer.concat([Buffer.from(join(d, 'tool_use', 'x')), Buffer.from([0xff, 0x2e]), Buffer.from('jsonl')]), ''),
    );
    expect(await refused(dir)).toEqual(
      error(`${dir}/tool_use/x\ufffd.jsonl: its name is not UTF-8, so it cannot be opened by name (rename it (or its folder))`),
    );
  });

  it('a tool_use file whose name holds a line break is an orphan like any other (it was skipped without a word)', async () => {
    const dir = probe((d) => writeFileSync(join(d, 'tool_use', 'a\nb.jsonl'), ''));
    expect(await refused(dir)).toEqual({
      code: 0,
      stdout: expect.any(String),
      stderr: 'omg-evidence: warning: minimal/tool_use/a\\u000ab.jsonl: matches no row of results.jsonl; ignored\n',
    });
  });

  it('anything else in tool_use/ is a warning naming it: nothing reads it', async () => {
    const dir = probe((d) => {
      writeFileSync(join(d, 'tool_use', 'README.md'), '');
      writeFileSync(join(d, 'tool_use', `${S1}.JSONL`), '');
      mkdirSync(join(d, 'tool_use', 'old'));
    });
    const ignored = (rel: string) => `omg-evidence: warning: minimal/tool_use/${rel}: not a <session_id>.jsonl or .err; ignored\n`;
    expect(await refused(dir)).toEqual({
      code: 0,
      stdout: expect.any(String),
      stderr: ignored('README.md') + ignored(`${S1}.JSONL`) + ignored('old'),
    });
  });

  // chmod 000 stops no read when the tests run as root (as in CI's container), so this runs only as another user.
  it.skipIf(process.getuid?.() === 0)('a file that cannot be read (EACCES)', async () => {
    const dir = probe((d) => chmodSync(join(d, 'results.jsonl'), 0));
    expect(await refused(dir)).toEqual(
      error(`${dir}/results.jsonl: cannot be read (EACCES) (check that the file exists and that you may read it)`),
    );
  });
});

describe('writing: a file extract or render cannot write is an error naming it, exit 1', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'omg-write-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const extract = (out: string) =>
    cli(['extract', '--transcripts', join(bundled, 'transcripts'), '--results', join(bundled, 'results.jsonl'), '--out', out]);
  const HINT = '(check that --out names a folder you may write to, and that nothing in it is in the way)';

  it('extract --out under a file (ENOTDIR)', async () => {
    writeFileSync(join(root, 'file'), '');
    const run = await extract(join(root, 'file', 'out'));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(`^omg-evidence: ${root}/file/out/tool_use/[0-9a-f-]+\\.jsonl: cannot write \\(ENOTDIR\\) \\${HINT.slice(0, -1)}\\)\n$`),
    );
  });

  it('extract --out where a file it writes is a folder (EISDIR)', async () => {
    mkdirSync(join(root, 'o', 'skill_results.jsonl'), { recursive: true });
    expect(await extract(join(root, 'o'))).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${root}/o/skill_results.jsonl: cannot write (EISDIR) ${HINT}\n`,
    });
  });

  it('extract --out where a file it writes is a FIFO: named, never waited on (it hung)', async () => {
    const out = join(root, 'fifo');
    const first = (await extract(out)).code;
    expect(first).toBe(0);
    const record = readdirSync(join(out, 'tool_use'))[0]!;
    rmSync(join(out, 'tool_use', record));
    execFileSync('mkfifo', [join(out, 'tool_use', record)]);
    expect(await extract(out)).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${out}/tool_use/${record}: not a regular file, where extract writes one (move it away, or --out another folder)\n`,
    });
  });

  // A killed run's temporary file, or a link, at the name its pid gives is someone else's: never written
  // through nor removed; another name is drawn (failing had blocked every later run until it was removed).
  it('extract never writes through a link at its temporary path, nor removes it: it writes beside it', async () => {
    const out = join(root, 'linked');
    mkdirSync(out);
    const victim = join(root, 'victim.txt');
    writeFileSync(victim, 'mine');
    const tmp = join(out, `skill_results.jsonl.omg-evidence-${process.pid}.tmp`);
    symlinkSync(victim, tmp);
    expect((await extract(out)).code).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('mine');
    expect(lstatSync(tmp).isSymbolicLink()).toBe(true);
    expect(existsSync(join(out, 'skill_results.jsonl'))).toBe(true);
    expect(readdirSync(out).sort()).toEqual(['skill_results.jsonl', `skill_results.jsonl.omg-evidence-${process.pid}.tmp`, 'tool_use']);
  });

  it('render where its temporary name is taken writes through another, and leaves what is in the way as it was', () => {
    const doc = join(root, 'doc.md');
    writeFileSync(doc, 'before');
    const tmp = `${doc}.omg-evidence-${process.pid}.tmp`;
    mkdirSync(tmp);
    replaceDocument(doc, Buffer.from('before'), 'after');
    expect(readFileSync(doc, 'utf8')).toBe('after');
    expect(statSync(tmp).isDirectory()).toBe(true);
    expect(readdirSync(root).filter((f) => f.startsWith('doc.md'))).toEqual(['doc.md', `doc.md.omg-evidence-${process.pid}.tmp`]);
  });
});

describe('a value quoted in an error', () => {
  it('is cut between code points, never inside a surrogate pair', () => {
    expect(left(`${'a'.repeat(59)}😀😀`, 60)).toBe(`${'a'.repeat(59)}😀…`);
    expect(left('😀'.repeat(60), 60)).toBe('😀'.repeat(60));
    expect(left('😀'.repeat(61), 60)).toBe(`${'😀'.repeat(60)}…`);
  });

  it('is cut between characters as a reader sees them: never inside an emoji of several code points, or before an accent', () => {
    const family = '👨\u200d👩\u200d👧';
    expect(left(`${'a'.repeat(58)}${family}`, 60)).toBe(`${'a'.repeat(58)}…`);
    expect(left(`${'a'.repeat(59)}e\u0301b`, 60)).toBe(`${'a'.repeat(59)}…`);
    expect(left(`${'a'.repeat(57)}${family}`, 60)).toBe(`${'a'.repeat(57)}…`);
    expect(left(`${'a'.repeat(55)}${family}bc`, 60)).toBe(`${'a'.repeat(55)}${family}…`);
  });

  it('is never cut inside a JSON escape: a lone backslash or \\u with fewer than four digits is left out', () => {
    expect(left(`${'a'.repeat(57)}\\u00e9bcd`, 60)).toBe(`${'a'.repeat(57)}…`);
    expect(left(`${'a'.repeat(59)}\\nbcd`, 60)).toBe(`${'a'.repeat(59)}…`);
    // An escaped backslash is whole: both stay, and the one after them is left out.
    expect(left(`${'a'.repeat(57)}${'\\'.repeat(3)}nb`, 60)).toBe(`${'a'.repeat(57)}${'\\'.repeat(2)}…`);
    expect(left(`${'a'.repeat(54)}\\u00e9bcd`, 60)).toBe(`${'a'.repeat(54)}\\u00e9…`);
  });
});

describe('skill_results.jsonl pairs the calls that name a skill', () => {
  // extract writes no row for a Skill call sent without a skill (an InputValidationError in real
  // sessions), nor for a SlashCommand without a command: such a call needs none.
  it('a Skill or SlashCommand call that names none needs no row', async () => {
    const run = await cli(['census', probeFixture('skill-call-unnamed'), '--format', 'csv']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      ',B,A,bbbbbbbb-0000-4000-8000-000000000002,counted,0,"{""Skill"":2,""SlashCommand"":1}",[],[],"[""ns:x""]",,[]',
    );
  });
});
