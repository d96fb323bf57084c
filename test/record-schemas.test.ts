/**
 * validateAll (src/load/validate.ts) hands a schema's checks each record cut down to the schema's
 * `reads` keys, and its envelope (`env`) cut down to its `envelope` keys, each parsed once: a
 * check that read any other key would see it missing. The checks' SQL is read here for
 * every key of `json` and of `env` it names.
 */
import { describe, expect, it } from 'vitest';
import { NOTES, RESULTS, SKILL_RESULTS, TOOL_USE } from '../src/load/record-schemas.js';
import { REGISTRATION, REGISTRATION_KINDS } from '../src/load/registration-schemas.js';
import type { RecordSchema } from '../src/load/validate.js';

/** The top-level keys of `column` that `sql` reads: `json ->> '$.k'`, `json -> 'k'`, `json_type(json, '$.k')`. */
function keysRead(sql: string, column = 'json'): string[] {
  const re = new RegExp(`\\b${column}\\s*->>?\\s*'(?:\\$\\.)?"?([^'".[]+)"?|json_type\\(${column},\\s*'\\$\\."?([^'".[]+)"?'`, 'g');
  return [...sql.matchAll(re)].map((m) => m[1] ?? m[2]!);
}

const schemas: [string, RecordSchema][] = [
  ['results', RESULTS],
  ['tool_use', TOOL_USE],
  ['skill_results', SKILL_RESULTS],
  ['notes', NOTES],
  ['registration', REGISTRATION],
  ...Object.entries(REGISTRATION_KINDS).map(([k, s]): [string, RecordSchema] => [`registration ${k}`, s]),
];

describe('record schemas', () => {
  it('every check reads only the keys its schema says it reads', () => {
    let seen = 0;
    for (const [name, schema] of schemas) {
      const named = new Set(schema.reads ?? []);
      const enveloped = new Set(schema.envelope ?? []);
      for (const check of schema.checks ?? []) {
        const keys = keysRead(check.bad);
        const envKeys = keysRead(check.bad, 'env');
        seen += keys.length + envKeys.length;
        const outside = [...keys.filter((k) => !named.has(k)), ...envKeys.filter((k) => !enveloped.has(k)).map((k) => `env.${k}`)];
        expect({ schema: name, check: check.why, outside }).toEqual({
          schema: name,
          check: check.why,
          outside: [],
        });
      }
    }
    // The pattern finds the keys the checks read today (seq, session_id, …, env's modelUsage), not none.
    expect(seen).toBeGreaterThanOrEqual(18);
  });

  it('the reader of keys finds each way a check names one', () => {
    expect(
      keysRead(`json ->> '$.seq' and json -> '$.artifacts' and (json ->> 'kind') and json_type(json, '$.ended_at') and x ->> '$.label'`),
    ).toEqual(['seq', 'artifacts', 'kind', 'ended_at']);
  });
});
