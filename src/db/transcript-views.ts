/**
 * The documented views of the transcripts and the price table (views.ts lists them after the
 * probes').
 */
import { CALL_COLUMNS } from './call-columns.js';
import type { View } from './view.js';

export const TRANSCRIPT_VIEWS: View[] = [
  {
    name: 'transcript_lines',
    grain: 'transcript line, of any record type',
    source: 'transcripts',
    columns: {
      rec: 'record number in the file (blank lines skipped)',
      file: 'the transcript file, relative to the transcripts folder',
      type: 'record type: user, assistant, system, summary, progress, …',
      subtype: 'system subtype',
      session_id: "sessionId, or the file's for lines without one",
      uuid: "the line's uuid",
      timestamp: 'the text the line wrote (Claude Code writes ISO 8601 in UTC; transcript_sessions reads it as an instant)',
      version: 'Claude Code version',
      is_sidechain: "a sub-agent's line",
      agent_id: 'the sub-agent',
      model: 'message.model of an assistant line',
    },
  },
  {
    name: 'transcript_sessions',
    grain: "session of the transcripts (sub-agent files count in their parent's)",
    source: 'transcripts',
    columns: {
      session_id: 'the sessionId its lines carry',
      first_timestamp:
        'the earliest timestamp of its lines, as instants (whatever offset each is written with); a timestamp that is not RFC 3339 (`infinity`, a bare date, no offset) is none',
      versions: 'Claude Code versions that wrote it, sorted',
      models: 'models of its assistant lines, sorted',
      lines: 'its non-blank lines, every record type',
      files: 'its files, relative to the transcripts folder, sorted',
      cwd: 'the working directory of its first response',
      project: "the folder that holds the file of its earliest line, its session file (under ~/.claude/projects, the project's slug)",
      git_branch: 'the git branch of its first response',
      last_timestamp: 'the latest timestamp of its responses',
      duration: 'last_timestamp - first_timestamp',
      responses: 'its API responses (transcript_messages)',
      input_tokens: 'summed over its responses',
      output_tokens: 'summed over its responses, each at its final snapshot',
      cache_creation_input_tokens: 'summed over its responses',
      cache_read_input_tokens: 'summed over its responses',
      cost_usd: 'summed over its responses; NULL when one has no price or no usage',
    },
  },
  {
    name: 'transcript_messages',
    grain: 'API response of an assistant turn, counted once at its final usage snapshot',
    source: 'transcripts',
    columns: {
      session_id: 'the session of its earliest line',
      message_id: 'message.id (msg_…)',
      request_id: 'requestId (req_…), where its lines have one',
      model: 'message.model',
      first_timestamp: 'the earliest timestamp of its lines',
      last_timestamp: 'the latest timestamp of its lines',
      input_tokens: 'usage.input_tokens of its final snapshot; each count NULL when no line of it has usage',
      output_tokens: 'usage.output_tokens of its final snapshot (the largest of its lines)',
      cache_creation_input_tokens: 'usage.cache_creation_input_tokens: prompt-cache writes',
      cache_read_input_tokens: 'usage.cache_read_input_tokens: prompt-cache hits',
      cache_creation_5m_input_tokens: 'usage.cache_creation.ephemeral_5m_input_tokens, where the line has it',
      cache_creation_1h_input_tokens: 'usage.cache_creation.ephemeral_1h_input_tokens, where the line has it',
      service_tier: 'usage.service_tier',
      is_sidechain: "a sub-agent's response (in its own file, or mirrored in its parent's progress lines)",
      agent_id: 'the sub-agent',
      cwd: 'the working directory, as its first line gives it (the line that gives its session)',
      git_branch: 'gitBranch, as its first line gives it',
      project: "the folder that holds its first line's file (under ~/.claude/projects, the project's slug)",
      cost_usd: 'priced by model_prices; 0 for <synthetic>; NULL when its model has no price, or no line of it has usage',
      lines: 'the lines that wrote it (one per content block while it streamed; a progress line that mirrors it is one)',
      file: 'the file of its final snapshot',
      rec: 'the record number of its final snapshot',
    },
  },
  {
    name: 'model_prices',
    grain: 'model of the price table (data/pricing.json, or --pricing FILE), in USD per million tokens',
    source: 'pricing',
    columns: {
      model: 'model id without a date suffix, e.g. claude-opus-4-5',
      input: 'input tokens',
      output: 'output tokens',
      cache_write_5m: 'prompt-cache writes of a 5-minute lifetime',
      cache_write_1h: 'prompt-cache writes of a 1-hour lifetime',
      cache_read: 'prompt-cache hits',
      as_of: 'the date of the prices',
      source: 'where they come from',
    },
  },
  {
    name: 'transcript_tool_uses',
    grain:
      'tool_use block of an assistant line, once per id within a session (its first copy in transcript order; a block without an id counts on its own). A copy that names another tool, or another skill, path, command or set of input keys, is no copy: a warning on stderr names the line of the first, which still counts, and transcript_tool_use_copies holds the others',
    source: 'transcripts',
    columns: {
      session_id: 'the session',
      ordinal: 'transcript order within the session: by the instant of its line, then file, line and block',
      tool_use_id: 'the toolu_… id',
      ...CALL_COLUMNS,
    },
  },
  {
    name: 'transcript_tool_use_copies',
    grain:
      'copy of a call whose copies differ (blocks of one id in one session that name another tool, skill, path, command or set of input keys), but the first, which transcript_tool_uses holds and the census counts: forgeable reads these too, since any copy could have written a file. A transcript whose copies are all alike has none',
    source: 'transcripts',
    columns: {
      session_id: 'the session',
      tool_use_id: 'the call, as transcript_tool_uses has it',
      copy: 'which copy, in transcript order: 2 for the one after the first',
      ...CALL_COLUMNS,
    },
  },
  {
    name: 'transcript_mirrored_calls',
    grain:
      "tool_use block a `progress` line mirrors from a sub-agent (data.message, since 2.1.38): never counted, since the sub-agent's own file holds the call too; but that file may be missing, and then this is the only trace of it. forgeable reads these, as it reads every copy",
    source: 'transcripts',
    columns: {
      session_id: "the progress line's sessionId (the parent's), or its file's",
      tool_use_id: 'the toolu_… id',
      name: 'tool name',
      skill: CALL_COLUMNS.skill,
      agent_id: "data.agentId: the sub-agent's id",
      parent_tool_use_id: "parentToolUseID: the parent's Task call",
      timestamp: 'of the progress line',
      file: 'its file',
      rec: 'its record number',
      block: "its position in the mirrored message's content",
      path: CALL_COLUMNS.path,
      command: CALL_COLUMNS.command,
    },
  },
  {
    name: 'transcript_subagent_results',
    grain:
      "tool_result of a call that may run a sub-agent (Task, Agent, Skill), its line's only one: forgeable ties a call to the calls its sub-agent made, knows it found them all, and knows when a Skill ran inline",
    source: 'transcripts',
    columns: {
      session_id: 'the session',
      tool_use_id: 'the call it answers',
      agent_id:
        "toolUseResult.agentId: the sub-agent (its file is agent-<id>.jsonl, its lines' agentId); NULL when it names none (a Skill run inline, a call that failed or was stopped)",
      tool_uses: 'toolUseResult.totalToolUseCount: the calls the sub-agent made',
      ran_inline:
        'it shows the call ran no sub-agent: a Skill\'s toolUseResult {commandName} naming no agentId (and no status but "inline"), or the Skill tool\'s refusal before it runs (Unknown skill, Invalid skill format, disable-model-invocation, not a prompt-based skill), naming no agentId and no status but "inline"',
      file: 'its file',
      rec: 'its record number',
    },
  },
  {
    name: 'transcript_tool_results',
    grain:
      'Skill or SlashCommand call: the first tool_result that answered it, in transcript order (by the instant of its line, then file, line and block)',
    source: 'transcripts',
    columns: {
      session_id: 'the session',
      tool_use_id: 'the call it answers',
      is_error: 'is_error, an "Error:" toolUseResult, or <tool_use_error>',
      result: 'the result text',
      file: 'its file',
      rec: 'its record number',
    },
  },
  {
    name: 'transcript_files',
    grain: 'transcript file',
    source: 'transcripts',
    columns: { dir: 'the transcripts folder', file: 'relative to it', lines: 'its non-blank lines', abs: 'its absolute path' },
  },
];
