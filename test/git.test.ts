/**
 * git is only read: a probe shared with its .git/ cannot make `verdict` run a program its
 * repository's config names (core.fsmonitor, a hook, a clean filter), and the caller's GIT_*
 * variables do not send git to another repository. The pre-registration answer stays the same.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  constants,
  cpSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InputError } from '../src/base/errors.js';
import { recordersOf } from '../src/analysis/git-recorded.js';
import { gitAll } from '../src/analysis/git-run.js';
import { binPath, cli, probeFixture, repo } from './helpers.js';

const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

/** git in `cwd`, as a test's author: no system or global config, `date` as both commit dates, `input` on stdin. */
const gitIn =
  (cwd: string) =>
  (args: string[], date?: string, input?: string): Buffer =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], {
      cwd,
      input,
      stdio: 'pipe',
      env: {
        ...process.env,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}),
      },
    });

/**
 * The git-order fixture in a fresh repository: the registration committed a day before the
 * spawns (and `beforeEvidence`'s commits), the evidence after them (so the answer is "yes").
 * Returns the probe and its temp root.
 */
function committedProbe(beforeEvidence?: (dir: string, g: (args: string[], date?: string) => Buffer) => void): {
  root: string;
  dir: string;
  g: (args: string[], date?: string, input?: string) => Buffer;
} {
  const root = mkdtempSync(join(tmpdir(), 'omg-git-'));
  temps.push(root);
  const dir = join(root, 'git-order');
  cpSync(join(repo, probeFixture('git-order')), dir, { recursive: true });
  const g = gitIn(dir);
  g(['init', '-q']);
  g(['add', 'registration']);
  g(['commit', '-q', '-m', 'registration'], '2026-08-11T10:00:00+09:00');
  // Changes to the registration before the spawns, as the history has them: before the evidence.
  beforeEvidence?.(dir, g);
  g(['add', 'results.jsonl', 'tool_use']);
  g(['commit', '-q', '-m', 'evidence'], '2026-08-12T16:00:00+09:00');
  return { root, dir, g };
}

/** A shell script that records it ran by creating `root/ran-<name>`. */
function script(root: string, name: string): string {
  const file = join(root, `${name}.sh`);
  writeFileSync(file, `#!/bin/sh\ntouch '${join(root, `ran-${name}`)}'\ncat\n`);
  chmodSync(file, 0o755);
  return file;
}

/**
 * A merge (after the spawns) that brings a side branch's change to prereg.jsonl: with a merge that
 * differs from a parent at a registration path, each file's history is read by a log of its own.
 */
function mergeSideChange(dir: string, g: (args: string[], date?: string) => Buffer): void {
  g(['checkout', '-q', '-b', 'side']);
  appendFileSync(join(dir, 'registration', 'prereg.jsonl'), '\n');
  g(['commit', '-q', '-am', 'side'], '2026-08-13T09:00:00+09:00');
  g(['checkout', '-q', '-']);
  g(['merge', '-q', '--no-ff', '-m', 'merge', 'side'], '2026-08-13T09:30:00+09:00');
}

const verdict = async (dir: string) => {
  const run = await cli(['verdict', dir, '--format', 'json']);
  return { code: run.code, v: JSON.parse(run.stdout) };
};

describe('what git is trusted to say', () => {
  const uncommitted = 'registration/conjuncts/1-a-ran.sql: uncommitted changes';
  const edit = (dir: string) => appendFileSync(join(dir, 'registration', 'conjuncts', '1-a-ran.sql'), '-- or true\n');

  it.each(['--skip-worktree', '--assume-unchanged'])(
    'a file edited since its commit is an uncommitted change whatever the index says (%s)',
    async (flag) => {
      const { dir, g } = committedProbe();
      edit(dir);
      g(['update-index', flag, 'registration/conjuncts/1-a-ran.sql']);
      expect(g(['status', '--porcelain']).toString()).toBe('');
      const { v } = await verdict(dir);
      expect([v.preregistered, v.preregistration.reason]).toEqual(['not established', uncommitted]);
    },
  );

  it('a checkout that wrote LF as CRLF (core.autocrlf) is what was committed: "yes" still', async () => {
    const { dir, g } = committedProbe();
    g(['config', 'core.autocrlf', 'true']);
    rmSync(join(dir, 'registration'), { recursive: true });
    g(['checkout', '--', 'registration']);
    expect(readFileSync(join(dir, 'registration', 'prereg.jsonl'), 'utf8')).toContain('\r\n');
    const { code, v } = await verdict(dir);
    expect([code, v.preregistered]).toEqual([0, 'yes']);
  });

  it('a file $Id$ expanded on checkout (the ident attribute .git/ may set) is not what was committed', async () => {
    const { dir, g } = committedProbe((d, git) => {
      appendFileSync(join(d, 'registration', 'conjuncts', '1-a-ran.sql'), '-- $Id$\n');
      git(['commit', '-q', '-am', 'id'], '2026-08-11T11:00:00+09:00');
    });
    const check = join(dir, 'registration', 'conjuncts', '1-a-ran.sql');
    writeFileSync(join(dir, '.git', 'info', 'attributes'), '*.sql ident\n');
    rmSync(check);
    g(['checkout', '--', 'registration/conjuncts/1-a-ran.sql']);
    expect(readFileSync(check, 'utf8')).toMatch(/\$Id: [0-9a-f]+ \$/);
    const { v } = await verdict(dir);
    expect([v.preregistered, v.preregistration.reason]).toEqual(['not established', uncommitted]);
  });

  it('a registered file that is a symbolic link cannot be dated: git dates the link, not what it points at', async () => {
    const { dir, g } = committedProbe((d, git) => {
      const inside = join(d, 'registration', 'conjuncts');
      execFileSync('mv', [join(inside, '1-a-ran.sql'), join(inside, 'real.txt')]);
      execFileSync('ln', ['-s', 'real.txt', join(inside, '1-a-ran.sql')]);
      git(['add', '-A', 'registration']);
      git(['commit', '-q', '-m', 'link'], '2026-08-11T11:00:00+09:00');
    });
    const conjuncts = join(dir, 'registration', 'conjuncts');
    appendFileSync(join(conjuncts, 'real.txt'), '-- or true\n');
    g(['commit', '-q', '-am', 'relax the check'], '2026-08-14T10:00:00+09:00');
    const { v } = await verdict(dir);
    expect([v.preregistered, v.preregistration.reason]).toEqual([
      'not established',
      'registration/conjuncts/1-a-ran.sql: a symbolic link, and git dates the link, not the file it points at',
    ]);
  });

  it('a shallow clone cannot show when the registration was first committed', async () => {
    const { root, dir } = committedProbe();
    const clone = join(root, 'shallow');
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${dir}`, clone], { stdio: 'pipe' });
    const { code, v } = await verdict(clone);
    expect([code, v.preregistered]).toEqual([0, 'not established']);
    expect(v.preregistration.reason).toMatch(/^the repository is a shallow clone: its history is cut/);
  });

  it('a repository git cannot read is an error, not a probe outside git', async () => {
    const { dir, g } = committedProbe();
    const tree = g(['rev-parse', 'HEAD^{tree}']).toString().trim();
    rmSync(join(dir, '.git', 'objects', tree.slice(0, 2), tree.slice(2)));
    const history = await cli(['verdict', dir]);
    expect([history.code, history.stderr]).toEqual([
      1,
      `omg-evidence: ${dir}: git cannot read the history of its repository, so the registration cannot be dated (run \`git fsck\` there to see why)\n`,
    ]);
    writeFileSync(join(dir, '.git', 'HEAD'), 'garbage\n');
    const unread = await cli(['verdict', dir]);
    expect([unread.code, unread.stderr]).toEqual([
      1,
      `omg-evidence: ${dir}: git cannot read the repository at ${dir}, so the registration cannot be dated (run \`git status\` there to see why (is git installed? a repository another user owns needs safe.directory))\n`,
    ]);
  });

  it('a git grep that fails (a blob of results.jsonl missing) is an error, never a spawn no commit recorded', async () => {
    const { dir, g } = committedProbe();
    const blob = g(['rev-parse', 'HEAD:results.jsonl']).toString().trim();
    rmSync(join(dir, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
    const run = await cli(['verdict', dir]);
    expect([run.code, run.stderr]).toEqual([
      1,
      `omg-evidence: ${dir}: git grep could not read the history of results.jsonl, so the commits that first recorded the spawns cannot be read (run \`git fsck\` there to see why)\n`,
    ]);
  });
});

describe('a date set back', () => {
  // GIT_COMMITTER_DATE can say anything: a change to the pre-registration committed on top of the
  // evidence commit came after the first spawn that commit records, whatever its date.
  it('a check relaxed in a commit after the evidence, dated before the spawns, is "no"', async () => {
    const { dir, g } = committedProbe();
    appendFileSync(join(dir, 'registration', 'conjuncts', '1-a-ran.sql'), '-- or true\n');
    g(['commit', '-q', '-am', 'relax'], '2026-08-11T11:00:00+09:00');
    const { code, v } = await verdict(dir);
    expect([code, v.preregistered]).toEqual([4, 'no']);
    expect(v.preregistration.compared.find((c: { file: string }) => c.file === 'registration/conjuncts/1-a-ran.sql').order).toMatch(
      /^changed after \([0-9a-f]{7}, 2026-08-11T11:00:00\+09:00\)$/,
    );
  });

  it('and so is a pre-registration first committed after the evidence, dated before it', async () => {
    const { dir, g } = committedProbe();
    writeFileSync(join(dir, 'registration', 'late.jsonl'), '{"kind":"arm","arm":"C","phase":"A","n":0}\n');
    g(['add', 'registration']);
    g(['commit', '-q', '-m', 'late'], '2026-08-10T10:00:00+09:00');
    const { v } = await verdict(dir);
    expect([v.preregistered, v.preregistration.compared.find((c: { file: string }) => c.file === 'registration/late.jsonl').order]).toEqual(
      ['no', 'after'],
    );
  });
});

describe('what the commits that first recorded a spawn held', () => {
  // Dates can be set to anything; what a commit's parents hold cannot be undone by a later commit.
  // A part came before its first spawn only when HEAD holds the bytes it had in every parent of every
  // commit (in HEAD's full history) that first recorded that spawn's row in results.jsonl.
  type Row = { file: string; order: string };
  const orders = (v: { preregistration: { compared: Row[] } }) =>
    Object.fromEntries(v.preregistration.compared.map((c) => [c.file, c.order]));
  const shortHead = (g: (args: string[]) => Buffer) => g(['rev-parse', 'HEAD']).toString().slice(0, 7);
  const A = '2026-08-12T14:00:00.000+09:00';
  const B = '2026-08-12T15:00:00.000+09:00';
  /** An addendum adding conjunct 2, whose check never holds, committed before the spawns. */
  const failingConjunct = (d: string, git: (args: string[], date?: string) => Buffer) => {
    writeFileSync(
      join(d, 'registration', 'addendum-2.jsonl'),
      '{"kind":"addendum","n":2,"text":"adds conjunct 2"}\n{"kind":"conjunct","n":2,"required":"never","check":"conjuncts/2-never.sql"}\n',
    );
    writeFileSync(join(d, 'registration', 'conjuncts', '2-never.sql'), "select false as holds, 'never' as result\n");
    git(['add', 'registration']);
    git(['commit', '-q', '-m', 'conjunct 2'], '2026-08-11T11:00:00+09:00');
  };
  const strict = async (dir: string) => {
    const run = await cli(['verdict', dir, '--require-preregistered', '--format', 'json']);
    return { code: run.code, v: JSON.parse(run.stdout) };
  };

  it('a registration file removed after the first spawn is "no", naming it and the commit that removed it, whatever its date', async () => {
    const { dir, g } = committedProbe(failingConjunct);
    expect((await verdict(dir)).v.holds).toBe(false);
    g(['rm', '-q', 'registration/addendum-2.jsonl', 'registration/conjuncts/2-never.sql']);
    g(['commit', '-q', '-m', 'drop conjunct 2'], '2026-08-11T12:00:00+09:00');
    const { code, v } = await strict(dir);
    const by = shortHead(g);
    expect([code, v.holds, v.preregistered, v.preregistration.reason]).toEqual([
      4,
      false,
      'no',
      `registration/addendum-2.jsonl was removed after the first spawn (${A}, in ${by}); registration/conjuncts/2-never.sql was removed after the first spawn (${A}, in ${by})`,
    ]);
    expect(orders(v)['registration/addendum-2.jsonl']).toBe('removed after');
  });

  it('a change on a side branch dated before the spawns, merged after the evidence commit, is "changed after", naming it', async () => {
    const { dir, g } = committedProbe();
    g(['checkout', '-q', '-b', 'side', 'HEAD~1']);
    const prereg = join(dir, 'registration', 'prereg.jsonl');
    writeFileSync(prereg, readFileSync(prereg, 'utf8').replace('"usd":2', '"usd":12'));
    g(['commit', '-q', '-am', 'raise the budget'], '2026-08-11T11:00:00+09:00');
    const side = shortHead(g);
    g(['checkout', '-q', '-']);
    g(['merge', '-q', '--no-ff', '-m', 'merge', 'side'], '2026-08-13T10:00:00+09:00');
    const { code, v } = await strict(dir);
    expect([code, v.preregistered, v.preregistration.reason]).toEqual([
      4,
      'no',
      `registration/prereg.jsonl was changed after the first spawn it governs (${A})`,
    ]);
    expect(orders(v)['registration/prereg.jsonl']).toBe(`changed after (${side}, 2026-08-11T11:00:00+09:00)`);
  });

  it('an addendum first committed after the evidence commit that records the spawns it governs is "after", whatever its date', async () => {
    // addendum-1 registers arm B, whose spawn is not the probe's first: its date alone had been compared.
    const { dir, g } = committedProbe((_d, git) => {
      git(['rm', '-q', '--cached', 'registration/addendum-1.jsonl']);
      git(['commit', '-q', '-m', 'not yet'], '2026-08-11T10:30:00+09:00');
    });
    g(['add', 'registration/addendum-1.jsonl']);
    g(['commit', '-q', '-m', 'addendum 1'], '2026-08-11T11:00:00+09:00');
    const { code, v } = await strict(dir);
    expect([code, v.preregistered, v.preregistration.reason]).toEqual([
      4,
      'no',
      `registration/addendum-1.jsonl was committed after the first spawn it governs (${B})`,
    ]);
  });

  it('a part added in a commit of its own before the spawns, unchanged since, is "before"', async () => {
    const { dir } = committedProbe((d, git) => {
      writeFileSync(
        join(d, 'registration', 'addendum-2.jsonl'),
        '{"kind":"addendum","n":2,"text":"adds conjunct 2"}\n{"kind":"conjunct","n":2,"required":"A ran","check":"conjuncts/1-a-ran.sql"}\n',
      );
      git(['add', 'registration']);
      git(['commit', '-q', '-m', 'addendum 2'], '2026-08-11T11:00:00+09:00');
    });
    const { code, v } = await strict(dir);
    expect([code, v.preregistered, orders(v)]).toEqual([
      0,
      'yes',
      {
        'registration/addendum-1.jsonl': 'before',
        'registration/addendum-2.jsonl': 'before',
        'registration/conjuncts/1-a-ran.sql': 'before',
        'registration/prereg.jsonl': 'before',
      },
    ]);
  });

  it('an addendum committed after the evidence commit but before the commit that records its arm\'s first spawn is "before"', async () => {
    const results = (d: string) => join(d, 'results.jsonl');
    let rows = '';
    const { dir, g } = committedProbe((d, git) => {
      git(['rm', '-q', '--cached', 'registration/addendum-1.jsonl']);
      git(['commit', '-q', '-m', 'not yet'], '2026-08-11T10:30:00+09:00');
      // The evidence commit records arm A's spawn only.
      rows = readFileSync(results(d), 'utf8');
      writeFileSync(results(d), `${rows.split('\n')[0]}\n`);
    });
    g(['add', 'registration/addendum-1.jsonl']);
    g(['commit', '-q', '-m', 'addendum 1: arm B'], '2026-08-12T14:30:00+09:00');
    writeFileSync(results(dir), rows);
    g(['commit', '-q', '-am', 'arm B ran'], '2026-08-12T16:30:00+09:00');
    const { code, v } = await strict(dir);
    expect([code, v.preregistered, orders(v)['registration/addendum-1.jsonl']]).toEqual([0, 'yes', 'before']);
  });

  it('a part changed and changed back after the evidence commit (dated before the spawns) holds the bytes it had: "before"', async () => {
    const { dir, g } = committedProbe();
    const check = join(dir, 'registration', 'conjuncts', '1-a-ran.sql');
    const was = readFileSync(check, 'utf8');
    appendFileSync(check, '-- or true\n');
    g(['commit', '-q', '-am', 'relax'], '2026-08-11T11:00:00+09:00');
    writeFileSync(check, was);
    g(['commit', '-q', '-am', 'restore'], '2026-08-11T11:30:00+09:00');
    const { code, v } = await strict(dir);
    expect([code, v.preregistered, orders(v)['registration/conjuncts/1-a-ran.sql']]).toEqual([0, 'yes', 'before']);
  });

  it('a results.jsonl first committed empty, with the registration, records nothing: the rows committed later are the spawns', async () => {
    const { dir, g } = committedProbe((d, git) => {
      const results = join(d, 'results.jsonl');
      const rows = readFileSync(results, 'utf8');
      writeFileSync(results, '');
      git(['add', 'results.jsonl']);
      git(['commit', '-q', '--amend', '--no-edit'], '2026-08-11T10:00:00+09:00');
      writeFileSync(results, rows);
    });
    const { code, v } = await strict(dir);
    expect([code, v.preregistered, v.preregistration.evidence_commit]).toEqual([
      0,
      'yes',
      g(['rev-parse', 'HEAD~1']).toString().slice(0, 7),
    ]);
  });

  it('a root commit that records the spawns with the registration is "same commit as the evidence"', async () => {
    const { dir } = committedProbe();
    const root = mkdtempSync(join(tmpdir(), 'omg-git-'));
    temps.push(root);
    const one = join(root, 'git-order');
    cpSync(dir, one, { recursive: true });
    rmSync(join(one, '.git'), { recursive: true });
    const git = gitIn(one);
    git(['init', '-q']);
    git(['add', '.']);
    git(['commit', '-q', '-m', 'all at once']);
    const { code, v } = await strict(one);
    expect([code, v.preregistered, v.preregistration.reason]).toEqual([
      4,
      'not established',
      `the registration arrived in the same commit as the evidence (${shortHead(git)}), so git cannot show it came first`,
    ]);
  });

  it('a results.jsonl committed many times before the spawns (its trees read in a shell of their own) gives the same answers', async () => {
    const { dir, g } = committedProbe((d, git) => {
      const results = join(d, 'results.jsonl');
      const rows = readFileSync(results, 'utf8');
      for (let i = 0; i < 20; i++) {
        writeFileSync(results, i % 2 ? '\n' : '');
        git(['add', 'results.jsonl']);
        git(['commit', '-q', '-m', `results ${i}`], '2026-08-11T11:00:00+09:00');
      }
      writeFileSync(results, rows);
    });
    expect((await strict(dir)).v.preregistered).toBe('yes');
    const prereg = join(dir, 'registration', 'prereg.jsonl');
    writeFileSync(prereg, readFileSync(prereg, 'utf8').replace('"usd":2', '"usd":12'));
    g(['commit', '-q', '-am', 'raise the budget'], '2026-08-11T12:00:00+09:00');
    const { v } = await strict(dir);
    expect([v.preregistered, orders(v)['registration/prereg.jsonl']]).toEqual([
      'no',
      `changed after (${shortHead(g)}, 2026-08-11T12:00:00+09:00)`,
    ]);
  });

  it('a spawn recorded before the pre-registration is "no", though the spawn its data dates first was recorded after it', async () => {
    // started_at is the data's: B's row, committed before prereg.jsonl, is not its first spawn by date.
    const { dir, g } = committedProbe();
    rmSync(join(dir, '.git'), { recursive: true });
    const results = join(dir, 'results.jsonl');
    const [a, b] = readFileSync(results, 'utf8').split('\n');
    g(['init', '-q']);
    g(['add', 'registration/addendum-1.jsonl']);
    g(['commit', '-q', '-m', 'addendum 1: arm B'], '2026-08-10T09:00:00+09:00');
    writeFileSync(results, `${b}\n`);
    g(['add', 'results.jsonl', 'tool_use']);
    g(['commit', '-q', '-m', 'B ran'], '2026-08-10T10:00:00+09:00');
    g(['add', 'registration']);
    g(['commit', '-q', '-m', 'the pre-registration'], '2026-08-11T10:00:00+09:00');
    writeFileSync(results, `${a}\n${b}\n`);
    g(['commit', '-q', '-am', 'A ran, dated before B'], '2026-08-12T16:00:00+09:00');
    const { code, v } = await strict(dir);
    const late = (f: string) => `${f} was committed after spawn bbbbbbbb-0000-4000-8000-000000000002 (${B}), a spawn it governs`;
    expect([code, v.preregistered, v.preregistration.reason]).toEqual([
      4,
      'no',
      `${late('registration/conjuncts/1-a-ran.sql')}; ${late('registration/prereg.jsonl')}`,
    ]);
    expect(orders(v)).toEqual({
      'registration/addendum-1.jsonl': 'before',
      'registration/conjuncts/1-a-ran.sql': 'after',
      'registration/prereg.jsonl': 'after',
    });
  });

  it('a row first committed in a results.jsonl git takes for binary (a NUL byte) is still found there: "after"', async () => {
    const { dir, g } = committedProbe();
    rmSync(join(dir, '.git'), { recursive: true });
    const results = join(dir, 'results.jsonl');
    const rows = readFileSync(results, 'utf8');
    g(['init', '-q']);
    writeFileSync(results, `${rows}\0\n`);
    g(['add', 'results.jsonl', 'tool_use']);
    g(['commit', '-q', '-m', 'the spawns, and a NUL'], '2026-08-12T16:00:00+09:00');
    g(['add', 'registration']);
    g(['commit', '-q', '-m', 'the registration, dated back'], '2026-08-11T10:00:00+09:00');
    writeFileSync(results, rows);
    g(['commit', '-q', '-am', 'no NUL'], '2026-08-12T17:00:00+09:00');
    const { code, v } = await strict(dir);
    expect([code, v.preregistered, Object.values(orders(v))]).toEqual([4, 'no', ['after', 'after', 'after']]);
  });

  it('a registration file HEAD holds that the working tree has deleted is an uncommitted change, naming it', async () => {
    const { dir } = committedProbe(failingConjunct);
    rmSync(join(dir, 'registration', 'addendum-2.jsonl'));
    const { code, v } = await strict(dir);
    expect([code, v.preregistered, v.preregistration.reason]).toEqual([
      4,
      'not established',
      'registration/addendum-2.jsonl: uncommitted changes',
    ]);
  });

  it('a line of git grep output that is not a match is unreadable, never a row not held', () => {
    const touches = [{ hash: 'a'.repeat(40), parents: [] }];
    const binary = `Binary file ${'a'.repeat(40)}:results.jsonl matches\n`;
    expect(recordersOf([binary], touches, ['s1'])).toBeNull();
    expect((recordersOf([`${'a'.repeat(40)}:results.jsonl\0"s1"\n`], touches, ['s1']) as Map<string, unknown>).get('s1')).toEqual(touches);
    // No match (git grep's status 1) is '': no row; a grep that failed is null, unread.
    expect((recordersOf([''], touches, ['s1']) as Map<string, unknown>).get('s1')).toEqual([]);
    expect(recordersOf([null], touches, ['s1'])).toBe('unread');
    // What git says follows its matches: a hint is no failure, an error (a blob it cannot read, exit 1 still) is.
    expect(
      (recordersOf(['hint: Support for <GIT_DIR>/info/grafts is deprecated\n'], touches, ['s1']) as Map<string, unknown>).get('s1'),
    ).toEqual([]);
    expect(recordersOf([`error: '${'a'.repeat(40)}:results.jsonl': unable to read d95ebaa\n`], touches, ['s1'])).toBe('unread');
  });

  it('a merge whose one parent already had the row did not record it, though its other parent lacks the registration', async () => {
    const { dir, g } = committedProbe();
    g(['checkout', '-q', '-b', 'side', 'HEAD~1']);
    g(['rm', '-q', 'registration/addendum-1.jsonl']);
    g(['commit', '-q', '-m', 'side without addendum 1'], '2026-08-13T09:00:00+09:00');
    g(['checkout', '-q', '-']);
    // The merge keeps main's tree: its results.jsonl is its first parent's, and differs from the side's.
    g(['merge', '-q', '-s', 'ours', '-m', 'merge', 'side'], '2026-08-13T10:00:00+09:00');
    const { code, v } = await strict(dir);
    expect([code, v.preregistered, v.preregistration.reason]).toEqual([
      0,
      'yes',
      'every part of the registration was committed before the first spawn it governs',
    ]);
  });
});

describe('a started_at git is compared with', () => {
  // DuckDB reads a space for the T as the T; V8's Date.parse, with a space, took 0032 for 2032 and
  // 0030 for no date at all ("this is a bug"), so one instant had two answers.
  it('gives one answer however the instant is spelt: T or a space, a year before 100', async () => {
    const answers: unknown[] = [];
    for (const sep of ['T', ' ']) {
      const { dir } = committedProbe();
      const results = join(dir, 'results.jsonl');
      writeFileSync(results, readFileSync(results, 'utf8').replace(/"(started|ended)_at":"2026-08-12T/g, `"$1_at":"0030-08-12${sep}`));
      const { code, v } = await verdict(dir);
      answers.push([code, v.preregistered]);
    }
    expect(answers).toEqual([
      [4, 'no'],
      [4, 'no'],
    ]);
  });
});

describe('verdict --require-preregistered', () => {
  // "not established" holds by default (a probe whose registration and evidence share a commit, as
  // the bundled one's do); asked to, the verdict holds only when git shows the order.
  it('holds with "yes", and fails with "not established", naming why (exit 4)', async () => {
    const { dir } = committedProbe();
    expect((await cli(['verdict', dir, '--require-preregistered'])).code).toBe(0);
    appendFileSync(join(dir, 'registration', 'conjuncts', '1-a-ran.sql'), '-- edited\n');
    expect((await cli(['verdict', dir])).code).toBe(0);
    const strict = await cli(['verdict', dir, '--require-preregistered', '--format', 'json']);
    expect([strict.code, JSON.parse(strict.stdout).holds]).toEqual([4, false]);
    expect(strict.stderr).toBe(
      'omg-evidence: git-order: the verdict does not hold: pre-registration not established: registration/conjuncts/1-a-ran.sql: uncommitted changes\n',
    );
  });
});

describe('what an addendum governs', () => {
  // Committed after every spawn, an addendum that rules none could change the verdict unseen: one
  // that also registers a conjunct (or a budget) rules every spawn, as the pre-registration does;
  // one that voids an arm cannot be dated by any spawn after it.
  const late = (dir: string, g: (args: string[], date?: string) => Buffer, lines: object[]) => {
    writeFileSync(join(dir, 'registration', 'addendum-2.jsonl'), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    g(['add', 'registration']);
    g(['commit', '-q', '-m', 'late addendum'], '2026-08-20T10:00:00+09:00');
  };
  const order = (v: { preregistration: { compared: { file: string; order: string }[] } }) =>
    v.preregistration.compared.find((c) => c.file === 'registration/addendum-2.jsonl')?.order;

  it('an addendum that also registers a conjunct rules every spawn: committed after them, "no"', async () => {
    const { dir, g } = committedProbe();
    late(dir, g, [
      { kind: 'addendum', n: 2, text: 'a year later' },
      { kind: 'conjunct', n: 2, required: 'A ran, again', check: 'conjuncts/1-a-ran.sql' },
    ]);
    const { code, v } = await verdict(dir);
    expect([code, v.preregistered, order(v)]).toEqual([4, 'no', 'after']);
  });

  it('an addendum that voids an arm and rules no spawn is "not established", never "yes"', async () => {
    const { dir, g } = committedProbe();
    late(dir, g, [{ kind: 'addendum', n: 2, text: 'a year later', void: [{ arm: 'B', reason: 'x' }] }]);
    const { v } = await verdict(dir);
    expect([v.preregistered, order(v)]).toEqual(['not established', 'voids an arm, and no spawn it governs came after it']);
    expect(v.preregistration.reason).toBe('registration/addendum-2.jsonl: voids an arm, and no spawn it governs came after it');
  });

  it('an addendum that rules no spawn and changes nothing is still neither', async () => {
    const { dir, g } = committedProbe();
    late(dir, g, [{ kind: 'addendum', n: 2, text: 'a note on the method, a year later' }]);
    const { v } = await verdict(dir);
    expect([v.preregistered, order(v)]).toEqual(['yes', 'governs no spawn']);
  });
});

describe('git is only read', () => {
  // A driver may be named as check-attr prints the attribute's states ("set", "unset",
  // "unspecified"): git would run it all the same, were a file's bytes read through filters.
  it.each(['evil', 'set', 'unset', 'unspecified'])(
    "runs no program the repository's config names: core.fsmonitor, a hook, a clean filter (driver %s)",
    async (driver) => {
      const { root, dir } = committedProbe();
      const config = (key: string, value: string) => execFileSync('git', ['config', key, value], { cwd: dir, stdio: 'pipe' });
      config('core.fsmonitor', script(root, 'fsmonitor'));
      config(`filter.${driver}.clean`, script(root, 'clean'));
      config(`filter.${driver}.smudge`, script(root, 'smudge'));
      const hooks = join(dir, '.git', 'hooks');
      for (const hook of ['post-index-change', 'pre-commit', 'post-checkout']) cpSync(script(root, hook), join(hooks, hook));
      // Attributes from .git/info/ name the filter without a change to the committed files; a new
      // mtime on each registration file makes git status read (and so clean) its content.
      writeFileSync(join(dir, '.git', 'info', 'attributes'), `* filter=${driver}\n`);
      const later = new Date('2030-01-01T00:00:00Z');
      for (const f of ['registration/prereg.jsonl', 'registration/addendum-1.jsonl', 'registration/conjuncts/1-a-ran.sql'])
        utimesSync(join(dir, f), later, later);

      const { code, v } = await verdict(dir);
      expect(readdirSync(root).filter((f) => f.startsWith('ran-'))).toEqual([]);
      // The bytes are as committed, so nothing is an uncommitted change: the answer is unchanged.
      expect(v.preregistered).toBe('yes');
      expect(code).toBe(0);
    },
  );

  it('a file edited since its commit is still an uncommitted change, with a filter emptied', async () => {
    const { root, dir } = committedProbe();
    execFileSync('git', ['config', 'filter.evil.clean', script(root, 'clean')], { cwd: dir, stdio: 'pipe' });
    writeFileSync(join(dir, '.git', 'info', 'attributes'), '* filter=evil\n');
    appendFileSync(join(dir, 'registration', 'conjuncts', '1-a-ran.sql'), '-- edited after its commit\n');
    const { v } = await verdict(dir);
    expect(existsSync(join(root, 'ran-clean'))).toBe(false);
    expect(v.preregistered).toBe('not established');
    expect(v.preregistration.reason).toBe('registration/conjuncts/1-a-ran.sql: uncommitted changes');
  });

  it("reads the probe's own repository whatever GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE the caller has", async () => {
    const { root, dir } = committedProbe();
    const saved = { GIT_DIR: process.env.GIT_DIR, GIT_WORK_TREE: process.env.GIT_WORK_TREE, GIT_INDEX_FILE: process.env.GIT_INDEX_FILE };
    Object.assign(process.env, { GIT_DIR: join(root, 'elsewhere'), GIT_WORK_TREE: root, GIT_INDEX_FILE: join(root, 'index') });
    try {
      const { code, v } = await verdict(dir);
      expect(v.preregistered).toBe('yes');
      expect(code).toBe(0);
    } finally {
      for (const [k, val] of Object.entries(saved)) {
        if (val === undefined) delete process.env[k];
        else process.env[k] = val;
      }
    }
  });

  // Ownership needs a second user: only root can give the repository to one.
  it.skipIf(process.getuid?.() !== 0)(
    'a repository another user owns reads as before when the user trusts it (safe.directory; runs as root only)',
    async () => {
      const { root, dir } = committedProbe();
      execFileSync('chown', ['-R', '65534', dir]);
      const global = join(root, 'gitconfig');
      writeFileSync(global, `[safe]\n\tdirectory = ${dir}\n[core]\n\tfsmonitor = ${script(root, 'global-fsmonitor')}\n`);
      const saved = process.env.GIT_CONFIG_GLOBAL;
      process.env.GIT_CONFIG_GLOBAL = global;
      try {
        const { code, v } = await verdict(dir);
        expect(v.preregistered).toBe('yes');
        expect(code).toBe(0);
        // Only safe.directory is kept from the user's config.
        expect(existsSync(join(root, 'ran-global-fsmonitor'))).toBe(false);
      } finally {
        if (saved === undefined) delete process.env.GIT_CONFIG_GLOBAL;
        else process.env.GIT_CONFIG_GLOBAL = saved;
      }
    },
  );

  it('each file keeps its own history where a merge takes one side of a file and the other side of another', async () => {
    // The side branch changes two registration files after the spawns; the merge keeps main's
    // 1-a-ran.sql and the side's prereg.jsonl. `git log -- 1-a-ran.sql` never reaches the side's
    // commit (the merge is the same as main for that file), while one log over both files does:
    // the one log must not be read for each file then.
    const { dir, g } = committedProbe();
    g(['checkout', '-q', '-b', 'side']);
    appendFileSync(join(dir, 'registration', 'conjuncts', '1-a-ran.sql'), '-- changed on the side\n');
    appendFileSync(join(dir, 'registration', 'prereg.jsonl'), '\n');
    g(['commit', '-q', '-am', 'side'], '2026-08-13T10:00:00+09:00');
    g(['checkout', '-q', '-']);
    g(['merge', '-q', '--no-ff', '--no-commit', 'side']);
    g(['checkout', 'HEAD', '--', 'registration/conjuncts/1-a-ran.sql']);
    g(['commit', '-q', '-m', 'merge'], '2026-08-14T10:00:00+09:00');
    const { v } = await verdict(dir);
    const order = Object.fromEntries(v.preregistration.compared.map((c: { file: string; order: string }) => [c.file, c.order]));
    expect(order['registration/conjuncts/1-a-ran.sql']).toBe('before');
    expect(order['registration/prereg.jsonl']).toMatch(/^changed after/);
  });

  it('a probe whose path in the repository holds a newline still has its uncommitted edits seen', async () => {
    // The probe's prefix in the repository was read as the second line of rev-parse's output.
    const root = mkdtempSync(join(tmpdir(), 'omg-git-'));
    temps.push(root);
    const dir = join(root, 'p\nq', 'git-order');
    cpSync(join(repo, probeFixture('git-order')), dir, { recursive: true });
    const g = gitIn(root);
    g(['init', '-q'], '2026-08-11T10:00:00+09:00');
    g(['add', '-A', join(dir, 'registration')], '2026-08-11T10:00:00+09:00');
    g(['commit', '-q', '-m', 'registration'], '2026-08-11T10:00:00+09:00');
    g(['add', '-A', '.'], '2026-08-12T16:00:00+09:00');
    g(['commit', '-q', '-m', 'evidence'], '2026-08-12T16:00:00+09:00');
    expect((await verdict(dir)).v.preregistered).toBe('yes');
    appendFileSync(join(dir, 'registration', 'conjuncts', '1-a-ran.sql'), '-- edited after its commit\n');
    const { v } = await verdict(dir);
    expect(v.preregistered).toBe('not established');
    expect(v.preregistration.reason).toBe('registration/conjuncts/1-a-ran.sql: uncommitted changes');
  });

  it('a registration file named like a pattern is that file: c[12].sql is not c1.sql', async () => {
    const { dir, g } = committedProbe((d, git) => {
      git(['mv', 'registration/conjuncts/1-a-ran.sql', 'registration/conjuncts/1-a[r]an.sql']);
      const prereg = join(d, 'registration', 'prereg.jsonl');
      writeFileSync(prereg, readFileSync(prereg, 'utf8').replace('conjuncts/1-a-ran.sql', 'conjuncts/1-a[r]an.sql'));
      git(['commit', '-q', '-am', 'rename before the spawns'], '2026-08-11T11:00:00+09:00');
    });
    const conjuncts = join(dir, 'registration', 'conjuncts');
    // A file the pattern would match, committed after the spawns, then edited and left uncommitted.
    writeFileSync(join(conjuncts, '1-aran.sql'), 'select 1\n');
    g(['add', 'registration/conjuncts/1-aran.sql']);
    g(['commit', '-q', '-m', 'another file'], '2026-08-13T10:00:00+09:00');
    appendFileSync(join(conjuncts, '1-aran.sql'), '-- edited\n');
    for (const merged of [false, true]) {
      if (merged) mergeSideChange(dir, g);
      const { v } = await verdict(dir);
      const order = Object.fromEntries(v.preregistration.compared.map((c: { file: string; order: string }) => [c.file, c.order]));
      expect(order['registration/conjuncts/1-a[r]an.sql']).toBe('before');
    }
  });

  it('a registration file named with what a shell would run is only a name: git runs in one shell, and runs nothing it names', async () => {
    // A shell that ran any of it would make ran-name in the probe's folder, where git runs.
    const name = "1-a'$(touch ran-name)`touch ran-name`;touch ran-name'.sql";
    const { dir, g } = committedProbe((d, git) => {
      git(['mv', 'registration/conjuncts/1-a-ran.sql', `registration/conjuncts/${name}`]);
      const prereg = join(d, 'registration', 'prereg.jsonl');
      writeFileSync(prereg, readFileSync(prereg, 'utf8').replace('conjuncts/1-a-ran.sql', `conjuncts/${name.replaceAll('"', '\\"')}`));
      git(['commit', '-q', '-am', 'rename before the spawns'], '2026-08-11T11:00:00+09:00');
    });
    const order = async () => {
      const { v } = await verdict(dir);
      return Object.fromEntries(v.preregistration.compared.map((c: { file: string; order: string }) => [c.file, c.order]))[
        `registration/conjuncts/${name}`
      ];
    };
    expect(await order()).toBe('before');
    // With a merge (its hashes go to git on its standard input) and the file edited since its commit.
    mergeSideChange(dir, g);
    appendFileSync(join(dir, 'registration', 'conjuncts', name), '-- edited\n');
    expect(await order()).toBe('uncommitted changes');
    expect(existsSync(join(dir, 'ran-name'))).toBe(false);
  });

  it("an empty or relative entry of PATH never runs the probe's own git or sh: only absolute folders are searched", () => {
    const { root, dir } = committedProbe();
    for (const name of ['git', 'sh']) {
      writeFileSync(join(dir, name), `#!/bin/sh\ntouch '${join(root, `ran-${name}`)}'\nexit 1\n`);
      chmodSync(join(dir, name), 0o755);
    }
    const run = (PATH: string) =>
      spawnSync(process.execPath, [binPath, 'verdict', dir, '--format', 'json'], {
        cwd: root,
        env: { ...process.env, PATH },
        encoding: 'utf8',
      });
    const found = run(`:.:${process.env.PATH}`);
    expect([found.status, JSON.parse(found.stdout).preregistered, readdirSync(root).filter((f) => f.startsWith('ran-'))]).toEqual([
      0,
      'yes',
      [],
    ]);
    const none = run('.:');
    expect([none.status, none.stderr]).toEqual([
      1,
      "omg-evidence: git-order: git is in no absolute folder of PATH, so the registration cannot be dated (install git, or name its folder on PATH by an absolute path: an empty or relative entry names the probe's folder, and is not searched)\n",
    ]);
  });

  it("the repository's own log.follow and diff.renames do not change the answer", async () => {
    const answers = [];
    for (const follow of ['false', 'true']) {
      const { dir, g } = committedProbe();
      g(['config', 'log.follow', follow]);
      g(['config', 'diff.renames', follow]);
      // The conjunct reaches its path by a rename after the spawns.
      g(['mv', 'registration/conjuncts/1-a-ran.sql', 'registration/conjuncts/1-a-ran-2.sql']);
      const prereg = join(dir, 'registration', 'prereg.jsonl');
      writeFileSync(prereg, readFileSync(prereg, 'utf8').replace('conjuncts/1-a-ran.sql', 'conjuncts/1-a-ran-2.sql'));
      g(['commit', '-q', '-am', 'rename after the spawns'], '2026-08-13T10:00:00+09:00');
      mergeSideChange(dir, g);
      const { v } = await verdict(dir);
      answers.push([v.preregistered, v.preregistration.reason]);
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]![0]).toBe('no');
  });
});

describe("a history the probe's .git/ rewrites", () => {
  // The data committed first, the registration after: "no". A forger gives the data's commit an older
  // parent that holds the registration, HEAD's hash unchanged: by refs/replace/, or by .git/info/grafts.
  it("a refs/replace/ graft, .git/info/grafts or a commit-graph does not change how HEAD's history is read", async () => {
    const { dir, g } = committedProbe();
    rmSync(join(dir, '.git'), { recursive: true });
    g(['init', '-q']);
    g(['add', 'results.jsonl', 'tool_use']);
    g(['commit', '-q', '-m', 'data first'], '2026-08-12T16:00:00+09:00');
    g(['add', 'registration']);
    g(['commit', '-q', '-m', 'registration after'], '2026-08-13T10:00:00+09:00');
    const answer = async () => {
      const { v } = await verdict(dir);
      return [v.preregistered, v.preregistration.reason];
    };
    const honest = await answer();
    expect(honest[0]).toBe('no');
    const data = g(['rev-parse', 'HEAD~1']).toString().trim();
    const tree = g(['mktree'], undefined, `040000 tree ${g(['rev-parse', 'HEAD:registration']).toString().trim()}\tregistration\n`);
    const older = g(['commit-tree', tree.toString().trim(), '-m', 'R0'], '2026-08-10T09:00:00+09:00').toString().trim();
    g(['replace', '--graft', data, older]);
    expect(await answer()).toEqual(honest);
    g(['replace', '-d', data]);
    writeFileSync(join(dir, '.git', 'info', 'grafts'), `${data} ${older}\n`);
    expect(await answer()).toEqual(honest);
    g(['commit-graph', 'write', '--reachable']);
    expect(await answer()).toEqual(honest);
  });

  // HEAD's tree holds the probe at p/ (its data committed first) and a decoy copy at the root, committed
  // in the honest order. A .git/ that puts the work tree at p/ would have the decoy's history read.
  it('a work tree the .git/ moves (core.worktree, core.bare) is not read', async () => {
    const root = mkdtempSync(join(tmpdir(), 'omg-git-'));
    temps.push(root);
    const fixture = join(repo, probeFixture('git-order'));
    cpSync(fixture, join(root, 'p'), { recursive: true });
    cpSync(fixture, root, { recursive: true });
    const g = gitIn(root);
    g(['init', '-q']);
    g(['add', 'registration']);
    g(['commit', '-q', '-m', 'the decoy registration'], '2026-08-11T10:00:00+09:00');
    g(['add', '.']);
    g(['reset', '-q', '--', 'p/registration']);
    g(['commit', '-q', '-m', 'the data, the probe and the decoy'], '2026-08-12T16:00:00+09:00');
    g(['add', 'p/registration']);
    g(['commit', '-q', '-m', "the probe's registration, after its data"], '2026-08-13T10:00:00+09:00');
    const answer = async () => {
      const { v } = await verdict(join(root, 'p'));
      return [v.preregistered, v.preregistration.reason];
    };
    expect((await answer())[0]).toBe('no');
    g(['config', 'core.worktree', join(root, 'p')]);
    expect(await answer()).toEqual([
      'not established',
      "git's work tree is ., not .., which holds the .git it reads (paths from the probe): which files of its history are the probe's cannot be told",
    ]);
    g(['config', '--unset', 'core.worktree']);
    g(['config', 'core.bare', 'true']);
    expect(await answer()).toEqual([
      'not established',
      "git's work tree is none (core.bare), not .., which holds the .git it reads (paths from the probe): which files of its history are the probe's cannot be told",
    ]);
  });

  it("the repository's own log output encoding and showRoot do not change the answer", async () => {
    const { dir, g } = committedProbe();
    const { v: before } = await verdict(dir);
    g(['config', 'i18n.logOutputEncoding', 'UTF-16']);
    g(['config', 'log.showRoot', 'false']);
    const { code, v: after } = await verdict(dir);
    expect([code, after.preregistered, after.preregistration.reason]).toEqual([0, before.preregistered, before.preregistration.reason]);
    expect(before.preregistered).toBe('yes');
  });

  it("the repository's own grep and colour settings do not change the answer", async () => {
    const { dir, g } = committedProbe();
    const { v: before } = await verdict(dir);
    for (const [k, v] of [
      ['grep.lineNumber', 'true'],
      ['grep.column', 'true'],
      ['grep.fullName', 'true'],
      ['color.grep', 'always'],
      ['color.ui', 'always'],
    ])
      g(['config', k!, v!]);
    const { v: after } = await verdict(dir);
    expect([after.preregistered, after.preregistration.reason]).toEqual([before.preregistered, before.preregistration.reason]);
    expect(before.preregistered).toBe('yes');
  });
});

describe('a long history', () => {
  it('50 commits of results.jsonl, 20 addenda each governing a spawn: "yes", every session found by one grep', async () => {
    const row = readFileSync(join(repo, probeFixture('git-order'), 'results.jsonl'), 'utf8').split('\n')[0]!;
    const { dir } = committedProbe((dir, g) => {
      const reg = join(dir, 'registration');
      writeFileSync(
        join(reg, 'prereg.jsonl'),
        readFileSync(join(reg, 'prereg.jsonl'), 'utf8').replace('"usd":2,"spawns":3', '"usd":10000,"spawns":10000'),
      );
      rmSync(join(reg, 'addendum-1.jsonl'));
      for (let k = 1; k <= 20; k++) {
        const lines = [
          { kind: 'addendum', n: k, text: `arm X${k}` },
          { kind: 'arm', arm: `X${k}`, phase: 'A', n: 1, addendum: k },
        ];
        writeFileSync(join(reg, `addendum-${k}.jsonl`), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
      }
      g(['add', '-A', 'registration']);
      g(['commit', '-q', '-m', 'addenda'], '2026-08-11T11:00:00+09:00');
      writeFileSync(join(dir, 'results.jsonl'), '');
      for (const f of readdirSync(join(dir, 'tool_use'))) rmSync(join(dir, 'tool_use', f));
      for (let i = 1; i <= 50; i++) {
        const id = `aaaaaaaa-0000-4000-8000-${String(i).padStart(12, '0')}`;
        const at = `2026-08-12T10:${String(i).padStart(2, '0')}`;
        const spawn = row
          .replaceAll('aaaaaaaa-0000-4000-8000-000000000001', id)
          .replace('"seq":1', `"seq":${i}`)
          .replace('"arm":"A"', `"arm":"X${((i - 1) % 20) + 1}"`)
          .replaceAll('2026-08-12T14:00', at);
        appendFileSync(join(dir, 'results.jsonl'), `${spawn}\n`);
        writeFileSync(join(dir, 'tool_use', `${id}.jsonl`), '');
        // The last is committed as the evidence.
        if (i < 50) {
          g(['add', '-A', 'results.jsonl', 'tool_use']);
          g(['commit', '-q', '-m', `spawn ${i}`], `${at}:30+09:00`);
        }
      }
    });
    const run = await cli(['verdict', dir, '--require-preregistered', '--format', 'json']);
    const v = JSON.parse(run.stdout);
    expect([v.preregistered, v.preregistration.reason]).toEqual([
      'yes',
      'every part of the registration was committed before the first spawn it governs',
    ]);
    expect(v.preregistration.compared.filter((c: { order: string }) => c.order !== 'before')).toEqual([]);
  });
});

/** The git processes running in `dir` (opening a FIFO to see whether git reads it would let git go on). */
const gitsIn = (dir: string) =>
  readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/comm`, 'utf8').trim() === 'git' && readlinkSync(`/proc/${p}/cwd`) === dir;
      } catch {
        return false;
      }
    });

describe('git that never answers', () => {
  it('a .git/HEAD that is a FIFO is stopped after the time git is given, an error naming the probe, no git left waiting', async () => {
    const { dir } = committedProbe();
    const head = join(dir, '.git', 'HEAD');
    rmSync(head);
    execFileSync('mkfifo', [head]);
    const err = await gitAll({ cwd: dir, trusted: [] }, [{ args: ['rev-parse', '--show-prefix'] }], 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(`${dir}: git took more than 1 s and was stopped`);
    expect((err as InputError).hint).toBe(
      "the history may be too large to read in that time, or a FIFO or a device among the files of the probe's .git/ keeps git waiting: remove it, or give the probe without its .git/",
    );
    // No process holds the FIFO open for reading: the git that waited on it was stopped with its shell.
    expect(() => openSync(head, constants.O_WRONLY | constants.O_NONBLOCK)).toThrow(/ENXIO/);
  });

  it('a Ctrl-C while git waits on that FIFO stops git too, and ends the command as the signal does', async () => {
    const { dir } = committedProbe();
    const head = join(dir, '.git', 'HEAD');
    rmSync(head);
    execFileSync('mkfifo', [head]);
    const child = spawn(process.execPath, [binPath, 'verdict', dir], { stdio: 'ignore' });
    const ended = new Promise<[number | null, string | null]>((done) => child.on('exit', (code, signal) => done([code, signal])));
    // git runs in a process group of its own, which a Ctrl-C at a terminal does not reach.
    // Two: the history's walks run in two shells at once (preregistration), each git waiting on HEAD.
    const gits = () => gitsIn(dir);
    for (let i = 0; i < 600 && gits().length < 2; i++) await new Promise((ok) => setTimeout(ok, 50));
    expect(gits()).toHaveLength(2);
    child.kill('SIGINT');
    expect(await ended).toEqual([null, 'SIGINT']);
    for (let i = 0; i < 40 && gits().length > 0; i++) await new Promise((ok) => setTimeout(ok, 50));
    expect(gits()).toEqual([]);
  });

  it.each(['on', 'once'])(
    "in a program that listens for SIGINT itself (process.%s), a Ctrl-C stops git, fails the verdict, and is that program's to handle",
    async (how) => {
      const { dir } = committedProbe();
      const head = join(dir, '.git', 'HEAD');
      rmSync(head);
      execFileSync('mkfifo', [head]);
      const program = [
        `const { openEvidence } = await import(${JSON.stringify(join(repo, 'dist', 'index.js'))});`,
        `let n = 0; process.${how}('SIGINT', () => console.log('handled', ++n));`,
        `const ev = await openEvidence([${JSON.stringify(dir)}]);`,
        "console.log('opened');",
        'try { await ev.verdicts(); } catch (e) { console.log(e.message); }',
        'await ev.close();',
      ].join('\n');
      const child = spawn(process.execPath, ['--input-type=module', '-e', program], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
      });
      const ended = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
      for (let i = 0; i < 600 && gitsIn(dir).length < 2; i++) await new Promise((ok) => setTimeout(ok, 50));
      expect(gitsIn(dir)).toHaveLength(2);
      child.kill('SIGINT');
      expect(await ended).toBe(0);
      // Once, by the program; git not run again one by one, and none left waiting.
      expect(out).toBe(`opened\nhandled 1\n${dir}: git was stopped by a signal\n`);
      expect(gitsIn(dir)).toEqual([]);
    },
  );
});
