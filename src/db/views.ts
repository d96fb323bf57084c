/**
 * The documented views: the tables a user's SQL can rely on, their columns and what each means.
 * `omg-evidence schema` prints them with DuckDB's types, docs/views.md's reference is rendered
 * from them, and a test checks them against the tables the loaders really build.
 */
import { TRANSCRIPT_VIEWS } from './transcript-views.js';
import type { View } from './view.js';

export type { View } from './view.js';

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
      addendum:
        "the addendum that registered it: the record's `addendum`, or its file's number (`registration/addendum-2.jsonl`); NULL in the pre-registration",
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
  ...TRANSCRIPT_VIEWS,
];
