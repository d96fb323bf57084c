/**
 * sql/json-values.sql, the RFC 8259 check of committed records, reads numbers and depth from a
 * record's text, and keys one of two ways: it lists the objects of a record with few brackets at
 * once, and walks any other a level at a time. Whichever way a record takes, the first problem must
 * be the one a plain walk finds: this property builds records (repeated keys, every spelling of a
 * non-finite number the reader takes, strings that look like one, nesting past 256 levels, and a
 * list of 300 empty lists that sends a shallow record down the walk) and holds the SQL to a model
 * of the walk.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../src/db/database.js';
import { readSql } from '../src/db/queries.js';

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`json-values.test.ts: fast-check seed ${seed} (FC_SEED=${seed} npx vitest run test/json-values.test.ts replays it)`);

type Node =
  | { t: 'num'; text: string }
  | { t: 'str'; value: string }
  | { t: 'arr'; items: Node[] }
  | { t: 'obj'; entries: [string, Node][] };

const text = (n: Node): string => {
  switch (n.t) {
    case 'num':
      return n.text;
    case 'str':
      return JSON.stringify(n.value);
    case 'arr':
      return `[${n.items.map(text).join(',')}]`;
    case 'obj':
      return `{${n.entries.map(([k, v]) => `${JSON.stringify(k)}:${text(v)}`).join(',')}}`;
  }
};

type Problem = { what: string; detail: string | null };

/** What the walk finds, as json-values.sql's header says: every node to depth 256, containers below 256 opened. */
function problems(n: Node, depth: number, out: Problem[]): Problem[] {
  if (n.t === 'num' && /^-?(nan|inf|infinity)$/i.test(n.text)) out.push({ what: 'number', detail: n.text });
  if (n.t !== 'arr' && n.t !== 'obj') return out;
  if (depth === 256) {
    out.push({ what: 'depth', detail: null });
    return out;
  }
  if (n.t === 'obj') {
    const keys = n.entries.map(([k]) => k);
    const dup = keys.find((k, i) => keys.indexOf(k) < i);
    if (dup !== undefined) out.push({ what: 'key', detail: dup });
  }
  for (const c of n.t === 'arr' ? n.items : n.entries.map(([, v]) => v)) problems(c, depth + 1, out);
  return out;
}

/** The first problem by kind, then detail (nulls last), as the SQL orders them. */
function first(found: Problem[]): Problem | undefined {
  return [...found].sort((a, b) =>
    a.what !== b.what
      ? a.what < b.what
        ? -1
        : 1
      : a.detail === b.detail
        ? 0
        : a.detail === null
          ? 1
          : b.detail === null
            ? -1
            : a.detail < b.detail
              ? -1
              : 1,
  )[0];
}

const leaf: fc.Arbitrary<Node> = fc.oneof(
  fc
    .constantFrom('1', '-2.5', '1e400', '2E-5', 'NaN', 'Infinity', '-Infinity', 'nan', '-nan', 'inf', '-INF', 'infinity', 'iNf')
    .map((t) => ({ t: 'num' as const, text: t })),
  fc.constantFrom('x', 'a"b', '[[', '{', 'NaN', ',inf', ' -Infinity', 'a\\', '\\"').map((value) => ({ t: 'str' as const, value })),
);
const { node } = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('node'), { maxLength: 4 }).map((items) => ({ t: 'arr' as const, items })),
    fc
      .array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'a"b', 'NaN', '[', '{"'), tie('node')), { maxLength: 4 })
      .map((entries) => ({ t: 'obj' as const, entries })),
  ),
}));

/** A record: an object around a node, nested in `wrap` arrays, with a list of `pad` empty lists beside it. */
const record = fc
  .record({
    inner: node,
    wrap: fc.oneof({ weight: 12, arbitrary: fc.constantFrom(0, 1) }, { weight: 1, arbitrary: fc.constantFrom(255, 256) }),
    pad: fc.constantFrom(0, 300),
  })
  .map(({ inner, wrap, pad }) => {
    let v = inner;
    for (let i = 0; i < wrap; i++) v = { t: 'arr', items: [v] };
    const entries: [string, Node][] = [['v', v]];
    if (pad) entries.push(['pad', { t: 'arr', items: Array.from({ length: pad }, () => ({ t: 'arr' as const, items: [] })) }]);
    return { t: 'obj' as const, entries } as Node;
  });

describe('sql/json-values.sql', () => {
  let db: Database;
  beforeAll(async () => {
    db = await Database.open();
  });
  afterAll(() => db.close());

  const check = async (line: string) => {
    await db.exec(`create or replace table recs as select 'f' as file, 1::BIGINT as rec, $j::JSON as json`, { j: line });
    await db.exec('create or replace temp view json_records as select file, rec, json from recs');
    const row = (await db.query(readSql('json-values'))).rows[0];
    return row && { what: row.what, detail: row.detail };
  };

  it(`finds the walk's first problem, whichever way a record takes (seed ${seed})`, async () => {
    await fc.assert(
      fc.asyncProperty(record, async (r) => {
        expect(await check(text(r))).toEqual(first(problems(r, 0, [])));
      }),
      { seed, numRuns: 100 },
    );
  }, 120_000);

  it('a repeated key or NaN in a shallow record that the walk reads (a list of 300 empty lists beside it)', async () => {
    const pad = `[${Array(300).fill('[]').join(',')}]`;
    expect(await check(`{"pad":${pad},"a":{"k":1,"k":2}}`)).toEqual({ what: 'key', detail: 'k' });
    expect(await check(`{"pad":${pad},"a":[1,NaN]}`)).toEqual({ what: 'number', detail: 'NaN' });
    expect(await check(`{"a":${'['.repeat(255)}${']'.repeat(255)},"a":1}`)).toEqual({ what: 'key', detail: 'a' });
    expect(await check(`{"a":${'['.repeat(256)}${']'.repeat(256)}}`)).toEqual({ what: 'depth', detail: null });
  });

  it('every spelling of a non-finite number the reader takes, and none inside a string', async () => {
    for (const word of ['nan', '-nan', 'inf', '-Inf', 'INFINITY', '-NaN'])
      expect(await check(`{"a":[1e5,${word}]}`)).toEqual({ what: 'number', detail: word });
    expect(await check('{"NaN":"-Infinity","s":"[nan, {inf}]","e":"\\":inf","n":-1.5E+3}')).toBeUndefined();
    expect(await check('{"a":[true,false,null,1E400]}')).toBeUndefined();
  });

  it('a trailing comma in a list or an object, which the reader takes, and none inside a string', async () => {
    expect(await check('{"a":[1,2,]}')).toEqual({ what: 'comma', detail: null });
    expect(await check('{"a":{"b":1 ,\t}}')).toEqual({ what: 'comma', detail: null });
    expect(await check('{"a":"[1,]","b":",}"}')).toBeUndefined();
  });

  it('a key repeated last among 100,000 keys of one object (finding the first repeat was quadratic)', async () => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `"k${i}":1`).join(',');
    expect(await check(`{"o":{${keys},"k99999":2,"k5":3}}`)).toEqual({ what: 'key', detail: 'k99999' });
  }, 60_000);
});
