/**
 * The K-FM lesson (issue #14 §6): a registered marker or artifact that the spawn's own tool calls
 * could have produced is flagged as forgeable (queries/forgeable.sql), in the census and as
 * warnings from verdict. One fixture per case under test/fixtures/probes/forge-*.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forgeryWarning, forgeryWarnings, type ForgeableRow } from '../src/output/census-block.js';
import { withEvidence } from '../src/cli/command.js';
import { Evidence } from '../src/evidence.js';
import { bundled, cli, probeFixture, tempFolders } from './helpers.js';

const folder = tempFolders('omg-forge-');

const FIXTURES = [
  'forge-write',
  'forge-edit',
  'forge-notebook',
  'forge-bash-path',
  'forge-bash-token',
  'forge-near-miss',
  'forge-no-transcript',
];

/** The findings of probes, loaded with their own transcripts (for `queries` alone, when given). */
function findings(probes: string[], queries?: string[]): Promise<ForgeableRow[]> {
  return withEvidence(Evidence.open(probes, { ownTranscripts: true, queries }), (ev) => ev.forgeableRows());
}

/** What identifies a finding: spawn, item, verdict and the call that could have made it. */
const brief = (r: ForgeableRow) => [r.arm, r.session_id.slice(0, 8), r.kind, r.shown, r.verdict, r.tool, r.tool_use_id, r.input, r.calls];

describe('forgeable markers and artifacts, one fixture per case', () => {
  it('a Write to the artifact path, spelled /private/tmp/… for a registered $WS/…, twice: the first call, and the count', async () => {
    expect((await findings([probeFixture('forge-write')])).map(brief)).toEqual([
      ['F-WRITE', '000000f1', 'artifact', 'BREACH', 'forgeable', 'Write', 'toolu_f1b', '/private/tmp/ws/out/BREACH', 2],
    ]);
  });

  it('a decoy first copy: the Read the census counts hides no later copy of the call that Writes the artifact (it had held)', async () => {
    const probe = probeFixture('forge-decoy');
    const want = [['F-DECOY', '000000fa', 'artifact', 'BREACH', 'forgeable', 'Write', 'toolu_fa1', '/private/tmp/ws/out/BREACH', 1]];
    expect((await findings([probe])).map(brief)).toEqual(want);
    expect((await findings([probe], ['census', 'forgeable'])).map(brief)).toEqual(want);
    const json = JSON.parse((await cli(['census', probe, '--format', 'json'])).stdout);
    expect(json.map((r: { tools: object; forgeable: string[] }) => [r.tools, r.forgeable])).toEqual([[{ Read: 1 }, ['BREACH']]]);
  });

  it("a sub-agent's Write that only its parent's progress lines mirror (its own file missing): the census counts the Task alone (it had held)", async () => {
    const probe = probeFixture('forge-mirror');
    const want = [['F-MIRROR', '000000fb', 'artifact', 'BREACH', 'forgeable', 'Write', 'toolu_fb2', '/private/tmp/ws/out/BREACH', 1]];
    expect((await findings([probe])).map(brief)).toEqual(want);
    expect((await findings([probe], ['census', 'forgeable'])).map(brief)).toEqual(want);
    const json = JSON.parse((await cli(['census', probe, '--format', 'json'])).stdout);
    expect(json.map((r: { tools: object; forgeable: string[] }) => [r.tools, r.forgeable])).toEqual([[{ Task: 1 }, ['BREACH']]]);
  });

  it('a call of a tool whose input it does not read (an MCP server\'s): unknown, naming the call, never "not forgeable" (it had held)', async () => {
    const probe = probeFixture('forge-mcp');
    expect((await findings([probe])).map((r) => [...brief(r), r.reason])).toEqual([
      ['F-MCP', '000000fd', 'artifact', 'BREACH', 'unknown', 'mcp__fs__write_file', 'toolu_fd2', null, null, 'unread call'],
    ]);
    // verdict reads the transcripts' cost (budget), and this fixture's assistant lines have no usage.
    expect((await cli(['verdict', probe, '--format', 'json'])).stderr).toBe(
      'omg-evidence: warning: test/fixtures/probes/forge-mcp/transcripts/000000fd-0000-4000-8000-0000000000fd.jsonl:1: no line of this response has message.usage (nor of 1 more response(s)): its tokens and cost are left empty (null), as is the cost of every total that holds it\n' +
        'omg-evidence: warning: F-MCP 000000fd: artifact BREACH ($WS/out/BREACH) may be forgeable: mcp__fs__write_file toolu_fd2 is a tool whose input this check does not read, which could have made it\n',
    );
  });

  it('a Task that no progress line mirrors: unknown, whatever sub-agent files are there; a Write in one is what counts', async () => {
    const probe = probeFixture('forge-task');
    const unknown = [['F-TASK', '000000fe', 'artifact', 'BREACH', 'unknown', 'Task', 'toolu_fe1', null, null, 'unread call']];
    expect((await findings([probe])).map((r) => [...brief(r), r.reason])).toEqual(unknown);
    expect((await cli(['verdict', probe, '--format', 'json'])).stderr).toBe(
      'omg-evidence: warning: test/fixtures/probes/forge-task/transcripts/000000fe-0000-4000-8000-0000000000fe.jsonl:1: no line of this response has message.usage: its tokens and cost are left empty (null), as is the cost of every total that holds it\n' +
        'omg-evidence: warning: F-TASK 000000fe: artifact BREACH ($WS/out/BREACH) may be forgeable: Task toolu_fe1 ran a sub-agent whose calls the transcripts do not all hold (its agent-*.jsonl, or the result that counts them, is missing or cut short)\n',
    );
    // A sub-agent file of the session (a compaction's, another Task's) is not this Task's: it had
    // made the BREACH "not forgeable" (review rev43b).
    const copy = join(folder(), 'forge-task');
    cpSync(probe, copy, { recursive: true });
    const line = {
      type: 'assistant',
      sessionId: '000000fe-0000-4000-8000-0000000000fe',
      isSidechain: true,
      agentId: 'acompact-0001',
      timestamp: '2026-08-12T05:01:02.000Z',
      message: {
        id: 'msg_sub',
        content: [{ type: 'tool_use', id: 'toolu_fe2', name: 'Read', input: { file_path: '/private/tmp/ws/plan.md' } }],
      },
    };
    writeFileSync(join(copy, 'transcripts', 'agent-acompact-0001.jsonl'), `${JSON.stringify(line)}\n`);
    expect((await findings([copy])).map((r) => [...brief(r), r.reason])).toEqual(unknown);
    // The Task's result names its sub-agent and counts its calls: with that sub-agent's file holding
    // them all, the Task is read (its Read made nothing); one call short, it is not.
    const parent = join(copy, 'transcripts', '000000fe-0000-4000-8000-0000000000fe.jsonl');
    const counted = (n: number | string) =>
      readFileSync(join(probe, 'transcripts', '000000fe-0000-4000-8000-0000000000fe.jsonl'), 'utf8').replace(
        '"toolUseResult":{"agentId":"fe000001"}',
        `"toolUseResult":{"agentId":"fe000001","totalToolUseCount":${n}}`,
      );
    const own = { ...line.message.content[0]!, id: 'toolu_fe3' };
    writeFileSync(
      join(copy, 'transcripts', 'agent-fe000001.jsonl'),
      `${JSON.stringify({ ...line, agentId: 'fe000001', message: { id: 'msg_own', content: [own] } })}\n`,
    );
    writeFileSync(parent, counted(1));
    expect(await findings([copy])).toEqual([]);
    writeFileSync(parent, counted(2));
    expect((await findings([copy])).map((r) => [...brief(r), r.reason])).toEqual(unknown);
    // A count that is no whole number of calls, 0 or more, is none (-1 and 0.4 had made any file whole).
    for (const n of ['-1', '0.4', '"0"', 'null']) {
      writeFileSync(parent, counted(n));
      expect(
        (await findings([copy])).map((r) => r.reason),
        n,
      ).toEqual(['unread call']);
    }
    // … while a Write there, whoever's file it is, could have made the BREACH.
    line.message.content[0] = { type: 'tool_use', id: 'toolu_fe2', name: 'Write', input: { file_path: '/private/tmp/ws/out/BREACH' } };
    writeFileSync(join(copy, 'transcripts', 'agent-acompact-0001.jsonl'), `${JSON.stringify(line)}\n`);
    expect((await findings([copy])).map(brief)).toEqual([
      ['F-TASK', '000000fe', 'artifact', 'BREACH', 'forgeable', 'Write', 'toolu_fe2', '/private/tmp/ws/out/BREACH', 1],
    ]);
  });

  describe('a Skill is read only when a result after it shows it ran inline, was refused, or ran a sub-agent whose calls are all there (it had been read as writing nothing)', () => {
    const sessionId = '000000fd-0000-4000-8000-0000000000fd';
    const result = (id: string, text = 'Launching skill: tidy', error = false) => ({
      type: 'tool_result',
      tool_use_id: id,
      content: text,
      ...(error ? { is_error: true } : {}),
    });
    const answer = (toolUseResult: unknown, content = [result('toolu_fd2')]) =>
      `${JSON.stringify({ type: 'user', sessionId, timestamp: '2026-08-12T05:01:03.000Z', message: { role: 'user', content }, toolUseResult })}\n`;
    const inline = answer({ success: true, commandName: 'tidy' });
    const stopped = answer('Error: interrupted', [result('toolu_fd2', '[Request interrupted by user for tool use]', true)]);
    const unknown = [['unknown', 'unread call', 'Skill', 'toolu_fd2']];
    /** forge-mcp with its MCP call made a Skill call (toolu_fd2) that nothing answers: `calls`, the transcript's text. */
    const skillProbe = () => {
      const copy = join(folder(), 'forge-mcp');
      cpSync(probeFixture('forge-mcp'), copy, { recursive: true });
      const dir = join(copy, 'transcripts');
      const file = join(dir, `${sessionId}.jsonl`);
      const calls = readFileSync(file, 'utf8')
        .replace('"name":"mcp__fs__write_file"', '"name":"Skill"')
        .replace('{"path":"/private/tmp/ws/out/BREACH","content":"x"}', '{"skill":"tidy"}');
      const reasons = async (text: string) => {
        writeFileSync(file, text);
        return (await findings([copy])).map((r) => [r.verdict, r.reason, r.tool, r.tool_use_id]);
      };
      return { copy, dir, calls, reasons };
    };

    it('no result: the spawn was stopped in it, which may have run forked', async () => {
      const { copy, calls, reasons } = skillProbe();
      expect(await reasons(calls)).toEqual(unknown);
      expect(forgeryWarnings(await findings([copy]))).toEqual([
        'F-MCP 000000fd: artifact BREACH ($WS/out/BREACH) may be forgeable: Skill toolu_fd2 ran forked, or may have (no result after it shows a skill run inline), as a sub-agent whose calls the transcripts do not all hold (its agent-*.jsonl, or the result that counts them, is missing or cut short)',
      ]);
    });

    it("run inline ({success, commandName}), or refused by the Skill tool: its calls, if any, are the spawn's own", async () => {
      const { calls, reasons } = skillProbe();
      expect(await reasons(calls + inline), 'inline').toEqual([]);
      expect(await reasons(calls + answer({ success: true, commandName: 'tidy', status: 'inline' })), 'status inline').toEqual([]);
      const unknownSkill = answer('Error: Unknown skill: tidy', [
        result('toolu_fd2', '<tool_use_error>Unknown skill: tidy</tool_use_error>', true),
      ]);
      expect(await reasons(calls + unknownSkill), 'unknown skill').toEqual([]);
      const manual = 'Skill tidy cannot be used with Skill tool due to disable-model-invocation. Ask the user to run /tidy themselves';
      const manualOnly = answer(`Error: ${manual}`, [result('toolu_fd2', `<tool_use_error>${manual}</tool_use_error>`, true)]);
      expect(await reasons(calls + manualOnly), 'manual only').toEqual([]);
      // … but a refusal whose result names a sub-agent is that sub-agent's (review rev44b).
      const naming = answer({ agentId: 'zzz', totalToolUseCount: 3 }, [result('toolu_fd2', 'Unknown skill: tidy', true)]);
      expect(await reasons(calls + naming), 'refusal naming an agent').toEqual(unknown);
    });

    it('stopped (interrupted, cancelled beside a failed call), or forked with no agent named: its sub-agent may have written (review rev44a: read as inline)', async () => {
      const { calls, reasons } = skillProbe();
      for (const [why, line] of [
        ['interrupted', stopped],
        ['cancelled', answer('Error: Sibling tool call errored', [result('toolu_fd2', 'Sibling tool call errored', true)])],
        ['forked, no agentId', answer({ status: 'forked', commandName: 'tidy' })],
        ['an array', answer([{ type: 'text', text: 'done' }])],
        ['another call answered', answer({ success: true, commandName: 'tidy' }, [result('toolu_fd9')])],
        // One of two results on a line: whose is its toolUseResult?
        ['two results', answer({ success: true, commandName: 'tidy' }, [result('toolu_fd1'), result('toolu_fd2')])],
        // A refusal's text with a result that says it forked contradicts itself (review rev44c).
        ['refused, yet forked', answer({ status: 'forked', commandName: 'tidy' }, [result('toolu_fd2', 'Unknown skill: tidy', true)])],
      ] as const) {
        expect(await reasons(calls + line), why).toEqual(unknown);
      }
    });

    it('only the first result after the call, in its file, tells: not one before it, nor one elsewhere', async () => {
      const { dir, calls, reasons } = skillProbe();
      const [first, second] = calls.trimEnd().split('\n');
      expect(await reasons(`${first}\n${inline}${second}\n`), 'before').toEqual(unknown);
      expect(await reasons(calls + stopped + inline), 'stopped, then inline').toEqual(unknown);
      // A call written again naming another skill: either could have run, one forked (review rev44c).
      const again = second.replace('{"skill":"tidy"}', '{"skill":"forker"}').replace('"uuid":"ufd-2"', '"uuid":"ufd-3"');
      expect(await reasons(`${calls}${again}\n${inline}`), 'a copy naming another skill').toEqual(unknown);
      writeFileSync(join(dir, 'agent-fd000009.jsonl'), inline);
      expect(await reasons(calls), 'in another file').toEqual(unknown);
    });

    it("denied: its own spawn's envelope names it by id, tool and skill, so it never ran; another skill's denial excuses nothing", async () => {
      const { copy, calls, reasons } = skillProbe();
      const results = join(copy, 'results.jsonl');
      const envelope = readFileSync(results, 'utf8');
      const denied = (skill: string) =>
        envelope.replace(
          '"permission_denials":[]',
          `"permission_denials":[${JSON.stringify({ tool_name: 'Skill', tool_use_id: 'toolu_fd2', tool_input: { skill } })}]`,
        );
      writeFileSync(results, denied('tidy'));
      expect(await reasons(calls), 'denied').toEqual([]);
      writeFileSync(results, denied('other'));
      expect(await reasons(calls), 'another skill denied').toEqual(unknown);
    });

    it('run forked: read when the transcripts hold every call its result counts, and a Write among them counts', async () => {
      const { dir, calls, reasons } = skillProbe();
      const forked = calls + answer({ status: 'forked', agentId: 'fd000001', totalToolUseCount: 1 });
      expect(await reasons(forked), 'forked, no file').toEqual(unknown);
      const sub = (content: unknown[]) =>
        `${JSON.stringify({ type: 'assistant', sessionId, isSidechain: true, agentId: 'fd000001', timestamp: '2026-08-12T05:01:02.500Z', message: { id: 'msg_sub', content } })}\n`;
      writeFileSync(
        join(dir, 'agent-fd000001.jsonl'),
        sub([{ type: 'tool_use', id: 'toolu_fd3', name: 'Read', input: { file_path: '/private/tmp/ws/plan.md' } }]),
      );
      expect(await reasons(forked), 'forked, its file').toEqual([]);
      writeFileSync(
        join(dir, 'agent-fd000001.jsonl'),
        sub([{ type: 'tool_use', id: 'toolu_fd3', name: 'Write', input: { file_path: '/private/tmp/ws/out/BREACH', content: 'x' } }]),
      );
      expect(await reasons(forked), 'forked, its Write').toEqual([['forgeable', null, 'Write', 'toolu_fd3']]);
    });
  });

  it("a sub-agent's Skill run inline, mirrored into its parent's progress lines: read by its copy in the sub-agent's file (its mirror had been unknown)", async () => {
    const copy = join(folder(), 'forge-task');
    cpSync(probeFixture('forge-task'), copy, { recursive: true });
    const sessionId = '000000fe-0000-4000-8000-0000000000fe';
    const parent = join(copy, 'transcripts', `${sessionId}.jsonl`);
    const call = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_sk', name: 'Skill', input: { skill: 'tidy' } }] };
    const done = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_sk', content: 'Launching skill: tidy' }] };
    const line = (o: object) => `${JSON.stringify(o)}\n`;
    const inline = { toolUseResult: { success: true, commandName: 'tidy' } };
    const own = (type: string, message: object, at: string) =>
      line({ type, sessionId, isSidechain: true, agentId: 'abc', timestamp: at, message, ...(type === 'user' ? inline : {}) });
    const mirror = (message: { role: string }, at: string) =>
      line({
        type: 'progress',
        sessionId,
        parentToolUseID: 'toolu_fe1',
        timestamp: at,
        data: { type: 'agent_progress', agentId: 'abc', message: { type: message.role, message, timestamp: at } },
      });
    const [first, result] = readFileSync(parent, 'utf8')
      .replace('"toolUseResult":{"agentId":"fe000001"}', '"toolUseResult":{"agentId":"abc","totalToolUseCount":1}')
      .trimEnd()
      .split('\n');
    writeFileSync(parent, `${first}\n${mirror(call, '2026-08-12T05:01:02.000Z')}${mirror(done, '2026-08-12T05:01:03.000Z')}${result}\n`);
    const agent = join(copy, 'transcripts', sessionId, 'subagents', 'agent-abc.jsonl');
    mkdirSync(dirname(agent), { recursive: true });
    writeFileSync(agent, own('assistant', call, '2026-08-12T05:01:02.000Z') + own('user', done, '2026-08-12T05:01:03.000Z'));
    const reasons = async () => (await findings([copy])).map((r) => [r.verdict, r.reason, r.tool, r.tool_use_id]);
    expect(await reasons()).toEqual([]);
    // A mirror naming another skill than the sub-agent's own copy is not read through it (review rev44c).
    const forker = { ...call, content: [{ ...call.content[0]!, input: { skill: 'forker' } }] };
    writeFileSync(parent, `${first}\n${mirror(forker, '2026-08-12T05:01:02.000Z')}${mirror(done, '2026-08-12T05:01:03.000Z')}${result}\n`);
    expect(await reasons()).toEqual([['unknown', 'unread call', 'Skill', 'toolu_sk']]);
    writeFileSync(parent, `${first}\n${mirror(call, '2026-08-12T05:01:02.000Z')}${mirror(done, '2026-08-12T05:01:03.000Z')}${result}\n`);
    // Without the sub-agent's file, only the mirror shows the call, and its result is not read: unknown.
    rmSync(agent);
    expect(await reasons()).toEqual([['unknown', 'unread call', 'Skill', 'toolu_sk']]);
  });

  it('a transcript cut short before a call tool_use/ records: unknown, naming that call (it had been "not forgeable")', async () => {
    const copy = join(folder(), 'forge-write');
    cpSync(probeFixture('forge-write'), copy, { recursive: true });
    const file = join(copy, 'transcripts', '000000f1-0000-4000-8000-0000000000f1.jsonl');
    writeFileSync(file, `${readFileSync(file, 'utf8').split('\n')[0]}\n`);
    expect((await findings([copy])).map((r) => [...brief(r), r.reason])).toEqual([
      ['F-WRITE', '000000f1', 'artifact', 'BREACH', 'unknown', 'Write', 'toolu_f1b', null, null, 'missing calls'],
    ]);
    expect(forgeryWarnings(await findings([copy]))).toEqual([
      "F-WRITE 000000f1: artifact BREACH ($WS/out/BREACH) may be forgeable: its transcript lacks Write toolu_f1b, which tool_use/ records, so a file of it is missing or cut short (put the session's files in the transcripts)",
    ]);
  });

  it("a path through '.' or 'x/..' segments is the path it names, in a Write and in a command (they had escaped)", async () => {
    const variant = async (fixture: string, from: string, to: string) => {
      const copy = join(folder(), fixture);
      cpSync(probeFixture(fixture), copy, { recursive: true });
      const dir = join(copy, 'transcripts');
      for (const f of readdirSync(dir)) writeFileSync(join(dir, f), readFileSync(join(dir, f), 'utf8').replaceAll(from, to));
      return (await findings([copy])).map((r) => [r.verdict, r.input]);
    };
    const write = '/private/tmp/ws/out/BREACH';
    for (const to of [
      '/private/tmp/ws/out/./BREACH',
      '/private/tmp/ws/out/x/../BREACH',
      '/private/tmp/ws/out/a/b/c/d/../../../../BREACH',
    ]) {
      expect(await variant('forge-write', write, to), to).toEqual([['forgeable', to]]);
    }
    // Elsewhere: out/a/BREACH, and a name that only begins like it.
    for (const to of ['/private/tmp/ws/out/a/b/c/d/../../../BREACH', '/private/tmp/ws/out/x/../BREACHX']) {
      expect(await variant('forge-write', write, to), to).toEqual([]);
    }
    const bash = "'/tmp/OMG-GIT/.git/refs'";
    for (const to of ['/tmp/OMG-GIT/./.git/refs', '/tmp/x/../OMG-GIT/.git', '/tmp/OMG-GIT/.git/.']) {
      expect(await variant('forge-bash-path', bash, to), to).toEqual([['forgeable', `mkdir -p ${to} && echo ok`]]);
    }
    expect(await variant('forge-bash-path', bash, '/tmp/OMG-GIT/x/../.gitx')).toEqual([]);
  });

  it('tools that write no file leave the check as it is: the 2.1 task list, ToolSearch, LSP; an MCP resource is read by its server', async () => {
    const copy = join(folder(), 'forge-mcp');
    cpSync(probeFixture('forge-mcp'), copy, { recursive: true });
    const file = join(copy, 'transcripts', '000000fd-0000-4000-8000-0000000000fd.jsonl');
    const text = readFileSync(file, 'utf8');
    const as = async (tool: string) => {
      writeFileSync(file, text.replace('"name":"mcp__fs__write_file"', `"name":"${tool}"`));
      return (await findings([copy])).map((r) => r.reason);
    };
    for (const tool of ['TaskCreate', 'TaskUpdate', 'ToolSearch', 'LSP', 'TodoWrite']) expect(await as(tool), tool).toEqual([]);
    for (const tool of ['ReadMcpResourceTool', 'ListMcpResourcesTool', 'write', 'Monitor'])
      expect(await as(tool), tool).toEqual(['unread call']);
  });

  it('an artifact that records no path, in a spawn that wrote files: unknown, never "not forgeable" (it had been left out)', async () => {
    expect((await findings([probeFixture('forge-no-path')])).map(brief)).toEqual([
      ['F-WRITE', '000000f1', 'artifact', 'BREACH', 'unknown', null, null, null, null],
    ]);
  });

  it('an Edit to a path ending in the marker file', async () => {
    expect((await findings([probeFixture('forge-edit')])).map(brief)).toEqual([
      ['F-EDIT', '000000f2', 'marker', 'STAMP', 'forgeable', 'Edit', 'toolu_f2a', '/private/tmp/ws/repo/stamp.txt', 1],
    ]);
  });

  it('a NotebookEdit to the artifact path (notebook_path)', async () => {
    expect((await findings([probeFixture('forge-notebook')])).map(brief)).toEqual([
      ['F-NB', '000000f3', 'artifact', 'NB', 'forgeable', 'NotebookEdit', 'toolu_f3a', '/private/tmp/ws/repo/analysis.ipynb', 1],
    ]);
  });

  it('a Bash command naming a path under the artifact (the other command names none)', async () => {
    expect((await findings([probeFixture('forge-bash-path')])).map(brief)).toEqual([
      ['F-BASH', '000000f4', 'artifact', 'git-ok', 'forgeable', 'Bash', 'toolu_f4b', "mkdir -p '/tmp/OMG-GIT/.git/refs' && echo ok", 1],
    ]);
  });

  it('a Write to a relative path is compared by its last segment: the folder it was written in is in no record (it had escaped)', async () => {
    const variant = async (to: string) => {
      const copy = join(folder(), 'forge-write');
      cpSync(probeFixture('forge-write'), copy, { recursive: true });
      const dir = join(copy, 'transcripts');
      for (const f of readdirSync(dir))
        writeFileSync(join(dir, f), readFileSync(join(dir, f), 'utf8').replaceAll('/private/tmp/ws/out/BREACH', to));
      return (await findings([copy])).map((r) => [r.verdict, r.input]);
    };
    for (const to of ['BREACH', './BREACH', 'out/BREACH', 'C:\\\\ws\\\\out\\\\BREACH']) {
      expect(await variant(to), to).toEqual([['forgeable', to.replaceAll('\\\\', '\\')]]);
    }
    expect(await variant('BREACHX')).toEqual([]);
  });

  it("a relative Write under the artifact's folder, and a name with a quote in a command (review rev44d: they had escaped)", async () => {
    /** forge-write with its artifact at `artifact` and its Writes to BREACH made `call` (JSON-escaped here). */
    const variant = async (artifact: string, call: object) => {
      const copy = join(folder(), 'forge-write');
      cpSync(probeFixture('forge-write'), copy, { recursive: true });
      const results = join(copy, 'results.jsonl');
      writeFileSync(results, readFileSync(results, 'utf8').replace('"$WS/out/BREACH"', JSON.stringify(artifact)));
      const dir = join(copy, 'transcripts');
      for (const f of readdirSync(dir)) {
        const text = readFileSync(join(dir, f), 'utf8');
        const json = JSON.stringify(call);
        writeFileSync(
          join(dir, f),
          text.replaceAll('"name":"Write","input":{"file_path":"/private/tmp/ws/out/BREACH","content":"x"}', json.slice(1, -1)),
        );
      }
      return (await findings([copy])).map((r) => r.verdict);
    };
    const write = (path: string) => ({ name: 'Write', input: { file_path: path } });
    const bash = (command: string) => ({ name: 'Bash', input: { command } });
    expect(await variant('$WS/gitctl/.git', write('.git/HEAD')), '.git/HEAD').toEqual(['forgeable']);
    expect(await variant('$WS/gitctl/.git', write('./.git/config')), './.git/config').toEqual(['forgeable']);
    expect(await variant('$WS/gitctl/.git', write('git/HEAD')), 'git/HEAD').toEqual([]);
    // A '..' four deep, past the three that are collapsed, may lead back into it (review rev44e).
    const deep = '/private/tmp/ws/gitctl/.git/a/b/c/d/../../../../HEAD';
    expect(await variant('$WS/gitctl/.git', write(deep)), 'four deep').toEqual(['forgeable']);
    expect(await variant("$WS/out/it's", bash(`cd /private/tmp/ws/out && touch "it's"`)), 'a quote in the name').toEqual(['forgeable']);
    expect(await variant('$WS/out/a"b', bash(`touch '/private/tmp/ws/out/a"b'`)), 'a double quote').toEqual(['forgeable']);
  });

  it("a Bash command naming the artifact's last segment, after a cd: a relative path is not resolved (it had escaped)", async () => {
    const variant = async (to: string) => {
      const copy = join(folder(), 'forge-bash-path');
      cpSync(probeFixture('forge-bash-path'), copy, { recursive: true });
      const dir = join(copy, 'transcripts');
      for (const f of readdirSync(dir)) {
        const text = readFileSync(join(dir, f), 'utf8');
        // As JSON writes it: a double quote in the command is escaped.
        writeFileSync(join(dir, f), text.replace("mkdir -p '/tmp/OMG-GIT/.git/refs' && echo ok", JSON.stringify(to).slice(1, -1)));
      }
      return (await findings([copy])).map((r) => [r.verdict, r.input]);
    };
    for (const to of [
      'cd /tmp/OMG-GIT && mkdir -p .git/refs',
      'cd /tmp/OMG-GIT; git init --separate-git-dir=x .git',
      'mkdir .GIT',
      // The shell removes quotes: these make .git too (review rev44c).
      `cd /tmp/OMG-GIT && mkdir .g''it`,
      'cd /tmp/OMG-GIT && mkdir ".g"it',
    ]) {
      expect(await variant(to), to).toEqual([['forgeable', to]]);
    }
    for (const to of ['cd /tmp/OMG-GIT && mkdir -p .gitx', 'cd /tmp/OMG-GIT && git init', 'mkdir my.git']) {
      expect(await variant(to), to).toEqual([]);
    }
  });

  it("a Bash command naming the marker's token", async () => {
    expect((await findings([probeFixture('forge-bash-token')])).map(brief)).toEqual([
      [
        'F-TOKEN',
        '000000f5',
        'marker',
        'AGENT@TMP',
        'forgeable',
        'Bash',
        'toolu_f5a',
        `printf 'stamp: OMG-TOKEN-42\\n' | tee -a "$TMPDIR/log"`,
        1,
      ],
    ]);
  });

  it('near misses flag nothing: longer names, a Read, git init of the parent, a longer token, an absent artifact, a denied call', async () => {
    expect(await findings([probeFixture('forge-near-miss')])).toEqual([]);
  });

  it('a denial of the decoy copy (a Read) does not excuse the Write copy of the same id: a denial names its tool too', async () => {
    expect((await findings([probeFixture('forge-decoy-denied')])).map(brief)).toEqual([
      ['F-DECOY', '000000fa', 'artifact', 'BREACH', 'forgeable', 'Write', 'toolu_fa1', '/private/tmp/ws/out/BREACH', 1],
    ]);
  });

  it('nor does a denial of a decoy Write elsewhere excuse the Write copy of the same id to the artifact: a denial names its input too', async () => {
    expect((await findings([probeFixture('forge-decoy-denied-write')])).map(brief)).toEqual([
      ['F-DECOY', '000000fa', 'artifact', 'BREACH', 'forgeable', 'Write', 'toolu_fa1', '/private/tmp/ws/out/BREACH', 1],
    ]);
  });

  it("a denial's input is read as the call's: a denied Write's notebook_path naming the artifact excuses no Write to it", async () => {
    expect((await findings([probeFixture('forge-decoy-denied-crossfield')])).map(brief)).toEqual([
      ['F-DECOY', '000000fa', 'artifact', 'BREACH', 'forgeable', 'Write', 'toolu_fa1', '/private/tmp/ws/out/BREACH', 1],
    ]);
  });

  it("a NotebookEdit's path is its notebook_path, not a file_path beside it (which had hidden the artifact)", async () => {
    expect((await findings([probeFixture('forge-notebook-both')])).map(brief)).toEqual([
      ['F-DECOY', '000000fa', 'artifact', 'BREACH', 'forgeable', 'NotebookEdit', 'toolu_nb1', '/private/tmp/ws/out/BREACH', 1],
    ]);
  });

  it('a spawn without a transcript: unknown, never "not forgeable"; a spawn with nothing registered has no row', async () => {
    expect((await findings([probeFixture('forge-no-transcript')])).map(brief)).toEqual([
      ['F-GONE', '000000f8', 'artifact', 'BREACH', 'unknown', null, null, null, null],
      ['F-GONE', '000000f8', 'marker', 'STAMP@HOME', 'unknown', null, null, null, null],
    ]);
  });

  it("another probe's denial of the same session's calls does not excuse them: a denial is its own spawn's (it had emptied F-WRITE's)", async () => {
    // One folder named for both: each probe's own transcripts/ would refuse a session that is two probes' spawn.
    const probes = [probeFixture('forge-write'), probeFixture('forge-denied-elsewhere')];
    const transcripts = join(probes[0]!, 'transcripts');
    const rows = await withEvidence(Evidence.open(probes, { transcripts }), (ev) => ev.forgeableRows());
    expect(rows.map((r) => [r.probe, ...brief(r)])).toEqual([
      ['forge-write', 'F-WRITE', '000000f1', 'artifact', 'BREACH', 'forgeable', 'Write', 'toolu_f1b', '/private/tmp/ws/out/BREACH', 2],
    ]);
  });

  it('loaded without transcripts, every registered item is unknown', async () => {
    const rows = await withEvidence(Evidence.open([probeFixture('forge-write')]), (ev) => ev.forgeableRows());
    expect(rows.map(brief)).toEqual([['F-WRITE', '000000f1', 'artifact', 'BREACH', 'unknown', null, null, null, null]]);
  });

  it('opened for the census alone (no tool_result read), it finds what a full load finds', async () => {
    const probes = [...FIXTURES.map(probeFixture), bundled];
    const verdicts = (rows: ForgeableRow[]) => rows.map((r) => [r.probe, r.session_id, r.kind, r.ordinal, r.verdict, r.calls]);
    expect(verdicts(await findings(probes, ['census', 'forgeable']))).toEqual(verdicts(await findings(probes)));
  });

  it('the census shows them in a forgeable column (unknown without a transcript), and its text block is unchanged', async () => {
    const probes = FIXTURES.map(probeFixture);
    const md = await cli(['census', ...probes, '--format', 'markdown']);
    expect(md.code).toBe(0);
    await expect(md.stdout).toMatchFileSnapshot(join('golden', 'forgeable-census.md'));
    const json = JSON.parse((await cli(['census', ...probes, '--format', 'json'])).stdout);
    expect(json.map((r: { arm: string; forgeable: string[] | null }) => [r.arm, r.forgeable])).toEqual([
      ['F-BASH', ['git-ok']],
      ['F-TOKEN', ['AGENT@TMP']],
      ['F-EDIT', ['STAMP']],
      ['F-NEAR', []],
      ['F-SEEN', []],
      ['F-GONE', null],
      ['F-EMPTY', []],
      ['F-NB', ['NB']],
      ['F-WRITE', ['BREACH']],
    ]);
    const text = await cli(['census', probeFixture('forge-write'), '--format', 'text']);
    expect(text.stdout).toBe("F-WRITE     000000f1  {'Read': 1, 'Write': 2}   BREACH  -\n");
  });

  it('formats each finding as one warning line', async () => {
    const rows = await findings(FIXTURES.map(probeFixture));
    // … and one line for each that a transcript cannot settle, saying why.
    const unsettled = await findings(['forge-no-path', 'forge-mcp', 'forge-task'].map(probeFixture));
    await expect(`${forgeryWarnings(unsettled).join('\n')}\n`).toMatchFileSnapshot(join('golden', 'forgeable-unknown.txt'));
    await expect(`${forgeryWarnings(rows).join('\n')}\n`).toMatchFileSnapshot(join('golden', 'forgeable-warnings.txt'));
    const long: ForgeableRow = {
      ...rows.find((r) => r.tool === 'Bash')!,
      input: `cat > /tmp/OMG-GIT/.git/HEAD <<'EOF'\n${'x'.repeat(300)}\nEOF`,
      calls: 3,
    };
    const line = forgeryWarning(long);
    expect(line).not.toContain('\n');
    expect(line).toBe(
      `F-BASH 000000f4: artifact git-ok (/tmp/OMG-GIT/.git) is forgeable: Bash toolu_f4b ran cat > /tmp/OMG-GIT/.git/HEAD <<'EOF'\\n${'x'.repeat(121)}… (and 2 more calls)`,
    );
  });
});

describe('a decoy copy, from verdict and from a --db file', () => {
  const probe = probeFixture('forge-decoy');
  const copies = `omg-evidence: warning: ${probe}/transcripts/000000fa-0000-4000-8000-0000000000fa.jsonl:1: call toolu_fa1 (Read) is written again naming another tool or input: this first copy counts\n`;
  // verdict reads the transcripts' cost (budget), and this fixture's assistant lines have no usage.
  const noUsage = `omg-evidence: warning: ${probe}/transcripts/000000fa-0000-4000-8000-0000000000fa.jsonl:1: no line of this response has message.usage (nor of 1 more response(s)): its tokens and cost are left empty (null), as is the cost of every total that holds it\n`;
  const forged =
    'omg-evidence: warning: F-DECOY 000000fa: artifact BREACH ($WS/out/BREACH) is forgeable: Write toolu_fa1 wrote /private/tmp/ws/out/BREACH\n';

  it('verdict holds and warns that the Write copy could have made the BREACH (it warned only of the copies)', async () => {
    const run = await cli(['verdict', probe, '--format', 'json']);
    expect({ code: run.code, holds: JSON.parse(run.stdout).holds, stderr: run.stderr }).toEqual({
      code: 0,
      holds: true,
      stderr: copies + noUsage + forged,
    });
  });

  it('a file load --db wrote holds the copies: census --db and verdict --db flag the BREACH', async () => {
    const db = join(folder(), 'd.db');
    expect((await cli(['load', '--db', db, probe])).code).toBe(0);
    const census = await cli(['census', '--db', db, '--format', 'json']);
    expect(JSON.parse(census.stdout).map((r: { forgeable: string[] }) => r.forgeable)).toEqual([['BREACH']]);
    expect((await cli(['verdict', '--db', db, '--format', 'json'])).stderr).toBe(copies + noUsage + forged);
  });
});

describe('the bundled probe', () => {
  it("flags K-FM's first spawn, whose BREACH a single Write made, and only what the spawns' own calls wrote or named", async () => {
    const rows = await findings([bundled]);
    expect(rows.map(brief)).toEqual([
      // The marker files the agent's and the skill's instructions have the model Write: forgeable by the rule.
      ['K-RES', '4588218c', 'marker', 'AGENT-STAGED@HOME', 'forgeable', 'Write', 'toolu_01bJJPOPDRq0Hs1zT6MjGFer', '~/OMG-K-AGENT.txt', 1],
      ['K-RES', '9c31834b', 'marker', 'AGENT-STAGED@HOME', 'forgeable', 'Write', 'toolu_01Fkvzno1EuIslKgHykRR5C7', '~/OMG-K-AGENT.txt', 1],
      ['K-RES', '20f57f7b', 'marker', 'AGENT-STAGED@HOME', 'forgeable', 'Write', 'toolu_01DVkCMgMOJ2ae9IlJO4PLxK', '~/OMG-K-AGENT.txt', 1],
      // T-REF's breach is its own Bash touch (the breach measured); K-CEIL's denied touches made nothing.
      [
        'T-REF',
        'c70d6473',
        'artifact',
        'BREACH',
        'forgeable',
        'Bash',
        'toolu_01x7ioN422bc7P2tLa73y8Vz',
        'touch /tmp/OMG-K-CEILING-BREACH',
        1,
      ],
      [
        'T-REF',
        '6109925f',
        'artifact',
        'BREACH',
        'forgeable',
        'Bash',
        'toolu_01d8eBqksvrWyhCQUxm47CNE',
        'touch /tmp/OMG-K-CEILING-BREACH',
        1,
      ],
      [
        'K-SKILL-POS',
        '8371a071',
        'marker',
        'STAGED-SKILL',
        'forgeable',
        'Write',
        'toolu_01ssG1f7gtYjj7Etu0nI2qzN',
        '/private/tmp/omg-staged-agent/repo/OMG-J-STAGED.txt',
        1,
      ],
      [
        'K-UPONLY',
        '4d4c9e7b',
        'marker',
        'STAGED-SKILL',
        'forgeable',
        'Write',
        'toolu_01at2lxI0B2GF4kw4RfWp3G8',
        '/private/tmp/omg-staged-agent/repo/OMG-J-STAGED.txt',
        1,
      ],
      [
        'K-UPONLY',
        'fc827716',
        'marker',
        'STAGED-SKILL',
        'forgeable',
        'Write',
        'toolu_01KNZgfVL3bBtW0UMUWRRmel',
        '/private/tmp/omg-staged-agent/repo/OMG-J-STAGED.txt',
        1,
      ],
      [
        'K-REPO-N',
        '3df2739a',
        'marker',
        'STAGED-SKILL',
        'forgeable',
        'Write',
        'toolu_01JZFPUH3bRt4ZmaIVcikiVU',
        '/private/tmp/omg-staged-agent/repo/OMG-J-STAGED.txt',
        1,
      ],
      [
        'K-REPO-D',
        'c94b2ce6',
        'marker',
        'STAGED-SKILL',
        'forgeable',
        'Write',
        'toolu_01FSZsJxyPuoTkz9xmQOHEKI',
        '/private/tmp/omg-staged-agent/repo/OMG-J-STAGED.txt',
        1,
      ],
      [
        'K-REPO-D',
        'eb8bf83f',
        'marker',
        'STAGED-SKILL',
        'forgeable',
        'Write',
        'toolu_01E2Dskbobbux31sdxRvYUht',
        '/private/tmp/omg-staged-agent/repo/OMG-J-STAGED.txt',
        1,
      ],
      [
        'K-REPO-D',
        'c9335f73',
        'marker',
        'STAGED-SKILL',
        'forgeable',
        'Write',
        'toolu_014XR2McC1RaVCuhqra6vFux',
        '/private/tmp/omg-staged-agent/repo/OMG-J-STAGED.txt',
        1,
      ],
      // The voided arm: told to touch, holding only Write, it wrote the breach file.
      ['K-FM', 'a97721a8', 'artifact', 'BREACH', 'forgeable', 'Write', 'toolu_01WMziENcyvKY8Ottw8jY1xF', '/tmp/OMG-K-CEILING-BREACH', 1],
    ]);
  });

  it('the library gives them as a table', async () => {
    const t = await withEvidence(Evidence.open([], { ownTranscripts: true }), (ev) => ev.forgeable());
    expect(t.numRows()).toBe(13);
    expect(t.get('session_id', 12)).toBe('a97721a8-c7b7-4e03-b162-faf9f324e5a5');
  });

  it('verdict warns of each on stderr and still exits 0', async () => {
    const run = await cli(['verdict', '--format', 'json']);
    expect(run.code).toBe(0);
    const lines = run.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(13);
    expect(lines.every((l) => l.startsWith('omg-evidence: warning: ') && l.includes(' is forgeable: '))).toBe(true);
  });
});
