/**
 * `report --html` (#20): the bundled probe's page holds what the issue lists (the verdict's "9 of 9
 * hold", every arm, a titled SVG per chart), names no address and no other file, and is the same
 * bytes on every run; hostile names stay text; it writes only over a report it wrote (or with
 * --force); a verdict that fails is still reported (exit 0); and the sessions' part is there with
 * --transcripts. Its stderr and exit codes on bad targets are goldens (test/golden/report/).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sourceName } from '../src/cli/commands/report.js';
import { isOwnReport } from '../src/output/html.js';
import { percent } from '../src/output/report.js';
import { BUNDLED_ARMS as ARMS, bin, bundled, cli, probeFixture, repo } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'omg-report-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const HOME = { HOME: '/srv/operator', CLAUDE_CONFIG_DIR: '' };

async function report(args: string[], name: string): Promise<{ code: number; stderr: string; html: string }> {
  const file = join(tmp, name);
  const r = await cli(['report', ...args, '--html', file], { env: HOME });
  let html = '';
  try {
    html = readFileSync(file, 'utf8');
  } catch {}
  return { code: r.code, stderr: r.stderr, html };
}

/** The page as text, roughly as a reader sees it: tags out, entities read. */
const text = (html: string) =>
  html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

/** The page's words a line per row or block, without its charts' SVG (their numbers are in the tables): the golden. */
const lines = (html: string) =>
  text(
    html
      .replace(/<svg[\s\S]*?<\/svg>/g, '')
      .replace(/<\/t[dh]>/g, ' |')
      .replace(/<\/(tr|p|h\d|li|figcaption|summary|dd|dt)>/g, '\u0001'),
  )
    .split('\u0001')
    .map((l) => l.trim())
    .filter(Boolean)
    .join('\n');

describe('report of the bundled probe', async () => {
  const first = await report([bundled], 'bundled.html');

  it('is written, exit 0, and says so on stderr', () => {
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/^omg-evidence: report: .*bundled\.html written\n$/);
    expect(isOwnReport(first.html)).toBe(true);
  });

  it('shows the verdict, every arm that ran, the budget and pre-registration', () => {
    const t = text(first.html);
    expect(t).toContain('9 of 9 hold');
    expect(t).toContain('Verdict: holds');
    for (const arm of ARMS) expect(first.html).toContain(`<tr data-arm="${arm}">`);
    expect(t).toContain('$2.4616 of $12 (20.51%), 28 of 40 spawns (70%): within');
    expect(t).toContain('preregistered not established: the registration arrived in the same commit as the evidence');
    expect(t).toContain('claude 2.1.228');
    expect(t).toContain('2026-08-12 05:02:11 to 2026-08-12 05:51:38');
  });

  it('marks pilot, void, replacement and conditional arms as the addenda say', () => {
    const row = (arm: string) => text(first.html.match(new RegExp(`<tr data-arm="${arm}">.*?</tr>`))![0]);
    expect(row('K-RES')).toContain('pilot ×1');
    expect(row('K-FM')).toContain('void');
    expect(row('K-FM-GIT')).toContain('replaces K-FM');
    expect(row('K-FM-GIT')).toContain('addendum 2');
    expect(row('K-RES-NS')).toContain('conditional');
  });

  it('has each chart as an inline SVG with its title, a text alternative and its numbers', () => {
    const figures = first.html.match(/<figure class="chart"[\s\S]*?<\/figure>/g) ?? [];
    const titles = [
      'Tool calls per arm, by tool',
      'Cost by arm',
      'Cost by model',
      'Skill resolution per arm',
      'Spawns over time, by phase',
    ];
    expect(figures.map((f) => text(f.match(/<figcaption[^>]*>([^<]*)</)![1]!))).toEqual(titles);
    for (const [i, f] of figures.entries()) {
      const svg = f.match(/<svg[\s\S]*<\/svg>/)?.[0] ?? '';
      expect(svg).toContain(`>${titles[i]}</text>`);
      expect(svg).toMatch(/<path|<rect|<circle/);
      expect(f).toMatch(/<p class="alt" id="[^"]+">[^<]{20,}<\/p>/);
      expect(f).toContain('<details><summary>The numbers</summary>');
    }
    // Axis titles and units on every chart.
    expect(first.html).toContain('>tool calls (count)</text>');
    expect(first.html).toContain('>cost (USD)</text>');
    expect(first.html).toContain('>started (UTC, hh:mm)</text>');
  });

  it('names no address and no other file: only the namespaces SVG needs', () => {
    const urls = first.html
      .replace(/ xmlns(:xlink)?="http:\/\/www\.w3\.org\/(2000\/svg|1999\/xlink)"/g, '')
      .match(/https?:\/\/[^\s"'<)]*/g);
    expect(urls).toBeNull();
    expect(first.html).not.toMatch(/<(link|img|iframe|object|embed)\b|<script[^>]*\bsrc=|url\(|@import/);
    expect(first.html.match(/<script\b/g)).toHaveLength(1);
  });

  it('reads as its golden (test/golden/report/bundled.txt)', async () => {
    await expect(`${lines(first.html)}\n`).toMatchFileSnapshot(join('golden', 'report', 'bundled.txt'));
  });

  it('is the same bytes on a second run (no clock, no machine path)', async () => {
    const second = await report([bundled], 'bundled-again.html');
    expect(second.html).toBe(first.html);
    expect(first.html).not.toContain(repo);
    expect(first.html).not.toContain(tmp);
  });

  it("has the census, the audit's verdict on the probe's files, and its forgeable markers", () => {
    const census = first.html.match(/<table class="census sortable">[\s\S]*?<\/table>/)![0];
    expect(census.match(/<tr>/g)).toHaveLength(29);
    const t = text(first.html);
    expect(t).toMatch(/No home-directory path or secret in the probe's \d+ files\./);
    expect(t).toContain('marker AGENT-STAGED@HOME (OMG-K-AGENT.txt, token OMG-K-AGENT-STAGED-8802) is forgeable');
  });
});

describe('hostile names', () => {
  it('a probe and a tool named with <script> and quotes are shown as text, in the tables and in the SVG', async () => {
    const probe = join(tmp, 'p<img src=x onerror="alert(1)">');
    cpSync(bundled, probe, { recursive: true });
    const uses = join(probe, 'tool_use');
    for (const f of readdirSync(uses).filter((n) => n.endsWith('.jsonl'))) {
      const path = join(uses, f);
      writeFileSync(path, readFileSync(path, 'utf8').replaceAll('"name":"Bash"', '"name":"<script>alert(\\"x\\")</script>"'));
    }
    const r = await report([probe], 'hostile.html');
    expect(r.code).toBe(0);
    expect(r.html.match(/<script\b/g)).toHaveLength(1);
    expect(r.html).not.toContain('<img src=x');
    expect(r.html).toContain('p&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    const svg = r.html.match(/<figure class="chart" id="p1-tools-per-arm">[\s\S]*?<\/svg>/)![0];
    // The tool's name is the legend's label, as SVG text (vega sees only a generated key).
    expect(svg).toContain('>&lt;script&gt;alert("x")&lt;/script&gt;</text>');
    expect(text(r.html)).toContain('<script>alert("x")</script>');
  });
});

describe('what audit masks', () => {
  it("the page masks a secret and a home path of the evidence (a note, a forgeable call's command) as its Audit section does, and says so once", async () => {
    const probe = join(tmp, 'leaky');
    cpSync(bundled, probe, { recursive: true });
    const key = 'sk-ant-api03-AbCdEf1234567890AbCdEf1234567890xyz';
    const notes = join(probe, 'notes.jsonl');
    writeFileSync(notes, readFileSync(notes, 'utf8').replace('"pilot, addendum 1"', `"token ${key} in /home/alice/notes"`));
    const t = join(probe, 'transcripts', '6109925f-45cc-4105-a465-b7d7cac72982.jsonl');
    const ghp = 'ghp_AbCdEf1234567890AbCdEf1234567890abcd';
    writeFileSync(
      t,
      readFileSync(t, 'utf8').replace(
        '"command":"touch /tmp/OMG-K-CEILING-BREACH"',
        `"command":"touch /tmp/OMG-K-CEILING-BREACH /home/bob/x # ${ghp}"`,
      ),
    );
    const r = await report([probe], 'leaky.html');
    expect(r.code).toBe(0);
    for (const clear of [key, ghp, '/home/alice', '/home/bob']) expect(r.html).not.toContain(clear);
    expect(text(r.html)).toContain('token sk-ant-api0******** in /home/a****/notes');
    expect(text(r.html)).toContain('touch /tmp/OMG-K-CEILING-BREACH /home/b**/x # ghp_AbCd********');
    expect(r.stderr.match(/masks/g)).toEqual(['masks']);
    expect(r.stderr).toContain(
      'omg-evidence: warning: report: the page masks 2 text(s) of the evidence holding a home-directory path or a secret; run audit',
    );
  });
});

describe('the header', () => {
  it('dates end at the last spawn that started, when it never ended (killed, no ended_at)', async () => {
    const probe = join(tmp, 'unended');
    expect((await cli(['init', probe])).code).toBe(0);
    const file = join(probe, 'results.jsonl');
    const first = JSON.parse(readFileSync(file, 'utf8'));
    const { ended_at: _, ...second } = {
      ...first,
      seq: 2,
      session_id: '00000000-0000-4000-8000-000000000002',
      started_at: '2026-03-05T10:00:00.000Z',
      exit_code: 143,
      envelope: null,
    };
    writeFileSync(file, `${JSON.stringify(first)}\n${JSON.stringify(second)}\n`);
    cpSync(join(probe, 'tool_use', `${first.session_id}.jsonl`), join(probe, 'tool_use', '00000000-0000-4000-8000-000000000002.jsonl'));
    const r = await report([probe], 'unended.html');
    expect(r.code).toBe(0);
    expect(text(r.html)).toMatch(/dates \(UTC\) \S+ \S+ to 2026-03-05 10:00:00/);
  });
});

describe('element ids', () => {
  it('two probes whose names differ only in punctuation (a.b, a-b) give no id twice, and every id a page refers to exists', async () => {
    const x = join(tmp, 'ids');
    mkdirSync(x);
    cpSync(bundled, join(x, 'a.b'), { recursive: true });
    cpSync(bundled, join(x, 'a-b'), { recursive: true });
    // Copies share their sessions: each probe's own transcripts/ is refused (several-probes.test.ts),
    // one folder named for both is not.
    rmSync(join(x, 'a-b', 'transcripts'), { recursive: true });
    const r = await report([join(x, 'a.b'), join(x, 'a-b'), '--transcripts', join(x, 'a.b', 'transcripts')], 'ids.html');
    expect(r.code).toBe(0);
    const ids = [...r.html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const refs = [...r.html.matchAll(/(?:aria-labelledby|aria-describedby|href)="#?([^"]*)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(10);
    expect(refs.filter((ref) => !ids.includes(ref))).toEqual([]);
  });
});

describe('bidi and control characters', () => {
  it('a right-to-left override in a probe or tool name is shown as its code point, as the terminal shows it, and NUL or ESC as pictures', async () => {
    const probe = join(tmp, 'rlo\u202Eprobe');
    cpSync(bundled, probe, { recursive: true });
    const uses = join(probe, 'tool_use');
    for (const f of readdirSync(uses).filter((n) => n.endsWith('.jsonl'))) {
      const path = join(uses, f);
      writeFileSync(path, readFileSync(path, 'utf8').replaceAll('"name":"Bash"', '"name":"Ba\\u0000sh\\u001b\\u202Ex"'));
    }
    const r = await report([probe], 'rlo.html');
    expect(r.code).toBe(0);
    expect(r.html).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202E]/);
    expect(r.html).toContain('<bdi>Ba\u2400sh\u241b⟨U+202E⟩x</bdi>');
    expect(r.html).toContain('>Ba\u2400sh\u241b⟨U+202E⟩x</text>');
    expect(r.html).toContain('<bdi>rlo⟨U+202E⟩probe</bdi>');
  });

  it('an arm renamed K-\\u202eMF is not K-FM on the page: its tables and chart labels show K-⟨U+202E⟩MF', async () => {
    const probe = join(tmp, 'lookalike');
    cpSync(bundled, probe, { recursive: true });
    const results = join(probe, 'results.jsonl');
    writeFileSync(results, readFileSync(results, 'utf8').replaceAll('"arm":"K-FM"', '"arm":"K-\\u202eMF"'));
    const r = await report([probe], 'lookalike.html');
    expect(r.code).toBe(0);
    expect(r.html).toContain('<th scope="row"><bdi>K-⟨U+202E⟩MF</bdi></th>');
    const arms = r.html.match(/<figure class="chart" id="p1-cost-by-arm">[\s\S]*?<\/svg>/)![0];
    expect(arms).toContain('>K-⟨U+202E⟩MF</text>');
    expect(r.html).not.toContain('\u202E');
  });
});

describe('writing', () => {
  it('refuses a file it did not write, or one edited since, and replaces either with --force', async () => {
    const file = join(tmp, 'mine.html');
    writeFileSync(file, '<p>mine</p>\n');
    const refused = await cli(['report', bundled, '--html', file], { env: HOME });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('exists, and is not a report omg-evidence wrote (or was edited since); nothing was written');
    expect(readFileSync(file, 'utf8')).toBe('<p>mine</p>\n');
    expect((await cli(['report', bundled, '--html', file, '--force'], { env: HOME })).code).toBe(0);
    const page = readFileSync(file, 'utf8');
    expect(isOwnReport(page)).toBe(true);
    writeFileSync(file, page.replace('9 of 9 hold', '9 of 9 held'));
    expect((await cli(['report', bundled, '--html', file], { env: HOME })).code).toBe(1);
    expect(readFileSync(file, 'utf8')).toContain('9 of 9 held');
    // No temporary file is left beside it.
    expect(readdirSync(tmp).filter((n) => n.includes('.tmp'))).toEqual([]);
  });

  it('a report it wrote is replaced in place, through a symbolic link too', async () => {
    const dir = join(tmp, 'linked');
    mkdirSync(dir);
    const r1 = await report([bundled], 'linked/a.html');
    expect(r1.code).toBe(0);
    renameSync(join(dir, 'a.html'), join(dir, 'b.html'));
    const { symlinkSync, lstatSync } = await import('node:fs');
    symlinkSync('b.html', join(dir, 'a.html'));
    expect((await cli(['report', bundled, '--html', join(dir, 'a.html')], { env: HOME })).code).toBe(0);
    expect(lstatSync(join(dir, 'a.html')).isSymbolicLink()).toBe(true);
    expect(isOwnReport(readFileSync(join(dir, 'b.html'), 'utf8'))).toBe(true);
  });

  // Said as every reader says them: "a broken symbolic link" had named neither (rev50).
  it('--html a link to nothing, or a loop, is refused naming what it is, nothing written', async () => {
    const dir = join(tmp, 'bad-links');
    mkdirSync(dir);
    const { symlinkSync } = await import('node:fs');
    symlinkSync('nowhere.html', join(dir, 'dangling.html'));
    symlinkSync('loop.html', join(dir, 'loop.html'));
    expect(await cli(['report', bundled, '--html', join(dir, 'dangling.html')], { env: HOME })).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${join(dir, 'dangling.html')}: a dangling symbolic link: it points at nowhere.html, which does not exist (remove it, or name another file)\n`,
    });
    expect(await cli(['report', bundled, '--html', join(dir, 'loop.html')], { env: HOME })).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${join(dir, 'loop.html')}: a symbolic link loop (ELOOP) (point the link at a file or folder that exists, or give another path)\n`,
    });
    expect(readdirSync(dir).sort()).toEqual(['dangling.html', 'loop.html']);
  });

  it('a verdict that does not hold is still reported, exit 0: the page is a document, not a check', async () => {
    const probe = join(tmp, 'attack-shadow');
    cpSync(join(repo, probeFixture('attack-shadow')), probe, { recursive: true });
    const check = join(probe, 'registration', 'conjuncts', '1-a-ran.sql');
    writeFileSync(check, readFileSync(check, 'utf8').replace(/^create temp table .*\n/m, ''));
    const r = await report([probe], 'over-budget.html');
    expect(r.code).toBe(0);
    const t = text(r.html);
    expect(t).toContain('Verdict: does not hold');
    expect(t).toMatch(/Why not: over budget/);
  });
});

describe('--db', () => {
  it('the page from the database file load built is the same bytes; a file built from other evidence is refused', async () => {
    const db = join(tmp, 'probe.duckdb');
    expect((await cli(['load', bundled, '--db', db])).code).toBe(0);
    const viaDb = await report([bundled, '--db', db], 'via-db.html');
    const direct = await report([bundled], 'direct.html');
    expect([viaDb.code, direct.code]).toEqual([0, 0]);
    expect(viaDb.html).toBe(direct.html);
    const other = await report([join(repo, probeFixture('minimal')), '--db', db], 'other.html');
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(
      /probe\.duckdb: cannot be used: it was built from .*, not .*minimal \(name what it was built from beside --db FILE: /,
    );
  });
});

describe('the sessions', () => {
  it('with --transcripts alone: tokens and cost per day by model, tools per project, top skills, longest and costliest', async () => {
    const r = await report(['--transcripts', join('test', 'fixtures', 'usage', 'days')], 'days.html');
    expect(r.code).toBe(0);
    const captions = [...r.html.matchAll(/<figcaption[^>]*>([^<]*)</g)].map((m) => m[1]);
    expect(captions).toEqual(['Tokens per day, by model', 'Cost per day, by model', 'Tool calls per project, by tool', 'Top skills']);
    const t = text(r.html);
    expect(t).toContain('Longest sessions');
    expect(t).toContain('Costliest sessions');
    expect(r.html).not.toContain('class="probe"');
  });

  it("names the sessions' folder as written, the home folder as ~: the same bytes from any folder, and no home path", async () => {
    const days = join(repo, 'test', 'fixtures', 'usage', 'days');
    const here = bin(['report', '--transcripts', days, '--html', join(tmp, 'cwd-repo.html')]);
    const there = bin(['report', '--transcripts', days, '--html', join(tmp, 'cwd-tmp.html')], { cwd: tmp });
    expect([here.code, there.code]).toEqual([0, 0]);
    expect(readFileSync(join(tmp, 'cwd-tmp.html'), 'utf8')).toBe(readFileSync(join(tmp, 'cwd-repo.html'), 'utf8'));
    const home = join(repo, 'test', 'fixtures');
    const r = await cli(['report', '--transcripts', days, '--html', join(tmp, 'home.html')], {
      env: { HOME: home, CLAUDE_CONFIG_DIR: '' },
    });
    expect(r.code).toBe(0);
    const page = readFileSync(join(tmp, 'home.html'), 'utf8');
    expect(text(page)).toMatch(/2 session files read from ~\/usage\/days \./);
    expect(page).not.toContain(home);
    const user = join(tmp, 'user');
    cpSync(days, join(user, '.claude', 'projects', 'p'), { recursive: true });
    expect((await cli(['report', '--html', join(tmp, 'default.html')], { env: { HOME: user, CLAUDE_CONFIG_DIR: '' } })).code).toBe(0);
    const byDefault = readFileSync(join(tmp, 'default.html'), 'utf8');
    expect(text(byDefault)).toMatch(/2 session files read from ~\/\.claude\/projects \./);
    expect(byDefault).not.toContain(tmp);
  });

  it("masks the user in a project folder's name, as audit does: -home-alice-repo, and Windows' C--Users-bob-repo", async () => {
    const days = join(repo, 'test', 'fixtures', 'usage', 'days');
    const sessions = join(tmp, 'slugs');
    cpSync(join(days, '-work-demo'), join(sessions, '-home-alice-secretrepo'), { recursive: true });
    cpSync(join(days, '-work-other'), join(sessions, 'C--Users-bob-clientwork'), { recursive: true });
    const r = await report(['--transcripts', sessions], 'slugs.html');
    expect(r.code).toBe(0);
    expect(r.html).not.toMatch(/alice|bob/);
    expect(text(r.html)).toContain('-home-a****-secretrepo');
    expect(text(r.html)).toContain('C--Users-b**-clientwork');
    expect(r.stderr).toContain('report: the page masks ');
  });

  it("names another user's home folder from after it: the page holds no home path", () => {
    const env = { HOME: '/srv/operator' };
    expect(sourceName('/home/alice/sessions', '/home/alice/sessions', env)).toBe('…/sessions');
    expect(sourceName('C:\\Users\\bob\\tr', 'C:\\Users\\bob\\tr', env)).toBe('…\\tr');
    expect(sourceName('/srv/operator/tr', '/srv/operator/tr', env)).toBe('~/tr');
    expect(sourceName('test/fixtures/usage/days', 'test/fixtures/usage/days', env)).toBe('test/fixtures/usage/days');
    // Spelt otherwise, a home is still a home: a doubled slash, a `..`, a HOME with a trailing slash.
    for (const given of ['/srv//operator/tr', '/srv/../srv/operator/tr', '/tmp/../home/alice/tr'])
      expect(sourceName(given, given, { HOME: '/srv/operator/' })).toBe(given.includes('alice') ? '…/tr' : '~/tr');
    // A relative path, too, is named as it resolves: `../../home/alice/tr` had put alice's home on the page.
    for (const to of ['/srv/operator/tr', '/home/alice/tr']) {
      const given = relative(process.cwd(), to);
      expect(sourceName(given, given, env), given).toBe(to.includes('alice') ? '…/tr' : '~/tr');
    }
  });

  it('--html x.html/ (a folder) and --html - (stdout elsewhere) are usage errors: they had written the files x.html and -', async () => {
    for (const [html, what] of [
      ['x.html/', 'names a folder (it ends in a slash, . or ..)'],
      // resolve() drops /. and /.. too.
      ['x.html/.', 'names a folder (it ends in a slash, . or ..)'],
      ['..', 'names a folder (it ends in a slash, . or ..)'],
      ['-', 'the page goes to a file, not to stdout'],
    ]) {
      expect(await cli(['report', '--html', html!])).toEqual({
        code: 2,
        stdout: '',
        stderr: `omg-evidence: --html ${html}: ${what} (give the path of the HTML file to write; for a file named -, ./-)\n`,
      });
    }
    expect(existsSync(join(repo, 'x.html')) || existsSync(join(repo, '-'))).toBe(false);
  });

  it('load --db a.db/, a.db/. and - are usage errors, as report --html: they had written the files a.db and -', async () => {
    for (const [db, what] of [
      ['a.db/', 'names a folder (it ends in a slash, . or ..)'],
      ['a.db/.', 'names a folder (it ends in a slash, . or ..)'],
      ['-', 'the database goes to a file, not to stdout'],
    ]) {
      expect(await cli(['load', bundled, '--db', db!])).toEqual({
        code: 2,
        stdout: '',
        stderr: `omg-evidence: --db ${db}: ${what} (give the path of the database file to write; for a file named -, ./-)\n`,
      });
    }
    expect(existsSync(join(repo, 'a.db')) || existsSync(join(repo, '-'))).toBe(false);
  });

  // A folder named - had been made in the working folder, and the views or records written into it (hunt50).
  it('export --parquet - and extract --out - are usage errors too: a folder is no stdout', async () => {
    const hint = '(give the path of the folder to write; for a folder named -, ./-)';
    expect(await cli(['export', bundled, '--parquet', '-'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `omg-evidence: --parquet -: the views go to a folder, not to stdout ${hint}\n`,
    });
    const [transcripts, results] = [join(bundled, 'transcripts'), join(bundled, 'results.jsonl')];
    expect(await cli(['extract', '--transcripts', transcripts, '--results', results, '--out', '-'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `omg-evidence: --out -: the records go to a folder, not to stdout ${hint}\n`,
    });
    expect(existsSync(join(repo, '-'))).toBe(false);
  });

  it('with a probe and --transcripts: both parts', async () => {
    const r = await report([bundled, '--transcripts', join(bundled, 'transcripts')], 'both.html');
    expect(r.code).toBe(0);
    expect(r.html).toContain('<article class="probe"');
    expect(r.html).toContain('<article class="transcripts"');
    expect(text(r.html)).toContain('Tokens per day, by model');
  });
});

describe('percent', () => {
  // One spawn of $1e308 against a $12 budget is a share of 8.3e306: times 100 a double holds no more,
  // and the verdict's budget line had read "Infinity%".
  it('keeps the digits of a share that a double cannot hold times 100', () => {
    expect([percent(0.2051), percent(null), percent(1e308 / 12), percent(Number.POSITIVE_INFINITY)]).toEqual([
      '20.51%',
      '?',
      '8.33e+308%',
      'Infinity%',
    ]);
  });
});
