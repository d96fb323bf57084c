/**
 * Nothing leaves with a home path: the one matcher of home paths (leaks.ts), in JavaScript and in
 * DuckDB, and what extract, loading and export make of it.
 */
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listValue } from '@duckdb/node-api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../src/db/database.js';
import { firstHomePath, HOME_PATH_RE2, homePaths, maskHomePath } from '../src/base/home-paths.js';
import { decodeJsonEscapes } from '../src/base/json-escapes.js';
import { findLeaks } from '../src/base/leaks.js';
import { listFiles } from '../src/base/paths.js';
import { bundled, cli, repo } from './helpers.js';

/** fast-check's seed: FC_SEED=<n> replays a run; printed so that a failure reproduces. */
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`leaks.test.ts: fast-check seed ${seed} (FC_SEED=${seed} npx vitest run test/leaks.test.ts replays it)`);

const HINT = '(committed records must not leak the measuring machine; write paths as $HOME in the source, or leave this spawn out)';

describe('home paths, as spelled', () => {
  const found = (text: string, bareTilde = false, home?: string) => homePaths(text, { bareTilde, home }).map((p) => p.text);

  it("not a user that is a variable or a route's parameter: $USER, a template's, :id, {id}", () => {
    expect(found(`/home/$USER/x fetch(\`\${base}/users/\${id}\`) /users/:id /users/{id} %2Fhome%2F$USER`)).toEqual([]);
    expect(found('/home/a$b/x')).toEqual(['/home/a$b']);
  });

  it('finds every spelling, up to the user name', () => {
    expect(found('/home//alice/x')).toEqual(['/home//alice']);
    expect(found('see /HOME/alice and /users/bob.')).toEqual(['/HOME/alice', '/users/bob.']);
    expect(found('%2Fhome%2Falice%2Fx and %2fUsers%5cbob')).toEqual(['%2Fhome%2Falice', '%2fUsers%5cbob']);
    expect(found('C:\\Users\\alice\\x, "C:\\\\Users\\\\bob\\\\y", file:///d:/users/carol')).toEqual([
      'C:\\Users\\alice',
      'C:\\\\Users\\\\bob',
      'd:/users/carol',
    ]);
    expect(found('cd ~alice/x; ls %7Ebob%2Fy')).toEqual(['~alice/', '%7Ebob%2F']);
    // After a percent escape, as a URL's query spells a quoted or assigned path.
    expect(found('x=%22%2Fhome%2Falice%22 a%20%2FUsers%2Fbob p%3D%2Fhome%2Fcarol q=C%3A%5CUsers%5Cdan')).toEqual([
      '%2Fhome%2Falice',
      '%2FUsers%2Fbob',
      '%2Fhome%2Fcarol',
      'C%3A%5CUsers%5Cdan',
    ]);
    expect(found('/root and /root/.claude, "/root"')).toEqual(['/root', '/root', '/root']);
    expect(found('line one\\n/home/alice/x')).toEqual(['/home/alice']);
    // After any JSON escape of a control character, as DuckDB writes a NUL of a record: \u0000.
    expect(found('a\\u0000/home/alice\\f/home/bob\\b/Users/cy')).toEqual(['/home/alice', '/home/bob', '/Users/cy']);
    expect(found('\\/Users\\/alice')).toEqual(['\\/Users\\/alice']);
    // Where systems mount or keep homes, and file:// URLs with a host.
    expect(found('/mnt/c/Users/alice/x and \\\\wsl$\\Ubuntu\\home\\bob\\y')).toEqual(['/mnt/c/Users/alice', '\\\\wsl$\\Ubuntu\\home\\bob']);
    expect(
      found('/usr/home/al/x /export/home/bo/y /System/Volumes/Data/Users/cy/z /private/var/root/.ssh C:\\Documents and Settings\\di\\x'),
    ).toEqual(['/usr/home/al', '/export/home/bo', '/System/Volumes/Data/Users/cy', '/private/var/root', 'C:\\Documents and Settings\\di']);
    expect(found('/var/home/carol/x, /var/root/.ssh and file://localhost/home/dan/x')).toEqual([
      '/var/home/carol',
      '/var/root',
      'file://localhost/home/dan',
    ]);
  });

  it('counts ~/ only when asked (extract), and $HOME as set, with or without its trailing slash', () => {
    expect(found('~/notes.txt')).toEqual([]);
    expect(found('~/notes.txt and "~/x"', true)).toEqual(['~/', '~/']);
    for (const home of ['/srv/operator', '/srv/operator/', '/srv//operator///']) {
      expect(found('at /srv/operator/x and /SRV//operator', false, home), home).toEqual(['/srv/operator', '/SRV//operator']);
      expect(found('/srv/operator2/x and /srv/operators', false, home), home).toEqual([]);
    }
    expect(found('/srv/operator/x', false, '/')).toEqual([]);
  });

  // A run of separators is tried from its first character only: from each of them, the search
  // took quadratic time (40,000 slashes, 21 s), and a line of a megabyte, hours.
  it('reads a run of a million separators in one pass', () => {
    for (const sep of ['/', '\\', '%2F', '\\/']) expect(found(sep.repeat(1_000_000)), sep).toEqual([]);
  });

  it('leaves alone what only looks like one', () => {
    for (const text of [
      '~1',
      '~800 lines',
      '~1.8.',
      'a~b/c',
      '{:credo, "~> 1.7"}',
      '[:oban, ~r/^oban_/]',
      '~s/x/',
      '`*~`',
      'home directory (~)',
      '$HOME/.claude',
      'https://api.github.com/users/octocat',
      '/api/users/7',
      '/srv/home/bob',
      'home/alice',
      '/mnt/data/users/x',
      '/var/lib/home/x',
      '/home/',
      '/rootfs/x',
      '/root-ca.pem',
      '/tmp/OMG-K-AGENT.txt',
      '/private/tmp/ws/repo',
      'C:\\Program Files\\x',
      'x%2Fhome%2Fa',
    ]) {
      expect(found(text, true), text).toEqual([]);
    }
  });

  it('masks the user name, keeping its first letter', () => {
    const masked = (text: string, home?: string) => homePaths(text, { home }).map(maskHomePath);
    expect(masked('/home/alice /Users/bartholomew-the-long ~carol/ C:\\Users\\dan /root')).toEqual([
      '/home/a****',
      '/Users/b********',
      '~c****/',
      'C:\\Users\\d**',
      '/root',
    ]);
    expect(masked('/srv/operator/x', '/srv/operator')).toEqual(['/srv/o*******']);
  });
});

/** A home path in one of its spellings, its user name, and whether it needs bareTilde or $HOME. */
const caseOf = (s: string) =>
  fc
    .array(fc.boolean(), { minLength: s.length, maxLength: s.length })
    .map((up) => [...s].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(''));
const sep = fc
  .array(fc.constantFrom('/', '//', '\\', '\\\\', '\\/', '%2F', '%2f', '%5C', '%5c'), { minLength: 1, maxLength: 3 })
  .map((a) => a.join(''));
const user = fc.stringMatching(/^[a-z_][a-z0-9_-]{0,10}[a-z0-9]$/);
const tail = fc.constantFrom('', '/x', '/.claude/skills/mine', '\\notes.txt', ' and more');
const spelled = fc.oneof(
  fc
    .tuple(sep, fc.constantFrom('home', 'users'), sep, user, tail)
    .chain(([a, w, b, u, t]) => caseOf(w).map((W) => ({ text: `${a}${W}${b}${u}${t}`, generic: true }))),
  fc
    .tuple(fc.constantFrom(...'acdzACDZ'), sep, user, tail)
    .chain(([d, s, u, t]) => caseOf('users').map((W) => ({ text: `${d}:${s}${W}${s}${u}${t}`, generic: true }))),
  fc
    .tuple(sep, fc.constantFrom('', '/', '/.claude', '\\x'))
    .chain(([s, t]) => caseOf('root').map((W) => ({ text: `${s}${W}${t}`, generic: true }))),
  fc.tuple(fc.constantFrom('~', '%7E', '%7e'), user, sep, tail).map(([t, u, s, r]) => ({ text: `${t}${u}${s}${r}`, generic: true })),
  fc
    .tuple(fc.constantFrom('~', '%7E'), sep, fc.constantFrom('x', '.claude/skills'))
    .map(([t, s, r]) => ({ text: `${t}${s}${r}`, generic: false })),
);
/** What may stand before a path: the start of the value, a space, a quote, punctuation, a JSON line break. */
const before = fc.constantFrom('', ' ', '"', "'", '(', '=', ':', '`', '\n', '\\n', 'cd ', 'at: ', 'file://');
const after = fc.constantFrom('', ' ', '"', "'", ')', '\n', ', done');

describe('home paths, any spelling (property)', () => {
  it('every spelling is found, wherever it stands in a value', () => {
    fc.assert(
      fc.property(before, spelled, after, (b, p, a) => {
        expect(firstHomePath(`${b}${p.text}${a}`, { bareTilde: true }), `${b}${p.text}${a}`).toBeDefined();
      }),
      { seed, numRuns: 2000 },
    );
  });

  it('$HOME as set is found however it is spelled, with or without a trailing slash', () => {
    const segment = fc.stringMatching(/^[a-z][a-z0-9_.-]{0,8}$/);
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        fc.array(sep, { minLength: 3, maxLength: 3 }),
        before,
        tail,
        (parts, slash, seps, b, t) => {
          const home = `/${parts.join('/')}${slash ? '/' : ''}`;
          const text = `${b}${seps[0]}${parts.map((p, i) => (i ? seps[i % 3] : '') + p).join('')}${t}`;
          expect(firstHomePath(text, { home }), `${home} in ${text}`).toBeDefined();
        },
      ),
      { seed, numRuns: 500 },
    );
  });

  describe('DuckDB finds what JavaScript finds', () => {
    let db: Database;
    beforeAll(async () => {
      db = await Database.open();
    });
    afterAll(() => db.close());

    // The load-time warning and export run the pattern in DuckDB (RE2): the same texts, the same answers.
    const duck = async (texts: string[]) =>
      (
        await db.query(
          `select regexp_extract(t, $re, 1, 'i') || regexp_extract(t, $re, 2, 'i') as p from unnest($texts) with ordinality as u(t, i) order by i`,
          {
            re: HOME_PATH_RE2,
            texts: listValue(texts),
          },
        )
      ).rows.map((r) => (r.p === '' ? undefined : firstHomePath(String(r.p))?.text));

    it('on every spelling, and on random text full of separators, tildes and home words', async () => {
      const noise = fc
        .array(fc.constantFrom('/', '\\', '~', '%2F', '%7e', 'home', 'Users', 'root', 'C:', 'alice', '.', '-', ' ', '"', '\\n', 'x', '1'), {
          maxLength: 12,
        })
        .map((a) => a.join(''));
      const texts = fc.sample(
        fc.oneof(
          fc.tuple(before, spelled, after).map(([b, p, a]) => `${b}${p.text}${a}`),
          noise,
        ),
        { seed, numRuns: 3000 },
      );
      const js = texts.map((t) => firstHomePath(t)?.text);
      const got = await duck(texts);
      const differ = texts.map((t, i) => ({ t, js: js[i], duckdb: got[i] })).filter((d) => d.js !== d.duckdb);
      expect(differ).toEqual([]);
      expect(js.filter(Boolean).length).toBeGreaterThan(500);
    });
  });
});

describe('extract refuses every spelling, naming where', () => {
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'omg-leaks-'));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));
  const run = (name: string, env?: NodeJS.ProcessEnv) => {
    const dir = join('test', 'fixtures', 'extract', name);
    return cli(['extract', '--transcripts', join(dir, 'transcripts'), '--results', join(dir, 'results.jsonl'), '--out', join(out, name)], {
      env,
    });
  };
  const transcript = (name: string) => `test/fixtures/extract/${name}/transcripts/aaaaaaaa-0000-4000-8000-000000000001.jsonl`;

  it.each([
    [
      'repeated-slashes',
      3,
      'result "Launching skill: mine\\nBase directory for this skill: /home//alice/.claude/skills/mine"',
      '/home//alice',
    ],
    ['upper-case', 2, 'input key "/HOME/alice/notes.txt"', '/HOME/alice'],
    ['lower-users', 2, 'agent_id "/users/alice/agent"', '/users/alice'],
    ['tilde', 2, 'skill "~/skills/mine"', '~/'],
    ['tilde-user', 2, 'tool name "~alice/bin/tool"', '~alice/'],
    [
      'windows',
      3,
      'result "Launching skill: mine\\nBase directory for this skill: C:\\\\Users\\\\alice\\\\.claude\\\\skills\\\\mine"',
      'C:\\Users\\alice',
    ],
    ['windows-forward', 2, 'skill "d:/users/alice/skills/mine"', 'd:/users/alice'],
    ['root', 2, 'input key "/root/.claude/settings.json"', '/root'],
    ['percent-encoded', 3, 'result "Launching skill: mine\\nfile:%2Fhome%2Falice%2F.claude%2Fskills%2Fmine"', '%2Fhome%2Falice'],
  ])('%s', async (name, line, what, path) => {
    const r = await run(name);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `omg-evidence: ${transcript(name)}:${line}: refusing to write ${what}: it contains the home-directory path ${path} ${HINT}\n`,
    );
    expect(existsSync(join(out, name))).toBe(false);
  });

  it('$HOME given with a trailing slash', async () => {
    const r = await run('home-env', { HOME: '/srv/operator/' });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `omg-evidence: ${transcript('home-env')}:1: refusing to write skill "/srv/operator/skills/x": it contains the home-directory path /srv/operator ${HINT}\n`,
    );
  });
});

describe('extract refuses random spellings (property)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'omg-leaks-prop-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const sid = 'aaaaaaaa-0000-4000-8000-000000000001';
  const line = (o: object) =>
    `${JSON.stringify({ sessionId: sid, version: '2.1.228', timestamp: '2026-08-12T05:00:31.000Z', uuid: 'u', ...o })}\n`;
  /** A transcript with the value in one of the places extract writes from. */
  const transcripts: Record<string, (v: string) => string> = {
    'tool name': (v) => line({ type: 'assistant', message: { content: [{ type: 'tool_use', id: 'toolu_1', name: v, input: {} }] } }),
    'input key': (v) =>
      line({ type: 'assistant', message: { content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { [v]: 1 } }] } }),
    agent_id: (v) =>
      line({
        type: 'assistant',
        isSidechain: true,
        agentId: v,
        message: { content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} }] },
      }),
    skill: (v) =>
      line({ type: 'assistant', message: { content: [{ type: 'tool_use', id: 'toolu_1', name: 'Skill', input: { skill: v } }] } }),
    result: (v) =>
      line({ type: 'assistant', message: { content: [{ type: 'tool_use', id: 'toolu_1', name: 'Skill', input: { skill: 'mine' } }] } }) +
      line({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: v }] } }),
  };

  it('whatever the field', async () => {
    const results = join(repo, 'test', 'fixtures', 'extract', 'home-leak', 'results.jsonl');
    let n = 0;
    await fc.assert(
      fc.asyncProperty(before, spelled, after, fc.constantFrom(...Object.keys(transcripts)), async (b, p, a, field) => {
        const run = join(dir, String(n++));
        mkdirSync(join(run, 'transcripts'), { recursive: true });
        writeFileSync(join(run, 'transcripts', `${sid}.jsonl`), transcripts[field]!(`${b}${p.text}${a}`));
        const r = await cli(['extract', '--transcripts', join(run, 'transcripts'), '--results', results, '--out', join(run, 'out')]);
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr).toContain(`refusing to write ${field} `);
        expect(readdirSync(run)).toEqual(['transcripts']);
      }),
      { seed, numRuns: 25 },
    );
  });
});

describe('loading warns of every spelling', () => {
  it('in records and .err files, a line each (exit 0)', async () => {
    const r = await cli(['census', join('test', 'fixtures', 'audit', 'home-paths'), '--format', 'text']);
    expect(r.code).toBe(0);
    const why = '(committed records must not leak the measuring machine: write such paths with $HOME)';
    expect(r.stderr).toBe(
      `omg-evidence: warning: home-paths/results.jsonl:1: holds the home-directory path /home//alice (and 7 more line(s)) ${why}\n` +
        `omg-evidence: warning: home-paths/tool_use/11111111-0000-4000-8000-000000000001.err:2: holds the home-directory path \\\\Users\\\\bob (and 1 more line(s)) ${why}\n`,
    );
  });
});

// A record's `\u002fhome\u002falice` is /home/alice to any JSON reader: audit finds it, and so must loading and extract.
describe('a home path whose separators are JSON escapes', () => {
  const ERR = 'd3cf0e26-a1ed-4b31-a089-d5cb5362c159.err';
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'omg-escapes-'));
    for (const name of ['p', 'q']) cpSync(bundled, join(root, name), { recursive: true });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is warned of when the probe loads', async () => {
    const results = join(root, 'p', 'results.jsonl');
    const [first, ...rest] = readFileSync(results, 'utf8').split('\n');
    writeFileSync(results, [first!.replace(/\}$/u, ',"cwd":"\\u002fhome\\u002falice\\u002fx"}'), ...rest].join('\n'));
    const r = await cli(['census', join(root, 'p'), '--format', 'json']);
    expect([r.code, r.stderr]).toEqual([
      0,
      'omg-evidence: warning: p/results.jsonl:1: holds the home-directory path /home/alice ' +
        '(committed records must not leak the measuring machine: write such paths with $HOME)\n',
    ]);
  });

  it("is refused by extract in a .err's line", async () => {
    const p = join(root, 'q');
    appendFileSync(join(p, 'tool_use', ERR), '{"cwd":"\\u002fhome\\u002fbob\\u002frepo"}\n');
    const out = join(root, 'out');
    const r = await cli(['extract', '--transcripts', join(p, 'transcripts'), '--results', join(p, 'results.jsonl'), '--out', out]);
    expect([r.code, r.stderr]).toEqual([
      1,
      `omg-evidence: ${p}/tool_use/${ERR}:3: refusing to write stderr "{\\"cwd\\":\\"/home/bob/repo\\"}": it contains the home-directory path /home/bob ${HINT}\n`,
    ]);
    expect(existsSync(out)).toBe(false);
  });
});

describe('export writes no absolute path', () => {
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'omg-export-'));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('of the bundled probe with its transcripts: paths relative to the probe or the transcripts folder', async () => {
    const pq = join(out, 'pq');
    const r = await cli(['export', '--parquet', pq, bundled, '--transcripts', join(bundled, 'transcripts')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`omg-evidence: export: 24 view(s) written to ${pq}\n`);
    const db = await Database.open();
    try {
      // Every value of every file, as JSON text: none holds the repository's or the temporary folder's path.
      const files = listFiles(pq, (n) => n.endsWith('.parquet'));
      // One file per view: the probe's 14 and the 10 of the transcripts (transcript_tool_use_copies among them).
      expect(files).toHaveLength(14 + 10);
      const rows: unknown[] = [];
      for (const f of files) {
        const q = `select count(*) as n from read_parquet($f) t where contains(to_json(t)::VARCHAR, $repo) or contains(to_json(t)::VARCHAR, $out)`;
        const n = (await db.query(q, { f, repo, out })).rows[0]!.n;
        if (n) rows.push({ file: f.slice(pq.length + 1), n });
      }
      expect(rows).toEqual([]);
      expect(
        (await db.query(`select * from read_parquet($f) order by file limit 1`, { f: join(pq, 'transcript_files.parquet') })).rows,
      ).toEqual([{ file: '0b79ed68-4754-42e1-a332-922c06423c22.jsonl', lines: 9 }]);
      expect((await db.query(`select distinct file from read_parquet($g)`, { g: join(pq, 'spawn_notes', '*', '*.parquet') })).rows).toEqual(
        [{ file: 'notes.jsonl' }],
      );
    } finally {
      db.close();
    }
  });

  it('warns of a transcript view that holds a home path, and writes it as it is', async () => {
    const pq = join(out, 'leak');
    const dir = join('test', 'fixtures', 'extract', 'home-leak');
    const r = await cli([
      'export',
      '--parquet',
      pq,
      join('test', 'fixtures', 'probes', 'minimal'),
      '--transcripts',
      join(dir, 'transcripts'),
    ]);
    expect(r.code).toBe(0);
    // Its one assistant line has no usage: export builds transcript_messages, and says so.
    expect(r.stderr).toBe(
      'omg-evidence: warning: test/fixtures/extract/home-leak/transcripts/aaaaaaaa-0000-4000-8000-000000000001.jsonl:2: no line of this response has message.usage: its tokens and cost are left empty (null), as is the cost of every total that holds it\n' +
        'omg-evidence: warning: export: transcript_tool_results: 1 row(s) hold a home-directory path (first: /home/alice); the Parquet file keeps them as they are\n' +
        `omg-evidence: export: 24 view(s) written to ${pq}\n`,
    );
  });
});

describe('secrets, as a JSON reader reads them', () => {
  const kinds = (text: string) => findLeaks(text).map((l) => `${l.line} ${l.kind} ${l.masked}`);
  const ANT = 'sk-ant-api03-Ab3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5kL7nP9rS1tV3xZ5aB7cD9eF1g';

  // The `n` of a `\n` escape is a letter: no word boundary before the key, until the escape is read.
  it('a key at the start of a line inside a JSON string', () => {
    for (const esc of ['\\n', '\\t', '\\r', '\\u000a', '\\b', '\\f']) {
      expect(kinds(`{"content":"the key${esc}${ANT}"}`), esc).toEqual(['1 anthropic-key sk-ant-api0********']);
    }
    expect(kinds('"token:\\nghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"')).toEqual(['1 github-token ghp_a1B2********']);
    expect(kinds('"ok\\nAKIA4Q7RZ2MX8KP3VN6T"')).toEqual(['1 aws-access-key-id AKIA4Q7R********']);
    expect(kinds('"ok\\nxoxb-123456789012-1234567890123-Ab3dE5gH7jK9mN1pQ3sT5vW7"')).toEqual(['1 slack-token xoxb-1234********']);
    expect(kinds('"x\\nAIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"')).toEqual(['1 google-api-key AIzaSyA1********']);
    expect(kinds('"h\\nBearer eyJhbGciOiJIUzI1NiJ9abc123def456", "hdr:\\tBearer eyJhbGciOiJIUzI1NiJ9abc123def789"')).toEqual([
      '1 bearer-token Bearer eyJh********',
    ]);
    expect(kinds('"machine a.example.com login bob password $P\\nmachine b.example.com login bob password hunter2xyz"')).toEqual([
      '1 netrc-password machine b.example.com login bob password hu********',
    ]);
  });

  it("a JSON string's \\/ is a slash, and a match shows as the file spells it", () => {
    expect(kinds('"postgres:\\/\\/admin:Hunter2xyz@db.example.com\\/prod"')).toEqual([
      '1 url-password postgres:\\/\\/admin:Hu********@db.example.com',
    ]);
    expect(kinds('"https:\\/\\/hooks.slack.com\\/services\\/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"')).toEqual([
      '1 slack-webhook https:\\/\\/hooks.slack.com\\/services\\/T012********',
    ]);
    expect(kinds('{"env":"x\\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI\\/K7MDENG\\/bPxRfiCYz9Xk2Lm4Qp"}')).toEqual([
      '1 aws-secret-key AWS_SECRET_ACCESS_KEY=wJal********',
    ]);
  });

  it('decodes each escape once, left to right, and keeps lines where they are', () => {
    const decoded = decodeJsonEscapes('a\\\\nb\\"c\\u002fd\\ne\nf\\/g');
    expect(decoded?.text).toBe('a\\nb"c/d e\nf/g');
    // Each decoded character stands where its escape starts; the end of the text, where the text ends.
    expect([1, 2, 4, 6, 8, 10, 12, 13, 14].map((i) => decoded?.at(i))).toEqual([1, 3, 5, 8, 15, 18, 20, 22, 23]);
    expect(decodeJsonEscapes('no escape \\x here')).toBeUndefined();
    // A key after an escaped backslash and an n is no key on a line of its own.
    expect(kinds('"\\\\nsk-ant-api03-Ab3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3h"')).toEqual([]);
  });
});

// Each search is linear in the line's length: a megabyte of what a pattern could try every way
// finishes within the test's time (these had taken from seconds to hours).
describe('secrets, on hostile lines of a megabyte', () => {
  it('a run of scheme characters with no :// (a.a.a.…)', () => {
    expect(findLeaks('a.'.repeat(500_000))).toEqual([]);
    expect(findLeaks(`${'a.'.repeat(500_000)}://bob:Hunter2xyz@db`).map((l) => l.kind)).toEqual(['url-password']);
  });

  it("a URL's password with no host after it: a run of @, or of a password's characters", () => {
    expect(findLeaks(`a://b:${'@'.repeat(1_000_000)}`)).toEqual([]);
    expect(findLeaks(`a://b:${'x'.repeat(1_000_000)}`)).toEqual([]);
    expect(findLeaks(`a://b:${'x@'.repeat(500_000)}`).map((l) => l.kind)).toEqual(['url-password']);
  });

  it('a .netrc entry trailed by a run of escaped line breaks', () => {
    expect(findLeaks(`machine a${'\\n'.repeat(500_000)}`)).toEqual([]);
    expect(findLeaks(`machine a\\n${'b\\n'.repeat(300_000)}`)).toEqual([]);
  });

  it('a run of backslashes, and of escapes', () => {
    expect(findLeaks('\\'.repeat(1_000_000))).toEqual([]);
    expect(findLeaks('\\u0041'.repeat(170_000))).toEqual([]);
  });

  it('80,000 findings, each checked against those of the rules before', () => {
    const text = Array.from({ length: 40_000 }, (_, i) => `AKIA4Q7RZ2MX8KP3VN6T /home/u${i}`).join('\n');
    expect(findLeaks(text)).toHaveLength(80_000);
  });
});

// Claude Code names a session's folder after its working folder: in a home, the name spells it.
describe("a session folder's name in text", () => {
  const kinds = (text: string) => findLeaks(text).map((l) => `${l.line} ${l.kind} ${l.masked}`);

  it('under ~/.claude/projects/ or /tmp/claude-<uid>/, JSON-escaped too', () => {
    expect(kinds('ran `tail -5 /tmp/claude-1000/-home-alice-spotter/tasks/b.output`')).toEqual(['1 home-path -home-a****']);
    expect(kinds('copied from ~/.claude/projects/-Users-bob-work-repo/3f2a.jsonl')).toEqual(['1 home-path -Users-b**']);
    expect(kinds('{"stderr":"cat: \\/tmp\\/claude-501\\/-Users-carol-dev-app\\/tasks"}')).toEqual(['1 home-path -Users-c****']);
    expect(kinds('C:\\Users\\bob\\.claude\\projects\\C--Users-dave-repo\\s.jsonl')).toEqual([
      '1 home-path C:\\Users\\b**',
      '1 home-path -Users-d***',
    ]);
  });

  // Windows' C:\Users\dana\repo is C--Users-dana-repo (its colon and backslashes each a dash), WSL's
  // /mnt/c/Users/… -mnt-c-Users-…; a folder under /private/tmp/claude-501/ spells that folder first.
  it('of a Windows, WSL, Cygwin or /usr/home working folder, and a slug of a slug', () => {
    expect(kinds('see ~/.claude/projects/C--Users-dana-repo/3f2a.jsonl')).toEqual(['1 home-path -Users-d***']);
    expect(kinds('{"p":"C:\\\\x\\\\.claude\\\\projects\\\\d--users-erin-app"}')).toEqual(['1 home-path -users-e***']);
    expect(kinds('~/.claude/projects/-mnt-c-Users-finn-x and projects/-cygdrive-d-Users-gus-y')).toEqual([
      '1 home-path -Users-f***',
      '1 home-path -Users-g**',
    ]);
    expect(kinds('projects/-usr-home-hal-z projects/-private-tmp-claude-501--Users-ivy-w')).toEqual([
      '1 home-path -home-h**',
      '1 home-path -Users-i**',
    ]);
  });

  it('not elsewhere, nor without its leading dash', () => {
    expect(kinds('/srv/-home-alice-x projects/home-alice-x claude/-Users-bob-x')).toEqual([]);
    expect(kinds('projects/my--Users-list projects/-opt-home-x projects/CD--Users-y')).toEqual([]);
  });
});

describe("a provider's key, where it starts", () => {
  const kinds = (text: string) => findLeaks(text).map((l) => `${l.line} ${l.kind} ${l.masked}`);
  const K = 'aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY';

  it('after a percent escape, or glued after _', () => {
    expect(kinds(`GET /cb?next=https%3A%2F%2Fapi.example.com%2Fv1%3Fapi_key%3Dsk-proj-${K} HTTP/1.1`)).toEqual([
      '1 openai-key sk-proj-aB3d********',
    ]);
    expect(kinds('curl -d "token%3Dghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8" https://x')).toEqual(['1 github-token ghp_A1b2********']);
    expect(kinds(`Authorization%3A%20Bearer%20sk-ant-api03-${K}`)).toEqual(['1 anthropic-key sk-ant-api0********']);
    expect(kinds(`export KEY_sk-ant-api03-${K}`)).toEqual(['1 anthropic-key sk-ant-api0********']);
    expect(kinds(`MY_AKIA4Q7RZ2MX8KP3VN6T`)).toEqual(['1 aws-access-key-id AKIA4Q7R********']);
  });

  it("not inside a word, nor a snake_case name's hf_", () => {
    expect(kinds(`task-ant-api03-${K} desk-proj-${K} xAKIA4Q7RZ2MX8KP3VN6T`)).toEqual([]);
    expect(kinds('model = load_hf_AutoModelForSequenceClassification(name)')).toEqual([]);
  });
});

describe('passwords in URLs', () => {
  const kinds = (text: string) => findLeaks(text).map((l) => `${l.line} ${l.kind} ${l.masked}`);

  it('whatever they start with, after an _, in a quote-holding password, at an IPv6 host', () => {
    expect(kinds('postgres://admin:%40Hunter2xyz@db.example.com/db')).toEqual([
      '1 url-password postgres://admin:%40********@db.example.com',
    ]);
    expect(kinds('postgres://admin:$ecretPass9@db.example.com/db')).toEqual(['1 url-password postgres://admin:$e********@db.example.com']);
    expect(kinds('postgres://admin:{Hunter2xyz}@db.example.com/db')).toEqual([
      '1 url-password postgres://admin:{Hu********@db.example.com',
    ]);
    expect(kinds('postgres://admin:Hunter2xyz@[::1]:5432/db')).toEqual(['1 url-password postgres://admin:Hu********@[::1]']);
    expect(kinds('DB=x_postgres://admin:Hunter2xyz@db.example.com/db')).toEqual([
      '1 url-password postgres://admin:Hu********@db.example.com',
    ]);
    expect(kinds('git clone https://bob:pa"ss9word@example.com/r.git')).toEqual(['1 url-password https://bob:pa********@example.com']);
    expect(kinds('https://bob:x@example.com')).toEqual(['1 url-password https://bob:*@example.com']);
    // A user part of 16 characters or more is a token: masked too.
    expect(kinds('git clone https://3f9c2a7b1e4d5c6b8a9f0e1d2c3b4a5f6e7d8c9b:x-oauth-basic@github.com/acme/r.git')).toEqual([
      '1 url-password https://3f9c********:x-o********@github.com',
    ]);
  });

  // Review rev45h: a backslash in a password (a Windows-minded one, or JSON's escape of it) had hidden it.
  it('holding a backslash, as written and JSON-escaped', () => {
    expect(kinds('DATABASE_URL=postgres://app:Kx7\\Qm9zLp2@db.internal:5432/x')).toEqual([
      '1 url-password postgres://app:Kx********@db.internal',
    ]);
    expect(kinds('{"a":"postgres://app:Kx7\\\\Qm9zLp2@db.internal:5432"}').map((k) => k.split(' ')[1])).toEqual(['url-password']);
  });

  // curl reads the password up to the last @ before the host: it is masked whole.
  it("holding an @, up to the last @ in the URL's authority", () => {
    expect(kinds('mysql://root:P@ssw0rd@db.internal/app')).toEqual(['1 url-password mysql://root:P@******@db.internal']);
    expect(kinds('postgres://app:Summer@2024!@10.0.0.5:5432/x')).toEqual(['1 url-password postgres://app:Sum********@10.0.0.5']);
    expect(kinds('{"cmd":"psql postgresql://bob:hunter2@dev@localhost/db"}')).toEqual([
      '1 url-password postgresql://bob:hu********@localhost',
    ]);
    // Not past the authority (there it ends at its first @), nor past its string's closing quote.
    expect(kinds('https://bob:Hunter2xyz@example.com?to=a@b.com')).toEqual(['1 url-password https://bob:Hu********@example.com']);
    expect(kinds('{"a":"https://bob:Hunter2xyz@example.com","b":"c@d"}')).toEqual(['1 url-password https://bob:Hu********@example.com']);
    expect(kinds('postgres://user:$PASSWORD@db.example.com?to=a@b.com')).toEqual([]);
  });

  // Compact JSON, an e-mail in a later string: the password ran to its first @, the rest in clear.
  it("holding an @, up to the last @ before its string's closing quote", () => {
    expect(kinds('{"DATABASE_URL":"postgres://app:Tr0ub4dor@Horse9@db.internal:5432","ADMIN_EMAIL":"ops@example.com"}')).toEqual([
      '1 url-password postgres://app:Tr0u********@db.internal',
    ]);
    expect(kinds("['redis://:P@ss@w0rd@cache:6379', 'a@b.io']")).toEqual(['1 url-password redis://:P@*******@cache']);
  });

  it('not a placeholder as a whole value, nor quotes that end one string and open another', () => {
    for (const pw of [
      '$PASSWORD',
      '$db_pass',
      `\${dbPassword}`,
      '{password}',
      '{{pass}}',
      '<password>',
      '%s',
      '%(pw)s',
      '***',
      'xxxx',
      'XX',
    ]) {
      expect(kinds(`postgres://user:${pw}@db.example.com/x`), pw).toEqual([]);
    }
    expect(kinds('{"a":"http://localhost:8080","b":"bob@example.com"}')).toEqual([]);
    expect(kinds("{'a': 'http://localhost:8080', 'b':'bob@example.com'}")).toEqual([]);
  });
});

describe('AWS secret access keys, as they are named', () => {
  const kinds = (text: string) => findLeaks(text).map((l) => `${l.line} ${l.kind} ${l.masked}`);
  const KEY = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYz9Xk2Lm4Qp';

  it('with -, _ or no separator, with or without "access", after =, : or a space', () => {
    expect(kinds(`aws configure set aws_secret_access_key ${KEY}`)).toEqual(['1 aws-secret-key aws_secret_access_key wJal********']);
    expect(kinds(`aws_secret_key: ${KEY}`)).toEqual(['1 aws-secret-key aws_secret_key: wJal********']);
    expect(kinds(`aws-secret-access-key: ${KEY}`)).toEqual(['1 aws-secret-key aws-secret-access-key: wJal********']);
    expect(kinds(`{"SecretAccessKey": "${KEY}"}`)).toEqual(['1 aws-secret-key SecretAccessKey": "wJal********']);
  });

  it('as `aws configure` prompts for it: words apart, the value it shows in brackets', () => {
    expect(kinds(`AWS Secret Access Key [None]: ${KEY}`)).toEqual(['1 aws-secret-key AWS Secret Access Key [None]: wJal********']);
    expect(kinds(`AWS Secret Access Key [****************Xk2L]: ${KEY}`)).toEqual([
      '1 aws-secret-key AWS Secret Access Key [****************Xk2L]: wJal********',
    ]);
    expect(kinds(`Secret access key: ${KEY}`)).toEqual(['1 aws-secret-key Secret access key: wJal********']);
    expect(kinds(`AWS Secret Access Key [None]: ${'a/'.repeat(20)}`)).toEqual([]);
  });

  it("not a key without upper and lower case and digits, nor AWS's example, nor after a run of a million spaces", () => {
    expect(kinds(`aws_secret_access_key ${'a/'.repeat(20)}`)).toEqual([]);
    expect(kinds('aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')).toEqual([]);
    expect(kinds(`aws_secret_key${' '.repeat(1_000_000)}x`)).toEqual([]);
    expect(kinds(`aws secret key [${' '.repeat(60)}]${' '.repeat(1_000_000)}x`)).toEqual([]);
  });
});

describe('.netrc entries', () => {
  const kinds = (text: string) => findLeaks(text).map((l) => `${l.line} ${l.kind} ${l.masked}`);

  it('a quoted password, a default entry, account and port before the password', () => {
    expect(kinds('machine example.com login bob password "hunter2xyz"')).toEqual([
      '1 netrc-password machine example.com login bob password "hu********',
    ]);
    expect(kinds('default login bob password hunter2xyz')).toEqual(['1 netrc-password default login bob password hu********']);
    expect(kinds('machine example.com login bob account acct port 21 password hunter2xyz')).toEqual([
      '1 netrc-password machine example.com login bob account acct port 21 password hu********',
    ]);
  });

  it('not prose, nor a placeholder, quoted or not', () => {
    expect(kinds('the default password is hunter2xyz; the default login page')).toEqual([]);
    expect(kinds('machine example.com login bob password "$PASSWORD"\nmachine b login c password <token>')).toEqual([]);
    expect(kinds('machine example.com login bob password ""')).toEqual([]);
  });
});

describe('bearer tokens', () => {
  it('whatever the case of the scheme (RFC 7235)', () => {
    for (const scheme of ['BEARER', 'bearer', 'BeArEr']) {
      expect(findLeaks(`Authorization: ${scheme} eyJhbGciOiJIUzI1NiJ9abc123def456`).map((l) => `${l.kind} ${l.masked}`)).toEqual([
        `bearer-token ${scheme} eyJh********`,
      ]);
    }
    expect(findLeaks('"bearer tokens" and the BEARER $TOKEN header')).toEqual([]);
  });
});

describe('Slack tokens', () => {
  it('a refresh token of token rotation (xoxe-)', () => {
    expect(findLeaks('xoxe-1-My0xLTEyMzQ1Njc4OTAxMi0xMjM0NTY3ODkwMTIz').map((l) => `${l.kind} ${l.masked}`)).toEqual([
      'slack-token xoxe-1-My********',
    ]);
  });
});

// A review found each of these in a probe that audited clean.
describe('npm, Hugging Face, Stripe and GitLab tokens, and HTTP Basic credentials', () => {
  const kinds = (text: string) => findLeaks(text).map((l) => `${l.kind} ${l.masked}`);

  it('are found and masked', () => {
    expect(kinds('//registry.npmjs.org/:_authToken=npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8')).toEqual(['npm-token npm_a1B2********']);
    expect(kinds('HF_TOKEN=hf_aBcDeFgHiJkLmNoPqRsTuVwXyZaBcDeFgH')).toEqual(['huggingface-token hf_aBcD********']);
    expect(kinds('stripe sk_live_51Habc123DEF456ghi789JKL, restricted rk_live_51Habc123DEF456ghi789JKL')).toEqual([
      'stripe-key sk_live_51Ha********',
      'stripe-key rk_live_51Ha********',
    ]);
    expect(kinds('token glpat-a1B2c3D4e5F6g7H8i9J0')).toEqual(['gitlab-token glpat-a1B2********']);
    // YWxpY2U6SHVudGVyMnh5ejk5 is alice:Hunter2xyz99.
    expect(kinds('Authorization: Basic YWxpY2U6SHVudGVyMnh5ejk5')).toEqual(['basic-auth Basic YWxp********']);
  });

  it('but not what only looks like them', () => {
    expect(kinds('some basic information about things; BASIC dialects')).toEqual([]);
    expect(kinds('hf_model_name_is_here_for_the_pipeline_x npm_install_dependencies_for_the_project_x sk_test_51Habc123DEF456')).toEqual(
      [],
    );
  });
});
