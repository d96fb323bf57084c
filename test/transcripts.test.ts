/**
 * Transcripts: the census derived a second way, agree, skill pairing, extract.
 *
 * The real-data expectations (test/fixtures/samples/expected.json) were counted independently of
 * this code, by test/fixtures/samples/count_samples.py: a Python stdlib script that json.loads every
 * line of the samples in ../shared/samples/claude-code/transcripts, counts the tool_use blocks of
 * `assistant` lines only (so `progress` mirrors never count), de-duplicates them by id per session,
 * and pairs Skill/SlashCommand calls with the tool_result of the same id. Three of its figures were
 * checked again by grep (see the script's header).
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../src/db/database.js';
import { Evidence } from '../src/evidence.js';
import { findTranscripts } from '../src/load/inputs.js';
import { macros } from '../src/load/rescans.js';
import { loadTranscripts } from '../src/load/transcripts.js';
import { armJson } from '../src/output/arms.js';
import { bundled, cli, probeFixture, repo, shared, withoutShared } from './helpers.js';

const samples = join(shared, 'samples', 'claude-code', 'transcripts');
const expected = JSON.parse(readFileSync(join(repo, 'test', 'fixtures', 'samples', 'expected.json'), 'utf8'));

interface Expected {
  tools: Record<string, number>;
  skills: { tool_use_id: string; skill: string; is_error: boolean | null; result: string | null }[];
  versions: string[];
  models: string[];
  first_timestamp: string;
  lines: number;
  files: string[];
}

describe.skipIf(withoutShared(samples, 'transcripts.test.ts: real transcripts from ../shared/samples'))(
  'real transcripts from ../shared/samples',
  () => {
    for (const folder of Object.keys(expected).sort()) {
      it(`${folder}: tool counts, skill pairs, versions, models, first timestamp`, async () => {
        const ev = await Evidence.openTranscripts(join(samples, folder));
        try {
          const sessions = await ev.sessionRows();
          const skills = await ev.skillRows('transcripts');
          const want = expected[folder] as Record<string, Expected>;
          expect(sessions.map((s) => s.session_id).sort()).toEqual(Object.keys(want).sort());
          for (const s of sessions) {
            const e = want[String(s.session_id)]!;
            const tools = Object.fromEntries((s.tools as { name: string; count: number }[]).map((t) => [t.name, t.count]));
            expect({ ...s, tools }).toEqual({
              session_id: s.session_id,
              first_timestamp: e.first_timestamp,
              versions: e.versions,
              models: e.models,
              tools: e.tools,
              skills: e.skills.map((k) => k.skill),
              lines: e.lines,
              files: e.files,
            });
            expect(
              skills
                .filter((k) => k.session_id === s.session_id)
                .map(({ tool_use_id, skill, is_error, result }) => ({ tool_use_id, skill, is_error, result })),
            ).toEqual(e.skills);
          }
        } finally {
          ev.close();
        }
      });
    }

    it('counts the Glob and Read calls of the 2.1.6 sub-agent file in its parent session', async () => {
      const run = await cli(['census', '--transcripts', join(samples, 'rcgray-phantom-reads__cc-2.1.6'), '--format', 'json']);
      const [s] = JSON.parse(run.stdout);
      expect(s.tools).toEqual({ Bash: 2, Edit: 1, Glob: 3, Grep: 8, Read: 12, Skill: 2, Task: 1 });
      expect(s.files).toEqual([
        '07cd273c-1bab-43cb-93ae-55957cab451c.jsonl',
        '07cd273c-1bab-43cb-93ae-55957cab451c/subagents/agent-a12f27f.jsonl',
      ]);
    });

    it('pairs the 2.0.58 SlashCommand calls', async () => {
      const run = await cli(['skills', '--transcripts', join(samples, 'rcgray-phantom-reads__cc-2.0.58'), '--format', 'json']);
      expect(
        JSON.parse(run.stdout).map((k: { skill: string; result: string; is_error: boolean }) => [k.skill, k.is_error, k.result]),
      ).toEqual([
        ['wsd:boot', false, 'Launching command: /wsd:boot'],
        ['wsd:onboard', false, 'Launching command: /wsd:onboard'],
      ]);
    });

    it('does not count the 2.1.38 progress lines that mirror sub-agent calls', async () => {
      const run = await cli(['census', '--transcripts', join(samples, 'marot-spotter__cc-2.1.38'), '--format', 'json']);
      const sub = JSON.parse(run.stdout).find((s: { files: string[] }) => s.files.includes('subagent.jsonl'));
      // The file holds 9 more tool_use blocks (Read 5, Bash 4) inside progress lines.
      expect(sub.tools).toMatchObject({ Bash: 4, Read: 1, WebSearch: 5 });
    });
  },
);

describe('transcript edge cases', () => {
  const dir = join('test', 'fixtures', 'transcripts', 'edge-cases');

  it('counts only real tool_use blocks: not "tool_use" inside strings, not progress lines, and each id once', async () => {
    const run = await cli(['census', '--transcripts', dir, '--format', 'json']);
    expect(run.code).toBe(0);
    const [s] = JSON.parse(run.stdout);
    expect(s.session_id).toBe('11111111-2222-4333-8444-555555555555');
    expect(s.tools).toEqual({ Bash: 1, Glob: 1, Skill: 3, SlashCommand: 1 });
    expect(s.skills).toEqual(['older-skill', 'wsd:boot', 'unanswered', 'ns:sub']);
  });

  it("keeps every line, unknown record types included, and gives lines without sessionId their file's session", async () => {
    const ev = await Evidence.openTranscripts(dir);
    try {
      expect((await ev.sqlResult(`select type, count(*) as n from transcript_lines group by type order by type`)).rows).toEqual([
        { type: 'assistant', n: 8 },
        { type: 'brand-new-record-type', n: 1 },
        { type: 'file-history-snapshot', n: 1 },
        { type: 'progress', n: 1 },
        { type: 'summary', n: 1 },
        { type: 'user', n: 7 },
      ]);
      expect((await ev.sqlResult(`select count(distinct session_id) as n from transcript_lines`)).rows).toEqual([{ n: 1 }]);
      expect(
        (await ev.sqlResult(`select tool_use_id, agent_id from transcript_tool_uses where agent_id is not null order by ordinal`)).rows,
      ).toEqual([
        { tool_use_id: 'toolu_S1', agent_id: 'a7' },
        { tool_use_id: 'toolu_S2', agent_id: 'a7' },
      ]);
    } finally {
      ev.close();
    }
  });

  it('pairs Skill (skill or command key) and SlashCommand calls, sub-agent calls included', async () => {
    const run = await cli(['skills', '--transcripts', dir, '--format', 'json']);
    expect(JSON.parse(run.stdout).map((k: Record<string, unknown>) => [k.tool_use_id, k.skill, k.is_error, k.definition])).toEqual([
      ['toolu_C', 'older-skill', true, null],
      ['toolu_D', 'wsd:boot', false, 'wsd'],
      ['toolu_E', 'unanswered', null, null],
      ['toolu_S2', 'ns:sub', false, 'ns'],
    ]);
  });

  const malformed: [string, string][] = [
    [
      'malformed-truncated',
      's.jsonl:9: malformed JSON: unexpected end of data (every line must be one JSON object; fix or remove that line)',
    ],
    ['malformed-literal', 's.jsonl:3: malformed JSON: unexpected character (every line must be one JSON object; fix or remove that line)'],
    ['invalid-utf8', 's.jsonl:9: invalid UTF-8 (every line must be one JSON object; fix or remove that line)'],
    ['not-an-object', 's.jsonl:9: transcript line: not a JSON object (got a string) (every transcript line is one JSON object)'],
    [
      'malformed-two-objects',
      's.jsonl:2: malformed JSON: unexpected content after document (every line must be one JSON object; fix or remove that line)',
    ],
  ];
  for (const [fixture, message] of malformed) {
    it(`a malformed line is an error naming file:line, exit 1: ${fixture}`, async () => {
      const dir = join('test', 'fixtures', 'transcripts', fixture);
      const want = { code: 1, stdout: '', stderr: `omg-evidence: test/fixtures/transcripts/${fixture}/${message}\n` };
      expect(await cli(['census', '--transcripts', dir])).toEqual(want);
      // usage's pass reads no content, and sql naming no transcript table builds none: each line is still checked.
      expect(await cli(['usage', '--transcripts', dir])).toEqual(want);
      expect(await cli(['sql', '--transcripts', dir, 'select 1'])).toEqual(want);
    });
  }

  // DuckDB's typed reader would write a number or an object as a string: it loaded silently.
  const mistyped: [string, string][] = [
    ['wrong-type-timestamp', 's.jsonl:2: transcript line: "timestamp" must be a string, got -1'],
    ['wrong-type-version', 's.jsonl:3: transcript line: "version" must be a string, got {}'],
  ];
  for (const [fixture, message] of mistyped) {
    it(`a timestamp or version that is not a string is an error naming file:line: ${fixture}`, async () => {
      const want = {
        code: 1,
        stdout: '',
        stderr: `omg-evidence: test/fixtures/transcripts/${fixture}/${message} (a transcript line's timestamp and version are strings)\n`,
      };
      expect(await cli(['census', '--transcripts', join('test', 'fixtures', 'transcripts', fixture)])).toEqual(want);
      expect(await cli(['skills', '--transcripts', join('test', 'fixtures', 'transcripts', fixture)])).toEqual(want);
      expect(await cli(['usage', '--transcripts', join('test', 'fixtures', 'transcripts', fixture)])).toEqual(want);
      expect(await cli(['sql', '--transcripts', join('test', 'fixtures', 'transcripts', fixture), 'select 1'])).toEqual(want);
    });
  }

  it("a session's first timestamp is its earliest instant, whatever offset each line is written with, and never a string that is no time", async () => {
    // 10:00+09:00 is 01:00Z, before 05:00Z; "0" sorts before both as text (the first timestamp was null).
    const dir = join('test', 'fixtures', 'transcripts', 'mixed-offsets');
    const census = JSON.parse((await cli(['census', '--transcripts', dir, '--format', 'json'])).stdout);
    expect(census.map((s: { first_timestamp: string }) => s.first_timestamp)).toEqual(['2026-03-01T01:00:00.000Z']);
  });

  it('of copies of a call, the earliest instant counts, and calls are numbered in order of instant, whatever offset each line is written with', async () => {
    // toolu_A is written at 05:00Z (Read) and at 10:00+09:00 = 01:00Z (Bash); toolu_B at 03:00Z. As text,
    // 03:00Z < 05:00Z < 10:00+09:00: Read counted and toolu_B came first.
    const dir = join('test', 'fixtures', 'transcripts', 'mixed-offsets-calls');
    const calls = await cli([
      'sql',
      '--transcripts',
      dir,
      '-f',
      'json',
      'select ordinal, tool_use_id, name, rec from transcript_tool_uses order by ordinal',
    ]);
    expect(JSON.parse(calls.stdout)).toEqual([
      { ordinal: 1, tool_use_id: 'toolu_A', name: 'Bash', rec: 3 },
      { ordinal: 2, tool_use_id: 'toolu_B', name: 'Grep', rec: 4 },
    ]);
    const census = JSON.parse((await cli(['census', '--transcripts', dir, '--format', 'json'])).stdout);
    expect(census.map((s: { tools: object }) => s.tools)).toEqual([{ Bash: 1, Grep: 1 }]);
  });

  it('of two lines at one instant, written differently, the earlier line comes first: never the timestamp as text', async () => {
    // Line 2 answers the Skill call at 09:00:01+09:00 and line 3 at 00:00:01.000Z, the same instant: line 2
    // is the first answer. toolu t2 is Read at 09:00:02+09:00 (line 4) and Write at 00:00:02.000Z (line 5):
    // the copy on line 4 counts. As text, "2026-01-01T00…" sorts before "2026-01-01T09…", and line 3
    // (an error) and line 5 (Write) had counted.
    const dir = join('test', 'fixtures', 'transcripts', 'same-instant-copies');
    const run = await cli([
      'sql',
      '--transcripts',
      dir,
      '-f',
      'json',
      "select 'call' as k, tool_use_id, name as what, rec from transcript_tool_uses union all select 'answer', tool_use_id, result, rec from transcript_tool_results order by k, tool_use_id",
    ]);
    // The copy that names another tool is not dropped without a word.
    const at = (line: number) => `${dir}/55555555-5555-4555-8555-555555555555.jsonl:${line}`;
    expect({ code: run.code, stderr: run.stderr }).toEqual({
      code: 0,
      stderr: `omg-evidence: warning: ${at(4)}: call t2 (Read) is written again naming another tool or input: this first copy counts\n`,
    });
    expect(JSON.parse(run.stdout)).toEqual([
      { k: 'answer', tool_use_id: 't1', what: 'Launching skill: pdf', rec: 2 },
      { k: 'call', tool_use_id: 't1', what: 'Skill', rec: 1 },
      { k: 'call', tool_use_id: 't2', what: 'Read', rec: 4 },
    ]);
  });

  it('transcript_tool_use_copies holds the other copies of a call whose copies differ, and nothing of copies that are alike', async () => {
    const q = 'select tool_use_id, copy, name, rec, path from transcript_tool_use_copies order by all';
    const rows = async (dir: string) => JSON.parse((await cli(['sql', '--transcripts', dir, '-f', 'json', q])).stdout);
    // toolu_w and toolu_b are each written twice alike (as a stream repeats a block): one call each, no copy kept.
    const alike = join('test', 'fixtures', 'transcripts', 'alike-copies');
    const calls = await cli([
      'sql',
      '--transcripts',
      alike,
      '-f',
      'json',
      'select tool_use_id, rec from transcript_tool_uses order by all',
    ]);
    expect({ stderr: calls.stderr, calls: JSON.parse(calls.stdout) }).toEqual({
      stderr: '',
      calls: [
        { tool_use_id: 'toolu_b', rec: 4 },
        { tool_use_id: 'toolu_w', rec: 2 },
      ],
    });
    expect(await rows(alike)).toEqual([]);
    // t2's Write on line 5 is the copy after the Read that counts (the test above).
    expect(await rows(join('test', 'fixtures', 'transcripts', 'same-instant-copies'))).toEqual([
      { tool_use_id: 't2', copy: 2, name: 'Write', rec: 5, path: null },
    ]);
  });

  it('transcript_mirrored_calls holds every call a progress line mirrors, whatever shape its fields take; none counts', async () => {
    const dir = join('test', 'fixtures', 'transcripts', 'mirrored-calls');
    const q =
      'select session_id[1:8] as s, tool_use_id, name, agent_id, parent_tool_use_id, file, rec, block, path, command from transcript_mirrored_calls order by all';
    const run = await cli(['sql', '--transcripts', dir, '-f', 'csv', q]);
    expect({ code: run.code, stderr: run.stderr, stdout: run.stdout.split('\r\n') }).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        's,tool_use_id,name,agent_id,parent_tool_use_id,file,rec,block,path,command',
        '000000fb,toolu_2,Write,"{""x"":1}","{""a"":1}",000000fb-0000-4000-8000-0000000000fb.jsonl,2,1,/a/b,',
        '000000fb,toolu_3,Bash,7,,000000fb-0000-4000-8000-0000000000fb.jsonl,3,1,,"[""rm"",""x""]"',
        '000000fb,toolu_4,NotebookEdit,b,,000000fb-0000-4000-8000-0000000000fb.jsonl,8,1,/n.ipynb,',
        '000000fb,,Edit,b,,000000fb-0000-4000-8000-0000000000fb.jsonl,8,2,/e,',
        '000000fc,toolu_c2,Write,c0001,toolu_c1,000000fc-0000-4000-8000-0000000000fc.jsonl,2,2,/w/out,',
        '',
      ],
    });
    // The census counts the sub-agent's Write from its own file alone, and no mirror.
    const census = JSON.parse((await cli(['census', '--transcripts', dir, '-f', 'json'])).stdout);
    expect(census.map((r: { tools: object }) => r.tools)).toEqual([{ Task: 1 }, { Task: 1, Write: 1 }]);
  });

  it('reads a file whose name holds glob characters as itself', async () => {
    // DuckDB's readers take [, * and ? in a path as glob characters: a[1].jsonl would read a1.jsonl.
    const dir = join('test', 'fixtures', 'transcripts', 'glob-characters');
    const want = [
      { session_id: 'aaaaaaaa-0000-4000-8000-000000000001', tools: { Bash: 1 }, lines: 2, files: ['a[1].jsonl'] },
      { session_id: 'aaaaaaaa-0000-4000-8000-00000000000b', tools: { Read: 1 }, lines: 2, files: ['a1.jsonl'] },
    ];
    const census = JSON.parse((await cli(['census', '--transcripts', dir, '--format', 'json'])).stdout);
    expect(census).toMatchObject(want);
    const full = await cli(['sql', '--transcripts', dir, '--format', 'json', 'select file, lines from transcript_files order by file']);
    expect(JSON.parse(full.stdout)).toEqual([
      { file: 'a1.jsonl', lines: 2 },
      { file: 'a[1].jsonl', lines: 2 },
    ]);
  });

  it('a file whose path holds a backslash and a glob character is refused by name', async () => {
    // DuckDB splits a pattern at a backslash, so no escaping reaches such a file: it said "No files found".
    const dir = mkdtempSync(join(tmpdir(), 'omg-backslash-'));
    try {
      cpSync(join('test', 'fixtures', 'transcripts', 'glob-characters', 'a1.jsonl'), join(dir, 'c\\[x].jsonl'));
      expect(await cli(['census', '--transcripts', dir])).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${join(dir, 'c\\[x].jsonl')}: DuckDB cannot open a file whose path holds a backslash and one of * ? [ (it reads the path as a pattern) (rename the file, or the folder whose name holds them)\n`,
      });
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('a transcripts folder that does not exist', async () => {
    const run = await cli(['census', '--transcripts', 'test/fixtures/nowhere']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'omg-evidence: test/fixtures/nowhere: no such transcripts directory (pass --transcripts DIR, the folder of the session files, e.g. ~/.claude/projects/<slug>)\n',
    );
  });

  it('a probe with no transcripts/ folder, asked for its census from transcripts', async () => {
    const run = await cli(['census', probeFixture('minimal'), '--from', 'transcripts']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^omg-evidence: test\/fixtures\/probes\/minimal: the probe has no transcripts\/ folder \(pass --transcripts DIR/,
    );
  });

  it('--transcripts with --from records is a usage error', async () => {
    const run = await cli(['census', '--from', 'records', '--transcripts', 'x']);
    expect(run).toEqual({ code: 2, stdout: '', stderr: 'omg-evidence: --transcripts goes with --from transcripts, not --from records\n' });
  });
});

describe("a Skill call's result, whatever its size and shape", () => {
  // The pass keeps a short string's text; any other result's line is read again. Either way the
  // text is the whole result, as the fixture's own JSON says it: a string, or an array's text
  // blocks joined by newlines, and nothing for any other content.
  async function expectWhole(name: string, file: string): Promise<{ tool_use_id: string; result: string | null }[]> {
    const dir = join('test', 'fixtures', 'transcripts', name);
    const lines = readFileSync(join(repo, dir, file), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const skills = new Set(
      lines
        .flatMap((l) => l.message.content)
        .filter((b) => b.type === 'tool_use' && ['Skill', 'SlashCommand'].includes(b.name))
        .map((b) => b.id),
    );
    const want = lines
      .flatMap((l) => l.message.content.map((b: Record<string, unknown>) => ({ b, tur: l.toolUseResult })))
      .filter(({ b }) => b.type === 'tool_result' && skills.has(b.tool_use_id))
      .map(({ b, tur }) => {
        const c = b.content;
        const result =
          typeof c === 'string'
            ? c
            : Array.isArray(c)
              ? c
                  .filter((x) => x.type === 'text')
                  .map((x) => x.text)
                  .join('\n')
              : null;
        const is_error =
          b.is_error === true || (typeof tur === 'string' && tur.startsWith('Error:')) || (result ?? '').includes('<tool_use_error>');
        return { tool_use_id: b.tool_use_id, is_error, result };
      })
      .sort((x, y) => (x.tool_use_id < y.tool_use_id ? -1 : 1));
    const run = await cli([
      'sql',
      '--transcripts',
      dir,
      '--format',
      'json',
      'select tool_use_id, is_error, result from transcript_tool_results order by tool_use_id',
    ]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual(want);
    return want;
  }

  it('is whole in transcript_tool_results, and so is whether it failed (long-skill-results)', async () => {
    const want = await expectWhole('long-skill-results', 'cccccccc-0000-4000-8000-000000000003.jsonl');
    expect(want.map((w) => w.result!.length)).toEqual([5014, 578, 4, 744, 25, 685]);
  });

  it('is the string, the text blocks joined, or nothing, for every shape of content (skill-result-shapes)', async () => {
    const want = await expectWhole('skill-result-shapes', 'dddddddd-0000-4000-8000-000000000004.jsonl');
    expect(want.map((w) => w.result)).toEqual([
      'Launching skill: ns:text',
      '123',
      '[1,2]',
      '{"a":1}',
      'null',
      'true',
      '"Launching"',
      'tab\there\nnewline é 😀 nul\u0000end',
      '',
      'Launching skill: ns:array',
      'one\ntwo',
      '',
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('one exact pass: goldens of every transcript fixture and sample', () => {
  const fixture = (name: string) => join('test', 'fixtures', 'transcripts', name);
  // Each census-* fixture is an input the census once had to read twice to decide (see its README);
  // one pass now decides it, and its golden says how.
  const fixtures = readdirSync(join(repo, 'test', 'fixtures', 'transcripts'))
    .filter((d) => d.startsWith('census-') || ['edge-cases', 'glob-characters', 'long-skill-results', 'skill-result-shapes'].includes(d))
    .sort();
  const folders: [string, string][] = [
    ...fixtures.map((d): [string, string] => [d, fixture(d)]),
    ['bundled-probe', join('evidence', '0017-staged-agent-restores-layer-1', 'transcripts')],
    ...Object.keys(expected)
      .sort()
      .map((f): [string, string] => [`samples/${f}`, join(samples, f)]),
  ];

  for (const [name, dir] of folders) {
    it.skipIf(dir.startsWith(samples) && withoutShared(samples, `transcripts.test.ts: the golden of ${name}`))(
      `census, sessions and skills of ${name}`,
      async () => {
        let golden = '';
        for (const args of [
          ['census', '--format', 'text'],
          ['census', '--format', 'json'],
          ['skills', '--format', 'json'],
        ]) {
          const run = await cli([...args, '--transcripts', dir]);
          expect(run.code).toBe(0);
          // Warnings (copies of a call that differ) are part of the golden, with the folder as DIR.
          const said = run.stderr.split(dir).join('DIR');
          golden += `## omg-evidence ${args.join(' ')} --transcripts DIR\n\n${said ? `stderr:\n\n\`\`\`\n${said}\`\`\`\n\n` : ''}\`\`\`\n${run.stdout}\`\`\`\n\n`;
        }
        await expect(`# ${name}\n\n${golden}`).toMatchFileSnapshot(join('golden', 'transcripts', `${name}.md`));
      },
    );
  }

  // The loader runs one scan per thread, each over a share of the files: every table must be the
  // same whatever the split, record numbers included.
  // The passes keep a mirroring line's data as JSON, which omg_mirror_of types again: it must type it as
  // read_json did in every pass, or a mirror would read differently after the pass than in it.
  it("a mirror is typed back as every pass types a progress line's data (omg_mirror_of)", async () => {
    const passes = readFileSync(join(repo, 'sql', 'transcripts', 'passes.sql'), 'utf8');
    const typed = [...passes.matchAll(/\bdata: '([^']+)'/g)].map((m) => m[1]!.replace(/\s+/g, ' '));
    expect(typed.length).toBeGreaterThanOrEqual(3);
    expect(new Set(typed).size).toBe(1);
    const db = await Database.open();
    try {
      await db.exec(macros());
      const t = String((await db.query("select typeof(omg_mirror_of('{}')) as t")).rows[0]!.t);
      expect(t.replaceAll('"', '')).toBe(typed[0]);
    } finally {
      db.close();
    }
  });

  it('every table is the same whether the files are read in one scan or several', async () => {
    // census-bom-pair, read in two or three scans, puts its BOM file in a scan of its own.
    const dirs = [
      fixture('edge-cases'),
      fixture('census-mixed-sessions'),
      fixture('census-skill-tie'),
      fixture('census-bom-pair'),
      fixture('census-differing-copies'),
      fixture('mirrored-calls'),
      join(bundled, 'transcripts'),
    ];
    if (existsSync(samples)) dirs.push(samples);
    // Results too long to keep in the pass, in two files: read again in one scan, or one scan each.
    const long = mkdtempSync(join(tmpdir(), 'omg-long-results-'));
    for (const f of ['long-skill-results', 'skill-result-shapes']) {
      for (const file of readdirSync(fixture(f)).filter((n) => n.endsWith('.jsonl'))) cpSync(join(fixture(f), file), join(long, file));
    }
    dirs.push(long);
    const tables = [
      'transcript_files',
      'transcript_lines',
      'transcript_sessions',
      'transcript_tool_uses',
      'transcript_tool_use_copies',
      'transcript_mirrored_calls',
      'transcript_subagent_results',
      'transcript_tool_results',
    ];
    for (const dir of dirs) {
      const dump = async (scans: number) => {
        const db = await Database.open();
        try {
          await loadTranscripts(db, findTranscripts([dir]), { scans });
          const out: Record<string, unknown> = {};
          for (const t of tables) out[t] = (await db.query(`select * from ${t} order by all`)).rows;
          return out;
        } finally {
          db.close();
        }
      };
      const one = await dump(1);
      expect((one.transcript_lines as unknown[]).length).toBeGreaterThan(0);
      expect({ dir, tables: await dump(3) }).toEqual({ dir, tables: one });
    }
    rmSync(long, { recursive: true });
  });

  // skills reads no call's input keys, isSidechain or agentId: its pass reads each line's lean fields and
  // its tool_results, where a probe's registered checks (which may read any column) take the full pass.
  it('the pass of skills finds the same calls and answers as the full pass', async () => {
    const dirs = [
      'edge-cases',
      'census-skill-tie',
      'census-differing-skills',
      'long-skill-results',
      'skill-result-shapes',
      'same-instant-copies',
    ].map((f) => fixture(f));
    dirs.push(join(bundled, 'transcripts'));
    if (existsSync(samples)) dirs.push(samples);
    const dump = async (fullCalls: boolean) => {
      const out: Record<string, unknown> = {};
      for (const dir of dirs) {
        const db = await Database.open();
        try {
          await loadTranscripts(db, findTranscripts([dir]), { lines: false, messages: false, fullCalls });
          out[dir] = {
            results: (await db.query('select * from transcript_tool_results order by all')).rows,
            calls: (await db.query('select * exclude (input_keys, agent_id, is_sidechain) from transcript_tool_uses order by all')).rows,
            copies: (await db.query('select * exclude (input_keys, agent_id, is_sidechain) from transcript_tool_use_copies order by all'))
              .rows,
            sessions: (await db.query('select * from transcript_sessions order by all')).rows,
          };
          // What the lean pass does not read it leaves unknown, never a value (is_sidechain had been false).
          if (!fullCalls) {
            const q =
              'select count(*) as n from transcript_tool_uses where coalesce(input_keys::VARCHAR, agent_id, is_sidechain::VARCHAR) is not null';
            expect({ dir, known: Number((await db.query(q)).rows[0]!.n) }).toEqual({ dir, known: 0 });
          }
        } finally {
          db.close();
        }
      }
      return out;
    };
    const full = await dump(true);
    expect(Object.values(full).some((d) => (d as { results: unknown[] }).results.length > 3)).toBe(true);
    expect(await dump(false)).toEqual(full);
  });

  it("a result answers a Skill call only in the call's own session", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-foreign-'));
    try {
      const line = (o: object) => `${JSON.stringify(o)}\n`;
      writeFileSync(
        join(dir, 's.jsonl'),
        line({
          type: 'assistant',
          sessionId: 'S',
          timestamp: '2026-01-01T00:00:00Z',
          message: { content: [{ type: 'tool_use', id: 'c4', name: 'Skill', input: { skill: 'x' } }] },
        }) +
          line({
            type: 'user',
            sessionId: 'S',
            timestamp: '2026-01-01T00:00:01Z',
            message: { content: [{ type: 'tool_result', tool_use_id: 'c4', content: 'Launching skill: x' }] },
          }),
      );
      // Another session's result with the same call id answers nothing.
      writeFileSync(
        join(dir, 'q.jsonl'),
        line({
          type: 'user',
          sessionId: 'Q',
          timestamp: '2025-01-01T00:00:00Z',
          message: { content: [{ type: 'tool_result', tool_use_id: 'c4', content: 'other' }] },
        }),
      );
      const run = await cli([
        'sql',
        '--transcripts',
        dir,
        '--format',
        'json',
        'select session_id, tool_use_id, result, file from transcript_tool_results order by all',
      ]);
      expect(JSON.parse(run.stdout)).toEqual([{ session_id: 'S', tool_use_id: 'c4', result: 'Launching skill: x', file: 's.jsonl' }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a call without a name prints under None, as Python would', async () => {
    const run = await cli(['census', '--transcripts', fixture('census-no-name'), '--format', 'text']);
    expect(run).toEqual({ code: 0, stdout: "aaaaaaaa  {'Read': 1, 'Skill': 1, None: 1} wsd:boot\n", stderr: '' });
  });

  it('a call without a name and a tool named "null" are two keys in json and csv (they were one, and a count was lost)', async () => {
    const dir = fixture('census-null-name');
    const json = await cli(['census', '--transcripts', dir, '--format', 'json']);
    expect(JSON.parse(json.stdout)[0].tools).toEqual({ null: 1, '\ud800': 1 });
    const csv = await cli(['census', '--transcripts', dir, '--format', 'csv']);
    expect(csv.stdout.split('\n')[1]).toContain('"{""null"":1,""\\ud800"":1}"');
    expect((await cli(['census', '--transcripts', dir, '--format', 'text'])).stdout).toBe("aaaaaaaa  {'null': 1, None: 1}\n");
    expect(
      armJson({
        tools: [
          { name: 'null', count: 2 },
          { name: null, count: 3 },
        ],
      } as never).tools,
    ).toEqual({ null: 2, '\ud800': 3 });
  });

  it('evidence opened for some queries alone refuses any other query, and SQL, with a usage error', async () => {
    const ev = await Evidence.openTranscripts(fixture('edge-cases'), { queries: ['sessions'] });
    try {
      await expect(ev.skillRows('transcripts')).rejects.toThrow(
        'queries/skills.sql: this evidence was opened for sessions alone ({ queries }), and loads only what they read; add skills to queries, or open it without queries',
      );
      await expect(ev.sql('select 1')).rejects.toThrow('SQL: this evidence was opened for sessions alone ({ queries })');
      // Its tables hold only what sessions reads (no transcript_lines, no tool_result, no input
      // keys): no other way into SQL may show them either.
      await expect(ev.sqlResult('select 1')).rejects.toThrow('SQL: this evidence was opened for sessions alone ({ queries })');
      const sink = { mode: 'plain' as const, columns: () => undefined, rows: () => undefined };
      await expect(ev.sqlStream('select 1', 'query', sink)).rejects.toThrow(
        'SQL: this evidence was opened for sessions alone ({ queries })',
      );
    } finally {
      ev.close();
    }
  });
});

describe('census from transcripts, and agree, on the bundled probe', () => {
  it('prints the same keys and counts as the records census, with K-NEG gone', async () => {
    const records = JSON.parse((await cli(['census', '--format', 'json'])).stdout);
    const transcripts = JSON.parse((await cli(['census', '--from', 'transcripts', '--format', 'json'])).stdout);
    expect(transcripts.map((r: object) => Object.keys(r))).toEqual(records.map((r: object) => Object.keys(r)));
    const gone = transcripts.filter((r: { tools: unknown }) => r.tools === null);
    expect(gone.map((r: { arm: string }) => r.arm)).toEqual(['K-NEG']);
    const neg = records.findIndex((r: { arm: string }) => r.arm === 'K-NEG');
    expect(transcripts.filter((_: unknown, i: number) => i !== neg)).toEqual(records.filter((_: unknown, i: number) => i !== neg));
  });

  it('prints gone in the text block for the spawn with no transcript', async () => {
    const run = await cli(['census', '--from', 'transcripts', '--format', 'text']);
    expect(run.stdout.split('\n')[4]).toBe(
      'K-NEG       d3cf0e26  gone                      -       -                 (exit 1, no session)',
    );
  });

  it('agree: 27 spawns agree and K-NEG is gone, exit 0', async () => {
    const run = await cli(['agree', '--format', 'json']);
    expect(run.code).toBe(0);
    const rows = JSON.parse(run.stdout);
    expect(rows.filter((r: { verdict: string }) => r.verdict === 'agree')).toHaveLength(27);
    expect(rows.filter((r: { verdict: string }) => r.verdict === 'gone').map((r: { arm: string }) => r.arm)).toEqual(['K-NEG']);
    expect(run.stderr).toBe(
      'omg-evidence: agree: 27 of 28 spawn(s) compared: 27 agree, 0 differ; 1 gone (no transcript: K-NEG d3cf0e26)\n',
    );
  });

  it('agree: exit 3 naming each session, tool and both counts', async () => {
    const run = await cli(['agree', probeFixture('disagree'), '--format', 'text']);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe(
      'A           aaaaaaaa  differs: tool Bash: records 1, transcripts 2\n' +
        'A           aaaaaaaa  differs: tool id toolu_9: records no call, transcripts Bash\n' +
        'B           bbbbbbbb  differs: skill result toolu_2: records is_error=false Launching skill: ns:x, transcripts is_error=true <tool_use_error>Unknown skill: ns:x</tool_use_error>\n' +
        'C           cccccccc  gone: no transcript\n',
    );
    expect(run.stderr).toBe('omg-evidence: agree: 2 of 3 spawn(s) compared: 0 agree, 2 differ; 1 gone (no transcript: C cccccccc)\n');
  });
});

describe('skills on the bundled probe', () => {
  for (const from of ['records', 'transcripts']) {
    it(`shows the ADR's facts (--from ${from})`, async () => {
      const rows = JSON.parse((await cli(['skills', '--from', from, '--format', 'json'])).stdout);
      const of = (arm: string) => rows.filter((r: { arm: string }) => r.arm === arm);
      const unknown = (r: { result: string }) => r.result.includes('Unknown skill');
      // K-UPONLY: the user-plugin skill is unknown, 2 of 2, then the staged corpus fires.
      expect(
        of('K-UPONLY')
          .filter(unknown)
          .map((r: { skill: string }) => r.skill),
      ).toEqual(['omg-probe-userplugin-only', 'omg-probe-userplugin-only']);
      // K-REPO-N: one unknown call, by the one spawn that named the repo skill.
      expect(
        of('K-REPO-N')
          .filter(unknown)
          .map((r: { session_id: string; is_error: boolean }) => [r.session_id.slice(0, 8), r.is_error]),
      ).toEqual([['afbb2a87', true]]);
      // The staged corpus fires, resolved by its own namespace, wherever the ADR says.
      const staged = rows.filter((r: { definition: string | null }) => r.definition === 'oh-my-graph-staged-skills');
      expect(
        Object.fromEntries(
          ['K-SKILL-POS', 'K-COLLIDE', 'K-UPONLY', 'K-REPO-N', 'K-REPO-D'].map((a) => [
            a,
            staged.filter((r: { arm: string }) => r.arm === a).length,
          ]),
        ),
      ).toEqual({
        'K-SKILL-POS': 2,
        'K-COLLIDE': 3,
        'K-UPONLY': 2,
        'K-REPO-N': 2,
        'K-REPO-D': 3,
      });
      expect(rows.every((r: object) => Object.keys(r).join() === 'probe,arm,session_id,tool_use_id,skill,is_error,result,definition')).toBe(
        true,
      );
    });
  }
});

describe('extract', () => {
  let out: string;
  afterEach(() => rmSync(out, { recursive: true, force: true }));
  const args = (o: string, dir = bundled) => [
    'extract',
    '--transcripts',
    join(dir, 'transcripts'),
    '--results',
    join(dir, 'results.jsonl'),
    '--out',
    o,
  ];

  it('reproduces the bundled tool_use/ and skill_results.jsonl byte for byte, and again on a second run', async () => {
    out = mkdtempSync(join(tmpdir(), 'omg-extract-'));
    const first = await cli(args(out));
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/^omg-evidence: extract: wrote 30 file\(s\), 0 unchanged, in /);
    const written = readdirSync(join(out, 'tool_use')).sort();
    // Every spawn, and K-NEG's .err: it opened no session, so its record is empty and its stderr the results' probe's.
    expect(written).toEqual(readdirSync(join(bundled, 'tool_use')).sort());
    for (const f of written) expect(readFileSync(join(out, 'tool_use', f)), f).toEqual(readFileSync(join(bundled, 'tool_use', f)));
    expect(readFileSync(join(out, 'skill_results.jsonl'))).toEqual(readFileSync(join(bundled, 'skill_results.jsonl')));
    const second = await cli(args(out));
    expect(second.stderr).toMatch(/^omg-evidence: extract: wrote 0 file\(s\), 30 unchanged, in /);
  });

  it('never overwrites a file that differs, unless --force', async () => {
    out = mkdtempSync(join(tmpdir(), 'omg-extract-'));
    await cli(args(out));
    const target = join(out, 'skill_results.jsonl');
    writeFileSync(target, 'hand edited\n');
    const refused = await cli(args(out));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /skill_results\.jsonl: exists and differs from what extract would write \(pass --force to overwrite, or --out another folder\)\n$/,
    );
    expect(readFileSync(target, 'utf8')).toBe('hand edited\n');
    const forced = await cli([...args(out), '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(target)).toEqual(readFileSync(join(bundled, 'skill_results.jsonl')));
  });

  it('a file that differs from what it would write only where a byte is not UTF-8 differs: it is not counted unchanged', async () => {
    // Read as text, the byte 0xFF had been the U+FFFD the record holds, and the file "unchanged".
    out = mkdtempSync(join(tmpdir(), 'omg-extract-'));
    const transcripts = join(out, 'transcripts');
    cpSync(join(bundled, 'transcripts'), transcripts, { recursive: true });
    const session = '0b79ed68-4754-42e1-a332-922c06423c22.jsonl';
    const source = join(transcripts, session);
    writeFileSync(source, readFileSync(source, 'utf8').replace('"name":"Bash"', '"name":"B\ufffdsh"'));
    const o = join(out, 'o');
    const run = () => cli(['extract', '--transcripts', transcripts, '--results', join(bundled, 'results.jsonl'), '--out', o]);
    expect((await run()).code).toBe(0);
    const target = join(o, 'tool_use', session);
    const fffd = Buffer.from('\ufffd');
    const bytes = readFileSync(target);
    expect(bytes.includes(fffd)).toBe(true);
    const at = bytes.indexOf(fffd);
    const bad = Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff]), bytes.subarray(at + 3)]);
    writeFileSync(target, bad);
    const refused = await run();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `omg-evidence: ${target}: exists and differs from what extract would write (pass --force to overwrite, or --out another folder)\n`,
    );
    expect(readFileSync(target)).toEqual(bad);
  });

  it('with the transcripts of some spawns only, --force does not rewrite a skill_results.jsonl the others have rows in', async () => {
    // The spawns not covered keep their tool_use records; their rows in skill_results.jsonl had been
    // dropped, and the probe then refused (a Skill call with no row).
    out = mkdtempSync(join(tmpdir(), 'omg-extract-'));
    const probe = join(out, 'p');
    cpSync(bundled, probe, { recursive: true });
    const some = join(out, 'some');
    cpSync(join(bundled, 'transcripts'), some, { recursive: true });
    rmSync(join(some, '3df2739a-082a-4ae1-a24b-9785f9f7cf06.jsonl'));
    const before = readFileSync(join(probe, 'skill_results.jsonl'));
    const run = await cli(['extract', '--transcripts', some, '--results', join(probe, 'results.jsonl'), '--out', probe, '--force']);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${join(probe, 'skill_results.jsonl')}: the transcripts cover 27 of the 28 spawn(s), and rewriting it would drop the skill results of the others; nothing was written (give --transcripts the sessions of every spawn, or --out another folder)\n`,
    });
    expect(readFileSync(join(probe, 'skill_results.jsonl'))).toEqual(before);
    expect((await cli(['census', probe])).code).toBe(0);
  });

  it('refuses a value with a home-directory path, naming it and where it came from, and writes nothing', async () => {
    out = join(mkdtempSync(join(tmpdir(), 'omg-extract-')), 'out');
    const run = await cli(args(out, join('test', 'fixtures', 'extract', 'home-leak')));
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'omg-evidence: test/fixtures/extract/home-leak/transcripts/aaaaaaaa-0000-4000-8000-000000000001.jsonl:3: refusing to write result ' +
        '"Launching skill: mine\\nBase directory for this skill: /home/alice/.claude/skills/mine": it contains the home-directory path /home/alice ' +
        '(committed records must not leak the measuring machine; write paths as $HOME in the source, or leave this spawn out)\n',
    );
    expect(existsSync(out)).toBe(false);
  });

  // The hint had been "remove it, or put the file itself in its place", of the probe's own folder.
  it('--results naming a probe folder: the hint names its results.jsonl', async () => {
    out = join(mkdtempSync(join(tmpdir(), 'omg-extract-')), 'out');
    const probe = 'evidence/0017-staged-agent-restores-layer-1';
    const run = await cli(['extract', '--transcripts', join(probe, 'transcripts'), '--results', probe, '--out', out]);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${probe}: a directory, where a results.jsonl is expected (give the file itself: ${probe}/results.jsonl)\n`,
    });
    expect(existsSync(out)).toBe(false);
  });

  // The hint had been "an input folder holds only regular files and folders", of a file the user named.
  it('--results naming a dangling link or a FIFO: said as that, with the hint to give a results.jsonl', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-extract-'));
    out = join(dir, 'out');
    symlinkSync(join(dir, 'gone.jsonl'), join(dir, 'dangling.jsonl'));
    execFileSync('mkfifo', [join(dir, 'fifo.jsonl')]);
    const probe = 'evidence/0017-staged-agent-restores-layer-1';
    const extract = (results: string) => cli(['extract', '--transcripts', join(probe, 'transcripts'), '--results', results, '--out', out]);
    const hint = '(give the path of a results.jsonl)';
    expect(await extract(join(dir, 'dangling.jsonl'))).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${dir}/dangling.jsonl: a dangling symbolic link: it points at ${dir}/gone.jsonl, which does not exist ${hint}\n`,
    });
    expect(await extract(join(dir, 'fifo.jsonl'))).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${dir}/fifo.jsonl: a FIFO (named pipe), where a results.jsonl is expected ${hint}\n`,
    });
    expect(existsSync(out)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses $HOME as set, wherever it is', async () => {
    out = join(mkdtempSync(join(tmpdir(), 'omg-extract-')), 'out');
    const run = await cli(args(out, join('test', 'fixtures', 'extract', 'home-env')), { env: { HOME: '/srv/operator' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /:1: refusing to write skill "\/srv\/operator\/skills\/x": it contains the home-directory path \/srv\/operator /,
    );
  });

  it('needs --transcripts, --results and --out (usage, exit 2)', async () => {
    out = '';
    const run = await cli(['extract', '--out', 'x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^omg-evidence: required option '--transcripts <dir>' not specified/);
  });
});

/**
 * Every place extract writes is checked as it resolves: a tool_use/ linked to the transcripts had
 * had every transcript overwritten by its record under --force. Links cannot be fixtures.
 */
describe('extract writes nowhere inside the evidence it reads, links followed (exit 1, --force or not)', () => {
  let root: string;
  let n = 0;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'omg-extract-ro-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  /** A copy of the bundled probe and a folder `out` beside it, both in a folder of their own. */
  function copy(): { p: string; out: string } {
    const dir = join(root, `${++n}`);
    cpSync(bundled, join(dir, 'p'), { recursive: true });
    mkdirSync(join(dir, 'out'));
    return { p: join(dir, 'p'), out: join(dir, 'out') };
  }
  const run = (p: string, out: string, transcripts = join(p, 'transcripts')) =>
    cli(['extract', '--transcripts', transcripts, '--results', join(p, 'results.jsonl'), '--out', out, '--force']);
  const error = (message: string, hint: string) => ({ code: 1, stdout: '', stderr: `omg-evidence: ${message} (${hint})\n` });
  const READ_ONLY = 'write the records outside the transcripts folder: evidence is read-only';
  const PROBE = '--out the probe itself or a folder outside it: evidence is read-only';
  const bytes = (dir: string) => readdirSync(dir).map((f) => readFileSync(join(dir, f)).toString('base64'));

  it('a tool_use/ linked to the transcripts folder', async () => {
    const { p, out } = copy();
    const before = bytes(join(p, 'transcripts'));
    symlinkSync(join(p, 'transcripts'), join(out, 'tool_use'));
    expect(await run(p, out)).toEqual(
      error(`${out}/tool_use: inside the evidence it reads (${p}/transcripts); nothing was written`, READ_ONLY),
    );
    expect(bytes(join(p, 'transcripts'))).toEqual(before);
  });

  it("a tool_use/ linked to the folder of the one transcript named: that file's place", async () => {
    const { p, out } = copy();
    const one = join(p, 'transcripts', '0b79ed68-4754-42e1-a332-922c06423c22.jsonl');
    const before = readFileSync(one);
    symlinkSync(join(p, 'transcripts'), join(out, 'tool_use'));
    expect(await run(p, out, one)).toEqual(
      error(
        `${out}/tool_use/0b79ed68-4754-42e1-a332-922c06423c22.jsonl: inside the evidence it reads (${one}); nothing was written`,
        READ_ONLY,
      ),
    );
    expect(readFileSync(one)).toEqual(before);
  });

  it('--out inside the probe but not the probe itself (the probe itself is where its records go)', async () => {
    const { p } = copy();
    expect(await run(p, join(p, 'registration'))).toEqual(
      error(`${p}/registration: inside the probe it reads (${p}), where the probe keeps no such record; nothing was written`, PROBE),
    );
    expect(readdirSync(join(p, 'registration')).sort()).toEqual(readdirSync(join(bundled, 'registration')).sort());
    expect((await run(p, p)).stderr).toBe(`omg-evidence: extract: wrote 0 file(s), 30 unchanged, in ${p}\n`);
  });

  it('a tool_use/ linked to another folder of the probe', async () => {
    const { p, out } = copy();
    symlinkSync(join(p, 'registration'), join(out, 'tool_use'));
    expect(await run(p, out)).toEqual(
      error(
        `${out}/tool_use: inside the probe it reads (${p}), at ${p}/registration, where the probe keeps no such record; nothing was written`,
        PROBE,
      ),
    );
  });

  it("a tool_use/ linked to another probe's tool_use/: that probe is not written (extract had added a record to it)", async () => {
    const { p, out } = copy();
    const other = join(out, '..', 'other');
    cpSync(bundled, other, { recursive: true });
    rmSync(join(other, 'tool_use', '0b79ed68-4754-42e1-a332-922c06423c22.jsonl'));
    const before = bytes(join(other, 'tool_use'));
    symlinkSync(join(other, 'tool_use'), join(out, 'tool_use'));
    expect(await run(p, out)).toEqual(
      error(
        `${out}/tool_use: inside the probe ${other}, at ${other}/tool_use, not the probe of the results it reads; nothing was written`,
        '--out the probe of --results or a folder outside every probe: evidence is read-only',
      ),
    );
    expect(bytes(join(other, 'tool_use'))).toEqual(before);
  });

  it('through the library too, where the command line alone had checked --out', async () => {
    const { p } = copy();
    const ev = await Evidence.openForExtract(join(p, 'results.jsonl'), join(p, 'transcripts'));
    try {
      await expect(ev.extract({ out: join(p, 'transcripts', 'x'), force: true })).rejects.toThrow(
        `${p}/transcripts/x: inside the evidence it reads (${p}/transcripts); nothing was written`,
      );
    } finally {
      await ev.close();
    }
    expect(existsSync(join(p, 'transcripts', 'x'))).toBe(false);
  });
});

/**
 * The .err extract copies for a spawn that opened no session is read as loading the probe reads it:
 * a FIFO had hung it, a folder crashed it, a link out of the probe was copied and bytes that are not
 * UTF-8 were replaced with U+FFFD.
 */
describe('extract reads a .err as loading the probe reads it', () => {
  const K_NEG = 'd3cf0e26-a1ed-4b31-a089-d5cb5362c159';
  const S = 'aaaaaaaa-0000-4000-8000-000000000001';
  const HINT_FILE = '(an input folder holds only regular files and folders: remove it, or put the file itself in its place)';
  let root: string;
  let p: string;
  let n = 0;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'omg-extract-err-'));
    p = join(root, 'p');
    cpSync(bundled, p, { recursive: true });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const err = () => join(p, 'tool_use', `${K_NEG}.err`);
  async function extractWith(make: (path: string) => void) {
    rmSync(err(), { recursive: true, force: true });
    make(err());
    const out = join(root, `out-${++n}`);
    return cli(['extract', '--transcripts', join(p, 'transcripts'), '--results', join(p, 'results.jsonl'), '--out', out]);
  }
  const refused = (what: string) => ({ code: 1, stdout: '', stderr: `omg-evidence: ${p}/tool_use/${K_NEG}.err: ${what}\n` });

  it('a FIFO is named, never opened (it hung)', async () => {
    expect(await extractWith((e) => execFileSync('mkfifo', [e]))).toEqual(
      refused(`a FIFO (named pipe), where a file is expected; nothing was read from it ${HINT_FILE}`),
    );
  });

  it('a folder (it was "unexpected error: EISDIR")', async () => {
    expect(await extractWith((e) => mkdirSync(e))).toEqual(
      refused(`a directory, where a file is expected; nothing was read from it ${HINT_FILE}`),
    );
  });

  it('a symbolic link out of the probe (its file had been copied)', async () => {
    writeFileSync(join(root, 'outside.txt'), 'not the evidence\n');
    expect(await extractWith((e) => symlinkSync(join(root, 'outside.txt'), e))).toEqual(
      refused(
        `a symbolic link that resolves outside ${p} (to ${root}/outside.txt); nothing was read from it (evidence is read from inside its folder: copy the file in rather than linking to it)`,
      ),
    );
  });

  it('bytes that are not UTF-8, at their line, as loading the probe says (they were written as U+FFFD)', async () => {
    const dir = join('test', 'fixtures', 'extract', 'err-not-utf8');
    const out = join(root, 'not-utf8');
    const message = {
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${dir}/tool_use/${S}.err:2: invalid UTF-8 (a spawn's .err holds the text it wrote on stderr: save it as UTF-8)\n`,
    };
    expect(
      await cli(['extract', '--transcripts', join(bundled, 'transcripts'), '--results', join(dir, 'results.jsonl'), '--out', out]),
    ).toEqual(message);
    expect(existsSync(out)).toBe(false);
    expect(await cli(['census', dir])).toEqual(message);
  });

  it('a BOM, CRLF and no last newline are copied byte for byte', async () => {
    const dir = join('test', 'fixtures', 'extract', 'err-bom');
    const out = join(root, 'bom');
    const run = await cli([
      'extract',
      '--transcripts',
      join(bundled, 'transcripts'),
      '--results',
      join(dir, 'results.jsonl'),
      '--out',
      out,
    ]);
    expect(run.code).toBe(0);
    expect(readFileSync(join(out, 'tool_use', `${S}.err`))).toEqual(readFileSync(join(dir, 'tool_use', `${S}.err`)));
  });
});

/**
 * A transcripts folder holds regular files (and folders of them): anything else a reader would open
 * is an error naming its path. Each case is made in a temporary folder: FIFOs and links cannot be
 * committed as fixtures.
 */
describe('the file system: a transcripts folder', () => {
  const HINT_FILE = '(an input folder holds only regular files and folders: remove it, or put the file itself in its place)';
  const HINT_OUT = '(evidence is read from inside its folder: copy the file in rather than linking to it)';
  const source = join(repo, 'test', 'fixtures', 'transcripts', 'census-two-sessions');
  let root: string;
  let n = 0;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'omg-tfs-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  function folder(change: (dir: string) => void): string {
    const dir = join(root, `${++n}`);
    cpSync(source, dir, { recursive: true });
    change(dir);
    return dir;
  }
  const census = (dir: string) => cli(['census', '--transcripts', dir]);
  const error = (message: string) => ({ code: 1, stdout: '', stderr: `omg-evidence: ${message}\n` });

  it('a FIFO named *.jsonl is refused, never opened (census hung on one)', async () => {
    const dir = folder((d) => execFileSync('mkfifo', [join(d, 'pipe.jsonl')]));
    expect(await census(dir)).toEqual(
      error(`${dir}/pipe.jsonl: a FIFO (named pipe), where a file is expected; nothing was read from it ${HINT_FILE}`),
    );
  });

  it('--transcripts naming a FIFO says what it is (it was "neither a folder nor a .jsonl file")', async () => {
    const fifo = join(root, `${++n}.jsonl`);
    execFileSync('mkfifo', [fifo]);
    expect(await census(fifo)).toEqual(
      error(
        `${fifo}: a FIFO (named pipe), where a folder or a .jsonl file is expected (pass --transcripts DIR, the folder of the session files, e.g. ~/.claude/projects/<slug>)`,
      ),
    );
  });

  it('a directory named *.jsonl', async () => {
    const dir = folder((d) => mkdirSync(join(d, 'sub', 'agent-1.jsonl'), { recursive: true }));
    expect(await census(dir)).toEqual(
      error(`${dir}/sub/agent-1.jsonl: a directory, where a file is expected; nothing was read from it ${HINT_FILE}`),
    );
  });

  it('a dangling symbolic link, and a loop', async () => {
    const dangling = folder((d) => symlinkSync('gone', join(d, 'gone.jsonl')));
    expect(await census(dangling)).toEqual(
      error(`${dangling}/gone.jsonl: a dangling symbolic link: it points at gone, which does not exist ${HINT_FILE}`),
    );
    const loop = folder((d) => symlinkSync('loop.jsonl', join(d, 'loop.jsonl')));
    expect(await census(loop)).toEqual(error(`${loop}/loop.jsonl: a symbolic link loop (ELOOP) ${HINT_FILE}`));
  });

  it('files that look like sessions and are not read are named in one warning (they were skipped in silence)', async () => {
    const dir = folder((d) => {
      for (const name of ['B.JSONL', 'c.jsonl.gz', 'd.jsonl.bak']) writeFileSync(join(d, name), '');
    });
    const run = await census(dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe((await census(source)).stdout);
    expect(run.stderr).toBe(
      `omg-evidence: warning: ${dir}: 3 file(s) not read, as only names ending in .jsonl are sessions: B.JSONL, c.jsonl.gz, d.jsonl.bak\n`,
    );
  });

  it('transcripts that hold no line warn, as a folder of no *.jsonl does (they gave an empty table in silence)', async () => {
    const empty = join(root, `${++n}.jsonl`);
    writeFileSync(empty, '');
    const blank = join(root, `${++n}`);
    mkdirSync(blank);
    writeFileSync(join(blank, 'a.jsonl'), '\ufeff\n \r\n\t\f\v\n');
    writeFileSync(join(blank, 'b.jsonl'), '');
    for (const args of [['census'], ['skills'], ['usage', 'session']]) {
      expect((await cli([...args, '--transcripts', empty])).stderr).toBe(
        `omg-evidence: warning: ${empty}: holds no line, so no session was read\n`,
      );
      expect((await cli([...args, '--transcripts', blank])).stderr).toBe(
        `omg-evidence: warning: ${blank}: its 2 *.jsonl file(s) hold no line, so no session was read\n`,
      );
    }
  });

  it('a linked folder is walked once, however it loops back', async () => {
    const dir = folder((d) => symlinkSync('.', join(d, 'again')));
    const run = await census(dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe((await census(source)).stdout);
  });

  it('a symbolic link that resolves outside the folder, to a file or a folder', async () => {
    const file = folder((d) => symlinkSync('/etc/passwd', join(d, 'passwd.jsonl')));
    expect(await census(file)).toEqual(
      error(`${file}/passwd.jsonl: a symbolic link that resolves outside ${file} (to /etc/passwd); nothing was read from it ${HINT_OUT}`),
    );
    const dir = folder((d) => symlinkSync(source, join(d, 'elsewhere')));
    expect(await census(dir)).toEqual(
      error(`${dir}/elsewhere: a symbolic link that resolves outside ${dir} (to ${source}); nothing was read from it ${HINT_OUT}`),
    );
  });

  // chmod 000 stops no read when the tests run as root (as in CI's container), so this runs only as another user.
  it.skipIf(process.getuid?.() === 0)('a file that cannot be read (EACCES)', async () => {
    const dir = folder((d) => chmodSync(join(d, 'aaaaaaaa-0000-4000-8000-000000000002.jsonl'), 0));
    expect(await census(dir)).toEqual(
      error(
        `${dir}/aaaaaaaa-0000-4000-8000-000000000002.jsonl: cannot be read (EACCES) (check that the file exists and that you may read it)`,
      ),
    );
  });
});
