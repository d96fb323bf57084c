/**
 * validateAll (src/load/validate.ts) hands a schema's checks each record cut down to the keys the
 * schema names, parsed once: a check that read any other key of `json` would see it missing. The
 * checks' SQL is read here for every key of `json` it names.
 */
import { describe, expect, it } from 'vitest';
import { NOTES, REGISTRATION, REGISTRATION_KINDS, RESULTS, SKILL_RESULTS, TOOL_USE } from '../src/load/record-schemas.js';
import type { RecordSchema } from '../src/load/validate.js';

/** The top-level keys of `json` that `sql` reads: `json ->> '$.k'`, `json -> 'k'`, `json_type(json, '$.k')`. */
function keysRead(sql: string): string[] {
  const re = /\bjson\s*->>?\s*'(?:\$\.)?"?([^'".[]+)"?|json_type\(json,\s*'\$\."?([^'".[]+)"?'/g;
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
  it('every check reads only keys its schema names', () => {
    let seen = 0;
    for (const [name, schema] of schemas) {
      const named = new Set(schema.fields.map((f) => f.key));
      for (const check of schema.checks ?? []) {
        const keys = keysRead(check.bad);
        seen += keys.length;
        expect({ schema: name, check: check.why, outside: keys.filter((k) => !named.has(k)) }).toEqual({
          schema: name,
          check: check.why,
          outside: [],
        });
      }
    }
    // The pattern finds the keys the checks read today (seq, session_id, started_at, …), not none.
    expect(seen).toBeGreaterThanOrEqual(12);
  });

  it('the reader of keys finds each way a check names one', () => {
    expect(
      keysRead(`json ->> '$.seq' and json -> '$.artifacts' and (json ->> 'kind') and json_type(json, '$.ended_at') and x ->> '$.label'`),
    ).toEqual(['seq', 'artifacts', 'kind', 'ended_at']);
  });
});
