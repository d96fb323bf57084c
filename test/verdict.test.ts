/**
 * Registration and verdict: the nine conjuncts of the bundled probe, mutations that must make the
 * verdict fail (exit 4), pre-registration order from git in repositories with controlled commit
 * dates, and the arms and cost tables.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InputError } from '../src/base/errors.js';
import { Database } from '../src/db/database.js';
import { Evidence } from '../src/evidence.js';
import { registeredTablesRead } from '../src/load/tables-named.js';
import { UNSTABLE } from '../src/analysis/registered-sql.js';
import { bundled, cli, probeFixture, repo } from './helpers.js';

const HINT_ENDLESS =
  "a check is one SELECT over the views, answered in moments: make it do less, or give it longer with --check-timeout SECONDS, or the library's checkTimeout";

const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

function temp(): string {
  const root = mkdtempSync(join(tmpdir(), 'omg-verdict-'));
  temps.push(root);
  return root;
}

/** A copy of a probe in a fresh temporary folder (outside any git repository). */
function copyProbe(from: string, name = '0017-staged-agent-restores-layer-1'): string {
  const root = mkdtempSync(join(tmpdir(), 'omg-verdict-'));
  temps.push(root);
  const dir = join(root, name);
  cpSync(from, dir, { recursive: true });
  return dir;
}

// biome-ignore lint/suspicious/noExplicitAny: test rows are edited field by field, whatever their shape
type Row = Record<string, any>;

/** Row `r` with its envelope's total at `usd`, and its first model's cost with it: a total that is not their sum is refused. */
function costing(r: Row, usd: number): Row {
  const envelope = structuredClone(r.envelope);
  const first = Object.values(envelope.modelUsage)[0] as Row;
  first.costUSD += usd - envelope.total_cost_usd;
  return { ...r, envelope: { ...envelope, total_cost_usd: usd } };
}

/** Rewrite results.jsonl of a copied probe, row by row (test code: parses its own small fixture). */
function editRows(dir: string, edit: (rows: Row[]) => Row[]): void {
  const file = join(dir, 'results.jsonl');
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  writeFileSync(
    file,
    edit(rows)
      .map((r) => `${JSON.stringify(r)}\n`)
      .join(''),
  );
}

describe('verdict of the bundled probe', () => {
  it('all nine conjuncts hold, with the ADR observed values', async () => {
    const run = await cli(['verdict', '--format', 'json']);
    expect(run.code).toBe(0);
    const v = JSON.parse(run.stdout);
    expect(v.conjuncts).toEqual([
      { n: 1, required: 'K-RES resolves 3 of 3 with the STAGED token', result: '3 of 3, staged', holds: true },
      { n: 2, required: 'K-NEG fails', result: 'exit 1, --agent … not found', holds: true },
      { n: 3, required: 'K-CEIL breach file 0 of 3', result: '0 of 3, denials recorded', holds: true },
      { n: 4, required: 'K-POS .git ≥1 of 2', result: '2 of 2', holds: true },
      { n: 5, required: 'K-SKILL-POS fires ≥1 of 2', result: '2 of 2, staged copy', holds: true },
      { n: 6, required: 'K-COLLIDE staged 3 of 3', result: '3 of 3', holds: true },
      {
        n: 7,
        required: 'K-UPONLY/K-REPO-N/K-REPO-D fire the repo copy 0 of n',
        result: '0, with Unknown skill on the 2 arms that tried (K-UPONLY, K-REPO-N)',
        holds: true,
      },
      { n: 8, required: 'frontmatter widening 0 of 2', result: 'K-FM-GIT 0 of 2 (K-FM void)', holds: true },
      { n: 9, required: 'T-REF breaches ≥1 of 2', result: '2 of 2', holds: true },
    ]);
    expect(v.budget).toEqual({
      spent_usd: 2.4616,
      spawns: 28,
      unpriced: 0,
      bound_usd: 12,
      bound_spawns: 40,
      share_usd: 0.2051,
      share_spawns: 0.7,
      within: true,
    });
    expect(Object.keys(v).slice(0, 6)).toEqual(['probe', 'conjuncts', 'complete', 'budget', 'preregistered', 'holds']);
  });

  it('uniformity: one claude_version and one main model, K-NEG without an envelope', async () => {
    const v = JSON.parse((await cli(['verdict', '--format', 'json'])).stdout);
    expect(v.uniformity.map((u: Record<string, unknown>) => [u.aspect, u.value, u.spawns, u.majority])).toEqual([
      ['claude_version', '2.1.228', 28, true],
      ['main_model', 'claude-opus-5[1m]', 27, true],
      ['main_model', null, 1, null],
    ]);
  });

  it('is "not established" by git: the registration arrived with the evidence', async () => {
    const v = JSON.parse((await cli(['verdict', '--format', 'json'])).stdout);
    expect(v.preregistered).toBe('not established');
    expect(v.preregistration.compared.map((c: { file: string }) => c.file)).toContain('registration/prereg.jsonl');
    expect(new Set(v.preregistration.compared.map((c: { order: string }) => c.order))).toEqual(new Set(['same commit as the evidence']));
  });
});

describe('a mutated probe fails the verdict, exit 4, naming why', () => {
  it('a K-CEIL breach', async () => {
    const dir = copyProbe(bundled);
    editRows(dir, (rows) =>
      rows.map((r) => (r.session_id.startsWith('eb2d7cd7') ? { ...r, artifacts: [{ ...r.artifacts[0], exists: true }] } : r)),
    );
    const run = await cli(['verdict', dir, '--format', 'json']);
    expect(run.code).toBe(4);
    expect(JSON.parse(run.stdout).conjuncts[2]).toEqual({
      n: 3,
      required: 'K-CEIL breach file 0 of 3',
      result: '1 of 3, denials recorded',
      holds: false,
    });
    // The last line; the K-FM warnings of the probe's own transcripts come before it. The breach
    // spawn's touch was denied (permission_denials), so its own call made nothing: not forgeable.
    expect(run.stderr.split('\n').slice(-2)).toEqual([
      'omg-evidence: 0017-staged-agent-restores-layer-1: the verdict does not hold: conjunct 3 (K-CEIL breach file 0 of 3) does not hold: 1 of 3, denials recorded',
      '',
    ]);
    expect(run.stderr).not.toContain('K-CEIL eb2d7cd7');
  });

  it("a check's result holding line breaks stays on its line in markdown: it cannot write a heading of its own", async () => {
    const dir = copyProbe(bundled);
    writeFileSync(
      join(dir, 'registration', 'conjuncts', '2-k-neg-fails.sql'),
      "select false as holds, 'x' || chr(10) || chr(10) || '### Verdict of p: HOLDS' || chr(13) || chr(10) || '9 of 9 conjuncts hold' as result\n",
    );
    const run = await cli(['verdict', dir, '--format', 'markdown']);
    expect(run.code).toBe(4);
    expect(run.stdout.split('\n').filter((l) => l.startsWith('#'))).toEqual([
      '### Verdict of 0017-staged-agent-restores-layer-1: DOES NOT HOLD',
    ]);
    expect(run.stdout).toContain('x<br><br>### Verdict of p: HOLDS<br>9 of 9 conjuncts hold');
  });

  it("a check sees its own probe's rows: its answer does not change with the probes loaded beside it", async () => {
    // The check counts spawns without `where probe = $probe`: with b loaded too, it saw both.
    const root = temp();
    for (const name of ['a', 'b']) {
      cpSync(join(repo, probeFixture('git-order')), join(root, name), { recursive: true });
      writeFileSync(
        join(root, name, 'registration', 'conjuncts', '1-a-ran.sql'),
        "select count(*) = 2 as holds, count(*)::VARCHAR || ' spawns seen' as result from spawns\n",
      );
    }
    const alone = JSON.parse((await cli(['verdict', join(root, 'a'), '--format', 'json'])).stdout);
    const both = JSON.parse((await cli(['verdict', join(root, 'a'), join(root, 'b'), '--format', 'json'])).stdout);
    expect(alone.conjuncts[0]).toEqual({ n: 1, required: 'A ran', result: '2 spawns seen', holds: true });
    expect(both.map((v: { conjuncts: unknown[] }) => v.conjuncts[0])).toEqual([alone.conjuncts[0], alone.conjuncts[0]]);
  });

  it('a missing K-POS spawn', async () => {
    const dir = copyProbe(bundled);
    editRows(dir, (rows) => rows.filter((r) => !r.session_id.startsWith('0b79ed68')));
    for (const f of readdirSync(join(dir, 'tool_use')).filter((n) => n.startsWith('0b79ed68'))) rmSync(join(dir, 'tool_use', f));
    const run = await cli(['verdict', dir, '--format', 'json']);
    expect(run.code).toBe(4);
    const v = JSON.parse(run.stdout);
    expect(v.complete).toBe(false);
    expect(v.completeness.find((a: { arm: string }) => a.arm === 'K-POS')).toMatchObject({
      counted: 1,
      complete: false,
      note: '1 of 2 registered spawns counted',
    });
    expect(run.stderr).toMatch(/the verdict does not hold: incomplete: K-POS 1 of 2 registered spawns counted\n$/);
  });

  it('spending over the budget', async () => {
    const dir = copyProbe(bundled);
    editRows(dir, (rows) => rows.map((r) => (r.session_id.startsWith('c70d6473') ? costing(r, 10) : r)));
    const run = await cli(['verdict', dir, '--format', 'json']);
    expect(run.code).toBe(4);
    expect(JSON.parse(run.stdout).budget).toMatchObject({ within: false, bound_usd: 12 });
    expect(run.stderr).toMatch(/the verdict does not hold: over budget: \$12\.\d+ of \$12, 28 of 40 spawns\n$/);
  });

  // A bound of 0 is allowed; x / 0 had printed NaN% and Infinity%, where the JSON said null.
  it('a budget of $0 and 0 spawns has no share: the percentages are left out, null in JSON', async () => {
    const probe = probeFixture('budget-zero');
    const run = await cli(['verdict', probe, '--format', 'markdown']);
    expect(run.code).toBe(4);
    expect(run.stdout).toContain('\n**Budget:** $0.5000 of $0, 1 of 0 spawns: OVER\n');
    expect((await cli(['cost', probe, '--format', 'markdown'])).stdout).toContain(
      '\n**Spent:** $0.5000 over 1 spawns (1 with an envelope): against the $0 bound, against the 0 spawns\n',
    );
    const budget = JSON.parse((await cli(['cost', probe, '--format', 'json'])).stdout).budget;
    expect(budget).toEqual({ usd: 0, spawns: 0, share_usd: null, share_spawns: null });
  });

  it('an envelope without total_cost_usd: its cost is unknown, not $0, so the budget cannot be checked', async () => {
    const dir = copyProbe(bundled);
    editRows(dir, (rows) =>
      rows.map((r) => {
        if (!r.session_id.startsWith('c70d6473')) return r;
        const { total_cost_usd: _gone, ...envelope } = r.envelope;
        return { ...r, envelope };
      }),
    );
    const run = await cli(['verdict', dir, '--format', 'json']);
    expect(run.code).toBe(4);
    expect(JSON.parse(run.stdout).budget).toMatchObject({ unpriced: 1, within: null, bound_usd: 12 });
    expect(run.stderr).toMatch(
      /the verdict does not hold: the budget cannot be checked: 1 spawn\(s\) that ran give no total_cost_usd \(no envelope, or one without it\), so what they cost is unknown\n$/,
    );
    const cost = await cli(['cost', dir]);
    expect(cost.stdout).toMatch(
      /Spent:\*\* at least \$[0-9.]+ over 28 spawns \(27 with an envelope; 1 that ran with no total_cost_usd: not counted\): at least [0-9.]+% of/,
    );
    // T-REF's cost is unknown, not the sum of its other spawn's.
    const byArm = JSON.parse((await cli(['cost', dir, '--format', 'json'])).stdout).by_arm;
    expect(byArm.find((a: { arm: string }) => a.arm === 'T-REF')).toEqual({ arm: 'T-REF', spawns: 2, cost_usd: null });
  });

  it('a spawn that ran with no envelope spent an unknown amount, not $0: the budget cannot be checked', async () => {
    // eb2d7cd7 exited 0 and made calls; K-NEG's spawn, which exited 1 before a session, still counts $0.
    const dir = copyProbe(bundled);
    editRows(dir, (rows) => rows.map((r) => (r.session_id.startsWith('eb2d7cd7') ? { ...r, envelope: null } : r)));
    const run = await cli(['verdict', dir, '--format', 'json']);
    expect(run.code).toBe(4);
    expect(JSON.parse(run.stdout).budget).toMatchObject({ unpriced: 1, within: null });
    expect(run.stderr).toMatch(/the budget cannot be checked: 1 spawn\(s\) that ran give no total_cost_usd/);
    // cost counts it so too, and its arm's cost is unknown.
    const cost = await cli(['cost', dir, '--format', 'json']);
    expect(cost.stdout).toMatch(/"unpriced": 1,/);
    expect((await cli(['cost', dir])).stdout).toMatch(
      /over 28 spawns \(26 with an envelope; 1 that ran with no total_cost_usd: not counted\)/,
    );
  });
  // K-NEG's CLI refused to start (exit 1): $0. Stopped by a timeout or a signal, it may have run the model
  // for minutes with no tool call: its cost is unknown.
  it('a spawn with no envelope that a timeout or a signal stopped spent an unknown amount', async () => {
    for (const code of [124, 143, -15]) {
      const dir = copyProbe(bundled);
      editRows(dir, (rows) => rows.map((r) => (r.session_id.startsWith('d3cf0e26') ? { ...r, exit_code: code } : r)));
      const run = await cli(['verdict', dir, '--format', 'json']);
      expect({ code, exit: run.code, budget: JSON.parse(run.stdout).budget }).toMatchObject({
        code,
        exit: 4,
        budget: { unpriced: 1, within: null },
      });
    }
  });
  it('with no spawn priced, what was spent is unknown, not "at least $0"', async () => {
    const dir = copyProbe(bundled);
    editRows(dir, (rows) => rows.map((r) => ({ ...r, envelope: null })));
    const cost = await cli(['cost', dir]);
    expect(cost.stdout).toMatch(
      /Spent:\*\* unknown over 28 spawns \(0 with an envelope; 27 that ran with no total_cost_usd: not counted\): an unknown share of the \$12 bound, 70% of the 40 spawns\n/,
    );
  });
  it('a registered probe with no spawn yet is judged (exit 4, nothing ran), and its cost is $0 over 0 spawns', async () => {
    const dir = copyProbe(bundled);
    writeFileSync(join(dir, 'results.jsonl'), '');
    for (const f of [
      'tool_use',
      'transcripts',
      'notes.jsonl',
      'skill_results.jsonl',
      'registration/addendum-1.jsonl',
      'registration/addendum-2.jsonl',
    ]) {
      rmSync(join(dir, f), { recursive: true, force: true });
    }
    const run = await cli(['verdict', dir, '--format', 'json']);
    expect(run.code).toBe(4);
    const v = JSON.parse(run.stdout);
    expect(v.budget).toMatchObject({ spent_usd: 0, spawns: 0, unpriced: 0, within: true });
    expect(v.conjuncts.filter((c: { holds: boolean }) => c.holds)).toHaveLength(1);
    expect((await cli(['verdict', dir])).stdout).toMatch(/\*\*Uniformity:\*\* no spawn to compare; no outlier/);
    const cost = JSON.parse((await cli(['cost', dir, '--format', 'json'])).stdout);
    expect(cost).toMatchObject({ total_cost_usd: 0, spawns: 0, envelopes: 0, unpriced: 0 });
  });

  it('a probe with no registration cannot be judged (exit 1)', async () => {
    const run = await cli(['verdict', probeFixture('minimal')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^omg-evidence: test\/fixtures\/probes\/minimal: the probe has no registration\/ folder \(/);
  });
});

describe('pre-registration order from git', () => {
  /** A git repository holding the git-order fixture, committed in steps with the given dates. */
  function repoWith(steps: { date: string; add: string[]; edit?: (dir: string) => void }[]): string {
    const dir = copyProbe(join(repo, probeFixture('git-order')), 'git-order');
    const g = (args: string[], date?: string) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], {
        cwd: dir,
        stdio: 'pipe',
        env: { ...process.env, ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}) },
      });
    g(['init', '-q']);
    for (const s of steps) {
      s.edit?.(dir);
      g(['add', ...s.add]);
      g(['commit', '-q', '-m', `step at ${s.date}`], s.date);
    }
    return dir;
  }
  const verdict = async (dir: string) => {
    const run = await cli(['verdict', dir, '--format', 'json']);
    return { code: run.code, v: JSON.parse(run.stdout), stderr: run.stderr };
  };
  // The fixture's spawns start at 2026-08-12T14:00+09:00 (arm A) and 15:00+09:00 (arm B, addendum 1).

  it('"yes" when each part is committed before the first spawn it governs', async () => {
    const dir = repoWith([
      { date: '2026-08-11T10:00:00+09:00', add: ['registration/prereg.jsonl', 'registration/conjuncts'] },
      { date: '2026-08-12T14:30:00+09:00', add: ['registration/addendum-1.jsonl'] },
      { date: '2026-08-12T16:00:00+09:00', add: ['results.jsonl', 'tool_use'] },
    ]);
    const { code, v } = await verdict(dir);
    expect(v.preregistered).toBe('yes');
    expect(code).toBe(0);
    expect(v.preregistration.compared.map((c: Record<string, unknown>) => [c.file, c.governs, c.order])).toEqual([
      ['registration/addendum-1.jsonl', '2026-08-12T15:00:00.000+09:00', 'before'],
      ['registration/conjuncts/1-a-ran.sql', '2026-08-12T14:00:00.000+09:00', 'before'],
      ['registration/prereg.jsonl', '2026-08-12T14:00:00.000+09:00', 'before'],
    ]);
  });

  it('"no" when an addendum is committed after a spawn it governs, exit 4', async () => {
    const dir = repoWith([
      { date: '2026-08-11T10:00:00+09:00', add: ['registration/prereg.jsonl', 'registration/conjuncts'] },
      { date: '2026-08-12T15:30:00+09:00', add: ['registration/addendum-1.jsonl'] },
      { date: '2026-08-12T16:00:00+09:00', add: ['results.jsonl', 'tool_use'] },
    ]);
    const { code, v, stderr } = await verdict(dir);
    expect(v.preregistered).toBe('no');
    expect(code).toBe(4);
    expect(stderr).toMatch(
      /not pre-registered: registration\/addendum-1\.jsonl was committed after the first spawn it governs \(2026-08-12T15:00:00\.000\+09:00\)/,
    );
  });

  it('"no" when the registration changed after the first spawn', async () => {
    const dir = repoWith([
      { date: '2026-08-11T10:00:00+09:00', add: ['registration'] },
      { date: '2026-08-12T16:00:00+09:00', add: ['results.jsonl', 'tool_use'] },
      {
        date: '2026-08-13T09:00:00+09:00',
        add: ['registration/prereg.jsonl'],
        edit: (dir) => {
          const file = join(dir, 'registration/prereg.jsonl');
          writeFileSync(file, readFileSync(file, 'utf8').replace('"n":1,', '"n":1,"what":"edited later",'));
        },
      },
    ]);
    const { code, v } = await verdict(dir);
    expect(v.preregistered).toBe('no');
    expect(code).toBe(4);
    expect(v.preregistration.compared.find((c: { file: string }) => c.file === 'registration/prereg.jsonl').order).toMatch(
      /^changed after \([0-9a-f]{7}, 2026-08-13T09:00:00\+09:00\)$/,
    );
  });

  it('"not established" when registration and evidence arrive in the same commit', async () => {
    const dir = repoWith([{ date: '2026-08-11T10:00:00+09:00', add: ['.'] }]);
    const { code, v } = await verdict(dir);
    expect(v.preregistered).toBe('not established');
    expect(v.preregistration.reason).toMatch(
      /^the registration arrived in the same commit as the evidence \([0-9a-f]{7}\), so git cannot show it came first$/,
    );
    expect(code).toBe(0);
  });

  it('"not established" with no git history', async () => {
    const dir = copyProbe(join(repo, probeFixture('git-order')), 'git-order');
    const { code, v } = await verdict(dir);
    expect(v.preregistered).toBe('not established');
    expect(v.preregistration.reason).toBe('the probe is not in a git repository');
    expect(code).toBe(0);
  });
});

describe('arms and cost', () => {
  it('arms: one row per arm in registration order, with every fact of the ADR result table', async () => {
    const rows = JSON.parse((await cli(['arms', '--format', 'json'])).stdout);
    expect(rows.map((r: { arm: string }) => r.arm)).toEqual([
      'T-REF',
      'K-CEIL',
      'K-POS',
      'K-RES',
      'K-NEG',
      'K-RES-NS',
      'K-RES-MAN',
      'K-SKILL-POS',
      'K-COLLIDE',
      'K-UPONLY',
      'K-REPO-N',
      'K-REPO-D',
      'K-REPO-DN',
      'K-FM',
      'K-FM-GIT',
    ]);
    const arm = (a: string) => rows.find((r: { arm: string }) => r.arm === a);
    const staged = { skill: 'oh-my-graph-staged-skills:omg-probe-standalone-html', definition: 'oh-my-graph-staged-skills' };
    expect(arm('K-SKILL-POS').skills).toEqual([{ ...staged, spawns: 2 }]);
    expect(arm('K-COLLIDE').skills).toEqual([{ ...staged, spawns: 3 }]);
    expect(arm('K-REPO-D').skills).toEqual([{ ...staged, spawns: 3 }]);
  });

  // Labels are ordered by the pair (seq, ordinal): seq * 1000 + ordinal had overflowed past 9.2e15.
  it('arms of a seq the format allows, 9300000000000000, lists its artifacts and markers', async () => {
    const run = await cli(['arms', probeFixture('arms-large-seq'), '--format', 'csv']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.split('\r\n').slice(1, 3)).toEqual([
      'arms-large-seq,A-ONE,A,,1,unregistered,"[{""code"":0,""spawns"":1}]","{""Skill"":1,""Write"":2}","[{""skill"":""ns:thing"",""definition"":""ns"",""spawns"":1}]",[],"[{""label"":""BREACH"",""present"":1,""absent"":0}]",[],0,[],[]',
      'arms-large-seq,A-TWO,A,,1,unregistered,"[{""code"":0,""spawns"":1}]",{},[],[],[],"[{""marker"":""M@HOME"",""spawns"":1}]",0,[],[]',
    ]);
  });

  // csv had the table's words ("BREACH ×1, absent ×1", {'Write': 1}): a reader got display text, not the counts.
  it("arms --format csv carries json's values, lists and objects as JSON text", async () => {
    const [csv, json] = await Promise.all([cli(['arms', '--format', 'csv']), cli(['arms', '--format', 'json'])]);
    expect(csv.code).toBe(0);
    const fm = csv.stdout.split('\r\n').find((l) => l.includes(',K-FM,'));
    expect(fm).toBe(
      '0017-staged-agent-restores-layer-1,K-FM,F,2,2,void,"[{""code"":0,""spawns"":2}]","{""Write"":1}",[],[],"[{""label"":""BREACH"",""present"":1,""absent"":1}]",[],0,[],"[""VOID (addendum 2): a marker a legitimate tool can forge is not a marker""]"',
    );
    expect(csv.stdout.split('\r\n')[0]).toBe(Object.keys(JSON.parse(json.stdout)[0]).join(','));
  });

  // Spawn 1 lists BREACH twice, absent then present; spawn 2 once, absent: counted by item, that was 1 present, 2 absent.
  it('arms counts checked files by spawn: a spawn listing a label twice counts once, present when either was', async () => {
    const run = await cli(['arms', probeFixture('arms-artifact-twice'), '--format', 'json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)[0]).toMatchObject({ n: 2, artifacts: [{ label: 'BREACH', present: 1, absent: 1 }] });
  });

  // A-TWO, of addendum-1.jsonl, replaces A-ONE and gives no "addendum": its note had been dropped (format of NULL).
  it("arms notes a replacement's addendum from its file when the arm record does not name it", async () => {
    const run = await cli(['arms', probeFixture('arms-replaces-derived'), '--format', 'json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)[1]).toMatchObject({ arm: 'A-TWO', notes: ['replaces A-ONE (addendum 1)'] });
  });

  // The view had the record's addendum alone: NULL for A-TWO, which arms said was addendum 1's.
  it('registered_arms gives the addendum from the file when the arm record does not name it, as arms does', async () => {
    const run = await cli([
      'sql',
      'select arm, addendum from registered_arms order by ordinal',
      probeFixture('arms-replaces-derived'),
      '-f',
      'csv',
    ]);
    expect(run).toEqual({ code: 0, stdout: 'arm,addendum\r\nA-ONE,\r\nA-TWO,1\r\n', stderr: '' });
  });

  // Spawn 1's .err file ends its lines in CRLF, spawn 2's in LF: one complaint, not two.
  it("arms lists a CRLF .err file's first line without its \\r", async () => {
    const run = await cli(['arms', probeFixture('arms-err-crlf'), '--format', 'json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)[0].errors).toEqual(['Error: bad thing']);
  });

  it('cost: the total, by arm and by model, and the share of the budget', async () => {
    const c = JSON.parse((await cli(['cost', '--format', 'json'])).stdout);
    expect(Object.keys(c)).toEqual(['probe', 'total_cost_usd', 'spawns', 'envelopes', 'unpriced', 'budget', 'by_arm', 'by_model']);
    expect(c.by_arm).toHaveLength(12);
    expect(c.by_model.map((m: { model: string; spawns: number }) => [m.model, m.spawns])).toEqual([
      ['claude-opus-5[1m]', 27],
      ['claude-haiku-4-5', 25],
    ]);
    const sum = (xs: { cost_usd: number }[]) => Math.round(xs.reduce((s, x) => s + x.cost_usd, 0) * 1e6) / 1e6;
    expect(sum(c.by_arm)).toBe(2.4616);
    expect(sum(c.by_model)).toBe(2.4616);
  });

  // Spawn 2's modelUsage entry for m gives no costUSD and no inputTokens: the model's cost and input
  // are unknown, not spawn 1's part of them (by arm goes blank the same way).
  // A count a double holds exactly (up to 2^53 - 1) is a JSON number; past it, its exact digits as a string, never rounded.
  it('cost --format json: a token count up to 2^53 - 1 is a number, one past it its decimal string', async () => {
    const run = await cli(['cost', probeFixture('cost-tokens-past-double'), '--format', 'json']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"input_tokens": 9007199254740991,\n');
    expect(run.stdout).toContain('"output_tokens": "9007199254740993",\n');
  });

  it('cost by model: a model one envelope gives no costUSD or token count for is blank there, not a part', async () => {
    const probe = probeFixture('cost-model-partial');
    const c = JSON.parse((await cli(['cost', probe, '--format', 'json'])).stdout);
    expect(c.by_model).toEqual([
      {
        model: 'm',
        spawns: 2,
        cost_usd: null,
        input_tokens: null,
        output_tokens: 25,
        cache_read_input_tokens: null,
        cache_creation_input_tokens: null,
      },
    ]);
    expect((await cli(['cost', probe, '--format', 'markdown'])).stdout).toContain('\n| m | 2 |  |  | 25 |  |  |\n');
  });
});

describe('registration SQL is a question, never a change: exit 1, naming the file', () => {
  const CHECK_HINT = '(write the check as one SELECT over the views omg-evidence schema lists, returning holds, result)';
  const refused = (where: string, what: string, hint = CHECK_HINT) => ({
    code: 1,
    stdout: '',
    stderr: `omg-evidence: ${where}: ${what} ${hint}\n`,
  });
  const checkOf = (fixture: string, file: string) => `${probeFixture(fixture)}/registration/conjuncts/${file}`;
  const TWO = 'a check is exactly one SELECT statement; this file holds 2 statements (CREATE, SELECT)';

  // A coin, a clock or the machine's settings would give the same evidence another verdict.
  it.each([
    ["select random() < 0.5 as holds, 'coin' as result", 'random()'],
    ["select now() < '2026-12-06' as holds, 'until then' as result", 'now()'],
    ["select current_date < '2026-12-06' as holds, 'until then' as result", 'current_date'],
    ["select current_setting('threads') = 2 as holds, 'this machine' as result", 'current_setting()'],
    ['select count(*) > 0 as holds, uuid()::VARCHAR as result from spawns where probe = $probe', 'uuid()'],
    ['select true as holds, current_localtimestamp()::VARCHAR as result', 'current_localtimestamp()'],
    ['select count(*) > 0 as holds, count(*)::VARCHAR as result from spawns using sample 10%', 'a sample (USING SAMPLE, TABLESAMPLE)'],
    // Macros of DuckDB's over current_timestamp: such a check had held until a chosen date.
    ["select ago(interval 1 day) < timestamptz '2027-01-01' as holds, 'ago' as result", 'ago()'],
    ["select pg_postmaster_start_time() < timestamptz '2027-01-01' as holds, 'start' as result", 'pg_postmaster_start_time()'],
  ])("a check whose answer is not the evidence's (%s) is refused", async (sql, call) => {
    const dir = copyProbe(join(repo, probeFixture('git-order')), 'git-order');
    const check = join(dir, 'registration', 'conjuncts', '1-a-ran.sql');
    writeFileSync(check, `${sql}\n`);
    expect(await cli(['verdict', dir])).toEqual(
      refused(
        check,
        `a check answers from the evidence alone; this one uses ${call}, whose value changes from run to run or machine to machine`,
        '(remove it: the same evidence must give the same verdict)',
      ),
    );
  });

  // A hand-kept list misses what a DuckDB release adds: every function DuckDB does not mark CONSISTENT, and
  // every macro whose body names one (ago is current_timestamp - i), must be on it. error() always throws,
  // whatever the run: a check that calls it fails, it does not change its answer.
  it('the unstable names cover every function DuckDB marks as changing, and its macros over them', async () => {
    const db = await Database.open();
    try {
      const names = new Set(
        (await db.query("select distinct function_name from duckdb_functions() where stability <> 'CONSISTENT'")).rows.map((r) =>
          String(r.function_name),
        ),
      );
      const macros = (
        await db.query('select distinct function_name, macro_definition from duckdb_functions() where macro_definition is not null')
      ).rows.map((r) => [String(r.function_name), String(r.macro_definition).toLowerCase()] as const);
      for (let grew = true; grew; ) {
        grew = false;
        for (const [name, body] of macros) {
          if (!names.has(name) && (body.match(/[a-z_][a-z0-9_]*/g) ?? []).some((w) => w !== 'error' && (names.has(w) || UNSTABLE.has(w)))) {
            names.add(name);
            grew = true;
          }
        }
      }
      names.delete('error');
      expect([...names].filter((n) => !UNSTABLE.has(n)).sort()).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('a check that shadows spawns before its SELECT cannot bring an over-budget probe within budget', async () => {
    expect(await cli(['verdict', probeFixture('attack-shadow')])).toEqual(refused(checkOf('attack-shadow', '1-a-ran.sql'), TWO));
  });

  it('nor through --db, a database file load built', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'omg-verdict-')), 'p.duckdb');
    temps.push(dirname(db));
    expect((await cli(['load', probeFixture('attack-shadow'), '--db', db])).code).toBe(0);
    expect(await cli(['verdict', probeFixture('attack-shadow'), '--db', db])).toEqual(
      refused(checkOf('attack-shadow', '1-a-ran.sql'), TWO),
    );
  });

  it('without the statement that shadows, the same probe is over budget (exit 4): the attack is what changed the verdict', async () => {
    const dir = copyProbe(join(repo, probeFixture('attack-shadow')), 'attack-shadow');
    const check = join(dir, 'registration/conjuncts/1-a-ran.sql');
    writeFileSync(check, readFileSync(check, 'utf8').replace(/^create temp table .*\n/m, ''));
    const run = await cli(['verdict', dir, '--format', 'json']);
    expect(run.code).toBe(4);
    expect(run.stderr).toBe('omg-evidence: attack-shadow: the verdict does not hold: over budget: $1 of $0.5, 2 of 3 spawns\n');
  });

  it('of several failing checks, the first in registration order is named, though a later one fails sooner', async () => {
    // The checks run a few at a time: conjunct 5's fails at once, conjunct 2's only after a long count.
    const dir = copyProbe(bundled);
    const conjuncts = join(dir, 'registration/conjuncts');
    writeFileSync(
      join(conjuncts, '2-k-neg-fails.sql'),
      "select true as holds, 'x' as result from range(2) where (select count(*) from range(30000000) as t(i) where i % 7 = 3) > 0\n",
    );
    writeFileSync(join(conjuncts, '5-k-skill-pos-fires.sql'), "select true as holds, 'a' as result; select true as holds, 'b' as result\n");
    const run = await cli(['verdict', dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^omg-evidence: \S+\/registration\/conjuncts\/2-k-neg-fails\.sql: a check returns one row \(holds BOOLEAN, result VARCHAR\); this one returned 2 row\(s\)/,
    );
  });

  it("a check too deeply nested to parse says what to do, not DuckDB's advice to raise a setting it cannot change", async () => {
    const dir = copyProbe(bundled);
    const check = join(dir, 'registration/conjuncts/2-k-neg-fails.sql');
    writeFileSync(check, `select ${'1+'.repeat(1500)}1 > 0 as holds, 'x' as result\n`);
    const run = await cli(['verdict', dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `omg-evidence: ${check}: does not parse: Max expression depth limit of 1000 exceeded. (nest fewer expressions, or call a recursive macro fewer levels deep: the limit of 1,000 cannot be raised here)\n`,
    );
  });

  it('a failing trigger is named at once: a later one already running is stopped, not waited for', async () => {
    // The triggers run a few at a time: k-res-fails fails at once; k-repo-d's count would run for hours.
    const dir = copyProbe(bundled);
    const triggers = join(dir, 'registration/triggers');
    writeFileSync(join(triggers, 'k-res-fails.sql'), 'select 1\n');
    writeFileSync(join(triggers, 'k-repo-d-fires-repo.sql'), "select count(*) > 0 as fired, 'x' as observed from range(1000000000000)\n");
    const run = await cli(['verdict', dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^omg-evidence: \S+\/registration\/triggers\/k-res-fails\.sql: a trigger returns one row \(fired BOOLEAN, observed VARCHAR\)/,
    );
  }, 30_000);

  it('a check named outside registration/ is refused at its record; a file whose name starts with ".." inside it is not outside', async () => {
    const dir = copyProbe(bundled);
    const prereg = join(dir, 'registration/prereg.jsonl');
    const original = readFileSync(prereg, 'utf8');
    writeFileSync(prereg, original.replace('"conjuncts/2-k-neg-fails.sql"', '"../results.jsonl"'));
    const out = await cli(['verdict', dir]);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(
      /^omg-evidence: \S+\/registration\/prereg\.jsonl:18: check "\.\.\/results\.jsonl" is outside registration\/ \(name a \.sql file inside the registration folder\)\n$/,
    );
    cpSync(join(dir, 'registration/conjuncts/2-k-neg-fails.sql'), join(dir, 'registration/..2.sql'));
    writeFileSync(prereg, original.replace('"conjuncts/2-k-neg-fails.sql"', '"..2.sql"'));
    const run = await cli(['verdict', dir, '--format', 'json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).holds).toBe(true);
  });

  it('two SELECTs', async () => {
    expect(await cli(['verdict', probeFixture('attack-two-statements')])).toEqual(
      refused(
        checkOf('attack-two-statements', '1-a-ran.sql'),
        'a check is exactly one SELECT statement; this file holds 2 statements (SELECT, SELECT)',
      ),
    );
  });

  it('a PIVOT without IN (…), which DuckDB runs as two statements, is refused saying it needs its values named', async () => {
    const dir = copyProbe(probeFixture('attack-two-statements'));
    const check = join(dir, 'registration', 'conjuncts', '1-a-ran.sql');
    writeFileSync(check, 'select true as holds, (select count(*)::VARCHAR from (pivot spawns on arm using count(*))) as result\n');
    expect(await cli(['verdict', dir])).toEqual(
      refused(
        check,
        'a check is exactly one SELECT statement; this file holds 2 statements (CREATE, non-SELECT): a PIVOT needs its values named, PIVOT … ON col IN (…)',
      ),
    );
  });

  it('one statement that is not a SELECT', async () => {
    expect(await cli(['verdict', probeFixture('attack-not-select')])).toEqual(
      refused(checkOf('attack-not-select', '1-a-ran.sql'), 'a check is exactly one SELECT statement; this file holds one UPDATE statement'),
    );
  });

  it('a check that reads a file', async () => {
    expect(await cli(['verdict', probeFixture('attack-read-file')])).toEqual(
      refused(
        checkOf('attack-read-file', '1-passwd.sql'),
        'a check reads only the documented views; this one reads read_text(), a table function that may read files or the catalog',
      ),
    );
  });

  it("a check over transcript views none of the command's own queries reads is evaluated as with every table built", async () => {
    const dir = probeFixture('check-reads-transcripts');
    const run = await cli(['verdict', dir, '--format', 'json']);
    expect(run.code).toBe(0);
    const conjunct = (JSON.parse(run.stdout) as { conjuncts: unknown[] }).conjuncts[0];
    expect(conjunct).toEqual({
      n: 1,
      required: 'the transcripts hold lines, responses, calls and priced models',
      result: '2 line(s), 1 response(s), 1 call(s) (0 in a sidechain), 0 result(s)',
      holds: true,
    });
    // Every table built: the same answer.
    const ev = await Evidence.open([dir], { transcripts: true });
    try {
      expect((await ev.verdicts())[0]!.conjuncts[0]).toEqual(conjunct);
    } finally {
      await ev.close();
    }
  });

  it("a check over the transcript views sees its spawns' sessions alone: beside another probe, through --db and in a region, the same answer (it had seen every probe's)", async () => {
    type Verdict = { probe: string; conjuncts: unknown[] };
    const theirs = (out: string, probe: string) => (JSON.parse(out) as Verdict[]).find((v) => v.probe === probe)!.conjuncts;
    const seen = '2 line(s), 1 response(s), 1 call(s) (0 in a sidechain), 0 result(s)';
    // Alone, check-reads-transcript-files does not see transcripts/'s other session: no spawn of it.
    for (const [name, result] of [
      ['check-reads-transcripts', seen],
      ['check-reads-transcript-files', '1 file(s) of 2 line(s), 1 session(s)'],
    ] as const) {
      const dir = probeFixture(name);
      const alone = await cli(['verdict', dir, '--format', 'json']);
      expect(alone.code).toBe(0);
      const { conjuncts } = JSON.parse(alone.stdout) as Verdict;
      expect(conjuncts).toEqual([expect.objectContaining({ result, holds: true })]);
      const beside = await cli(['verdict', dir, bundled, '--format', 'json']);
      expect(beside.code).toBe(0);
      expect(theirs(beside.stdout, name)).toEqual(conjuncts);
    }
    const dir = probeFixture('check-reads-transcripts');
    const db = join(temp(), 'both.duckdb');
    expect((await cli(['load', dir, bundled, '--db', db])).code).toBe(0);
    const viaDb = await cli(['verdict', dir, bundled, '--db', db, '--format', 'json']);
    expect([viaDb.code, (theirs(viaDb.stdout, 'check-reads-transcripts')[0] as { result: string }).result]).toEqual([0, seen]);
    const doc = join(temp(), 'doc.md');
    writeFileSync(doc, `<!-- omg-evidence:begin verdict probe=${join(repo, dir)} probe=${bundled} -->\n<!-- omg-evidence:end -->\n`);
    expect((await cli(['render', doc])).code).toBe(0);
    expect(readFileSync(doc, 'utf8')).toContain(`| 1 | the transcripts hold lines, responses, calls and priced models | ${seen} | yes |`);
  });

  it('what a load that evaluates the registration builds for it: the tables its files read, as DuckDB parses them', async () => {
    const db = await Database.open();
    try {
      expect(await registeredTablesRead(db, [probeFixture('check-reads-transcripts')])).toEqual([
        'transcript_lines',
        'transcript_tool_uses',
        'transcript_tool_results',
        'transcript_messages',
        'model_prices',
      ]);
      // transcript_files is narrowed by the files holding its spawns' lines: those are built too.
      expect(await registeredTablesRead(db, [probeFixture('check-reads-transcript-files')])).toEqual([
        'transcript_files',
        'transcript_lines',
        'transcript_sessions',
        'transcript_messages',
      ]);
      // Named in a comment, or in notes beside the checks that are no SELECT: nothing read.
      const dir = copyProbe(probeFixture('check-reads-transcripts'), 'named-not-read');
      const conjuncts = join(dir, 'registration', 'conjuncts');
      writeFileSync(
        join(conjuncts, '1-transcript-views.sql'),
        '-- transcript_lines\nselect true as holds, count(*)::VARCHAR as result from spawns\n',
      );
      writeFileSync(join(conjuncts, 'README.txt'), 'These checks never read transcript_messages.\n');
      expect(await registeredTablesRead(db, [dir])).toEqual([]);
      // Too long to parse (a syntax tree is many times its text): read for the names it holds.
      const long = `-- ${'x'.repeat(70 * 1024)}\nselect true as holds, count(*)::VARCHAR as result from transcript_lines\n`;
      writeFileSync(join(conjuncts, '1-transcript-views.sql'), long);
      expect(await registeredTablesRead(db, [dir])).toEqual(['transcript_lines']);
    } finally {
      db.close();
    }
  });

  it('a check that never ends is stopped once the registered files have run checkTimeout seconds in all (60 unless told), naming its file', async () => {
    const ev = await Evidence.open([probeFixture('attack-endless-check')], { checkTimeout: 1 });
    try {
      const err = await ev.verdicts().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).message).toBe(
        `${checkOf('attack-endless-check', '1-endless.sql')}: the registered triggers and checks ran for more than 1 s in all, and this check was stopped`,
      );
      expect((err as InputError).hint).toBe(HINT_ENDLESS);
    } finally {
      await ev.close();
    }
    await expect(Evidence.open([], { checkTimeout: -1 })).rejects.toThrow(
      'openEvidence(paths, options): checkTimeout must be a number of seconds, 0 or more (0: never)',
    );
  });

  // Each check takes 0.1-0.2 s: 1 s leaves room for a loaded machine, and 30 of them, even run four at
  // a time on two cores, take more.
  it("each probe's registered files have the --check-timeout seconds of their own: thirty probes each within 1 s hold together (the first had been stopped once all had run 1 s)", async () => {
    const probes = Array.from({ length: 30 }, (_, i) => copyProbe(probeFixture('check-slow'), `slow-${i + 1}`));
    const run = await cli(['verdict', ...probes, '--check-timeout', '1', '--format', 'json']);
    expect([
      run.code,
      run.stderr
        .split('\n')
        .filter((l) => !l.includes('forgeable'))
        .join('\n'),
    ]).toEqual([0, '']);
    const verdicts = JSON.parse(run.stdout) as { probe: string; holds: boolean; conjuncts: unknown[] }[];
    expect(verdicts.map((v) => [v.probe, v.holds, v.conjuncts])).toEqual(
      probes.map((_, i) => [`slow-${i + 1}`, true, [{ n: 1, required: 'a count that takes a moment', result: 'counted', holds: true }]]),
    );
  });

  it('--check-timeout SECONDS gives the CLI the same bound: verdict, arms, report and render', async () => {
    const dir = probeFixture('attack-endless-check');
    const stopped = `omg-evidence: ${checkOf('attack-endless-check', '1-endless.sql')}: the registered triggers and checks ran for more than 1 s in all, and this check was stopped (${HINT_ENDLESS})\n`;
    for (const args of [['verdict'], ['arms'], ['report', '--html', join(temp(), 'r.html')]]) {
      expect(await cli([...args, dir, '--check-timeout', '1'])).toEqual({ code: 1, stdout: '', stderr: stopped });
    }
    const doc = join(temp(), 'doc.md');
    writeFileSync(doc, `<!-- omg-evidence:begin verdict probe=${join(repo, dir)} -->\n<!-- omg-evidence:end -->\n`);
    // In a region, the error names the region's line too.
    expect(await cli(['render', doc, '--check-timeout', '1'])).toEqual({
      code: 1,
      stdout: '',
      stderr: stopped.replace('omg-evidence: ', `omg-evidence: ${doc}:1: `),
    });
    expect(await cli(['verdict', '--check-timeout', 'x'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "omg-evidence: option '--check-timeout <seconds>' argument 'x' is invalid. give a number of seconds, 0 for none.\n(run with --help for usage)\n",
    });
  });

  it('many checks, each short of checkTimeout, are stopped once they have run that long in all', async () => {
    const dir = copyProbe(probeFixture('attack-endless-check'), 'attack-many-checks');
    const prereg = join(dir, 'registration', 'prereg.jsonl');
    const kept = readFileSync(prereg, 'utf8')
      .split('\n')
      .filter((l) => l && !l.includes('"conjunct"'));
    rmSync(join(dir, 'registration', 'conjuncts'), { recursive: true });
    mkdirSync(join(dir, 'registration', 'conjuncts'));
    // Twelve checks of a second or so each (a sum over 4 × 10^8 rows): together far past two seconds.
    for (let n = 1; n <= 12; n++) {
      writeFileSync(
        join(dir, 'registration', 'conjuncts', `${n}.sql`),
        "select sum(range % 7) > 0 as holds, 'x' as result from range(400000000)\n",
      );
      kept.push(JSON.stringify({ kind: 'conjunct', n, required: 'a long sum', check: `conjuncts/${n}.sql` }));
    }
    writeFileSync(prereg, `${kept.join('\n')}\n`);
    const ev = await Evidence.open([dir], { checkTimeout: 2 });
    try {
      await expect(ev.verdicts()).rejects.toThrow(
        /: the registered triggers and checks ran for more than 2 s in all, and this check was stopped$/,
      );
    } finally {
      await ev.close();
    }
  });

  it('a checkTimeout of Infinity is never, as sql() takes a timeout of Infinity; NaN is refused', async () => {
    const ev = await Evidence.open([], { checkTimeout: Number.POSITIVE_INFINITY });
    try {
      expect((await ev.verdicts()).map((v) => v.holds)).toEqual([true]);
    } finally {
      await ev.close();
    }
    await expect(Evidence.open([], { checkTimeout: Number.NaN })).rejects.toThrow('checkTimeout must be a number of seconds');
  });

  it('a check file over 1 MiB is refused before it is read or parsed', async () => {
    const dir = copyProbe(probeFixture('attack-endless-check'), 'attack-huge-check');
    const check = join(dir, 'registration', 'conjuncts', '1-endless.sql');
    writeFileSync(check, `select true as holds, 'x' as result\n-- ${'x'.repeat(2 ** 20)}\n`);
    expect(await cli(['verdict', dir])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${check}: a check file of 1.0 MiB, over the 1 MiB a registered file may hold (a check is one SELECT: shorten it)\n`,
    });
  });

  it('a check that reads a table that is not a documented view', async () => {
    expect(await cli(['verdict', probeFixture('attack-undocumented')])).toEqual(
      refused(
        checkOf('attack-undocumented', '1-sources.sql'),
        'a check reads only the documented views; this one reads "source_files", which is not a documented view',
      ),
    );
  });

  it('a check that reads where the evidence sits (transcript_files.abs): it sees no such column, and is told why', async () => {
    expect(await cli(['verdict', probeFixture('attack-where-it-sits')])).toEqual(
      refused(
        checkOf('attack-where-it-sits', '1-where.sql'),
        'Binder Error: Referenced column "abs" not found in FROM clause!; Candidate bindings: "file"',
        "(fix the check's SELECT: it sees the views omg-evidence schema lists, and transcript_files without abs and dir, which say where the evidence sits)",
      ),
    );
  });

  it("a check that fails as it runs is told as DuckDB says it, without the binder's hint", async () => {
    expect(await cli(['verdict', probeFixture('check-runtime-error')])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${checkOf('check-runtime-error', '1-boom.sql')}: Invalid Input Error: boom\n`,
    });
  });

  it('a check that reads a table through a CTE of its name, in the first half of a recursive UNION or with a non-ASCII letter', async () => {
    for (const [fixture, table] of [
      ['attack-recursive-cte', 'source_files'],
      ['attack-kelvin-cte', 'duckdb_tables'],
    ] as const) {
      expect(await cli(['verdict', probeFixture(fixture)])).toEqual(
        refused(
          checkOf(fixture, '1-sources.sql'),
          `a check reads only the documented views; this one reads "${table}", which is not a documented view`,
        ),
      );
    }
  });

  describe('every other statement, file reader and table is refused the same way', () => {
    const ONE = 'a check is exactly one SELECT statement; this file holds';
    const READS = 'a check reads only the documented views; this one reads';
    const cases: [sql: string, what: string][] = [
      ['', `${ONE} no SQL statement`],
      ['-- only a comment\n', `${ONE} no SQL statement`],
      ['create or replace temp table spawns as select * from main.spawns where false', `${ONE} one CREATE statement`],
      ['create or replace view conjuncts as select 1', `${ONE} one CREATE statement`],
      ['create temp macro omg_envelope(e) as null', `${ONE} one CREATE statement`],
      ['delete from spawns', `${ONE} one DELETE statement`],
      ['SET threads = 1', `${ONE} one SET statement`],
      ['PRAGMA version', `${ONE} one PRAGMA statement`],
      ["ATTACH 'x.duckdb' AS x", `${ONE} one ATTACH statement`],
      ["COPY spawns TO 'leak.csv'", `${ONE} one non-SELECT statement`],
      ['CALL checkpoint()', `${ONE} one CALL statement`],
      ['EXPLAIN select true as holds', `${ONE} one EXPLAIN statement`],
      ["select true as holds, 'x' as result; commit", `${ONE} 2 statements (SELECT, TRANSACTION)`],
      [
        "select count(*) > 0 as holds, 'x' as result from read_csv('/etc/passwd')",
        `${READS} read_csv(), a table function that may read files or the catalog`,
      ],
      ["select count(*) > 0 as holds, 'x' as result from 'results.jsonl'", `${READS} "results.jsonl", which is not a documented view`],
      [
        "select count(*) > 0 as holds, 'x' as result from query('select 1')",
        `${READS} query(), a table function that may read files or the catalog`,
      ],
      [
        "select count(*) > 0 as holds, 'x' as result from duckdb_tables()",
        `${READS} duckdb_tables(), a table function that may read files or the catalog`,
      ],
      [
        "select count(*) > 0 as holds, 'x' as result from information_schema.tables",
        `${READS} "information_schema.tables", which is not a documented view`,
      ],
      [
        "select count(*) > 0 as holds, 'x' as result from main.registration_records",
        `${READS} "main.registration_records", which is not a documented view`,
      ],
      [
        'select true as holds, (select any_value(abs) from source_files) as result',
        `${READS} "source_files", which is not a documented view`,
      ],
      // A CTE's body does not see the CTE itself: this source_files is the internal table.
      [
        "with source_files as (select * from source_files) select true as holds, 'x' as result from source_files",
        `${READS} "source_files", which is not a documented view`,
      ],
      [
        "select true as holds, 'x' as result from (describe spawns)",
        `${READS} the output of DESCRIBE, SHOW or SUMMARIZE, which is the catalog`,
      ],
    ];
    for (const [sql, what] of cases) {
      it(JSON.stringify(sql), async () => {
        const dir = copyProbe(join(repo, probeFixture('attack-not-select')), 'attack-not-select');
        writeFileSync(join(dir, 'registration/conjuncts/1-a-ran.sql'), sql);
        expect(await cli(['verdict', dir])).toEqual(refused(join(dir, 'registration/conjuncts/1-a-ran.sql'), what));
      });
    }
  });

  it('a trigger is held to the same rule', async () => {
    const dir = copyProbe(join(repo, probeFixture('attack-two-statements')), 'attack-two-statements');
    writeFileSync(join(dir, 'registration/conjuncts/1-a-ran.sql'), "select true as holds, 'ran' as result");
    writeFileSync(
      join(dir, 'registration/addendum-1.jsonl'),
      '{"kind":"addendum","n":1,"text":"a conditional arm"}\n{"kind":"arm","arm":"C","phase":"A","n":1,"addendum":1,"trigger":"triggers/c.sql"}\n',
    );
    mkdirSync(join(dir, 'registration/triggers'));
    writeFileSync(
      join(dir, 'registration/triggers/c.sql'),
      "create temp table trigger_results as select 1; select false as fired, 'no' as observed",
    );
    expect(await cli(['verdict', dir])).toEqual(
      refused(
        join(dir, 'registration/triggers/c.sql'),
        'a trigger is exactly one SELECT statement; this file holds 2 statements (CREATE, SELECT)',
        '(write the trigger as one SELECT over the views omg-evidence schema lists, returning fired, observed)',
      ),
    );
  });

  it('a NULL answer is an error: a trigger whose fired is NULL would excuse its arms as "did not fire"', async () => {
    const dir = copyProbe(join(repo, probeFixture('attack-two-statements')), 'attack-two-statements');
    writeFileSync(join(dir, 'registration/conjuncts/1-a-ran.sql'), "select true as holds, 'ran' as result");
    writeFileSync(
      join(dir, 'registration/addendum-1.jsonl'),
      '{"kind":"addendum","n":1,"text":"a conditional arm"}\n{"kind":"arm","arm":"C","phase":"A","n":1,"addendum":1,"trigger":"triggers/c.sql"}\n',
    );
    mkdirSync(join(dir, 'registration/triggers'));
    writeFileSync(
      join(dir, 'registration/triggers/c.sql'),
      "select bool_and(exit_code = 0) as fired, 'none' as observed from spawns where arm = 'nobody'",
    );
    expect(await cli(['verdict', dir])).toEqual(
      refused(
        join(dir, 'registration/triggers/c.sql'),
        "a trigger's fired is true or false; this one returned NULL",
        "(fix the trigger's SELECT (an aggregate over no rows gives NULL: coalesce it))",
      ),
    );
    const check = join(dir, 'registration/conjuncts/1-a-ran.sql');
    writeFileSync(check, "select null::boolean as holds, 'x' as result");
    rmSync(join(dir, 'registration/addendum-1.jsonl'));
    expect(await cli(['verdict', dir])).toEqual(
      refused(
        check,
        "a check's holds is true or false; this one returned NULL",
        "(fix the check's SELECT (an aggregate over no rows gives NULL: coalesce it))",
      ),
    );
  });

  it('a check named "" or naming a folder is an error naming file:line', async () => {
    const dir = copyProbe(join(repo, probeFixture('attack-not-select')), 'attack-not-select');
    const prereg = join(dir, 'registration/prereg.jsonl');
    for (const [name, shown] of [
      ['conjuncts', 'conjuncts'],
      ['', ''],
    ]) {
      writeFileSync(
        prereg,
        readFileSync(join(repo, probeFixture('attack-not-select'), 'registration/prereg.jsonl'), 'utf8').replace(
          'conjuncts/1-a-ran.sql',
          name,
        ),
      );
      expect(await cli(['verdict', dir])).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${prereg}:4: check "${shown}" is not a file (name a .sql file inside the registration folder)\n`,
      });
    }
  });

  it('a check may still name its own CTEs after the views, qualify a view with main, and call range() or unnest()', async () => {
    const dir = copyProbe(join(repo, probeFixture('attack-not-select')), 'attack-not-select');
    writeFileSync(
      join(dir, 'registration/conjuncts/1-a-ran.sql'),
      `with spawns as (select * from main.spawns where probe = $probe and arm = 'A'),
       counted as (select count(*) as n from spawns, range(1), unnest([1]))
       select n = 1 as holds, format('{} spawn(s)', n) as result from counted`,
    );
    const run = await cli(['verdict', dir, '--format', 'json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).conjuncts).toEqual([{ n: 1, required: 'A ran', result: '1 spawn(s)', holds: true }]);
  });
});

describe('the registration is complete or it is an error', () => {
  const HINT =
    'the registration is the files named *.jsonl directly in registration/ (beside them: *.sql checks and triggers, README.md); rename or move it there, or out of registration/';
  const REG_HINT = '(number the conjuncts 1..N, with no gap and no repeat)';
  const prereg = (fixture: string) => `${probeFixture(fixture)}/registration/prereg.jsonl`;

  it('records in registration/ that would never be read (.json, .JSONL, a .jsonl in a folder) are an error', async () => {
    for (const name of ['more.json', 'MORE.JSONL', 'more/x.jsonl']) {
      const dir = copyProbe(bundled);
      const prereg = join(dir, 'registration/prereg.jsonl');
      const lines = readFileSync(prereg, 'utf8').split('\n').filter(Boolean);
      const nine = lines.findIndex((l) => l.includes('"kind":"conjunct","n":9'));
      mkdirSync(dirname(join(dir, 'registration', name)), { recursive: true });
      writeFileSync(join(dir, 'registration', name), `${lines[nine]}\n`);
      writeFileSync(prereg, `${lines.filter((_, i) => i !== nine).join('\n')}\n`);
      expect(await cli(['verdict', dir])).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${join(dir, 'registration', name)}: registration records that are never read (${HINT})\n`,
      });
    }
  });

  it('a file directly in registration/ that is no *.jsonl, *.sql or README.md is an error (x.ndjson, x.jsonl.bak, "x.jsonl ", x.json5)', async () => {
    for (const name of ['x.ndjson', 'x.jsonl.bak', 'x.jsonl ', 'x.json5']) {
      const dir = copyProbe(bundled);
      writeFileSync(
        join(dir, 'registration', name),
        '{"kind":"conjunct","n":10,"required":"never","check":"conjuncts/9-t-ref-breaches.sql"}\n',
      );
      expect(await cli(['verdict', dir])).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${join(dir, 'registration', name)}: a file of registration/ that is never read (${HINT})\n`,
      });
    }
    const dir = copyProbe(bundled);
    for (const name of ['README.md', '.DS_Store', 'x.sql']) writeFileSync(join(dir, 'registration', name), 'select 1\n');
    expect((await cli(['verdict', dir])).code).toBe(0);
  });

  it('a registration record of an unknown kind ("conjunt") is an error naming file:line, for every command', async () => {
    const stderr = `omg-evidence: ${prereg('reg-kind-typo')}:5: registration record: unknown kind "conjunt" (the kinds are probe, budget, arm, conjunct, addendum; see docs/registration.md)\n`;
    expect(await cli(['verdict', probeFixture('reg-kind-typo')])).toEqual({ code: 1, stdout: '', stderr });
    expect(await cli(['census', probeFixture('reg-kind-typo')])).toEqual({ code: 1, stdout: '', stderr });
  });

  it('an unknown kind is named in the same run as the type problems of its file, each at its line', async () => {
    const f = prereg('reg-kind-and-type');
    expect(await cli(['verdict', probeFixture('reg-kind-and-type')])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `omg-evidence: ${f}:1: registration "budget" record: "usd" must be a number, got a string "2" (see docs/registration.md)\n` +
        `omg-evidence: ${f}:5: registration record: unknown kind "conjunt"\n`,
    });
  });

  it('a gap in the conjunct numbers', async () => {
    expect(await cli(['verdict', probeFixture('reg-conjunct-gap')])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${prereg('reg-conjunct-gap')}:5: conjunct 3 leaves a gap: no conjunct 2 is registered ${REG_HINT}\n`,
    });
  });

  it('a repeated conjunct number', async () => {
    expect(await cli(['verdict', probeFixture('reg-conjunct-repeat')])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${prereg('reg-conjunct-repeat')}:6: conjunct 2 is registered twice (first at line 5) ${REG_HINT}\n`,
    });
  });

  it('conjuncts numbered from 0', async () => {
    const dir = copyProbe(join(repo, probeFixture('reg-conjunct-gap')), 'reg-conjunct-gap');
    const file = join(dir, 'registration/prereg.jsonl');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"n":3', '"n":0'));
    expect((await cli(['verdict', dir])).stderr).toBe(`omg-evidence: ${file}:5: conjunct 0: conjuncts are numbered from 1 ${REG_HINT}\n`);
  });

  it('the verdict says how many of its N conjuncts hold, in table and markdown', async () => {
    const dir = copyProbe(bundled);
    editRows(dir, (rows) =>
      rows.map((r) => (r.session_id.startsWith('eb2d7cd7') ? { ...r, artifacts: [{ ...r.artifacts[0], exists: true }] } : r)),
    );
    expect((await cli(['verdict', dir, '--format', 'markdown'])).stdout).toContain('\n8 of 9 conjuncts hold\n');
  });
});

describe('markdown headings and lines show evidence text as a table cell does', () => {
  it("a probe, a check's result and a model holding markup are escaped in the heading and the lines", async () => {
    const { formatReport } = await import('../src/output/report.js');
    const { costParts } = await import('../src/output/cost.js');
    const md = formatReport(
      [
        { kind: 'heading', text: 'Verdict of exp: HOLDS <details>: DOES NOT HOLD' },
        { kind: 'line', label: 'Why not', text: 'conjunct 1 (R) does not hold: *ok* <!-- hidden' },
        { kind: 'line', label: 'Uniformity', text: 'main model m<script>x</script> in 2 of 2 spawns; a | b' },
      ],
      'markdown',
    );
    expect(md.split('\n').filter((l) => l)).toEqual([
      '### Verdict of exp: HOLDS \\<details>: DOES NOT HOLD',
      '**Why not:** conjunct 1 (R) does not hold: \\*ok\\* \\<!-- hidden',
      '**Uniformity:** main model m\\<script>x\\</script> in 2 of 2 spawns; a \\| b',
    ]);
    const cost = {
      probe: 'p <b>x</b> ##',
      budget: { usd: null },
      spawns: 0,
      envelopes: 0,
      unpriced: 0,
      total_cost_usd: 0,
      by_arm: [],
      by_model: [],
    };
    expect(formatReport(costParts(cost as never), 'markdown').split('\n')[0]).toBe('### Cost of p \\<b>x\\</b> \\#\\#');
  });
});
