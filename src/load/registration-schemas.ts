/**
 * The schemas of a probe's registration records (docs/registration.md), by kind. Only what the
 * tables need is required; every other key is kept.
 */
import { anyItem, notFinite } from './record-schemas.js';
import type { RecordSchema } from './validate.js';

const REG_HINT = 'see docs/registration.md';

/** Registration records by `kind`. A kind not listed here is an error (REGISTRATION's check). */
export const REGISTRATION_KINDS: Record<string, RecordSchema> = {
  probe: {
    what: 'registration "probe" record',
    fields: [{ key: 'title', kinds: ['string'], required: false }],
    hint: REG_HINT,
  },
  budget: {
    what: 'registration "budget" record',
    fields: [
      { key: 'usd', kinds: ['number'] },
      { key: 'spawns', kinds: ['integer'] },
    ],
    reads: ['usd', 'spawns'],
    checks: [
      { bad: notFinite('json', '$.usd'), why: '"usd" must be a finite number' },
      {
        bad: `try_cast(json ->> '$.usd' as DOUBLE) < 0 or try_cast(json ->> '$.spawns' as HUGEINT) < 0`,
        why: '"usd" and "spawns" must not be negative',
      },
    ],
    hint: REG_HINT,
  },
  arm: {
    what: 'registration "arm" record',
    fields: [
      { key: 'arm', kinds: ['string'] },
      { key: 'phase', kinds: ['string'] },
      { key: 'n', kinds: ['integer'] },
      { key: 'trigger', kinds: ['string'], required: false },
      { key: 'addendum', kinds: ['integer'], required: false },
      { key: 'replaces', kinds: ['string'], required: false },
      { key: 'what', kinds: ['string'], required: false },
    ],
    reads: ['n', 'addendum'],
    checks: [
      { bad: `try_cast(json ->> '$.n' as HUGEINT) < 0`, why: '"n" must not be negative' },
      // An arm an addendum registers is in that addendum's file: a note had named another addendum.
      { bad: `rel <> format('registration/addendum-{}.jsonl', json ->> '$.addendum')`, why: '"addendum" is not the n of its file' },
    ],
    hint: REG_HINT,
  },
  conjunct: {
    what: 'registration "conjunct" record',
    fields: [
      { key: 'n', kinds: ['integer'] },
      { key: 'required', kinds: ['string'] },
      { key: 'check', kinds: ['string'] },
    ],
    hint: REG_HINT,
  },
  addendum: {
    what: 'registration "addendum" record',
    fields: [
      { key: 'n', kinds: ['integer'] },
      { key: 'text', kinds: ['string'] },
      { key: 'pilot', kinds: ['array'], required: false },
      { key: 'void', kinds: ['array'], required: false },
    ],
    reads: ['n', 'pilot', 'void'],
    checks: [
      // Each addendum has its own file, so that git dates it apart; registration order ranks a file
      // by the addendum in it.
      { bad: `try_cast(json ->> '$.n' as HUGEINT) < 1`, why: '"n" must be an integer ≥ 1' },
      {
        bad: `rel <> format('registration/addendum-{}.jsonl', json ->> 'n')`,
        why: 'an addendum must be in the file its "n" names:',
        value: `format('registration/addendum-{}.jsonl', json ->> 'n')`,
        hint: 'each addendum has a file of its own, named by its number, so that git dates it apart; see docs/registration.md',
      },
      {
        bad: anyItem('$.pilot', `json_type(x) <> 'VARCHAR'`),
        why: '"pilot" must list session ids (strings)',
      },
      {
        bad: anyItem(
          '$.void',
          `json_type(x) <> 'OBJECT' or coalesce(json_type(x, '$.arm'), '') <> 'VARCHAR' or coalesce(json_type(x, '$.reason'), '') <> 'VARCHAR'`,
        ),
        why: 'every "void" item must be {"arm":"…","reason":"…"}',
      },
    ],
    hint: REG_HINT,
  },
};

const KINDS = Object.keys(REGISTRATION_KINDS);

export const REGISTRATION: RecordSchema = {
  what: 'registration record',
  fields: [{ key: 'kind', kinds: ['string'] }],
  reads: ['kind'],
  checks: [
    {
      bad: `not list_contains([${KINDS.map((k) => `'${k}'`).join(', ')}], json ->> 'kind')`,
      why: 'unknown kind',
      value: `json ->> 'kind'`,
      hint: `the kinds are ${KINDS.join(', ')}; see docs/registration.md`,
    },
  ],
  hint: REG_HINT,
};
