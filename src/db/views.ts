/**
 * The documented views: the tables a user's SQL can rely on, their columns and what each means.
 * `omg-evidence schema` prints them with DuckDB's types, docs/views.md's reference is rendered
 * from them, and a test checks them against the tables the loaders really build.
 */
import { CALL_COLUMNS } from './call-columns.js';

export interface View {
  name: string;
  /** One row per … */
  grain: string;
  /**
   * What fills it: a probe's records (the default; a `probe` column says which), the transcripts
   * (empty unless some are loaded), or the price table, which every load holds.
   */
  source?: 'transcripts' | 'pricing';
  columns: Record<string, string>;
}

const probe = 'the probe: its directory name';

export const VIEWS: View[] = [
  {
    name: 'spawns',
    grain: 'row of results.jsonl (one spawn attempt)',
    columns: {
      probe,
      seq: 'spawn order within the probe',
      arm: 'arm id, e.g. K-CEIL',
      phase: 'phase id, e.g. A',
      session_id: 'the session id the harness passed with --session-id',
      status: "counted, pilot or void (from the registration's addenda)",
      exit_code: 'exit status of the claude process',
      cost_usd: "the envelope's total_cost_usd (NULL without an envelope)",
      claude_version: 'what claude --version printed',
      mode: 'how the argv was built',
      argv_file: 'the argv file, relative to the probe',
      plugin_dir: 'the --plugin-dir value, with placeholders',
      started_at: 'RFC 3339 start, as recorded',
      ended_at: 'RFC 3339 end, as recorded',
      note: "the spawn's note from notes.jsonl",
      stderr: 'tool_use/<session_id>.err, when the spawn left one',
      envelope: 'the result envelope (JSON; the last "type":"result" of a --verbose array)',
      record: 'the whole results.jsonl row (JSON), unknown keys included',
    },
  },
  {
    name: 'tool_uses',
    grain: 'committed tool_use record',
    columns: {
      probe,
      session_id: 'the spawn, from the file name',
      ordinal: 'position in the file (transcript order)',
      tool_use_id: 'the toolu_… id',
      name: 'tool name',
      input_keys: "the input's key names",
      skill: 'the skill a Skill call named',
      agent_id: 'the sub-agent that made the call',
      record: 'the whole record (JSON)',
    },
  },
  {
    name: 'skill_calls',
    grain: 'row of skill_results.jsonl: a Skill call and its result',
    columns: {
      probe,
      ordinal: 'position in the file',
      session_id: 'the spawn',
      arm: "the spawn's arm",
      tool_use_id: 'the call',
      skill: 'the skill it named',
      is_error: 'whether the result was an error (NULL: unanswered)',
      result: 'the tool_result text',
      record: 'the whole row (JSON)',
    },
  },
  {
    name: 'permission_denials',
    grain: "item of an envelope's permission_denials",
    columns: {
      probe,
      session_id: 'the spawn',
      ordinal: 'position in the array',
      tool_name: 'the denied tool',
      tool_use_id: 'the denied call',
      tool_input: 'its input (JSON)',
      record: 'the whole item (JSON)',
    },
  },
  {
    name: 'model_usage',
    grain: "spawn and model of an envelope's modelUsage",
    columns: {
      probe,
      session_id: 'the spawn',
      ordinal: 'position in modelUsage',
      model: 'the model id, e.g. claude-opus-5[1m]',
      cost_usd: 'costUSD',
      input_tokens: 'inputTokens',
      output_tokens: 'outputTokens',
      cache_read_input_tokens: 'cacheReadInputTokens',
      cache_creation_input_tokens: 'cacheCreationInputTokens',
      record: 'the whole entry (JSON)',
    },
  },
  {
    name: 'artifacts',
    grain: 'file the harness checked after a spawn',
    columns: {
      probe,
      session_id: 'the spawn',
      ordinal: "position in the row's artifacts",
      label: 'e.g. BREACH',
      path: 'the path checked',
      present: 'whether it existed ("exists" in the record)',
      record: 'the whole item (JSON)',
    },
  },
  {
    name: 'markers',
    grain: 'marker token found after a spawn',
    columns: {
      probe,
      session_id: 'the spawn',
      ordinal: "position in the row's markers",
      label: 'e.g. AGENT-STAGED',
      token: 'the token found',
      file: 'the file it was found in',
      dir: 'REPO, HOME or TMP',
      record: 'the whole item (JSON)',
    },
  },
  {
    name: 'registered_arms',
    grain: 'arm of the registration, in registration order',
    columns: {
      probe,
      ordinal: 'registration order',
      arm: 'arm id',
      phase: 'phase id',
      n: 'registered number of counted spawns',
      trigger: 'the trigger .sql of a conditional arm',
      addendum: 'the addendum that registered it',
      replaces: 'the arm it replaces',
      what: 'what the arm does',
      file: 'the registration file, relative to the probe',
      rec: 'its record number in that file',
      record: 'the whole record (JSON)',
    },
  },
  {
    name: 'conjuncts',
    grain: 'conjunct of the verdict',
    columns: {
      probe,
      n: 'its number',
      required: 'what it requires',
      check: 'its check .sql, relative to registration/',
      file: 'the registration file',
      rec: 'its record number',
      record: 'the whole record (JSON)',
    },
  },
  {
    name: 'budgets',
    grain: 'probe that registers a budget (a probe registers at most one)',
    columns: { probe, usd: 'bound in USD', spawns: 'bound in spawns', file: 'the registration file', record: 'the whole record (JSON)' },
  },
  {
    name: 'addenda',
    grain: 'addendum',
    columns: { probe, n: 'its number', text: 'its text', file: 'its file', record: 'the whole record (JSON)' },
  },
  {
    name: 'pilot_sessions',
    grain: 'pilot session an addendum declares',
    columns: { probe, session_id: 'the pilot spawn', addendum: 'the addendum' },
  },
  { name: 'void_arms', grain: 'arm an addendum voids', columns: { probe, arm: 'the void arm', reason: 'why', addendum: 'the addendum' } },
  {
    name: 'spawn_notes',
    grain: 'row of notes.jsonl',
    columns: { probe, session_id: 'the spawn', note: 'the note', file: 'notes.jsonl', rec: 'its record number' },
  },
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
      cost_usd: 'summed over its responses; NULL when one has no price',
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
      input_tokens: 'usage.input_tokens of its final snapshot',
      output_tokens: 'usage.output_tokens of its final snapshot (the largest of its lines)',
      cache_creation_input_tokens: 'usage.cache_creation_input_tokens: prompt-cache writes',
      cache_read_input_tokens: 'usage.cache_read_input_tokens: prompt-cache hits',
      cache_creation_5m_input_tokens: 'usage.cache_creation.ephemeral_5m_input_tokens, where the line has it',
      cache_creation_1h_input_tokens: 'usage.cache_creation.ephemeral_1h_input_tokens, where the line has it',
      service_tier: 'usage.service_tier',
      is_sidechain: "a sub-agent's response",
      agent_id: 'the sub-agent',
      cwd: 'the working directory, as its first line gives it (the line that gives its session)',
      git_branch: 'gitBranch, as its first line gives it',
      project: "the folder that holds its first line's file (under ~/.claude/projects, the project's slug)",
      cost_usd: 'priced by model_prices; 0 for <synthetic>; NULL when its model has no price',
      lines: 'the lines that wrote it (one per content block while it streamed)',
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
