/**
 * The fuzz's mutations: each a small pure function from a file's bytes to new bytes, described by a
 * plain object that fast-check generates (positions are numbers taken modulo the file's lines or bytes,
 * so one description applies to any file and prints short). JSON-level mutations re-serialise one line;
 * where JSON.stringify cannot say what we want (a repeated key, NaN, 5,000 levels), the text is built.
 */
import fc from 'fast-check';

/** A value a key is changed to: every JSON type, and the edge values readers trip on. */
const OTHER_VALUES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -0.000001,
  2 ** 63,
  '',
  'many',
  '-1',
  [],
  [1, 'a'],
  {},
  { x: 1 },
];

/** Byte sequences that are not UTF-8: a stray byte, a lone lead or continuation, a surrogate, an overlong slash, a 5-byte form. */
const INVALID_UTF8: readonly (readonly number[])[] = [
  [0xff],
  [0xc3],
  [0x80],
  [0xed, 0xa0, 0x80],
  [0xc0, 0xaf],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
];

export type Mutation =
  | { kind: 'truncate-line'; line: number; permille: number }
  | { kind: 'truncate-file'; permille: number }
  | { kind: 'flip-bytes'; flips: { at: number; mask: number }[] }
  | { kind: 'invalid-utf8'; at: number; seq: number }
  | { kind: 'nul'; at: number; count: number }
  | { kind: 'crlf'; line: number | 'all' }
  | { kind: 'bom'; line: number }
  | { kind: 'repeat-line'; line: number; times: number }
  | { kind: 'drop-key'; line: number; path: number[] }
  | { kind: 'change-type'; line: number; path: number[]; value: number }
  | { kind: 'repeat-key'; line: number; path: number[]; value: number | 'same' }
  | { kind: 'non-finite'; line: number; path: number[]; literal: 'NaN' | 'Infinity' | '-Infinity' | 'nan' | '-inf' | 'INF' }
  | { kind: 'huge-value'; line: number; path: number[]; shape: 'string' | 'array' | 'digits'; bytes: number }
  | { kind: 'deep-nesting'; line: number; path: number[]; shape: 'array' | 'object'; depth: number };

const line = fc.nat();
const path = fc.array(fc.nat(), { maxLength: 5 });

/** One mutation, any kind, equally likely. */
export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate-line' as const), line, permille: fc.nat({ max: 999 }) }),
  fc.record({ kind: fc.constant('truncate-file' as const), permille: fc.nat({ max: 999 }) }),
  fc.record({
    kind: fc.constant('flip-bytes' as const),
    flips: fc.array(fc.record({ at: fc.nat(), mask: fc.integer({ min: 1, max: 255 }) }), { minLength: 1, maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant('invalid-utf8' as const), at: fc.nat(), seq: fc.nat({ max: INVALID_UTF8.length - 1 }) }),
  fc.record({ kind: fc.constant('nul' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('crlf' as const), line: fc.oneof(fc.constant('all' as const), line) }),
  fc.record({ kind: fc.constant('bom' as const), line }),
  fc.record({ kind: fc.constant('repeat-line' as const), line, times: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('drop-key' as const), line, path }),
  fc.record({ kind: fc.constant('change-type' as const), line, path, value: fc.nat({ max: OTHER_VALUES.length - 1 }) }),
  fc.record({
    kind: fc.constant('repeat-key' as const),
    line,
    path,
    value: fc.oneof(fc.constant('same' as const), fc.nat({ max: OTHER_VALUES.length - 1 })),
  }),
  fc.record({
    kind: fc.constant('non-finite' as const),
    line,
    path,
    literal: fc.constantFrom('NaN' as const, 'Infinity' as const, '-Infinity' as const, 'nan' as const, '-inf' as const, 'INF' as const),
  }),
  fc.record({
    kind: fc.constant('huge-value' as const),
    line,
    path,
    shape: fc.constantFrom('string' as const, 'array' as const, 'digits' as const),
    bytes: fc.constantFrom(64 << 10, 1 << 20, 5 << 20),
  }),
  fc.record({
    kind: fc.constant('deep-nesting' as const),
    line,
    path,
    shape: fc.constantFrom('array' as const, 'object' as const),
    depth: fc.constantFrom(100, 1000, 5000),
  }),
);

const NL = 0x0a;

/** The file's lines without their '\n'; a final '\n' gives no extra empty line (`final` says whether there was one). */
function splitLines(bytes: Uint8Array): { lines: Uint8Array[]; final: boolean } {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === NL) {
      lines.push(bytes.subarray(start, i));
      start = i + 1;
    }
  }
  const final = start === bytes.length && bytes.length > 0;
  if (!final) lines.push(bytes.subarray(start));
  return { lines, final };
}

function joinLines(lines: Uint8Array[], final: boolean): Uint8Array {
  const parts: Uint8Array[] = [];
  lines.forEach((l, i) => {
    parts.push(l);
    if (i < lines.length - 1 || final) parts.push(Uint8Array.of(NL));
  });
  return Buffer.concat(parts);
}

function insert(bytes: Uint8Array, at: number, add: readonly number[]): Uint8Array {
  const i = at % (bytes.length + 1);
  return Buffer.concat([bytes.subarray(0, i), Uint8Array.from(add), bytes.subarray(i)]);
}

/** Text standing for itself in the serialised line (a repeated key, a bare NaN, 5,000 brackets). */
class Raw {
  constructor(readonly text: string) {}
}

function serialise(v: unknown): string {
  if (v instanceof Raw) return v.text;
  if (Array.isArray(v)) return `[${v.map(serialise).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${serialise(x)}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

type Container = Record<string, unknown> | unknown[];
const isContainer = (v: unknown): v is Container => v !== null && typeof v === 'object' && !(v instanceof Raw);
const keysOf = (c: Container): (string | number)[] => (Array.isArray(c) ? c.map((_, i) => i) : Object.keys(c));

/**
 * Walks `path` from the line's top value: each step picks a child (index modulo its size) and goes into
 * it while it is a non-empty object or array and steps remain. Returns the container and key reached.
 */
interface Hit {
  container: Container;
  key: string | number;
  /** Where `container` sits in its parent; none for the top value. */
  parent?: { container: Container; key: string | number };
}

function reach(root: Container, path: number[]): Hit | undefined {
  let container = root;
  let parent: Hit['parent'];
  for (let step = 0; ; step++) {
    const keys = keysOf(container);
    if (keys.length === 0) return undefined;
    const key = keys[(path[step] ?? 0) % keys.length]!;
    const child = (container as Record<string | number, unknown>)[key];
    if (step + 1 < path.length && isContainer(child) && keysOf(child).length > 0) {
      parent = { container, key };
      container = child;
    } else return { container, key, parent };
  }
}

/**
 * `edit` applied to the first line from `line` (cyclically) that is a JSON object or array; no such line
 * is no change. `edit` changes the value in place, or returns the text that replaces the whole line.
 */
function editJsonLine(
  bytes: Uint8Array,
  lineNo: number, // biome-ignore lint/suspicious/noConfusingVoidType: most edits change the container in place and return nothing
  edit: (root: Container) => Raw | void,
): Uint8Array {
  const { lines, final } = splitLines(bytes);
  for (let k = 0; k < lines.length; k++) {
    const i = (lineNo + k) % lines.length;
    let root: unknown;
    try {
      root = JSON.parse(Buffer.from(lines[i]!).toString('utf8'));
    } catch {
      continue;
    }
    if (!isContainer(root)) continue;
    const whole = edit(root);
    const out = lines.slice();
    out[i] = Buffer.from(serialise(whole ?? root), 'utf8');
    return joinLines(out, final);
  }
  return bytes;
}

/** Sets the value reached by `path` (or removes it); an empty top value gets key "fuzz". */
function atPath(path: number[], f: (c: Container, key: string | number) => void): (root: Container) => void {
  return (root) => {
    const hit = reach(root, path);
    if (hit) f(hit.container, hit.key);
    else f(root, Array.isArray(root) ? 0 : 'fuzz');
  };
}

const set = (c: Container, key: string | number, v: unknown): void => {
  (c as Record<string | number, unknown>)[key] = v;
};

/** A value of another JSON type than `v`, chosen by `n`. */
function otherType(v: unknown, n: number): unknown {
  const type = (x: unknown) => (x === null ? 'null' : Array.isArray(x) ? 'array' : typeof x);
  for (let k = 0; k < OTHER_VALUES.length; k++) {
    const w = OTHER_VALUES[(n + k) % OTHER_VALUES.length];
    if (type(w) !== type(v)) return w;
  }
  return null;
}

function hugeText(shape: 'string' | 'array' | 'digits', bytes: number): string {
  if (shape === 'string') return JSON.stringify('x'.repeat(bytes));
  if (shape === 'digits') return '9'.repeat(bytes);
  return `[${Array.from({ length: Math.floor(bytes / 2) }, () => '1').join(',')}]`;
}

function nested(shape: 'array' | 'object', depth: number): string {
  return shape === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** The file's bytes after the mutation. Pure: `bytes` is not changed. */
export function mutate(bytes: Uint8Array, m: Mutation): Uint8Array {
  switch (m.kind) {
    case 'truncate-line': {
      const { lines, final } = splitLines(bytes);
      const i = m.line % lines.length;
      const out = lines.slice();
      out[i] = lines[i]!.subarray(0, Math.floor((lines[i]!.length * m.permille) / 1000));
      return joinLines(out, final);
    }
    case 'truncate-file':
      return bytes.slice(0, Math.floor((bytes.length * m.permille) / 1000));
    case 'flip-bytes': {
      const out = Uint8Array.from(bytes);
      if (out.length > 0) for (const f of m.flips) out[f.at % out.length]! ^= f.mask;
      return out;
    }
    case 'invalid-utf8':
      return insert(bytes, m.at, INVALID_UTF8[m.seq]!);
    case 'nul':
      return insert(bytes, m.at, new Array<number>(m.count).fill(0));
    case 'crlf': {
      const { lines, final } = splitLines(bytes);
      const cr = (l: Uint8Array) => Buffer.concat([l, Uint8Array.of(0x0d)]);
      const out = m.line === 'all' ? lines.map((l, i) => (i < lines.length - 1 || final ? cr(l) : l)) : lines.slice();
      if (m.line !== 'all') out[m.line % lines.length] = cr(lines[m.line % lines.length]!);
      return joinLines(out, final);
    }
    case 'bom': {
      const { lines, final } = splitLines(bytes);
      const out = lines.slice();
      const i = m.line % lines.length;
      out[i] = Buffer.concat([Uint8Array.of(0xef, 0xbb, 0xbf), lines[i]!]);
      return joinLines(out, final);
    }
    case 'repeat-line': {
      const { lines, final } = splitLines(bytes);
      const i = m.line % lines.length;
      const out = [...lines.slice(0, i + 1), ...new Array<Uint8Array>(m.times).fill(lines[i]!), ...lines.slice(i + 1)];
      return joinLines(out, final);
    }
    case 'drop-key':
      return editJsonLine(bytes, m.line, (root) => {
        const hit = reach(root, m.path);
        if (!hit) return;
        if (Array.isArray(hit.container)) hit.container.splice(hit.key as number, 1);
        else delete hit.container[hit.key];
      });
    case 'change-type':
      return editJsonLine(
        bytes,
        m.line,
        atPath(m.path, (c, k) => set(c, k, otherType((c as Record<string | number, unknown>)[k], m.value))),
      );
    case 'non-finite':
      return editJsonLine(
        bytes,
        m.line,
        atPath(m.path, (c, k) => set(c, k, new Raw(m.literal))),
      );
    case 'huge-value':
      return editJsonLine(
        bytes,
        m.line,
        atPath(m.path, (c, k) => set(c, k, new Raw(hugeText(m.shape, m.bytes)))),
      );
    case 'deep-nesting':
      return editJsonLine(
        bytes,
        m.line,
        atPath(m.path, (c, k) => set(c, k, new Raw(nested(m.shape, m.depth)))),
      );
    case 'repeat-key':
      return editJsonLine(bytes, m.line, (root) => {
        const hit = reach(root, m.path);
        if (!hit || Array.isArray(hit.container)) {
          // In an array the "key" is an element: repeat the element.
          if (hit && Array.isArray(hit.container)) hit.container.splice(hit.key as number, 0, hit.container[hit.key as number]);
          return;
        }
        const obj = hit.container;
        const again = m.value === 'same' ? obj[hit.key] : otherType(obj[hit.key], m.value);
        // The object becomes its own text with the key written twice: `{"a":1,…,"a":2}`.
        const text = `{${[...Object.entries(obj).map(([k, x]) => `${JSON.stringify(k)}:${serialise(x)}`), `${JSON.stringify(hit.key)}:${serialise(again)}`].join(',')}}`;
        if (!hit.parent) return new Raw(text);
        set(hit.parent.container, hit.parent.key, new Raw(text));
      });
  }
}
