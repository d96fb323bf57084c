/**
 * Usage and cost (#19): transcript_messages, the response columns of transcript_sessions, the
 * price table, `usage` and `agree --usage`.
 *
 * The real-data expectations come from test/usage-count.mjs, a separate plain line reader that
 * shares no code or SQL with omg-evidence. Its method (stated in its header): every assistant line
 * with message.usage is a snapshot of the response its message.id and requestId name (a line
 * without requestId takes its message's); the snapshot with the most output_tokens counts, the
 * later read on ties; each response counts once, in the session of its first line read. Cost is
 * then tokens × data/pricing.json's prices, computed here in JavaScript.
 *
 * Every test sets HOME (and CLAUDE_CONFIG_DIR where it matters) to fixtures: none reads the
 * tester's own sessions.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TRANSCRIPT_REPORT_QUERIES } from '../src/analysis/report.js';
import { sourceName } from '../src/cli/commands/report.js';
import { Database } from '../src/db/database.js';
import { Evidence } from '../src/evidence.js';
import { findTranscripts, namedInputs } from '../src/load/inputs.js';
import { loadInputs } from '../src/load/open.js';
import { loadTranscripts } from '../src/load/transcripts.js';
import { bin, bundled, cli, probeFixture, repo, shared, withoutShared } from './helpers.js';

const samples = join(shared, 'samples', 'claude-code', 'transcripts');
const fixture = (name: string) => join('test', 'fixtures', 'usage', name);
const HOME = { HOME: join(repo, 'test', 'fixtures', 'usage', 'nowhere') };
const FIELDS = ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const;

const tmp = mkdtempSync(join(tmpdir(), 'omg-usage-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Counted = Record<string, number> & { models: Record<string, Record<string, number>> };

/** The independent count of test/usage-count.mjs over `dir`. */
function independentCount(dir: string): Record<string, Counted> {
  return JSON.parse(execFileSync(process.execPath, [join(repo, 'test', 'usage-count.mjs'), dir], { encoding: 'utf8' }));
}

const pricing = JSON.parse(readFileSync(join(repo, 'data', 'pricing.json'), 'utf8')) as {
  models: Record<string, Record<'input' | 'output' | 'cache_write_5m' | 'cache_write_1h' | 'cache_read', number>>;
};

/** A session's cost from the independent counts and the price table. */
function costOf(c: Counted): number {
  let usd = 0;
  for (const [model, t] of Object.entries(c.models)) {
    if (model === '<synthetic>') continue;
    const p = pricing.models[model.replace(/(-\d{8})?(\[[^\]]*\])?$/, '')]!;
    const h1 = t.cache_creation_1h_input_tokens!;
    usd +=
      (t.input_tokens! * p.input +
        t.output_tokens! * p.output +
        (t.cache_creation_input_tokens! - h1) * p.cache_write_5m +
        h1 * p.cache_write_1h +
        t.cache_read_input_tokens! * p.cache_read) /
      1e6;
  }
  return usd;
}

async function sessionsOf(dir: string, options: { transcripts?: boolean } = {}): Promise<Record<string, Record<string, unknown>>> {
  const ev = options.transcripts ? await Evidence.open([dir], { transcripts: true }) : await Evidence.openTranscripts(dir);
  try {
    const rows = (await ev.sqlResult('select * from transcript_sessions')).rows;
    return Object.fromEntries(rows.map((r) => [String(r.session_id), r]));
  } finally {
    await ev.close();
  }
}

async function messagesOf(dir: string, warnings: string[] = []): Promise<Record<string, unknown>[]> {
  const ev = await Evidence.openTranscripts(dir, { onWarning: (w) => warnings.push(w) });
  try {
    return (await ev.sqlResult('select * from transcript_messages order by first_timestamp, file, rec')).rows;
  } finally {
    await ev.close();
  }
}

function expectCounts(got: Record<string, Record<string, unknown>>, want: Record<string, Counted>): void {
  expect(Object.keys(want).length).toBeGreaterThan(0);
  for (const [session, c] of Object.entries(want)) {
    const s = got[session]!;
    expect({ session, responses: Number(s.responses), ...Object.fromEntries(FIELDS.map((f) => [f, Number(s[f])])) }).toEqual({
      session,
      responses: c.responses,
      ...Object.fromEntries(FIELDS.map((f) => [f, c[f]])),
    });
    expect(Number(s.cost_usd)).toBeCloseTo(costOf(c), 8);
  }
}

describe('token totals equal an independent count (test/usage-count.mjs)', () => {
  it.skipIf(withoutShared(samples, 'usage.test.ts: the samples in ../shared'))(
    'every session of the real samples in ../shared, per field, and its cost from those counts',
    async () => {
      expectCounts(await sessionsOf(samples), independentCount(samples));
    },
  );

  it.skipIf(withoutShared(samples, 'usage.test.ts: the 2.0.58 sample'))(
    "the 2.0.58 session's own file: 7,298 output tokens at each response's last line, not 4,370 at its first (#19)",
    async () => {
      const file = 'rcgray-phantom-reads__cc-2.0.58/c489af7a-584d-4276-a76c-ddb29f988ace.jsonl';
      const rows = (await messagesOf(samples)).filter((m) => m.file === file);
      expect(rows.reduce((n, m) => n + Number(m.output_tokens), 0)).toBe(7298);
    },
  );

  it("every session of the bundled probe's transcripts, and each spawn's cost equals its envelope's costUSD for the model", async () => {
    expectCounts(await sessionsOf(bundled, { transcripts: true }), independentCount(join(bundled, 'transcripts')));
    const r = await cli(['usage', '--by', 'spawn', '-f', 'json'], { env: HOME });
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
    const compared = rows.filter((s) => s.responses !== null);
    expect(compared).toHaveLength(27);
    for (const s of compared) expect({ seq: s.seq, ratio: s.models_ratio }).toEqual({ seq: s.seq, ratio: 1 });
  });

  it('every fixture of test/fixtures/usage', async () => {
    for (const name of [
      'streamed',
      'no-request-id',
      'subagent-copy',
      'tie-across-files',
      'synthetic',
      'days',
      'ids-with-colons',
      'empty-request-id',
      'mirror-only',
      'mirror-and-own-file',
      'request-other-session',
    ]) {
      const dir = join(repo, fixture(name));
      const got = await sessionsOf(dir);
      const want = independentCount(dir);
      for (const [session, c] of Object.entries(want)) {
        expect({ name, ...Object.fromEntries(FIELDS.map((f) => [f, Number(got[session]![f])])) }).toEqual({
          name,
          ...Object.fromEntries(FIELDS.map((f) => [f, c[f]])),
        });
      }
    }
  });
});

describe('how a response is counted (test/fixtures/usage)', () => {
  const pick = (m: Record<string, unknown>) => ({
    message_id: m.message_id,
    request_id: m.request_id,
    output_tokens: Number(m.output_tokens),
    cache_read_input_tokens: Number(m.cache_read_input_tokens),
    lines: Number(m.lines),
  });

  it('a streamed response counts at its final snapshot: the most output_tokens, the last line on ties', async () => {
    expect((await messagesOf(join(repo, fixture('streamed')))).map(pick)).toEqual([
      // Its lines say 1, 10, 42 and 42: the first line (ccusage's) would count 1.
      { message_id: 'msg_A', request_id: 'req_A', output_tokens: 42, cache_read_input_tokens: 2000, lines: 4 },
      { message_id: 'msg_B', request_id: 'req_B', output_tokens: 5, cache_read_input_tokens: 3000, lines: 1 },
    ]);
  });

  it('snapshots tied in two files: the one last in file order counts, in the session of the first', async () => {
    const rows = await messagesOf(join(repo, fixture('tie-across-files')));
    expect(rows.map((m) => ({ ...pick(m), session_id: m.session_id, file: m.file }))).toEqual([
      {
        message_id: 'msg_T',
        request_id: 'req_T',
        output_tokens: 50,
        cache_read_input_tokens: 2000,
        lines: 2,
        session_id: '44444444-0000-4000-8000-000000000004',
        file: '-work-tie/55555555-0000-4000-8000-000000000005.jsonl',
      },
    ]);
  });

  it("a resumed session's copies of the old session's responses count in the old one, whatever the files are called", async () => {
    // Claude Code 1.0.x wrote a resumed session (aaaaaaaa…) as a new file that starts with copies of the old
    // one's (bbbbbbbb…) lines, timestamps and ids kept, under its own sessionId. The copies tie on time; the
    // file whose responses end first holds them. In path order, aaaaaaaa… had taken msg_A1 and msg_A2.
    const rows = await messagesOf(join(repo, fixture('resumed-copy')));
    expect(rows.map((m) => ({ message_id: m.message_id, session_id: m.session_id, lines: Number(m.lines) }))).toEqual([
      { message_id: 'msg_A1', session_id: 'bbbbbbbb-0000-4000-8000-000000000001', lines: 4 },
      { message_id: 'msg_A2', session_id: 'bbbbbbbb-0000-4000-8000-000000000001', lines: 2 },
      { message_id: 'msg_B1', session_id: 'aaaaaaaa-0000-4000-8000-000000000002', lines: 1 },
    ]);
    // Its one Bash call, copied into both files, is one call in the report's tools per project (it was two).
    const tools = await cli(['sql', '--transcripts', fixture('resumed-copy'), '-f', 'csv', '-F', 'queries/tools_by_project.sql'], {
      env: HOME,
    });
    expect(tools.stdout).toBe(
      'project,other_projects,tool,other_tools,calls\r\n-Users-u-dev-app,false,Bash,false,1\r\n-Users-u-dev-app,false,Read,false,1\r\n',
    );
  });

  it('lines without requestId are de-duplicated by message.id; a line without message.id counts on its own', async () => {
    expect((await messagesOf(join(repo, fixture('no-request-id')))).map(pick)).toEqual([
      { message_id: 'msg_C', request_id: null, output_tokens: 30, cache_read_input_tokens: 1000, lines: 2 },
      { message_id: null, request_id: null, output_tokens: 7, cache_read_input_tokens: 1000, lines: 1 },
      // Its second line has no requestId: it takes the first's.
      { message_id: 'msg_D', request_id: 'req_D', output_tokens: 20, cache_read_input_tokens: 1000, lines: 2 },
    ]);
  });

  it("a response in a sub-agent's file and its parent's counts once, as the sub-agent's", async () => {
    const rows = await messagesOf(join(repo, fixture('subagent-copy')));
    expect(rows.map((m) => ({ ...pick(m), is_sidechain: m.is_sidechain, agent_id: m.agent_id }))).toEqual([
      {
        message_id: 'msg_E',
        request_id: 'req_E',
        output_tokens: 100,
        cache_read_input_tokens: 1000,
        lines: 1,
        is_sidechain: false,
        agent_id: null,
      },
      {
        message_id: 'msg_F',
        request_id: 'req_F',
        output_tokens: 9,
        cache_read_input_tokens: 1000,
        lines: 3,
        is_sidechain: true,
        agent_id: 'a1',
      },
    ]);
  });

  // One query per pass that reads responses: transcript_messages alone (responses), with
  // transcript_sessions (usage), with transcript_lines (full).
  const everyPass = [
    'from transcript_messages as m',
    'from transcript_messages as m join transcript_sessions as s using (session_id)',
    'from transcript_messages as m, (select count(*) from transcript_lines) as l',
  ];
  // The pass report --transcripts takes (the calls' lean fields, each response kept in a list per file
  // and session) has no SQL of its own on the command line: it is loaded for report's queries, as
  // report loads it, and the rows and warnings given as the command line would print them.
  const rowsInReportPass = async (dir: string, columns: string) => {
    const warnings: string[] = [];
    const loaded = await loadInputs(namedInputs([], dir, false), {
      queries: TRANSCRIPT_REPORT_QUERIES,
      onWarning: (w) => warnings.push(w),
    });
    try {
      const q = `select to_json(coalesce(list(t order by k), [])) as j
                 from (select ${columns}, row_number() over (order by m.first_timestamp) as k from transcript_messages as m) as t`;
      const rows = JSON.parse(String((await loaded.db.query(q)).rows[0]!.j)).map(({ k: _, ...r }: Record<string, unknown>) => r);
      return { code: 0, stderr: warnings.map((w) => `omg-evidence: warning: ${w}\n`).join(''), rows };
    } finally {
      loaded.db.close();
    }
  };
  const rowsInEveryPass = async (name: string, columns: string) => {
    const runs = [];
    for (const from of everyPass) {
      const r = await cli(['sql', '--transcripts', fixture(name), `select ${columns} ${from} order by m.first_timestamp`, '-f', 'json'], {
        env: HOME,
      });
      runs.push({ code: r.code, stderr: r.stderr, rows: JSON.parse(r.stdout || 'null') });
    }
    runs.push(await rowsInReportPass(join(repo, fixture(name)), columns));
    return runs;
  };

  it("many responses in many files load in report's pass in bounded memory (it had needed 3.3 GB for 20,000)", async () => {
    // 40 sessions of 500 responses, a file each: DuckDB had materialised the unnest of each file's listed
    // responses as a common subplan of messages.sql, in 11-14 s and 3.3 GB (report ran out of memory on every
    // bench corpus). The other passes keep responses as rows and never listed them.
    const [files, each] = [40, 500];
    const dir = join(tmp, 'many-responses');
    mkdirSync(join(dir, '-work-demo'), { recursive: true });
    for (let f = 0; f < files; f++) {
      const sid = `77777777-0000-4000-8000-${String(f).padStart(12, '0')}`;
      const line = (i: number) =>
        JSON.stringify({
          type: 'assistant',
          sessionId: sid,
          timestamp: new Date(Date.UTC(2026, 2, 1, 10) + i * 1000).toISOString(),
          requestId: `req_${f}_${i}`,
          message: {
            id: `msg_${f}_${i}`,
            model: 'claude-opus-4-5-20251101',
            content: [{ type: 'text', text: 'ok' }],
            usage: { input_tokens: 1, output_tokens: 2 },
          },
        });
      writeFileSync(join(dir, '-work-demo', `${sid}.jsonl`), `${Array.from({ length: each }, (_, i) => line(i)).join('\n')}\n`);
    }
    const n = files * each;
    // report's pass (the calls' lean fields and the responses, no line or result: what TRANSCRIPT_REPORT_QUERIES
    // read), within 1.5 GiB (the JSON reader alone takes 512 MiB).
    const db = await Database.open();
    try {
      await db.exec("SET GLOBAL memory_limit = '1536MiB'");
      await loadTranscripts(db, findTranscripts([dir]), { lines: false, results: false, mirrors: false, fullCalls: false });
      const row = (await db.query('select count(*) as n, sum(output_tokens) as output from transcript_messages')).rows[0]!;
      expect({ n: Number(row.n), output: Number(row.output) }).toEqual({ n, output: 2 * n });
    } finally {
      db.close();
    }
    // Its own bound: a busy machine (a suite beside it) had taken it past vitest's default.
  }, 120_000);

  it('an assistant line with no usage is a response of unknown tokens: counts and cost NULL (not 0), one warning naming its line and how many more, in every pass', async () => {
    const warning =
      'omg-evidence: warning: test/fixtures/usage/no-usage/-work-demo/44444444-0000-4000-8000-000000000041.jsonl:3: no line of this response has message.usage (nor of 1 more response(s)): its tokens and cost are left empty (null), as is the cost of every total that holds it\n';
    const rows = [
      { message_id: 'msg_U1', output_tokens: 20, cost_usd: 0.00164, lines: 1 },
      // usage: null, then a response whose two lines have no usage: they had been dropped in silence.
      { message_id: 'msg_N1', output_tokens: null, cost_usd: null, lines: 1 },
      { message_id: 'msg_N2', output_tokens: null, cost_usd: null, lines: 2 },
      // A response whose first line has no usage counts at the line that has one.
      { message_id: 'msg_P', output_tokens: 7, cost_usd: 0.001315, lines: 2 },
    ];
    for (const run of await rowsInEveryPass('no-usage', 'm.message_id, m.output_tokens, m.cost_usd, m.lines')) {
      expect(run).toEqual({ code: 0, stderr: warning, rows });
    }
    // A total that holds them has no cost, as one holding an unpriced response has none; its tokens are the known ones.
    const r = await cli(['usage', '--transcripts', fixture('no-usage'), '--timezone', 'UTC', '-f', 'json'], { env: HOME });
    expect([r.code, r.stderr]).toEqual([0, warning]);
    const total = (JSON.parse(r.stdout) as Record<string, unknown>[]).at(-1)!;
    expect([total.responses, total.output_tokens, total.cost_usd, total.unpriced]).toEqual([4, 27, null, 2]);
    expect(Object.values(await sessionsOf(join(repo, fixture('no-usage'))))[0]!.cost_usd).toBeNull();
  });

  it("a sub-agent's responses that only its parent's progress lines mirror are counted, at their final snapshot, as the sub-agent's, in every pass", async () => {
    const rows = [
      { message_id: 'msg_M0', request_id: 'req_M0', output_tokens: 30, is_sidechain: false, agent_id: null, lines: 1 },
      // Mirrored twice as it streamed (1, then 12 output tokens), at the sub-agent's own timestamp.
      { message_id: 'msg_M1', request_id: 'req_M1', output_tokens: 12, is_sidechain: true, agent_id: 'b1', lines: 2 },
      { message_id: 'msg_M2', request_id: 'req_M2', output_tokens: 4, is_sidechain: true, agent_id: 'b1', lines: 1 },
    ];
    const columns = 'm.message_id, m.request_id, m.output_tokens, m.is_sidechain, m.agent_id, m.lines';
    for (const run of await rowsInEveryPass('mirror-only', columns)) expect(run).toEqual({ code: 0, stderr: '', rows });
    const [first] = await rowsInEveryPass('mirror-only', "strftime(m.first_timestamp, '%H:%M:%S') as at");
    expect(first!.rows).toEqual([{ at: '11:00:01' }, { at: '11:00:02' }, { at: '11:00:06' }]);
    // A mirror that gives no timestamp of its own is at its progress line's (11:00:03), in every pass.
    const at = [{ at: '11:00:01' }, { at: '11:00:03' }, { at: '11:00:06' }];
    for (const run of await rowsInEveryPass('mirror-no-timestamp', "strftime(m.first_timestamp, '%H:%M:%S') as at")) {
      expect(run).toEqual({ code: 0, stderr: '', rows: at });
    }
  });

  it("a response in a sub-agent's own file and mirrored in its parent's progress lines counts once, its lines without requestId keyed by the mirror's", async () => {
    const rows = [
      { message_id: 'msg_M0', output_tokens: 30, agent_id: null, lines: 1, file: '-work-demo/66666666-0000-4000-8000-000000000061.jsonl' },
      {
        message_id: 'msg_M1',
        output_tokens: 12,
        agent_id: 'b1',
        lines: 4,
        file: '-work-demo/66666666-0000-4000-8000-000000000061/subagents/agent-b1.jsonl',
      },
      {
        message_id: 'msg_M2',
        output_tokens: 4,
        agent_id: 'b1',
        lines: 2,
        file: '-work-demo/66666666-0000-4000-8000-000000000061/subagents/agent-b1.jsonl',
      },
    ];
    const columns = 'm.message_id, m.output_tokens, m.agent_id, m.lines, m.file';
    for (const run of await rowsInEveryPass('mirror-and-own-file', columns)) expect(run).toEqual({ code: 0, stderr: '', rows });
  });

  it("a line without requestId takes its message's from its own session only: another session's message.id is another response", async () => {
    const rows = [
      { session_id: '77777777-0000-4000-8000-000000000071', message_id: 'msg_X', request_id: 'req_X', output_tokens: 50 },
      { session_id: '77777777-0000-4000-8000-000000000072', message_id: 'msg_X', request_id: null, output_tokens: 8 },
    ];
    const columns = 'm.session_id, m.message_id, m.request_id, m.output_tokens';
    for (const run of await rowsInEveryPass('request-other-session', columns)) expect(run).toEqual({ code: 0, stderr: '', rows });
  });

  it('<synthetic> costs nothing, and is not warned of', async () => {
    const warnings: string[] = [];
    const rows = await messagesOf(join(repo, fixture('synthetic')), warnings);
    expect(rows.map((m) => [m.model, Number(m.cost_usd)])).toEqual([
      ['claude-opus-4-5-20251101', (3 * 5 + 50 * 25 + 100 * 6.25 + 1000 * 0.5) / 1e6],
      ['<synthetic>', 0],
    ]);
    expect(warnings).toEqual([]);
  });

  it('a model missing from the price table costs null, never 0, with one warning naming it', async () => {
    const warnings: string[] = [];
    const rows = await messagesOf(join(repo, fixture('unpriced')), warnings);
    expect(rows.map((m) => [m.model, m.cost_usd === null ? null : Number(m.cost_usd)])).toEqual([
      ['claude-opus-4-5-20251101', (3 * 5 + 60 * 25 + 100 * 6.25 + 1000 * 0.5) / 1e6],
      ['claude-imaginary-9', null],
      ['claude-imaginary-9', null],
    ]);
    expect(warnings).toEqual([
      'no price for model claude-imaginary-9 in data/pricing.json: the cost of its 2 response(s) is left empty (null); --pricing FILE can price it',
    ]);
    const session = Object.values(await sessionsOf(join(repo, fixture('unpriced'))))[0]!;
    expect(session.cost_usd).toBeNull();
  });

  it('--pricing FILE replaces the price table', async () => {
    const file = join(tmp, 'prices.json');
    writeFileSync(
      file,
      JSON.stringify({
        as_of: '2026-01-01',
        source: ['test'],
        models: {
          'claude-opus-4-5': { input: 1, output: 1, cache_write_5m: 1, cache_write_1h: 1, cache_read: 1 },
          'claude-imaginary-9': { input: 2, output: 2, cache_write_5m: 2, cache_write_1h: 2, cache_read: 2 },
        },
      }),
    );
    const r = await cli(['usage', 'model', '--transcripts', fixture('unpriced'), '--pricing', file, '--timezone', 'UTC', '-f', 'json'], {
      env: HOME,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const costs = (JSON.parse(r.stdout) as Record<string, unknown>[]).map((row) => [row.key, row.cost_usd]);
    expect(costs).toEqual([
      ['claude-imaginary-9', (2 * (3 + 100 + 1000) * 2 + 2 * (70 + 80)) / 1e6],
      ['claude-opus-4-5-20251101', (3 + 60 + 100 + 1000) / 1e6],
      [null, (2 * (3 + 100 + 1000) * 2 + 2 * (70 + 80) + 3 + 60 + 100 + 1000) / 1e6],
    ]);
  });

  it('an empty message.id is no id: each such line is a response of its own (they had merged into one)', async () => {
    const r = await cli(['usage', '--transcripts', fixture('empty-id'), '--timezone', 'UTC', '-f', 'json'], { env: HOME });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as Record<string, unknown>[]).map((row) => [row.key, row.responses, row.input_tokens])).toEqual([
      ['2026-03-01', 2, 300],
      ['2026-03-02', 1, 300],
      [null, 3, 600],
    ]);
    // The column keeps the id as the line wrote it, though its key reads it as none.
    const ids = await cli(['sql', '--transcripts', fixture('empty-id'), '-f', 'json', 'select message_id from transcript_messages']);
    expect(JSON.parse(ids.stdout)).toEqual([{ message_id: '' }, { message_id: '' }, { message_id: '' }]);
  });

  it.each([
    // Joined into one key, "msg_1:b" with "c" and "msg_1" with "b:c" had merged.
    ['ids that hold a colon stay two responses', 'ids-with-colons', 2, 1003, 550],
    // The empty one had made a second response, its input counted twice.
    ['an empty requestId is no requestId: the line joins its message', 'empty-request-id', 1, 1000, 50],
  ])('%s', async (_, name, responses, input, output) => {
    const r = await cli(['usage', '--transcripts', fixture(name), '--timezone', 'UTC', '-f', 'json'], { env: HOME });
    const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(rows.map((row) => [row.key, row.responses, row.input_tokens, row.output_tokens])).toEqual([
      ['2026-03-01', responses, input, output],
      [null, responses, input, output],
    ]);
  });

  it("a response copied into another project's file counts where its first line is: session, project, cwd and branch together", async () => {
    const dir = fixture('project-of-first-line');
    const r = await cli(['usage', 'project', '--transcripts', dir, '--timezone', 'UTC', '-f', 'json'], { env: HOME });
    expect((JSON.parse(r.stdout) as Record<string, unknown>[]).map((row) => [row.key, row.responses, row.output_tokens])).toEqual([
      ['-work-A', 1, 50],
      [null, 1, 50],
    ]);
    const q = 'select session_id, project, cwd, git_branch, output_tokens from transcript_messages';
    const m = await cli(['sql', '--transcripts', dir, '-f', 'csv', q], { env: HOME });
    expect(m.stdout).toBe(
      'session_id,project,cwd,git_branch,output_tokens\r\n44444444-0000-4000-8000-000000000004,-work-A,/work/A,main,50\r\n',
    );
  });

  it('a session whose files are in two projects is in the project of its earliest line, as its cwd is (it was in the folder first by name)', async () => {
    // Its lines of 5 November are in -Users-u-zzz-old, those of 6 November in -Users-u-aaa-new. The first
    // query builds transcript_messages (cwd); the second reads no usage, and takes the census's pass.
    const dir = fixture('session-two-projects');
    const full = await cli(['sql', '--transcripts', dir, '-f', 'csv', 'select project, cwd from transcript_sessions'], { env: HOME });
    expect(full.stdout).toBe('project,cwd\r\n-Users-u-zzz-old,/Users/u/zzz-old\r\n');
    const lean = await cli(['sql', '--transcripts', dir, '-f', 'csv', 'select project from transcript_sessions'], { env: HOME });
    expect(lean.stdout).toBe('project\r\n-Users-u-zzz-old\r\n');
  });

  it('a usage that cannot be a count is an error at its line: a negative count, more 1-hour cache writes, or a split adding up to more, than writes', async () => {
    for (const [name, what] of [
      ['negative-tokens', '"message.usage.input_tokens" must not be negative, got -1000000'],
      [
        'cache-1h-over',
        '"message.usage.cache_creation.ephemeral_1h_input_tokens" must not exceed "cache_creation_input_tokens" (100), got 1000000',
      ],
      // The 5-minute share is priced as the writes less the 1-hour ones: a split past the total is no count.
      [
        'cache-split-over',
        '"message.usage.cache_creation.ephemeral_5m_input_tokens" plus the 1-hour writes (50) must not exceed "cache_creation_input_tokens" (100), got 60',
      ],
      // No cache_creation_input_tokens: none written, and the error still says what is wrong.
      [
        'cache-1h-no-writes',
        '"message.usage.cache_creation.ephemeral_1h_input_tokens" must not exceed "cache_creation_input_tokens" (0), got 4',
      ],
    ]) {
      const r = await cli(['usage', '--transcripts', fixture(name!), '--timezone', 'UTC'], { env: HOME });
      expect(r).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${fixture(name!)}/-work-demo/cccccccc-0000-4000-8000-000000000001.jsonl:1: transcript line: ${what} (a response's usage counts its tokens)\n`,
      });
    }
  });

  it('a token count that is not an integer is an error at its line, never a count DuckDB made of it ("12", 1.5, true, past 2^63 - 1)', async () => {
    for (const [name, what] of [
      ['tokens-string', '"message.usage.input_tokens" must be an integer, got "12"'],
      // Shown to its 60th character, then an ellipsis: cut without one, it had read as the whole value.
      ['tokens-string-long', `"message.usage.input_tokens" must be an integer, got "${'1'.repeat(59)}…`],
      ['tokens-fraction', '"message.usage.output_tokens" must be an integer, got 1.5'],
      ['tokens-past-bigint', '"message.usage.output_tokens" must be an integer of at most 2^63 - 1, got 9223372036854775808'],
      ['tokens-nested-bool', '"message.usage.cache_creation.ephemeral_5m_input_tokens" must be an integer, got true'],
      ['tokens-below-bigint', '"message.usage.input_tokens" must be an integer of at least -2^63, got -9223372036854775809'],
    ]) {
      const r = await cli(['usage', '--transcripts', fixture(name!), '--timezone', 'UTC'], { env: HOME });
      expect(r).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${fixture(name!)}/-work-demo/cccccccc-0000-4000-8000-000000000001.jsonl:2: transcript line: ${what} (a response's usage counts its tokens in integers)\n`,
      });
    }
    // Every pass that reads usage refuses it; census and skills, which read none, do not.
    const sql = await cli(['sql', '--transcripts', fixture('tokens-string'), 'select count(*) from transcript_lines, transcript_messages']);
    expect([sql.code, sql.stderr]).toEqual([
      1,
      expect.stringContaining('jsonl:2: transcript line: "message.usage.input_tokens" must be an integer'),
    ]);
    expect((await cli(['census', '--transcripts', fixture('tokens-string')])).code).toBe(0);
    // Only a response's usage is counted, and so checked: a user line's is not.
    const user = await cli(['usage', '--transcripts', fixture('user-line-usage'), '--timezone', 'UTC', '--format', 'csv'], { env: HOME });
    expect([user.code, user.stderr]).toEqual([0, '']);
    expect(user.stdout.split('\r\n')[1]).toBe('2026-03-01,false,1,1,10,5,0,0,15,0.000175,0');
  });

  // A mirror had passed unchecked: "5000" counted nothing, a string usage read as one of no tokens (review rev48b).
  it("a mirrored response's usage and timestamp are checked as a line's are, in every pass that reads usage", async () => {
    for (const [name, what, hint] of [
      [
        'mirror-tokens-string',
        '"data.message.message.usage.output_tokens" must be an integer, got "5000"',
        "a response's usage counts its tokens in integers",
      ],
      [
        'mirror-usage-string',
        '"data.message.message.usage" must be an object that counts tokens (input_tokens, output_tokens, cache_creation_input_tokens or cache_read_input_tokens), got "lots"',
        "a response's usage is an object of token counts, as Claude Code writes it",
      ],
      [
        'mirror-timestamp-number',
        '"data.message.timestamp" must be a string, got 12345',
        "a transcript line's timestamp and version are strings",
      ],
      // A count that is an integer but no count is named where the mirror holds it, not as the line's own usage.
      [
        'mirror-tokens-negative',
        '"data.message.message.usage.output_tokens" must not be negative, got -5000',
        "a response's usage counts its tokens",
      ],
      [
        'mirror-cache-1h-over',
        '"data.message.message.usage.cache_creation.ephemeral_1h_input_tokens" must not exceed "cache_creation_input_tokens" (100), got 1000000',
        "a response's usage counts its tokens",
      ],
    ]) {
      const file = `${fixture(name!)}/-work-demo/11111111-0000-4000-8000-000000000001.jsonl`;
      const stderr = `omg-evidence: ${file}:2: transcript line: ${what} (${hint})\n`;
      for (const args of [
        ['usage', '--transcripts', fixture(name!), '--timezone', 'UTC'],
        ['sql', '--transcripts', fixture(name!), 'select count(*) from transcript_tool_uses, transcript_messages'],
        ['sql', '--transcripts', fixture(name!), 'select count(*) from transcript_lines, transcript_messages'],
      ]) {
        expect(await cli(args, { env: HOME }), `${name} ${args[0]} ${args.at(-1)}`).toEqual({ code: 1, stdout: '', stderr });
      }
    }
  });

  it('usage that counts no token, or a cache_creation that is not an object, is an error at its line, never a response of no tokens', async () => {
    const COUNTS = 'an object that counts tokens (input_tokens, output_tokens, cache_creation_input_tokens or cache_read_input_tokens)';
    for (const [name, what] of [
      ['usage-not-object', `"message.usage" must be ${COUNTS}, got "lots"`],
      ['usage-countless', `"message.usage" must be ${COUNTS}, got {"service_tier":"standard"}`],
      ['cache-creation-not-object', '"message.usage.cache_creation" must be an object, got 3'],
    ]) {
      const r = await cli(['usage', '--transcripts', fixture(name!), '--timezone', 'UTC'], { env: HOME });
      expect(r).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${fixture(name!)}/-work-demo/cccccccc-0000-4000-8000-000000000001.jsonl:2: transcript line: ${what} (a response's usage is an object of token counts, as Claude Code writes it)\n`,
      });
    }
    // An empty cache_creation splits nothing: the response counts, its 5-minute and 1-hour writes unknown.
    const sql = await cli(
      [
        'sql',
        '--transcripts',
        fixture('cache-creation-empty'),
        'select input_tokens, cache_creation_input_tokens, cache_creation_5m_input_tokens, cache_creation_1h_input_tokens from transcript_messages',
        '--format',
        'json',
      ],
      { env: HOME },
    );
    expect([sql.code, JSON.parse(sql.stdout)]).toEqual([
      0,
      [{ input_tokens: 10, cache_creation_input_tokens: 3, cache_creation_5m_input_tokens: null, cache_creation_1h_input_tokens: null }],
    ]);
  });

  it('a cache_creation count that is JSON null is unknown, as a top-level count that is null is: no error, in every pass', async () => {
    for (const sql of [
      'select input_tokens, cache_creation_input_tokens, cache_creation_5m_input_tokens, cache_creation_1h_input_tokens from transcript_messages',
      'select m.input_tokens, m.cache_creation_input_tokens, m.cache_creation_5m_input_tokens, m.cache_creation_1h_input_tokens from transcript_messages as m, transcript_lines as l where l.rec = 2',
    ]) {
      const r = await cli(['sql', '--transcripts', fixture('cache-split-null'), sql, '--format', 'json'], { env: HOME });
      expect([r.code, r.stderr, JSON.parse(r.stdout || 'null')]).toEqual([
        0,
        '',
        [{ input_tokens: 10, cache_creation_input_tokens: 3, cache_creation_5m_input_tokens: null, cache_creation_1h_input_tokens: 2 }],
      ]);
    }
  });

  it('token counts that each fit but add up past 2^63 - 1 are an error at the line where they pass it, before any total is made', async () => {
    const name = 'tokens-total-past-bigint';
    for (const args of [['usage'], ['sql', 'select count(*) from transcript_sessions']]) {
      const r = await cli([...args, '--transcripts', fixture(name)], { env: HOME });
      expect(r).toEqual({
        code: 1,
        stdout: '',
        // Line 3: the blank line 2 is counted, as every physical line is.
        stderr: `omg-evidence: ${fixture(name)}/-work-demo/cccccccc-0000-4000-8000-000000000001.jsonl:3: transcript line: the token counts of the responses up to this one, in file order, add up to 10000000000000000020, past 2^63 - 1 (no total can hold them; no Claude Code session counts so many tokens)\n`,
      });
    }
  });

  it('a response that costs a billion dollars or more is priced (cost_usd is DECIMAL(38,9)), not a conversion error', async () => {
    const r = await cli(['usage', 'session', '--transcripts', fixture('huge-cost'), '--timezone', 'UTC', '--format', 'json'], {
      env: HOME,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [row] = JSON.parse(r.stdout) as { output_tokens: number; cost_usd: number }[];
    // 900,000,000,000,000 output tokens at $25 per million, and 1,000 input tokens at $5 per million.
    expect([row!.output_tokens, row!.cost_usd]).toEqual([900_000_000_000_000, 22_500_000_000.005]);
    // Exact in SQL too, to the last of its nine decimals (per million as a DECIMAL factor, never a DOUBLE).
    const exact = await cli(['sql', '-f', 'csv', '--transcripts', fixture('huge-cost'), 'select cost_usd from transcript_messages']);
    expect(exact.stdout).toBe('cost_usd\r\n22500000000.005000000\r\n');
  });

  it('a cost no double holds to the cent is its exact decimal in json, csv and markdown ($225179981368524.83 had printed …524.84)', async () => {
    const args = ['usage', '--transcripts', fixture('cost-past-cents'), '--timezone', 'UTC'];
    const json = JSON.parse((await cli([...args, '-f', 'json'], { env: HOME })).stdout) as { cost_usd: unknown }[];
    expect(json.map((r) => r.cost_usd)).toEqual(['225179981368524.830000000', '225179981368524.830000000']);
    expect((await cli([...args, '-f', 'csv'], { env: HOME })).stdout).toContain(',225179981368524.830000000,');
    expect((await cli([...args, '-f', 'markdown'], { env: HOME })).stdout).toContain('| $225179981368524.8300 |');
  });

  it('a response that names no model: "(no model)" in the model report, "(none)" under --breakdown, and is_breakdown tells its row apart', async () => {
    const args = ['--transcripts', fixture('no-model'), '--timezone', 'UTC'];
    const model = await cli(['usage', 'model', ...args, '-f', 'markdown'], { env: HOME });
    expect(model.stdout.split('\n').filter((l) => l.startsWith('| ('))).toEqual([
      expect.stringMatching(/^\| \(no model\) \| 1 \| 1 \| 1 \| 5 \|/),
    ]);
    const md = await cli(['usage', '--breakdown', ...args, '-f', 'markdown'], { env: HOME });
    expect(
      md.stdout
        .split('\n')
        .slice(2, 5)
        .map((l) => l.split(' | ').slice(0, 2).join(' | ')),
    ).toEqual(['| 2026-03-01 | ', '|  | (none)', '|  | claude-opus-4-5']);
    const csv = await cli(['usage', '--breakdown', ...args, '-f', 'csv'], { env: HOME });
    expect(csv.stdout.split('\r\n').map((l) => l.split(',').slice(0, 4).join(','))).toEqual([
      'key,model,is_total,is_breakdown',
      '2026-03-01,,false,false',
      '2026-03-01,,false,true',
      '2026-03-01,claude-opus-4-5,false,true',
      ',,true,false',
      '',
    ]);
  });

  it("lines of one response that name different models are counted once, under the final line's, with a warning naming a line", async () => {
    const dir = fixture('mixed-models');
    const r = await cli(['usage', 'model', '--transcripts', dir, '--timezone', 'UTC', '-f', 'csv'], { env: HOME });
    expect(r.stdout.split('\r\n')[1]).toBe('claude-haiku-4-5,false,1,1,10,200,0,0,210,0.00101,0');
    expect(r.stderr).toBe(
      `omg-evidence: warning: ${dir}/-work-demo/aaaaaaaa-0000-4000-8000-000000000001.jsonl:2: the lines of a response (one message.id) name different models: each is counted once, under the model of its final snapshot (its line of the most output tokens, the last on ties)\n`,
    );
    // The flag that found it is not a column of the view.
    const cols = await cli([
      'sql',
      '--transcripts',
      dir,
      '-f',
      'csv',
      "select count(*) from information_schema.columns where column_name = 'mixed_models'",
    ]);
    expect(cols.stdout).toBe('count_star()\r\n0\r\n');
  });

  it('of lines that name models, the last one counts, not the greatest by name; an empty model is none', async () => {
    const dir = join(tmp, 'last-named', '-work-demo');
    mkdirSync(dir, { recursive: true });
    const line = (at: number, model: string, out: number) =>
      JSON.stringify({
        type: 'assistant',
        sessionId: 'aaaaaaaa-0000-4000-8000-000000000001',
        timestamp: `2026-03-01T10:00:0${at}Z`,
        requestId: 'r',
        message: { id: 'm', model, usage: { input_tokens: 1, output_tokens: out } },
      });
    writeFileSync(
      join(dir, 'aaaaaaaa-0000-4000-8000-000000000001.jsonl'),
      `${line(1, 'claude-opus-4-5', 1)}\n${line(2, 'claude-haiku-4-5', 2)}\n${line(3, '', 300)}\n`,
    );
    const r = await cli(['usage', 'model', '--transcripts', join(tmp, 'last-named'), '--timezone', 'UTC', '-f', 'csv'], { env: HOME });
    expect(r.stdout.split('\r\n')[1]).toBe('claude-haiku-4-5,false,1,1,1,300,0,0,301,0.001501,0');
  });

  it("a response whose final line names no model takes the model its other lines name (it had been unpriced, as '(no model)')", async () => {
    const r = await cli(['usage', 'model', '--transcripts', fixture('final-line-no-model'), '--timezone', 'UTC', '-f', 'csv'], {
      env: HOME,
    });
    expect([r.stdout.split('\r\n')[1], r.stderr]).toEqual(['claude-opus-4-5,false,1,1,10,50,0,0,60,0.0013,0', '']);
  });

  it('--pricing reads the file it names, never a glob: prices[1].json is not prices1.json', async () => {
    const table = (price: number) =>
      JSON.stringify({
        as_of: '2026-01-01',
        source: ['test'],
        models: { 'claude-opus-4-5': { input: price, output: price, cache_write_5m: price, cache_write_1h: price, cache_read: price } },
      });
    writeFileSync(join(tmp, 'prices[1].json'), table(1));
    writeFileSync(join(tmp, 'prices1.json'), table(1000));
    const r = await cli(
      ['usage', 'model', '--transcripts', fixture('unpriced'), '--pricing', join(tmp, 'prices[1].json'), '--timezone', 'UTC', '-f', 'json'],
      { env: HOME },
    );
    const opus = (JSON.parse(r.stdout) as Record<string, unknown>[]).find((row) => row.key === 'claude-opus-4-5-20251101');
    expect(opus?.cost_usd).toBe((3 + 60 + 100 + 1000) / 1e6);
  });

  const priceTable = (models: Record<string, number>) =>
    JSON.stringify({
      as_of: '2026-01-01',
      source: ['test'],
      models: Object.fromEntries(
        Object.entries(models).map(([m, p]) => [m, { input: p, output: p, cache_write_5m: p, cache_write_1h: p, cache_read: p }]),
      ),
    });
  const modelCost = async (pricingFile: string) => {
    const r = await cli(
      ['usage', 'model', '--transcripts', fixture('unpriced'), '--pricing', pricingFile, '--timezone', 'UTC', '-f', 'json'],
      {
        env: HOME,
      },
    );
    return {
      ...r,
      opus: (r.code === 0 ? (JSON.parse(r.stdout) as Record<string, unknown>[]) : []).find((row) => row.key === 'claude-opus-4-5-20251101'),
    };
  };

  it('a key of the price table with its date prices the model as one without it does', async () => {
    const file = join(tmp, 'dated.json');
    writeFileSync(file, priceTable({ 'claude-opus-4-5-20251101': 1000 }));
    expect((await modelCost(file)).opus?.cost_usd).toBe(((3 + 60 + 100 + 1000) * 1000) / 1e6);
  });

  it('a model priced twice is refused: a key written twice, two tables in one file, a key with and without its date', async () => {
    const hint =
      '(a price table is {"as_of": DATE, "source": [URL], "models": {ID: {input, output, cache_write_5m, cache_write_1h, cache_read}}} (docs/views.md))';
    const one = priceTable({ 'claude-opus-4-5': 1 });
    for (const [name, body, said] of [
      [
        'twice.json',
        one.replace(
          '"models":{',
          '"models":{"claude-opus-4-5":{"input":2,"output":2,"cache_write_5m":2,"cache_write_1h":2,"cache_read":2},',
        ),
        ':1: key "claude-opus-4-5" is repeated within one object (readers disagree on which copy wins: keep one)',
      ],
      ['two-tables.json', `${one}\n${one}\n`, `: the file holds 2 JSON documents: a price table is one ${hint}`],
      [
        'dated-and-not.json',
        priceTable({ 'claude-opus-4-5': 1, 'claude-opus-4-5-20251101': 1 }),
        `: model claude-opus-4-5 is priced more than once (claude-opus-4-5, claude-opus-4-5-20251101): keep one ${hint}`,
      ],
    ]) {
      const file = join(tmp, name!);
      writeFileSync(file, body!);
      const r = await modelCost(file);
      expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${file}${said}\n`,
      });
    }
  });

  it('--pricing names one regular file: a folder, a FIFO or nothing is refused (a folder had its every file read)', async () => {
    const folder = join(tmp, 'prices');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.json'), priceTable({ 'claude-opus-4-5': 1 }));
    const fifo = join(tmp, 'prices.fifo');
    execFileSync('mkfifo', [fifo]);
    for (const [file, what] of [
      [folder, 'a directory, where a price table is expected (give the path of a price table)'],
      [fifo, 'a FIFO (named pipe), where a price table is expected (give the path of a price table)'],
      [join(tmp, 'none.json'), 'no such file (give --pricing the path of a price table)'],
    ]) {
      const r = await modelCost(file!);
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 1, stderr: `omg-evidence: ${file}: ${what}\n` });
    }
  });

  it('a price table that is not one is refused, naming the file and what is wrong', async () => {
    const file = join(tmp, 'short.json');
    writeFileSync(file, JSON.stringify({ as_of: '2026-01-01', source: [], models: { m: { input: 1, output: 1, cache_read: 1 } } }));
    const r = await cli(['usage', '--transcripts', fixture('streamed'), '--pricing', file], { env: HOME });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `omg-evidence: ${file}: model m: "cache_write_1h" must be a non-negative number of USD per million tokens` +
        ' (a price table is {"as_of": DATE, "source": [URL], "models": {ID: {input, output, cache_write_5m, cache_write_1h, cache_read}}} (docs/views.md))\n',
    );
  });

  it('a table with no model is said to have none, and one with models but no date to have no date', async () => {
    const hint =
      ' (a price table is {"as_of": DATE, "source": [URL], "models": {ID: {input, output, cache_write_5m, cache_write_1h, cache_read}}} (docs/views.md))\n';
    const none = join(tmp, 'no-model.json');
    writeFileSync(none, JSON.stringify({ as_of: '2026-01-01', source: ['x'], models: {} }));
    expect((await cli(['usage', '--transcripts', fixture('streamed'), '--pricing', none], { env: HOME })).stderr).toBe(
      `omg-evidence: ${none}: no model in "models"${hint}`,
    );
    const undated = join(tmp, 'undated.json');
    writeFileSync(undated, priceTable({ 'claude-opus-4-5': 1 }).replace(/"as_of":"[^"]*",/, ''));
    expect((await cli(['usage', '--transcripts', fixture('streamed'), '--pricing', undated], { env: HOME })).stderr).toBe(
      `omg-evidence: ${undated}: no "as_of" date: say when the prices were read${hint}`,
    );
  });

  it('a price that six decimals would round (0.0000005 to 0), or a million or more, is refused, never priced as another', async () => {
    const hint =
      ' (a price table is {"as_of": DATE, "source": [URL], "models": {ID: {input, output, cache_write_5m, cache_write_1h, cache_read}}} (docs/views.md))\n';
    for (const [price, shown] of [
      [0.0000005, '5e-7'],
      [1000000, '1000000'],
      [123.4567891, '123.4567891'],
    ] as const) {
      const file = join(tmp, `price-${shown}.json`);
      const prices = { input: price, output: 1, cache_write_5m: 1, cache_write_1h: 1, cache_read: 1 };
      writeFileSync(file, JSON.stringify({ as_of: '2026-01-01', source: [], models: { m: prices } }));
      const r = await cli(['usage', '--transcripts', fixture('streamed'), '--pricing', file], { env: HOME });
      expect({ code: r.code, stderr: r.stderr }).toEqual({
        code: 1,
        stderr: `omg-evidence: ${file}: model m: "input" is ${shown}, which is not a price to six decimals below 1,000,000 USD per million tokens${hint}`,
      });
    }
  });

  // A JSON reader would cast them (true as 1, "1e2" as 100): a price is a JSON number, and a price
  // table one JSON document, not two whose models merge.
  it('a price that is not a JSON number, or a file of two price tables, is refused', async () => {
    const hint =
      ' (a price table is {"as_of": DATE, "source": [URL], "models": {ID: {input, output, cache_write_5m, cache_write_1h, cache_read}}} (docs/views.md))\n';
    const table = (input: unknown, model = 'm') =>
      JSON.stringify({
        as_of: '2026-01-01',
        source: [],
        models: { [model]: { input, output: 1, cache_write_5m: 1, cache_write_1h: 1, cache_read: 1 } },
      });
    for (const input of [true, '1e2', ' 7 ', [1], null]) {
      const file = join(tmp, 'typed.json');
      writeFileSync(file, table(input));
      const r = await cli(['usage', '--transcripts', fixture('streamed'), '--pricing', file], { env: HOME });
      expect({ code: r.code, stderr: r.stderr }, JSON.stringify(input)).toEqual({
        code: 1,
        stderr: `omg-evidence: ${file}: model m: "input" must be a non-negative number of USD per million tokens${hint}`,
      });
    }
    const two = join(tmp, 'two.json');
    writeFileSync(two, `${table(1, 'a')}\n${table(2, 'b')}\n`);
    const r = await cli(['usage', '--transcripts', fixture('streamed'), '--pricing', two], { env: HOME });
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 1,
      stderr: `omg-evidence: ${two}: the file holds 2 JSON documents: a price table is one${hint}`,
    });
  });

  it('a price table is one RFC 8259 document with no key it does not read: a second document, a trailing comma, a rate of another name are refused', async () => {
    const hint =
      ' (a price table is {"as_of": DATE, "source": [URL], "models": {ID: {input, output, cache_write_5m, cache_write_1h, cache_read}}} (docs/views.md))\n';
    const prices = '{"input": 5, "output": 25, "cache_write_5m": 6.25, "cache_write_1h": 10, "cache_read": 0.5';
    const table = (model: string, top = '') =>
      `{"as_of": "2026-01-01", "source": []${top}, "models": {"claude-opus-4-5": ${prices}${model}}}}`;
    for (const [name, body, said] of [
      // A second document with no model had added no row, and passed.
      ['then-empty.json', `${table('')}\n{}\n`, 'the file holds 2 JSON documents: a price table is one'],
      ['then-null.json', `${table('')} null`, 'the file holds 2 JSON documents: a price table is one'],
      ['comma.json', `${table(',')}`.replace('}}}', '},}}'), null],
      [
        'rate.json',
        table(', "long_context_input": 10'),
        'model claude-opus-4-5: "long_context_input" is not a price omg-evidence reads (input, output, cache_write_5m, cache_write_1h, cache_read)',
      ],
      ['top.json', table('', ', "currency": "EUR"'), '"currency" is not a key of a price table (it has as_of, source, unit and models)'],
    ]) {
      const file = join(tmp, name!);
      writeFileSync(file, body!);
      const r = await cli(['usage', '--transcripts', fixture('streamed'), '--pricing', file], { env: HOME });
      const stderr =
        said === null
          ? `omg-evidence: ${file}:1: a trailing comma before ] or } (RFC 8259 has none) (remove the comma)\n`
          : `omg-evidence: ${file}: ${said}${hint}`;
      expect({ name, code: r.code, stderr: r.stderr }).toEqual({ name, code: 1, stderr });
    }
  });

  // Review rev45c: listing each model's keys joined json_each to the table, which parsed the whole table once per
  // model (bench/README.md has the figures); a file past 1 MiB is refused before it is read.
  it('a price table of many models is checked; one past 1 MiB is refused', async () => {
    const prices = { input: 1, output: 1, cache_write_5m: 1, cache_write_1h: 1, cache_read: 1 };
    const models: Record<string, object> = {};
    for (let i = 0; i < 3000; i++) models[`model-${i}`] = prices;
    models['model-2999'] = { ...prices, long_context_input: 2 };
    const many = join(tmp, 'many.json');
    writeFileSync(many, JSON.stringify({ as_of: '2026-01-01', source: [], models }));
    const r = await cli(['usage', '--transcripts', fixture('streamed'), '--pricing', many], { env: HOME });
    expect(r.stderr).toMatch(/^omg-evidence: .*many\.json: model model-2999: "long_context_input" is not a price omg-evidence reads/);
    const big = join(tmp, 'big.json');
    writeFileSync(big, `${JSON.stringify({ as_of: '2026-01-01', source: [], models: { m: prices } })}${' '.repeat(1048576)}`);
    const b = await cli(['usage', '--transcripts', fixture('streamed'), '--pricing', big], { env: HOME });
    expect({ code: b.code, stderr: b.stderr }).toEqual({
      code: 1,
      stderr: `omg-evidence: ${big}: 1048701 bytes, past the 1 MiB (1048576 bytes) a price table may hold (keep the models your transcripts use)\n`,
    });
  }, 60_000);

  it("what DuckDB finds wrong is said without the file's absolute path or advice on read_json's options", async () => {
    const hint =
      ' (a price table is {"as_of": DATE, "source": [URL], "models": {ID: {input, output, cache_write_5m, cache_write_1h, cache_read}}} (docs/views.md))\n';
    for (const [name, body, found] of [
      [
        'array.json',
        '{"as_of": "2026-01-01", "source": [], "models": [1]}',
        'JSON transform error in record/value 1: Expected OBJECT, but got ARRAY: [1]',
      ],
      [
        'date.json',
        '{"as_of": "yesterday", "source": [], "models": {}}',
        'JSON transform error in record/value 1: invalid date field format: "yesterday", expected format is (YYYY-MM-DD)',
      ],
    ]) {
      const file = join(tmp, name!);
      writeFileSync(file, body!);
      const r = await cli(['usage', '--transcripts', fixture('streamed'), '--pricing', file], { env: HOME });
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 1, stderr: `omg-evidence: ${file}: not a price table (${found})${hint}` });
    }
  });
});

describe('usage: --since, --until and --timezone at day boundaries (test/fixtures/usage/days)', () => {
  // Responses at 14:30Z and 15:30Z on 1 March, 07:30Z and 08:30Z on 2 March, of 1, 10, 100 and
  // 1,000 output tokens: Tokyo (+09:00) turns its day between the first two, Los Angeles (-08:00)
  // between the last two.
  const daily = async (...args: string[]) => {
    const r = await cli(['usage', '--transcripts', fixture('days'), '-f', 'json', ...args], { env: HOME });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return (JSON.parse(r.stdout) as Record<string, unknown>[]).map((row) => [row.key, row.output_tokens]);
  };

  it('days are counted in the time zone asked for', async () => {
    expect(await daily('--timezone', 'UTC')).toEqual([
      ['2026-03-01', 11],
      ['2026-03-02', 1100],
      [null, 1111],
    ]);
    expect(await daily('--timezone', 'Asia/Tokyo')).toEqual([
      ['2026-03-01', 1],
      ['2026-03-02', 1110],
      [null, 1111],
    ]);
    expect(await daily('--timezone', 'America/Los_Angeles')).toEqual([
      ['2026-03-01', 111],
      ['2026-03-02', 1000],
      [null, 1111],
    ]);
  });

  it('a date in --since and --until is a whole day in that time zone', async () => {
    expect(await daily('--timezone', 'Asia/Tokyo', '--since', '2026-03-02')).toEqual([
      ['2026-03-02', 1110],
      [null, 1110],
    ]);
    expect(await daily('--timezone', 'Asia/Tokyo', '--until', '2026-03-01')).toEqual([
      ['2026-03-01', 1],
      [null, 1],
    ]);
    expect(await daily('--timezone', 'America/Los_Angeles', '--until', '2026-03-01')).toEqual([
      ['2026-03-01', 111],
      [null, 111],
    ]);
    expect(await daily('--timezone', 'America/Los_Angeles', '--since', '2026-03-02', '--until', '2026-03-02')).toEqual([
      ['2026-03-02', 1000],
      [null, 1000],
    ]);
  });

  it('a timestamp bounds to the instant, in the zone unless it gives its offset; both bounds count', async () => {
    expect(await daily('--timezone', 'UTC', '--since', '2026-03-01T15:30:00Z', '--until', '2026-03-02T07:30:00Z')).toEqual([
      ['2026-03-01', 10],
      ['2026-03-02', 100],
      [null, 110],
    ]);
    expect(await daily('--timezone', 'Asia/Tokyo', '--since', '2026-03-02T00:30', '--until', '2026-03-02T16:29')).toEqual([
      ['2026-03-02', 10],
      [null, 10],
    ]);
  });

  it('a timestamp with its offset but no seconds bounds as with them (it had cast to NULL, which bounds nothing)', async () => {
    const bounded = [
      ['2026-03-01', 10],
      ['2026-03-02', 100],
      [null, 110],
    ];
    for (const [since, until] of [
      ['2026-03-01T15:30Z', '2026-03-02T07:30Z'],
      ['2026-03-02T00:30+09:00', '2026-03-02T16:30+09'],
      ['2026-03-02T00:30+0900', '2026-03-01T23:30-0800'],
    ]) {
      expect(await daily('--timezone', 'UTC', '--since', since!, '--until', until!)).toEqual(bounded);
    }
  });

  it('a --since after the --until is a usage error, not an empty report; the same day is not', async () => {
    const run = await cli(
      [
        'usage',
        '--transcripts',
        fixture('days'),
        '--timezone',
        'Asia/Tokyo',
        '--since',
        '2026-03-02T09:01',
        '--until',
        '2026-03-02T00:00Z',
      ],
      { env: HOME },
    );
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'omg-evidence: --since 2026-03-02 09:01:00 is after --until 2026-03-02 00:00:00+00:00 in Asia/Tokyo: nothing would be counted\n',
    });
    expect(await daily('--timezone', 'UTC', '--since', '2026-03-02', '--until', '2026-03-02')).toEqual([
      ['2026-03-02', 1100],
      [null, 1100],
    ]);
    const ev = await Evidence.openTranscripts(fixture('days'), { queries: ['usage'] });
    const params = { period: 'daily', timezone: 'UTC', since: '2026-03-03', until: '2026-03-02', breakdown: false };
    await expect(ev.query('usage', params)).rejects.toThrow('since 2026-03-03 is after until 2026-03-02 in UTC: nothing would be counted');
    await ev.close();
  });

  it('a bound the library is given that DuckDB cannot cast is an error, never no bound', async () => {
    const ev = await Evidence.openTranscripts(fixture('days'), { queries: ['usage'] });
    const params = { period: 'daily', timezone: 'UTC', since: '2026-03-01T25:00:00Z', until: '', breakdown: false };
    await expect(ev.query('usage', params)).rejects.toThrow('since: not a date or timestamp DuckDB reads: 2026-03-01T25:00:00Z');
    await ev.close();
  });

  it('a period the query does not know is an error, never every response under one key of none (a region could name one)', async () => {
    // NULL too (error(NULL) raises nothing), and with no response to key (an empty folder).
    const empty = join(tmp, 'no-responses');
    mkdirSync(empty, { recursive: true });
    for (const [dir, period, got] of [
      [fixture('days'), 'day', 'day'],
      [fixture('days'), null, 'NULL'],
      [empty, 'day', 'day'],
    ] as const) {
      const ev = await Evidence.openTranscripts(dir, { queries: ['usage'] });
      const params = { period, timezone: 'UTC', since: '', until: '', breakdown: false };
      await expect(ev.query('usage', params as never)).rejects.toThrow(
        `period must be daily, weekly, monthly, session, project or model; got ${got}`,
      );
      await ev.close();
    }
  });

  it('weekly, monthly, project and model reports, and --breakdown', async () => {
    expect(await daily('weekly', '--timezone', 'UTC')).toEqual([
      ['2026-02-23', 11],
      ['2026-03-02', 1100],
      [null, 1111],
    ]);
    expect(await daily('monthly', '--timezone', 'UTC')).toEqual([
      ['2026-03', 1111],
      [null, 1111],
    ]);
    expect(await daily('project', '--timezone', 'UTC')).toEqual([
      ['-work-demo', 11],
      ['-work-other', 1100],
      [null, 1111],
    ]);
    const r = await cli(['usage', '--transcripts', fixture('days'), '-f', 'json', '--timezone', 'UTC', '--breakdown'], { env: HOME });
    expect((JSON.parse(r.stdout) as Record<string, unknown>[]).map((row) => [row.key, row.model, row.output_tokens])).toEqual([
      ['2026-03-01', null, 11],
      ['2026-03-01', 'claude-opus-4-5-20251101', 11],
      ['2026-03-02', null, 1100],
      ['2026-03-02', 'claude-sonnet-4-5-20250929', 1100],
      [null, null, 1111],
    ]);
  });

  it('responses without a readable timestamp fall on no date, shown and warned of (a blank row before)', async () => {
    const r = await cli(['usage', '--transcripts', fixture('no-timestamp'), '--timezone', 'UTC', '-f', 'markdown'], { env: HOME });
    expect(r).toEqual({
      code: 0,
      stdout: [
        '| date | sessions | responses | input | output | cache_write | cache_read | total | cost_usd |',
        '|:---|---:|---:|---:|---:|---:|---:|---:|---:|',
        '| 2026-03-01 | 1 | 1 | 1 | 1 | 0 | 0 | 2 | $0.0000 |',
        '| (no timestamp) | 1 | 2 | 110 | 110 | 0 | 0 | 220 | $0.0033 |',
        '| Total | 1 | 3 | 111 | 111 | 0 | 0 | 222 | $0.0033 |',
        '',
      ].join('\n'),
      stderr:
        'omg-evidence: warning: 2 response(s) have no RFC 3339 timestamp: they are counted under "(no timestamp)", and --since or --until leaves them out\n',
    });
  });

  it("a timestamp that is not RFC 3339 places nothing, though DuckDB's cast reads it (infinity, epoch, a bare date, no offset, +25:00, 24:00)", async () => {
    const r = await cli(['usage', '--transcripts', fixture('timestamp-not-rfc3339'), '--timezone', 'UTC', '-f', 'csv'], { env: HOME });
    expect(r).toEqual({
      code: 0,
      stdout: [
        'key,is_total,sessions,responses,input_tokens,output_tokens,cache_creation_input_tokens,cache_read_input_tokens,total_tokens,cost_usd,unpriced',
        '2026-03-01,false,1,1,1,1,0,0,2,0.00003,0',
        ',false,1,6,27,6,0,0,33,0.000285,0',
        ',true,1,7,28,7,0,0,35,0.000315,0',
        '',
      ].join('\r\n'),
      stderr:
        'omg-evidence: warning: 6 response(s) have no RFC 3339 timestamp: they are counted under "(no timestamp)", and --since or --until leaves them out\n',
    });
  });

  it('a project or model named as a label (Total, "(none)") is shown quoted in markdown and table, never as the total or as none', async () => {
    const r = await cli(
      ['usage', 'project', '--transcripts', fixture('label-names'), '--timezone', 'UTC', '--breakdown', '-f', 'markdown'],
      {
        env: HOME,
      },
    );
    expect(r.stdout.split('\n').slice(2)).toEqual([
      '| "Total" |  | 1 | 2 | 3 | 3 | 0 | 0 | 6 |  | 2 |',
      '|  | "(none)" | 1 | 1 | 1 | 1 | 0 | 0 | 2 |  | 1 |',
      '|  | (none) | 1 | 1 | 2 | 2 | 0 | 0 | 4 |  | 1 |',
      '| Total |  | 1 | 2 | 3 | 3 | 0 | 0 | 6 |  | 2 |',
      '',
    ]);
    // csv and json keep the values as they are, and NULL for none.
    const csv = await cli(['usage', 'model', '--transcripts', fixture('label-names'), '--timezone', 'UTC', '-f', 'csv'], { env: HOME });
    expect(csv.stdout.split('\r\n').map((l) => l.split(',').slice(0, 2).join(','))).toEqual([
      'key,is_total',
      '(none),false',
      ',false',
      ',true',
      '',
    ]);
  });

  it('a name that starts with a quote is quoted too, its quotes escaped: a model "Total" had read as the quoted Total', async () => {
    const r = await cli(['usage', 'model', '--transcripts', fixture('quoted-labels'), '--timezone', 'UTC', '-f', 'markdown'], {
      env: HOME,
    });
    expect(r.stdout.split('\n').slice(2)).toEqual([
      '| "\\\\"(no model)\\\\"" | 1 | 1 | 3 | 60 | 100 | 1000 | 1163 |  | 1 |',
      '| "\\\\"Total\\\\"" | 1 | 1 | 3 | 60 | 100 | 1000 | 1163 |  | 1 |',
      '| "(no model)" | 1 | 1 | 3 | 60 | 100 | 1000 | 1163 |  | 1 |',
      '| "Total" | 1 | 1 | 3 | 60 | 100 | 1000 | 1163 |  | 1 |',
      '| Total | 1 | 4 | 12 | 240 | 400 | 4000 | 4652 |  | 4 |',
      '',
    ]);
    const table = await cli(['usage', 'model', '--transcripts', fixture('quoted-labels'), '--timezone', 'UTC', '-f', 'table'], {
      env: HOME,
    });
    expect(table.stdout.split('\n').map((l) => l.split('│')[1]?.trim())).toEqual([
      undefined,
      'model',
      undefined,
      '"\\"(no model)\\""',
      '"\\"Total\\""',
      '"(no model)"',
      '"Total"',
      'Total',
      undefined,
      undefined,
    ]);
  });

  it('a name that is a label but for space around it (Total followed by a space, a no-break space or a tab) is quoted: a table had shown it as the total', async () => {
    const r = await cli(['usage', 'model', '--transcripts', fixture('spaced-labels'), '--timezone', 'UTC', '-f', 'table'], {
      env: HOME,
    });
    // trimEnd: the cell's padding, not its value's space, which the quotes now hold.
    expect(r.stdout.split('\n').map((l) => l.split('│')[1]?.trimEnd())).toEqual([
      undefined,
      ' model',
      undefined,
      ' " Total"',
      ' "(none)\\t"',
      ' "Total "',
      ' "Total\u00a0"',
      ' Total',
      undefined,
      undefined,
    ]);
  });

  it('so is a label with a letter that prints blank, an invisible one, or a look-alike in it (Total + U+2800, Cyrillic Тotal had shown as a second total)', async () => {
    const r = await cli(['usage', 'model', '--transcripts', fixture('blank-labels'), '--timezone', 'UTC', '-f', 'markdown'], {
      env: HOME,
    });
    expect(r.stdout.split('\n').map((l) => l.split('|')[1]?.trim())).toEqual([
      'model',
      ':---',
      '"(n\u043ene)"',
      '"(\u2800none)"',
      'Totally',
      '"Total\u2800"',
      // Invisible ones are written as their code points, as every human format does.
      '"Total⟨U+3164⟩"',
      '"Tota\u04cf"',
      '"To⟨U+200B⟩tal"',
      '"\u0422otal"',
      'Total',
      undefined,
    ]);
  });

  it('a bound leaves the undated responses out and says how many, in every report (99% of the cost had gone in silence)', async () => {
    for (const [report, bound] of [
      ['daily', '--since'],
      ['model', '--until'],
    ]) {
      const r = await cli(
        ['usage', report!, '--transcripts', fixture('no-timestamp'), '--timezone', 'UTC', bound!, '2026-03-01', '-f', 'json'],
        {
          env: HOME,
        },
      );
      expect(r.stderr).toBe(
        'omg-evidence: warning: 2 response(s) have no RFC 3339 timestamp: --since or --until left them out, as neither can place them\n',
      );
      const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
      expect(rows.map((row) => [row.is_total, row.responses, row.undated_left_out])).toEqual([
        [false, 1, null],
        [true, 1, 2],
      ]);
    }
  });

  it('a mistyped report is a usage error, not a probe without transcripts', async () => {
    expect(await cli(['usage', 'week'], { env: HOME })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'omg-evidence: week: neither a report (daily, weekly, monthly, session, project, model) nor a probe directory\n',
    });
  });

  it('an empty folder is warned of, and its total costs 0 (it had been unknown)', async () => {
    const empty = join(tmp, 'no-sessions');
    mkdirSync(empty);
    const r = await cli(['usage', '--transcripts', empty, '-f', 'csv', '--timezone', 'UTC'], { env: HOME });
    expect(r).toEqual({
      code: 0,
      stdout:
        'key,is_total,sessions,responses,input_tokens,output_tokens,cache_creation_input_tokens,cache_read_input_tokens,total_tokens,cost_usd,unpriced\r\n,true,0,0,0,0,0,0,0,0,0\r\n',
      stderr: `omg-evidence: warning: ${empty}: holds no *.jsonl file, so no session was read\n`,
    });
  });

  it('a --transcripts path that is no folder is said so as census says it, with no warning before', async () => {
    const hint = '(pass --transcripts DIR, the folder of the session files, e.g. ~/.claude/projects/<slug>)';
    for (const [path, what] of [
      ['README.md', 'neither a folder nor a .jsonl file'],
      [join(tmp, 'nowhere'), 'no such transcripts directory'],
    ]) {
      const error = { code: 1, stdout: '', stderr: `omg-evidence: ${path}: ${what} ${hint}\n` };
      expect(await cli(['usage', '--transcripts', path!], { env: HOME })).toEqual(error);
      expect(await cli(['census', '--transcripts', path!])).toEqual(error);
    }
  });

  it('a bad --since, --until or --timezone is a usage error (exit 2)', async () => {
    for (const [args, what] of [
      [['--since', '2026-02-30'], "option '--since <when>' argument '2026-02-30' is invalid"],
      [['--until', 'yesterday'], "option '--until <when>' argument 'yesterday' is invalid"],
      [['--until', '2026-03-01T24:00'], "option '--until <when>' argument '2026-03-01T24:00' is invalid"],
      [['--since', '2026-03-01T23:59:60Z'], "option '--since <when>' argument '2026-03-01T23:59:60Z' is invalid"],
      [['--since', '2026-03-01T09:00+15:00'], "option '--since <when>' argument '2026-03-01T09:00+15:00' is invalid"],
      [['--since', '2026-03-01T09:00+14:01'], "option '--since <when>' argument '2026-03-01T09:00+14:01' is invalid"],
      [['--until', '2026-03-01T09:00-05:60'], "option '--until <when>' argument '2026-03-01T09:00-05:60' is invalid"],
    ] as const) {
      const r = await cli(['usage', '--transcripts', fixture('days'), ...args], { env: HOME });
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(
        `omg-evidence: ${what}. give a date (2026-01-31) or a timestamp (2026-01-31T09:00, 2026-01-31T09:00:00Z, 2026-01-31T09:00+09:00).`,
      );
    }
    const r = await cli(['usage', '--transcripts', fixture('days'), '--timezone', 'Mars/Olympus'], { env: HOME });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      "omg-evidence: option '--timezone <zone>' argument 'Mars/Olympus' is invalid. give an IANA time zone such as UTC, Europe/Paris or America/New_York.",
    );
  });
});

describe('usage: where it reads', () => {
  const home = join(repo, 'test', 'fixtures', 'usage', 'home');
  const config = join(repo, 'test', 'fixtures', 'usage', 'config');

  it('~/.claude/projects by default, saying so and how many files', async () => {
    const r = await cli(['usage', '-f', 'csv', '--timezone', 'UTC'], { env: { HOME: home } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('omg-evidence: reading test/fixtures/usage/home/.claude/projects (1 transcript file)\n');
    expect(r.stdout.split('\r\n')[1]).toMatch(/^2026-03-01,false,1,2,/);
  });

  it('$CLAUDE_CONFIG_DIR/projects in its place', async () => {
    const r = await cli(['usage', '-f', 'csv', '--timezone', 'UTC'], { env: { HOME: home, CLAUDE_CONFIG_DIR: config } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('omg-evidence: reading test/fixtures/usage/config/projects (1 transcript file)\n');
    expect(r.stdout.split('\r\n')[1]).toMatch(/^2026-03-02,false,1,2,/);
  });

  it('a clear error when it does not exist: with $CLAUDE_CONFIG_DIR set, never ~/.claude/projects instead', async () => {
    const nowhere = join(repo, 'test', 'fixtures', 'usage', 'nowhere');
    const hint = ' (pass --transcripts DIR, the folder of session files (.jsonl))\n';
    const r = await cli(['usage'], { env: { HOME: nowhere } });
    expect([r.code, r.stderr]).toEqual([
      1,
      `omg-evidence: no Claude Code sessions: test/fixtures/usage/nowhere/.claude/projects does not exist${hint}`,
    ]);
    // As Claude Code reads it: a misspelt $CLAUDE_CONFIG_DIR would otherwise report another account.
    const typo = await cli(['usage'], { env: { HOME: home, CLAUDE_CONFIG_DIR: join(nowhere, 'config') } });
    expect([typo.code, typo.stderr]).toEqual([
      1,
      `omg-evidence: no Claude Code sessions: test/fixtures/usage/nowhere/config/projects does not exist ($CLAUDE_CONFIG_DIR is set)${hint}`,
    ]);
  });

  it('$CLAUDE_CONFIG_DIR or HOME whose bytes are not UTF-8 is said so (it was "does not exist")', async () => {
    const hint = ' (pass --transcripts DIR, the folder of session files (.jsonl))\n';
    const config = await cli(['usage'], { env: { HOME: home, CLAUDE_CONFIG_DIR: '/tmp/cfg\ufffd' } });
    expect([config.code, config.stderr]).toEqual([
      1,
      `omg-evidence: no Claude Code sessions: $CLAUDE_CONFIG_DIR is not UTF-8 (or holds U+FFFD)${hint}`,
    ]);
    const noHome = await cli(['usage'], { env: { HOME: '/tmp/h\ufffd' } });
    expect([noHome.code, noHome.stderr]).toEqual([1, `omg-evidence: no Claude Code sessions: $HOME is not UTF-8 (or holds U+FFFD)${hint}`]);
  });

  it("an empty HOME is the account's home, never the current folder (it read ./.claude/projects)", async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'omg-empty-home-'));
    try {
      mkdirSync(join(cwd, '.claude', 'projects', '-x'), { recursive: true });
      writeFileSync(join(cwd, '.claude', 'projects', '-x', 'planted.jsonl'), '');
      const r = bin(['usage', '-f', 'csv'], { cwd, env: { HOME: '', CLAUDE_CONFIG_DIR: '' } });
      expect(r.stderr.split('\n')[0]).toContain(` ${join(userInfo().homedir, '.claude', 'projects')} `);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
    // report names the sessions' folder from the same home (os.homedir() is HOME, even when empty).
    const saved = process.env.HOME;
    process.env.HOME = '';
    try {
      expect(sourceName(join(userInfo().homedir, 'sessions'), '', { HOME: '' })).toBe('~/sessions');
    } finally {
      process.env.HOME = saved;
    }
  });

  it("usage PROBE reads the probe's transcripts: its opus-5 tokens and cost are the envelopes' modelUsage summed", async () => {
    const r = await cli(['usage', 'model', bundled, '-f', 'csv'], { env: HOME });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\r\n').slice(0, 2)).toEqual([
      'key,is_total,sessions,responses,input_tokens,output_tokens,cache_creation_input_tokens,cache_read_input_tokens,total_tokens,cost_usd,unpriced',
      'claude-opus-5,false,27,97,594,19769,198620,1301996,1520979,2.389568,0',
    ]);
  });

  // The probe had been read past: the report counted --transcripts DIR's sessions, whatever the probe.
  it('a probe and --transcripts together are a usage error (exit 2); --by spawn takes both', async () => {
    const both = ['test/fixtures/probes/minimal', '--transcripts', fixture('days')];
    for (const report of [[], ['model']]) {
      expect(await cli(['usage', ...report, ...both], { env: HOME })).toEqual({
        code: 2,
        stdout: '',
        stderr:
          "omg-evidence: a probe and --transcripts exclude each other: the report reads the probe's own transcripts/, or the sessions in --transcripts DIR " +
          '(give one of them; usage --by spawn PROBE --transcripts DIR takes both, for the sessions of its spawns)\n',
      });
    }
    expect(
      (await cli(['usage', '--by', 'spawn', bundled, '--transcripts', join(bundled, 'transcripts'), '-f', 'csv'], { env: HOME })).code,
    ).toBe(0);
  });

  it('usage model refuses --breakdown (exit 2): it had been ignored, silently', async () => {
    expect(await cli(['usage', 'model', '--transcripts', fixture('days'), '--breakdown'], { env: HOME })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'omg-evidence: usage model takes no --breakdown: each of its rows is one model\n',
    });
  });

  // The hint had said to rebuild the file, which would only have made one of ~/.claude/projects.
  it('--db without --transcripts: the hint names the --transcripts the file was built from', async () => {
    const db = join(tmp, 'days-hint.duckdb');
    expect((await cli(['load', '--transcripts', fixture('days'), '--db', db])).code).toBe(0);
    const config = join(tmp, 'claude-config');
    mkdirSync(join(config, 'projects'), { recursive: true });
    expect(await cli(['usage', '--db', db], { env: { ...HOME, CLAUDE_CONFIG_DIR: config } })).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `omg-evidence: ${db}: cannot be used: it was built from the transcripts in ${fixture('days')}, not ${join(config, 'projects')} ` +
        `(name what it was built from beside --db FILE: --transcripts ${fixture('days')}; or load these inputs into another file)\n`,
    });
  });

  it('--db reads the database load built from the same transcripts, with the same answers; a price table cannot re-price it', async () => {
    const db = join(tmp, 'days.duckdb');
    const days = ['--transcripts', fixture('days')];
    expect((await cli(['load', ...days, '--db', db])).code).toBe(0);
    for (const report of ['daily', 'session', 'model']) {
      // The model report takes no --breakdown (each row is one model).
      const breakdown = report === 'model' ? [] : ['--breakdown'];
      const fresh = await cli(['usage', report, ...days, '-f', 'csv', '--timezone', 'UTC', ...breakdown]);
      expect(fresh.code).toBe(0);
      expect(await cli(['usage', report, ...days, '--db', db, '-f', 'csv', '--timezone', 'UTC', ...breakdown])).toEqual(fresh);
    }
    expect(await cli(['usage', ...days, '--db', db, '--pricing', 'data/pricing.json'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'omg-evidence: a price table cannot re-price a database file: it holds the prices load built it with (leave out --db to count from the transcripts with --pricing FILE)\n',
    });
  });

  it('census builds no transcript_messages (it reads no usage); usage builds it', async () => {
    const tables = async (queries: string[]) => {
      const loaded = await loadInputs(namedInputs([], join(repo, fixture('streamed')), false), { queries });
      try {
        return (await loaded.db.query("select table_name from information_schema.tables where table_name like 'transcript_%'")).rows.map(
          (r) => r.table_name,
        );
      } finally {
        loaded.db.close();
      }
    };
    expect(await tables(['sessions'])).not.toContain('transcript_messages');
    expect(await tables(['usage'])).toContain('transcript_messages');
  });
});

describe('agree --usage', () => {
  it("exits 0 when every spawn's transcript cost is within 1% of its envelope's, over the models both show", async () => {
    const r = await cli(['agree', '--usage', '-f', 'text'], { env: HOME });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('K-RES       1bb76aee  agree: transcripts $0.087137, envelope $0.087137, ratio 1');
    expect(r.stderr).toBe('omg-evidence: agree --usage: 27 of 28 spawn(s) compared within 1%: 27 agree, 0 differ; 1 gone\n');
  });

  it('a spawn that made no model call (an API error: <synthetic> lines only, an envelope of $0) agrees', async () => {
    const probe = join(tmp, 'api-error');
    cpSync(bundled, probe, { recursive: true });
    const session = '3c7e9740-434d-4a49-8512-4b2e61dd6fa4';
    const results = join(probe, 'results.jsonl');
    const rows = readFileSync(results, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { session_id: string; envelope: Record<string, unknown> });
    const spawn = rows.find((r) => r.session_id === session)!;
    spawn.envelope.total_cost_usd = 0;
    spawn.envelope.modelUsage = {};
    writeFileSync(results, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const transcript = join(probe, 'transcripts', `${session}.jsonl`);
    const lines = readFileSync(transcript, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; message: Record<string, unknown> });
    for (const l of lines) {
      if (l.type !== 'assistant') continue;
      l.message.model = '<synthetic>';
      l.message.usage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    }
    writeFileSync(transcript, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const r = await cli(['agree', '--usage', probe, '-f', 'csv'], { env: HOME });
    expect(r.stderr).toBe('omg-evidence: agree --usage: 27 of 28 spawn(s) compared within 1%: 27 agree, 0 differ; 1 gone\n');
    expect(r.code).toBe(0);
  });

  it('a model exactly 1% off agrees: the ratio is compared in DECIMAL (in DOUBLE, 0.08811 / 0.089 - 1 was a float step past 1%)', async () => {
    const session = '1bb76aee-fd7f-4674-920e-6c3d197d6720';
    // Line 9 is msg_01y218's final snapshot; the transcript's opus cost is 0.087137 before the edit.
    for (const [name, out, read, cost, total] of [
      ['exactly-1pc-under', 38, 46, 0.089, 0.090665], // 0.08811 = 0.99 × 0.089
      ['exactly-1pc-over', 37, 20, 0.0872, 0.088865], // 0.088072 = 1.01 × 0.0872
    ] as const) {
      const probe = join(tmp, name);
      cpSync(bundled, probe, { recursive: true });
      const transcript = join(probe, 'transcripts', `${session}.jsonl`);
      const lines = readFileSync(transcript, 'utf8').split('\n');
      const line = JSON.parse(lines[8]!) as { message: { usage: Record<string, number> } };
      line.message.usage.output_tokens! += out;
      line.message.usage.cache_read_input_tokens! += read;
      lines[8] = JSON.stringify(line);
      writeFileSync(transcript, lines.join('\n'));
      const results = join(probe, 'results.jsonl');
      const rows = readFileSync(results, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { session_id: string; envelope: Record<string, unknown> });
      const envelope = rows.find((r) => r.session_id === session)!.envelope;
      const opus = (envelope.modelUsage as Record<string, Record<string, number>>)['claude-opus-5[1m]']!;
      opus.outputTokens! += out;
      opus.cacheReadInputTokens! += read;
      opus.costUSD = cost;
      envelope.total_cost_usd = total;
      writeFileSync(results, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
      const r = await cli(['agree', '--usage', probe, '-f', 'text'], { env: HOME });
      expect([r.code, r.stderr]).toEqual([
        0,
        'omg-evidence: agree --usage: 27 of 28 spawn(s) compared within 1%: 27 agree, 0 differ; 1 gone\n',
      ]);
    }
  });

  it('a transcript that shows none of the model its envelope charged most differs (it had been gone, and agree passed)', async () => {
    const probe = join(tmp, 'lost-responses');
    cpSync(bundled, probe, { recursive: true });
    const transcript = join(probe, 'transcripts', '1bb76aee-fd7f-4674-920e-6c3d197d6720.jsonl');
    const kept = readFileSync(transcript, 'utf8')
      .split('\n')
      .filter((l) => l !== '' && (JSON.parse(l) as { type: string }).type !== 'assistant');
    writeFileSync(transcript, `${kept.join('\n')}\n`);
    const r = await cli(['agree', '--usage', probe, '-f', 'text'], { env: HOME });
    expect(r.stdout.split('\n')[0]).toBe(
      'K-RES       1bb76aee  differ: transcripts $0.000000, envelope -, ratio -; envelope only: claude-haiku-4-5 claude-opus-5[1m]',
    );
    expect(r.stderr).toBe('omg-evidence: agree --usage: 27 of 28 spawn(s) compared within 1%: 26 agree, 1 differ; 1 gone\n');
    expect(r.code).toBe(3);
  });

  it("a response whose lines' usage is removed differs (as unpriced, its tokens unknown, it had passed with exit 0)", async () => {
    const probe = join(tmp, 'usage-stripped');
    cpSync(bundled, probe, { recursive: true });
    const transcript = join(probe, 'transcripts', '1bb76aee-fd7f-4674-920e-6c3d197d6720.jsonl');
    const lines = readFileSync(transcript, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; message: { id?: string; usage?: unknown } });
    const first = lines.find((l) => l.type === 'assistant')!.message.id;
    for (const l of lines) if (l.type === 'assistant' && l.message.id === first) delete l.message.usage;
    writeFileSync(transcript, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const r = await cli(['agree', '--usage', probe, '-f', 'text'], { env: HOME });
    expect(r.stdout.split('\n')[0]).toMatch(
      /^K-RES {7}1bb76aee {2}differ: transcripts -, envelope \$0\.087137, ratio -; envelope only: claude-haiku-4-5; models that differ: claude-opus-5$/,
    );
    expect(r.stderr.split('\n').slice(-2)).toEqual([
      'omg-evidence: agree --usage: 27 of 28 spawn(s) compared within 1%: 26 agree, 1 differ; 1 gone',
      '',
    ]);
    expect(r.code).toBe(3);
  });

  it('an envelope with a cost and no modelUsage does not agree with a transcript of no response (it had agreed at $0 against $5)', async () => {
    const probe = join(tmp, 'no-model-usage');
    cpSync(join(repo, probeFixture('agree-empty-transcript')), probe, { recursive: true });
    const results = join(probe, 'results.jsonl');
    writeFileSync(
      results,
      readFileSync(results, 'utf8')
        .replace(',"modelUsage":{"m":{"costUSD":0.01}}', '')
        .replace('"total_cost_usd":0.01', '"total_cost_usd":5'),
    );
    // Its one assistant line has no usage: a response of unknown cost, which cannot agree either.
    const firstOf = async () =>
      (JSON.parse((await cli(['usage', '--by', 'spawn', probe, '-f', 'json'], { env: HOME })).stdout) as Record<string, unknown>[])[0]!;
    let first = await firstOf();
    expect([first.session_id, first.responses, first.cost_usd, first.envelope_cost_usd, first.verdict]).toEqual([
      'aaaaaaaa-0000-4000-8000-000000000001',
      1,
      null,
      5,
      'differ',
    ]);
    expect((await cli(['agree', '--usage', probe], { env: HOME })).code).toBe(3);
    // Without it, a transcript of no response.
    const transcript = join(probe, 'transcripts', 'aaaaaaaa-0000-4000-8000-000000000001.jsonl');
    writeFileSync(transcript, readFileSync(transcript, 'utf8').replace('"type":"assistant"', '"type":"system"'));
    first = await firstOf();
    expect([first.session_id, first.responses, first.cost_usd, first.envelope_cost_usd, first.verdict]).toEqual([
      'aaaaaaaa-0000-4000-8000-000000000001',
      0,
      0,
      5,
      'differ',
    ]);
    expect((await cli(['agree', '--usage', probe], { env: HOME })).code).toBe(3);
  });

  describe("an envelope's models the transcript does not show", () => {
    const S1 = '1bb76aee-fd7f-4674-920e-6c3d197d6720';
    /** A copy of the bundled probe with spawn 1's envelope changed by `change`. */
    const withEnvelope = (name: string, change: (e: Record<string, unknown>) => void) => {
      const probe = join(tmp, name);
      cpSync(bundled, probe, { recursive: true });
      const results = join(probe, 'results.jsonl');
      const rows = readFileSync(results, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { session_id: string; envelope: Record<string, unknown> });
      change(rows.find((r) => r.session_id === S1)!.envelope);
      writeFileSync(results, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
      return probe;
    };
    const first = async (probe: string) => {
      const r = await cli(['agree', '--usage', probe, '-f', 'text'], { env: HOME });
      return [r.stdout.split('\n')[0], r.stderr, r.code];
    };

    it("a model that used the prompt cache is an agent's, not Claude Code's own call: it differs (52% of the cost had been excused)", async () => {
      const probe = withEnvelope('cached-unshown', (e) => {
        const usage = e.modelUsage as Record<string, Record<string, number>>;
        usage['claude-haiku-4-5'] = { ...usage['claude-haiku-4-5']!, cacheReadInputTokens: 400000, costUSD: 0.08 };
        e.total_cost_usd = 0.167137;
      });
      expect(await first(probe)).toEqual([
        'K-RES       1bb76aee  differ: transcripts $0.087137, envelope $0.087137, ratio 1; envelope only: claude-haiku-4-5',
        'omg-evidence: agree --usage: 27 of 28 spawn(s) compared within 1%: 26 agree, 1 differ; 1 gone\n',
        3,
      ]);
    });

    it('an envelope with no modelUsage is not compared model by model: "no model usage", not a difference', async () => {
      const probe = withEnvelope('no-model-usage-priced', (e) => {
        delete e.modelUsage;
        e.total_cost_usd = 0.087137;
      });
      expect(await first(probe)).toEqual([
        'K-RES       1bb76aee  no model usage: transcripts $0.087137, envelope in all $0.087137',
        'omg-evidence: agree --usage: 26 of 28 spawn(s) compared within 1%: 26 agree, 0 differ; 1 gone, 1 no model usage\n',
        0,
      ]);
    });

    it('an envelope with no modelUsage whose total_cost_usd is below what its transcript shows differs (it had not been compared)', async () => {
      const probe = withEnvelope('no-model-usage-cut', (e) => {
        delete e.modelUsage;
        e.total_cost_usd = 0.000001;
      });
      expect(await first(probe)).toEqual([
        'K-RES       1bb76aee  differ: transcripts $0.087137, envelope in all $0.000001, ratio 87137',
        'omg-evidence: agree --usage: 27 of 28 spawn(s) compared within 1%: 26 agree, 1 differ; 1 gone\n',
        3,
      ]);
    });

    it('with no modelUsage, the priced responses alone are held to the total: an unpriced model does not excuse them', async () => {
      const probe = withEnvelope('no-model-usage-part-unpriced', (e) => {
        delete e.modelUsage;
        e.total_cost_usd = 0.000001;
      });
      const transcript = join(probe, 'transcripts', `${S1}.jsonl`);
      // The first response names a model with no price; the others still cost more than $0.000001.
      const lines = readFileSync(transcript, 'utf8').split('\n');
      const renamed = lines.map((l) =>
        l.includes('"id":"msg_01AGeGI7MJzhDGyXIU9ey98j"') ? l.replace('"model":"claude-opus-5"', '"model":"claude-opus-9"') : l,
      );
      writeFileSync(transcript, renamed.join('\n'));
      expect(await first(probe)).toEqual([
        'K-RES       1bb76aee  differ: transcripts -, priced responses $0.047316, envelope in all $0.000001, ratio 47316',
        'omg-evidence: warning: no price for model claude-opus-9 in data/pricing.json: the cost of its 1 response(s) is left empty (null); --pricing FILE can price it\n' +
          'omg-evidence: agree --usage: 27 of 28 spawn(s) compared within 1%: 26 agree, 1 differ; 1 gone\n',
        3,
      ]);
    });

    // A row with no modelUsage had shown no figure of why it differs: transcripts -, blank envelope and ratio cells.
    it('with no modelUsage, a differing row shows the priced cost, the envelope total and their ratio in a table', async () => {
      const probe = withEnvelope('no-model-usage-table', (e) => {
        delete e.modelUsage;
        e.total_cost_usd = 0.01;
      });
      const r = await cli(['agree', '--usage', probe, '-f', 'markdown'], { env: HOME });
      expect(r.stdout.split('\n')[2]).toBe('| 1 | K-RES | 1bb76aee | differ | $0.0871 | $0.0100 | 8.7137 |  |');
    });

    it('a transcript whose model is renamed to one with no price differs: the model its envelope charged most is not shown (it had been excused as unpriced)', async () => {
      const probe = withEnvelope('renamed-model', () => {});
      const transcript = join(probe, 'transcripts', `${S1}.jsonl`);
      writeFileSync(transcript, readFileSync(transcript, 'utf8').replaceAll('"model":"claude-opus-5"', '"model":"claude-opus-9"'));
      expect(await first(probe)).toEqual([
        'K-RES       1bb76aee  differ: transcripts -, envelope -, ratio -; envelope only: claude-haiku-4-5 claude-opus-5[1m]; transcript only: claude-opus-9',
        'omg-evidence: warning: no price for model claude-opus-9 in data/pricing.json: the cost of its 3 response(s) is left empty (null); --pricing FILE can price it\n' +
          'omg-evidence: agree --usage: 27 of 28 spawn(s) compared within 1%: 26 agree, 1 differ; 1 gone\n',
        3,
      ]);
    });

    // Only the envelope's main model was looked for: one response renamed (or cut, leaving one) was excused as unpriced.
    const lastResponse = (name: string, edit: (line: string) => string) => {
      const probe = withEnvelope(name, () => {});
      const transcript = join(probe, 'transcripts', `${S1}.jsonl`);
      const lines = readFileSync(transcript, 'utf8').split('\n');
      writeFileSync(transcript, lines.map((l) => (l.includes('"id":"msg_01y218SLKGAaHtnzTOnUbWCN"') ? edit(l) : l)).join('\n'));
      return probe;
    };

    it('a response whose model modelUsage does not list, and has no price, differs (it had been excused as unpriced)', async () => {
      const probe = lastResponse('unlisted-model', (l) => l.replace('"model":"claude-opus-5"', '"model":"claude-opus-5-x"'));
      expect(await first(probe)).toEqual([
        'K-RES       1bb76aee  differ: transcripts -, envelope $0.087137, ratio -; envelope only: claude-haiku-4-5; transcript only: claude-opus-5-x; models that differ: claude-opus-5',
        'omg-evidence: warning: no price for model claude-opus-5-x in data/pricing.json: the cost of its 1 response(s) is left empty (null); --pricing FILE can price it\n' +
          'omg-evidence: agree --usage: 27 of 28 spawn(s) compared within 1%: 26 agree, 1 differ; 1 gone\n',
        3,
      ]);
    });

    it('a response whose model modelUsage does not list differs when it is priced too (it had agreed)', async () => {
      const probe = lastResponse('unlisted-priced', (l) => l.replace('"model":"claude-opus-5"', '"model":"claude-opus-4-8"'));
      expect(await first(probe)).toEqual([
        // The model that makes it differ is named (a ratio of 1 had said nothing of why).
        'K-RES       1bb76aee  differ: transcripts $0.087137, envelope $0.087137, ratio 1; envelope only: claude-haiku-4-5; transcript only: claude-opus-4-8; models that differ: claude-opus-5',
        'omg-evidence: agree --usage: 27 of 28 spawn(s) compared within 1%: 26 agree, 1 differ; 1 gone\n',
        3,
      ]);
    });

    it('a model named "(none)" stays apart from a response that names none: quoted in text, a string (not null) in json', async () => {
      const named = lastResponse('none-named', (l) => l.replace('"model":"claude-opus-5"', '"model":"(none)"'));
      const unnamed = lastResponse('none-unnamed', (l) => l.replace('"model":"claude-opus-5",', ''));
      expect((await first(named))[0]).toMatch(/; transcript only: "\(none\)"; models that differ: claude-opus-5$/);
      expect((await first(unnamed))[0]).toMatch(/; transcript only: \(none\); models that differ: claude-opus-5$/);
      const json = async (probe: string) =>
        (JSON.parse((await cli(['agree', '--usage', probe, '-f', 'json'], { env: HOME })).stdout) as Record<string, unknown>[])[0]!
          .transcript_only_models;
      expect([await json(named), await json(unnamed)]).toEqual([['(none)'], [null]]);
      // A look-alike of it is quoted too, as in usage's tables: Cyrillic о, a space after.
      for (const [name, model] of [
        ['none-cyrillic', '(n\u043ene)'],
        ['none-spaced', '(none) '],
      ]) {
        const probe = lastResponse(name!, (l) => l.replace('"model":"claude-opus-5"', `"model":${JSON.stringify(model)}`));
        expect((await first(probe))[0]).toContain(`; transcript only: ${JSON.stringify(model)}`);
      }
    });

    it('a response that names no model differs when modelUsage is given (it had been excused as unpriced)', async () => {
      const probe = lastResponse('no-model', (l) => l.replace('"model":"claude-opus-5",', ''));
      expect(await first(probe)).toEqual([
        'K-RES       1bb76aee  differ: transcripts -, envelope $0.087137, ratio -; envelope only: claude-haiku-4-5; transcript only: (none); models that differ: claude-opus-5',
        'omg-evidence: warning: 1 response(s) name no model, so none has a price: their cost is left empty (null)\n' +
          'omg-evidence: agree --usage: 27 of 28 spawn(s) compared within 1%: 26 agree, 1 differ; 1 gone\n',
        3,
      ]);
    });
  });

  // Review rev45c: the models both show were compared as one sum, so cost moved between models, or tokens between
  // kinds at equal cost, agreed; and a sub-agent on haiku beside Claude Code's own haiku calls differed.
  describe('each model both show, on its own', () => {
    const S1 = '1bb76aee-fd7f-4674-920e-6c3d197d6720';
    type Usage = Record<string, number | Record<string, number>>;
    /** A copy of the bundled probe, spawn 1's responses and envelope changed. */
    const changed = (
      name: string,
      response: (id: string, m: { model: string; usage: Usage }) => void,
      envelope = (_: Record<string, Usage>) => {},
    ) => {
      const probe = join(tmp, name);
      cpSync(bundled, probe, { recursive: true });
      const transcript = join(probe, 'transcripts', `${S1}.jsonl`);
      const lines = readFileSync(transcript, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; message: { id: string; model: string; usage: Usage } });
      for (const l of lines) if (l.type === 'assistant') response(l.message.id, l.message);
      writeFileSync(transcript, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
      const results = join(probe, 'results.jsonl');
      const rows = readFileSync(results, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { session_id: string; envelope: { modelUsage: Record<string, Usage>; total_cost_usd: number } });
      const e = rows.find((r) => r.session_id === S1)!.envelope;
      envelope(e.modelUsage);
      e.total_cost_usd = Number(
        Object.values(e.modelUsage)
          .reduce((sum, u) => sum + (u.costUSD as number), 0)
          .toFixed(6),
      );
      writeFileSync(results, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
      return probe;
    };
    const first = async (probe: string) => {
      const r = await cli(['agree', '--usage', probe, '-f', 'text'], { env: HOME });
      return [r.stdout.split('\n')[0], r.code];
    };

    it('tokens moved between kinds at equal cost differ: the transcript shows more input tokens than modelUsage counts', async () => {
      // 60 output tokens fewer ($25 per million) and 300 input tokens more ($5): the same cost.
      const probe = changed('kinds-moved', (id, m) => {
        if (id !== 'msg_01y218SLKGAaHtnzTOnUbWCN') return;
        m.usage.output_tokens = (m.usage.output_tokens as number) - 60;
        m.usage.input_tokens = (m.usage.input_tokens as number) + 300;
      });
      expect(await first(probe)).toEqual([
        'K-RES       1bb76aee  differ: transcripts $0.087137, envelope $0.087137, ratio 1; envelope only: claude-haiku-4-5; models that differ: claude-opus-5',
        3,
      ]);
    });

    it('cost moved from one model to another differs, though the sum over the models both show is the same', async () => {
      // The last opus response ($0.02096725) made a haiku one of it and the envelope's haiku calls ($0.001665) together.
      const probe = changed('cost-moved', (id, m) => {
        if (id !== 'msg_01y218SLKGAaHtnzTOnUbWCN') return;
        m.model = 'claude-haiku-4-5-20251001';
        m.usage = {
          input_tokens: 22631,
          output_tokens: 0,
          cache_creation_input_tokens: 1,
          cache_read_input_tokens: 0,
          cache_creation: { ephemeral_5m_input_tokens: 1, ephemeral_1h_input_tokens: 0 },
        };
      });
      expect(await first(probe)).toEqual([
        'K-RES       1bb76aee  differ: transcripts $0.088802, envelope $0.088802, ratio 1; models that differ: claude-haiku-4-5 claude-opus-5',
        3,
      ]);
    });

    // Review rev45g: the excess was priced in as Claude Code's own calls on any model, the main one too.
    it("the main model's responses lost from the transcript differ: own calls are not excused on it", async () => {
      const probe = changed('main-zeroed', (_, m) => {
        if (!m.model.startsWith('claude-opus-5')) return;
        m.usage.input_tokens = 0;
        m.usage.output_tokens = 0;
      });
      const [line, code] = await first(probe);
      expect([code, line]).toEqual([3, expect.stringMatching(/^K-RES {7}1bb76aee {2}differ: .*models that differ: claude-opus-5$/)]);
    });

    // Review rev45h: with Claude Code's own calls on the main model (--model haiku, or its small model set to the
    // main one), modelUsage lists one model; not excusing the main model at all had failed every such spawn.
    it("Claude Code's own calls on the main model agree: an excess of more input than output tokens", async () => {
      const probe = changed(
        'own-calls-on-main',
        () => {},
        (u) => {
          const h = u['claude-haiku-4-5'] as Record<string, number>;
          const o = u['claude-opus-5[1m]'] as Record<string, number>;
          delete u['claude-haiku-4-5'];
          o.inputTokens! += h.inputTokens!;
          o.outputTokens! += h.outputTokens!;
          // Priced at opus' $5 and $25 per million.
          o.costUSD = Number((o.costUSD! + (h.inputTokens! * 5 + h.outputTokens! * 25) / 1e6).toFixed(6));
        },
      );
      expect(await first(probe)).toEqual(['K-RES       1bb76aee  agree: transcripts $0.087137, envelope $0.095462, ratio 0.9128', 0]);
    });

    it('a modelUsage entry without its token counts differs where the transcript shows tokens', async () => {
      const probe = changed(
        'counts-dropped',
        (id, m) => {
          if (id !== 'msg_01y218SLKGAaHtnzTOnUbWCN') return;
          m.usage.output_tokens = (m.usage.output_tokens as number) - 60;
          m.usage.input_tokens = (m.usage.input_tokens as number) + 300;
        },
        (u) => {
          for (const k of ['inputTokens', 'outputTokens', 'cacheReadInputTokens', 'cacheCreationInputTokens'])
            delete u['claude-opus-5[1m]']![k];
        },
      );
      const [line, code] = await first(probe);
      expect([code, line]).toEqual([3, expect.stringMatching(/models that differ: claude-opus-5$/)]);
    });

    it('an unpriced model beside a model that differs does not excuse it: the spawn differs, not unpriced', async () => {
      const probe = changed(
        'unpriced-beside',
        (id, m) => {
          if (id !== 'msg_01y218SLKGAaHtnzTOnUbWCN') return;
          m.model = 'claude-zz-1';
          m.usage = { input_tokens: 1, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
        },
        (u) => {
          u['claude-zz-1'] = { inputTokens: 1, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, costUSD: 0.000001 };
        },
      );
      const [line, code] = await first(probe);
      expect([code, line]).toEqual([
        3,
        expect.stringMatching(/^K-RES {7}1bb76aee {2}differ: .*models that differ: claude-opus-5 claude-zz-1$/),
      ]);
    });

    describe("a sub-agent on haiku, beside Claude Code's own haiku calls", () => {
      // Two haiku responses of a sub-agent: 4,000 input, 500 output, 3,000 cache writes and 20,000 reads each, $0.01225.
      const subagent = (name: string, envelope: (haiku: Usage) => void) => {
        const probe = changed(
          name,
          () => {},
          (u) => envelope(u['claude-haiku-4-5']!),
        );
        const dir = join(probe, 'transcripts', S1, 'subagents');
        mkdirSync(dir, { recursive: true });
        const usage = {
          input_tokens: 4000,
          cache_creation_input_tokens: 3000,
          cache_read_input_tokens: 20000,
          cache_creation: { ephemeral_5m_input_tokens: 3000, ephemeral_1h_input_tokens: 0 },
          output_tokens: 500,
        };
        const line = (i: number) =>
          JSON.stringify({
            parentUuid: null,
            isSidechain: true,
            sessionId: S1,
            agentId: 'a1234567',
            type: 'assistant',
            uuid: `u-${i}`,
            timestamp: `2026-08-12T05:02:3${i}.000Z`,
            requestId: `req_sub${i}`,
            message: { model: 'claude-haiku-4-5-20251001', id: `msg_sub${i}`, type: 'message', role: 'assistant', content: [], usage },
          });
        writeFileSync(join(dir, 'agent-a1234567.jsonl'), `${line(0)}\n${line(1)}\n`);
        return probe;
      };
      const add = (h: Usage, tokens: [number, number, number, number], cost: number) => {
        h.inputTokens = (h.inputTokens as number) + tokens[0];
        h.outputTokens = (h.outputTokens as number) + tokens[1];
        h.cacheCreationInputTokens = (h.cacheCreationInputTokens as number) + tokens[2];
        h.cacheReadInputTokens = (h.cacheReadInputTokens as number) + tokens[3];
        h.costUSD = Number(((h.costUSD as number) + cost).toFixed(6));
      };

      it('agrees: the envelope exceeds the transcript by uncached input and output tokens, whose cost it adds', async () => {
        const probe = subagent('haiku-agent', (h) => add(h, [8000, 1000, 6000, 40000], 0.0245));
        expect(await first(probe)).toEqual(['K-RES       1bb76aee  agree: transcripts $0.111637, envelope $0.113302, ratio 0.9853', 0]);
      });

      it("differs when the excess read the prompt cache: an agent's turns are missing", async () => {
        const probe = subagent('haiku-agent-cached', (h) => add(h, [8000, 1000, 6000, 50000], 0.0255));
        expect(await first(probe)).toEqual([
          'K-RES       1bb76aee  differ: transcripts $0.111637, envelope $0.114302, ratio 0.9767; models that differ: claude-haiku-4-5',
          3,
        ]);
      });

      it('differs when the transcript shows more than the envelope counts', async () => {
        const probe = subagent('haiku-agent-short', (h) => add(h, [8000, 0, 6000, 40000], 0.0195));
        expect(await first(probe)).toEqual([
          'K-RES       1bb76aee  differ: transcripts $0.111637, envelope $0.108302, ratio 1.0308; models that differ: claude-haiku-4-5',
          3,
        ]);
      });
    });
  });

  /** A copy of the bundled probe with every envelope changed by `change`. */
  const withEveryEnvelope = (name: string, change: (e: Record<string, unknown>) => void) => {
    const probe = join(tmp, name);
    cpSync(bundled, probe, { recursive: true });
    const results = join(probe, 'results.jsonl');
    const rows = readFileSync(results, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { envelope?: Record<string, unknown> });
    for (const r of rows) if (r.envelope) change(r.envelope);
    writeFileSync(results, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    return probe;
  };

  it('exits 3 when no envelope gives modelUsage, and says so (it had said to pass --transcripts DIR)', async () => {
    const probe = withEveryEnvelope('no-model-usage-at-all', (e) => delete e.modelUsage);
    const r = await cli(['agree', '--usage', probe, '-f', 'text'], { env: HOME });
    expect(r.stdout.split('\n')[0]).toBe('K-RES       1bb76aee  no model usage: transcripts $0.087137, envelope in all $0.088802');
    expect([r.stderr, r.code]).toEqual([
      'omg-evidence: agree --usage: 0 of 28 spawn(s) compared within 1%: 0 agree, 0 differ; 1 gone, 27 no model usage: nothing was compared (the envelopes give no modelUsage (an older Claude Code), so each transcript was only checked not to cost more than total_cost_usd: usage --by spawn shows the ratios)\n',
      3,
    ]);
  });

  it('exits 3 when no envelope gives total_cost_usd, and says so (it had said to pass --transcripts DIR)', async () => {
    const probe = withEveryEnvelope('no-total-at-all', (e) => delete e.total_cost_usd);
    const r = await cli(['agree', '--usage', probe, '-f', 'text'], { env: HOME });
    expect([r.stderr, r.code]).toEqual([
      "omg-evidence: agree --usage: 0 of 28 spawn(s) compared within 1%: 0 agree, 0 differ; 1 gone, 27 no envelope: nothing was compared (results.jsonl gives these spawns no envelope's total_cost_usd to compare with)\n",
      3,
    ]);
  });

  it('exits 3 when one probe of several had nothing compared, naming it (it had exited 0)', async () => {
    const empty = join(tmp, 'init-probe');
    expect((await cli(['init', empty], { env: HOME })).code).toBe(0);
    mkdirSync(join(empty, 'transcripts'));
    const r = await cli(['agree', '--usage', bundled, empty, '-f', 'csv'], { env: HOME });
    expect([r.stderr, r.code]).toEqual([
      `omg-evidence: agree --usage: 27 of 29 spawn(s) compared within 1%: 27 agree, 0 differ; 2 gone: nothing was compared for init-probe (pass --transcripts DIR, the folder that holds the spawns' sessions)\n`,
      3,
    ]);
  });

  it('--pricing goes with --usage, and cannot re-price a database file (it had been ignored)', async () => {
    expect(await cli(['agree', '--pricing', join(repo, 'data', 'pricing.json')], { env: HOME })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'omg-evidence: --pricing prices --usage: give both, or neither\n',
    });
    const db = join(tmp, 'usage.duckdb');
    expect((await cli(['load', '--db', db], { env: HOME })).code).toBe(0);
    expect(await cli(['agree', '--usage', '--db', db, '--pricing', join(repo, 'data', 'pricing.json')], { env: HOME })).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'omg-evidence: a price table cannot re-price a database file: it holds the prices load built it with (leave out --db to count from the transcripts with --pricing FILE)\n',
    });
  });

  it('exits 3 when unpriced models left nothing compared, and says to price them', async () => {
    const file = join(tmp, 'no-opus-5.json');
    const prices = JSON.parse(readFileSync(join(repo, 'data', 'pricing.json'), 'utf8'));
    delete prices.models['claude-opus-5'];
    writeFileSync(file, JSON.stringify(prices));
    const r = await cli(['agree', '--usage', '--pricing', file, '-f', 'text'], { env: HOME });
    expect(r.code).toBe(3);
    expect(r.stderr.split('\n').slice(1)).toEqual([
      'omg-evidence: agree --usage: 0 of 28 spawn(s) compared within 1%: 0 agree, 0 differ; 1 gone, 27 unpriced: nothing was compared (give --pricing FILE, a price table with a price for the models the warnings name (a response that names no model, or none of whose lines has usage, has none in any table))',
      '',
    ]);
  });

  // With --db the hint said to give --pricing FILE, which --db refuses.
  it('exits 3 when unpriced models left nothing compared in a database file, and says to leave out --db', async () => {
    const probe = join(tmp, 'opus-9');
    cpSync(bundled, probe, { recursive: true });
    for (const f of readdirSync(join(probe, 'transcripts'))) {
      const t = join(probe, 'transcripts', f);
      writeFileSync(t, readFileSync(t, 'utf8').replaceAll('"claude-opus-5"', '"claude-opus-9"'));
    }
    const results = join(probe, 'results.jsonl');
    writeFileSync(results, readFileSync(results, 'utf8').replaceAll('claude-opus-5[1m]', 'claude-opus-9[1m]'));
    const db = join(tmp, 'unpriced.duckdb');
    expect((await cli(['load', probe, '--db', db], { env: HOME })).code).toBe(0);
    const r = await cli(['agree', '--usage', probe, '--db', db, '-f', 'text'], { env: HOME });
    expect([r.stderr.split('\n').filter((l) => !l.startsWith('omg-evidence: warning')), r.code]).toEqual([
      [
        'omg-evidence: agree --usage: 0 of 28 spawn(s) compared within 1%: 0 agree, 0 differ; 1 gone, 27 unpriced: nothing was compared (leave out --db and give --pricing FILE, a price table with a price for the models the warnings name (a database file keeps the prices it was built with))',
        '',
      ],
      3,
    ]);
  });

  it('exits 3 when they differ by more', async () => {
    const file = join(tmp, 'dear.json');
    const prices = JSON.parse(readFileSync(join(repo, 'data', 'pricing.json'), 'utf8'));
    prices.models['claude-opus-5'].output *= 1.5;
    writeFileSync(file, JSON.stringify(prices));
    const r = await cli(['agree', '--usage', '--pricing', file, '-f', 'text'], { env: HOME });
    expect(r.code).toBe(3);
    expect(r.stdout.split('\n')[0]).toBe(
      'K-RES       1bb76aee  differ: transcripts $0.096462, envelope $0.087137, ratio 1.107; envelope only: claude-haiku-4-5; models that differ: claude-opus-5',
    );
    expect(r.stderr).toBe('omg-evidence: agree --usage: 27 of 28 spawn(s) compared within 1%: 0 agree, 27 differ; 1 gone\n');
  });
});

// Review rev45c: cost and verdict took a tiny total_cost_usd as is when the envelope gives no modelUsage, though
// the probe's own transcript showed more spent.
describe('cost and verdict: a transcript that costs more than its total_cost_usd', () => {
  it('is warned of, naming the spawn and both figures; the budget counts the larger, and verdict fails when it passes the bound', async () => {
    const probe = join(tmp, 'total-forged');
    cpSync(bundled, probe, { recursive: true });
    const results = join(probe, 'results.jsonl');
    const lines = readFileSync(results, 'utf8').trimEnd().split('\n');
    const first = JSON.parse(lines[0]!) as { envelope: Record<string, unknown> };
    delete first.envelope.modelUsage;
    first.envelope.total_cost_usd = 0.000001;
    lines[0] = JSON.stringify(first);
    writeFileSync(results, `${lines.join('\n')}\n`);
    // The envelopes sum to $2.372799; with the transcript's $0.087137 for the first, to $2.459935.
    const prereg = join(probe, 'registration', 'prereg.jsonl');
    writeFileSync(prereg, readFileSync(prereg, 'utf8').replace('{"kind":"budget","usd":12,', '{"kind":"budget","usd":2.4,'));
    const warning =
      "omg-evidence: warning: total-forged spawn 1 (K-RES, 1bb76aee): its transcript's priced responses cost $0.087137, more than its envelope's total_cost_usd $0.000001: it spent at least $0.087137, and the budget counts that\n";
    const cost = await cli(['cost', probe, '-f', 'json'], { env: HOME });
    expect([cost.code, cost.stderr]).toEqual([0, warning]);
    const verdict = await cli(['verdict', probe, '-f', 'json'], { env: HOME });
    expect(verdict.code).toBe(4);
    expect(verdict.stderr).toContain(warning);
    expect(verdict.stderr).toContain('over budget: $2.459935 of $2.4, 28 of 40 spawns');
  });
});
