/**
 * The schemas of a probe's committed records (docs/evidence-format.md); its registration's are in
 * registration-schemas.ts. Only what the tables need is required; every other key is kept.
 */
import { itemsCheck, type RecordSchema } from './validate.js';

const SESSION_ID_RE = `'[0-9a-f]+(-[0-9a-f]+)*'`;

/** TRUE when a JSON array at `path` has an item for which `itemBad(x)` holds. */
export function anyItem(path: string, itemBad: string): string {
  // A JSON null item reads as SQL NULL, which no test of its type would catch.
  return `len(list_filter(from_json(json -> '${path}', '["JSON"]'), x -> x is null or (${itemBad}))) > 0`;
}

/** The token counts of a modelUsage entry that model_usage reads. */
const TOKENS = ['inputTokens', 'outputTokens', 'cacheReadInputTokens', 'cacheCreationInputTokens'];

/** TRUE when an entry `x` of the envelope's modelUsage object has `itemBad(x)`. */
function anyUsage(itemBad: string): string {
  return `len(list_filter(map_values(from_json(env -> '$.modelUsage', '"MAP(VARCHAR, JSON)"')), x -> x is null or (${itemBad}))) > 0`;
}

/** Each modelUsage entry's costUSD, NULL where it has none. */
const COSTS = `list_transform(map_values(from_json(env -> '$.modelUsage', '"MAP(VARCHAR, JSON)"')), x -> try_cast(x ->> '$.costUSD' as DOUBLE))`;

/** TRUE when the number at `path` of `column` is present but not finite: DuckDB reads 1e999 as no number. */
export function notFinite(column: string, path: string): string {
  return `json_type(${column}, '${path}') is not null and not coalesce(isfinite(try_cast(${column} ->> '${path}' as DOUBLE)), false)`;
}

/**
 * TRUE when the string at `key` is not an RFC 3339 timestamp naming an instant (omg_rfc3339,
 * sql/rfc3339.sql); git's dates are compared with it (analysis/git.ts).
 */
function isTimestamp(key: string): string {
  return `json_type(json, '$.${key}') = 'VARCHAR' and omg_rfc3339(json ->> '$.${key}') is null`;
}

const RESULTS_FIELDS: RecordSchema['fields'] = [
  { key: 'seq', kinds: ['integer'] },
  { key: 'arm', kinds: ['string'] },
  { key: 'phase', kinds: ['string'] },
  { key: 'session_id', kinds: ['string'] },
  { key: 'mode', kinds: ['string'], required: false },
  { key: 'argv_file', kinds: ['string', 'null'], required: false },
  { key: 'plugin_dir', kinds: ['string', 'null'], required: false },
  { key: 'started_at', kinds: ['string'] },
  { key: 'ended_at', kinds: ['string'], required: false },
  { key: 'exit_code', kinds: ['integer'] },
  { key: 'claude_version', kinds: ['string'] },
  { key: 'envelope', kinds: ['object', 'array', 'null'] },
  { key: 'artifacts', kinds: ['array'] },
  { key: 'markers', kinds: ['array'] },
];

/** The JSON kind of a record's key, from the kinds validate reads once per row (`kinds`, in field order). */
const kindOf = (fields: RecordSchema['fields'], key: string): string => `kinds[${fields.findIndex((f) => f.key === key) + 1}]`;
const resultsKind = (key: string): string => kindOf(RESULTS_FIELDS, key);

export const RESULTS: RecordSchema = {
  what: 'results.jsonl row',
  fields: RESULTS_FIELDS,
  reads: ['seq', 'session_id', 'started_at', 'ended_at', 'artifacts', 'markers'],
  envelope: ['session_id', 'total_cost_usd', 'modelUsage', 'permission_denials'],
  checks: [
    { bad: `try_cast(json ->> '$.seq' as HUGEINT) < 1`, why: '"seq" must be an integer ≥ 1' },
    {
      bad: `not regexp_full_match(json ->> '$.session_id', ${SESSION_ID_RE})`,
      why: '"session_id" must be lowercase hex and dashes (it names the file tool_use/<session_id>.jsonl)',
    },
    { bad: isTimestamp('started_at'), why: '"started_at" must be an RFC 3339 timestamp' },
    { bad: isTimestamp('ended_at'), why: '"ended_at" must be an RFC 3339 timestamp' },
    {
      bad: `${resultsKind('envelope')} = 'ARRAY' and env is null`,
      why: '"envelope" is an array with no "type":"result" element',
    },
    // The CLI prints one result: of two, the first's cost and denials would be dropped unread.
    {
      bad: 'envelope_results > 1',
      why: '"envelope" is an array with more than one "type":"result" element (the CLI writes one per run)',
      hint: 'keep the one result the run printed: each results.jsonl row is one run of the CLI',
    },
    // The CLI's envelope names the session the harness passed with --session-id: another's is
    // another spawn's, and its cost and denials would be counted for this one.
    {
      bad: `json_type(env, '$.session_id') is not null and (env ->> '$.session_id') is distinct from (json ->> '$.session_id')`,
      why: '"envelope.session_id" must be the row\'s "session_id" (an envelope names the session it ran)',
    },
    {
      bad: `json_type(env, '$.total_cost_usd') not in ('UBIGINT', 'BIGINT', 'DOUBLE')`,
      why: '"envelope.total_cost_usd" must be a number',
    },
    // 1e999 is JSON, and DuckDB reads it as no number (try_cast gives NULL): a cost must be finite.
    {
      bad: notFinite('env', '$.total_cost_usd'),
      why: '"envelope.total_cost_usd" must be a finite number',
    },
    {
      bad: `json_type(env, '$.modelUsage') <> 'OBJECT'`,
      why: '"envelope.modelUsage" must be an object keyed by model id',
    },
    { bad: `try_cast(env ->> '$.total_cost_usd' as DOUBLE) < 0`, why: '"envelope.total_cost_usd" must not be negative' },
    { bad: anyUsage(`json_type(x) <> 'OBJECT'`), why: 'every "envelope.modelUsage" entry must be an object' },
    {
      bad: anyUsage(
        `coalesce(json_type(x, '$.costUSD'), 'DOUBLE') not in ('UBIGINT', 'BIGINT', 'DOUBLE') or try_cast(x ->> '$.costUSD' as DOUBLE) < 0
         or ${notFinite('x', '$.costUSD')}`,
      ),
      why: 'every "envelope.modelUsage" entry\'s "costUSD" must be a finite non-negative number',
    },
    // The budget reads the total: one below its models' costs would hide spending. Above them is what
    // the CLI writes at times (a 2.1.3 capture: 0.24722425 over 0.22844625), and hides nothing. A
    // tolerance, not rounding: a sum added in another order can sit a float step across a half micro-dollar.
    {
      bad: `json_type(env, '$.modelUsage') = 'OBJECT'
            and coalesce(list_sum(list_filter(${COSTS}, c -> c is not null)), 0) - try_cast(env ->> '$.total_cost_usd' as DOUBLE) > 0.000001`,
      why: '"envelope.total_cost_usd" must not be less than the sum of its "modelUsage" entries\' "costUSD" (by more than a micro-dollar)',
    },
    {
      bad: anyUsage(
        TOKENS.map(
          (k) => `coalesce(json_type(x, '$.${k}'), 'UBIGINT') <> 'UBIGINT' or try_cast(x ->> '$.${k}' as UBIGINT) > 9223372036854775807`,
        ).join(' or '),
      ),
      why: `every "envelope.modelUsage" entry's token counts (${TOKENS.map((k) => `"${k}"`).join(', ')}) must be integers from 0 to 2^63 - 1`,
    },
    {
      bad: `json_type(env, '$.permission_denials') <> 'ARRAY'`,
      why: '"envelope.permission_denials" must be an array',
    },
    // Each item is held to its keys' kinds: the table would read an item that is no object as a row of
    // NULLs (a denial counted), and 5 as '5'.
    itemsCheck({
      name: 'envelope.permission_denials',
      array: `env -> '$.permission_denials'`,
      fields: [
        { key: 'tool_name', kinds: ['string'] },
        { key: 'tool_use_id', kinds: ['string'] },
        { key: 'tool_input', kinds: ['object', 'null'], required: false },
      ],
    }),
    // A marker's dir is one of three places (census prints LABEL@DIR); a token, file or path of 5
    // would read as the text '5', and `file` is what the forgeable check matches.
    itemsCheck({
      name: 'artifacts',
      array: `json -> '$.artifacts'`,
      fields: [
        { key: 'label', kinds: ['string'] },
        { key: 'exists', kinds: ['boolean'] },
        { key: 'path', kinds: ['string', 'null'], required: false },
      ],
    }),
    itemsCheck({
      name: 'markers',
      array: `json -> '$.markers'`,
      fields: [
        { key: 'label', kinds: ['string'] },
        { key: 'dir', kinds: ['string'], oneOf: ['REPO', 'HOME', 'TMP'] },
        { key: 'token', kinds: ['string', 'null'], required: false },
        { key: 'file', kinds: ['string', 'null'], required: false },
      ],
    }),
  ],
  hint: 'see docs/evidence-format.md#results-jsonl',
};

export const TOOL_USE: RecordSchema = {
  what: 'tool_use record',
  fields: [
    { key: 'id', kinds: ['string'] },
    { key: 'name', kinds: ['string'] },
    { key: 'input_keys', kinds: ['array'] },
    { key: 'skill', kinds: ['string'], required: false },
    { key: 'agent_id', kinds: ['string'], required: false },
  ],
  reads: ['name', 'input_keys'],
  checks: [
    { bad: anyItem('$.input_keys', `json_type(x) <> 'VARCHAR'`), why: '"input_keys" must hold strings only' },
    // kinds[4] is "skill": on another call census had listed a skill that skills and arms never show.
    {
      bad: `kinds[4] is not null and (json ->> '$.name') not in ('Skill', 'SlashCommand')`,
      why: '"skill" is the skill a Skill or SlashCommand call named, and this is a call of',
      value: `json ->> '$.name'`,
      hint: 'leave "skill" out of any other call\'s record; see docs/evidence-format.md#tool-use',
    },
  ],
  hint: 'each line is {"id","name","input_keys":[…]} with optional "skill" and "agent_id"; see docs/evidence-format.md#tool-use',
};

const SKILL_RESULTS_FIELDS: RecordSchema['fields'] = [
  { key: 'session_id', kinds: ['string'] },
  { key: 'arm', kinds: ['string'], required: false },
  { key: 'tool_use_id', kinds: ['string'] },
  { key: 'skill', kinds: ['string'] },
  { key: 'is_error', kinds: ['boolean', 'null'] },
  { key: 'result', kinds: ['string', 'null'] },
];

const skillResultsKind = (key: string): string => kindOf(SKILL_RESULTS_FIELDS, key);

export const SKILL_RESULTS: RecordSchema = {
  what: 'skill_results.jsonl row',
  fields: SKILL_RESULTS_FIELDS,
  reads: ['is_error', 'result'],
  // is_error null says nothing answered the call: a text beside it says something did, and the
  // verdict's skill conjuncts, which read the text, would count an answer the row denies.
  checks: [
    {
      bad: `${skillResultsKind('is_error')} = 'NULL' and ${skillResultsKind('result')} = 'VARCHAR'`,
      why: '"is_error" is null (nothing answered the call) but "result" holds a text',
      hint: 'an answered call has "is_error" true or false; one nothing answered has "is_error" and "result" null',
    },
    // is_error false says something answered, and without error: arms had listed the call both fired and failed.
    {
      bad: `${skillResultsKind('is_error')} = 'BOOLEAN' and (json ->> 'is_error') = 'false' and ${skillResultsKind('result')} = 'NULL'`,
      why: '"is_error" is false (something answered the call) but "result" is null (nothing did)',
      hint: 'an answered call has its text in "result"; one nothing answered has "is_error" and "result" null',
    },
    {
      bad: `${skillResultsKind('is_error')} = 'BOOLEAN' and (json ->> 'is_error') = 'false' and contains(json ->> 'result', '<tool_use_error>')`,
      why: '"is_error" is false but "result" holds a <tool_use_error>, which the transcripts read as an error',
      hint: 'a result holding <tool_use_error> has "is_error" true, as agree and skills read it from the transcripts',
    },
  ],
  hint: 'each line pairs one Skill call with its tool_result: {"session_id","tool_use_id","skill","is_error","result"}; see docs/evidence-format.md#skill-results-jsonl',
};

export const NOTES: RecordSchema = {
  what: 'notes.jsonl row',
  fields: [
    { key: 'session_id', kinds: ['string'] },
    { key: 'note', kinds: ['string'] },
  ],
  hint: 'each line is {"session_id":"…","note":"…"}; see docs/evidence-format.md#notes-jsonl',
};
