#!/usr/bin/env node
/**
 * bench/gen.mjs — deterministic synthetic corpus of Claude Code 2.1.x session transcripts, for the
 * census benchmark (bench/run.mjs). Usage:
 *
 *   node bench/gen.mjs --out DIR [--scale S] [--seed TEXT] [--no-timestamps] [--skill-heavy]
 *
 * Writes DIR/-private-tmp-proj-NN/<sid>.jsonl (40 project folders), DIR/.../<sid>/subagents/
 * agent-<7hex>.jsonl for about 20% of sessions, DIR/expected.tsv (the ground truth:
 * `session_id<TAB>tool<TAB>count`, sorted, no header) and DIR/params.json ({params, stats}).
 * Stats go to stderr.
 *
 * Shape (shared/reference/claude-code-formats.md §2–§8): summary, file-history-snapshot and
 * system lines; user prompts as strings; assistant lines with ONE content block each (thinking /
 * text / tool_use) repeating message.id and usage; tool_result user lines with toolUseResult;
 * `progress` agent_progress lines (versions >= 2.1.38) mirroring the sub-agent's tool_use and
 * tool_result lines. Traps for a census: those progress lines (some mirror a sub-agent whose file
 * is absent, so counting them over-counts even with de-duplication), re-written tool_use lines
 * (same id, must count once), "warmup" sub-agent files with no Task call in the parent, and text
 * or tool_result strings that contain the literal text {"type":"tool_use",...}.
 *
 * Counting rule of expected.tsv: per sessionId, the tool_use blocks of top-level `assistant`
 * lines (main and sub-agent files), de-duplicated by id.
 *
 * DIR/expected-skills.ndjson is the ground truth of `skills --transcripts DIR`: one JSON object per
 * Skill or SlashCommand call {session_id, tool_use_id, skill, is_error, result}, de-duplicated by id
 * within a session, in the order `skills` gives (session, then the first copy's timestamp, file,
 * record). is_error and result come from the first tool_result answering the call (null when none
 * does); is_error is the block's is_error, a toolUseResult string starting "Error:", or
 * <tool_use_error> in the text.
 *
 * Variants (the default corpus is unchanged by either flag's absence):
 *   --no-timestamps  the same corpus, but no line has a top-level `timestamp` (nested ones, such as
 *                    a snapshot's or a progress line's mirrored message's, stay)
 *   --skill-heavy    Skill is about 16% of tool calls (sub-agents' too), about 9 sessions in 10 open
 *                    with one, a few SlashCommand calls; Skill answers are "Launching skill: <name>",
 *                    some `<tool_use_error>Unknown skill: <name></tool_use_error>` (is_error true),
 *                    and a few calls have no answer at all
 *
 * Deterministic: seeded PRNG (sfc32), no Math.random, no clock. Session i depends only on
 * (seed, i, variant), so the scale-2 corpus holds the scale-1 sessions plus as many new ones.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SESSIONS_PER_SCALE = 1050;
const PROJECTS = 40;
const BASE_TIME = Date.UTC(2026, 0, 5, 8, 0, 0); // a fixed date, not the clock

// ---------------------------------------------------------------- arguments
const USAGE = 'usage: node bench/gen.mjs --out DIR [--scale S] [--seed TEXT] [--no-timestamps] [--skill-heavy]';
function parseArgs(argv) {
  const a = { out: null, scale: 1, seed: 'omg-evidence-bench-1', noTimestamps: false, skillHeavy: false };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    if (k === '--out') a.out = argv[++i];
    else if (k === '--scale') a.scale = Number(argv[++i]);
    else if (k === '--seed') a.seed = argv[++i];
    else if (k === '--no-timestamps') a.noTimestamps = true;
    else if (k === '--skill-heavy') a.skillHeavy = true;
    else throw new Error(`unknown argument ${k}; ${USAGE}`);
  }
  if (!a.out) throw new Error(USAGE);
  if (!(a.scale > 0)) throw new Error('--scale must be a positive number');
  return a;
}

// ---------------------------------------------------------------- seeded PRNG
function cyrb128(str) {
  let h1 = 1779033703,
    h2 = 3144134277,
    h3 = 1013904242,
    h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}

const HEX = '0123456789abcdef';
const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

class Rng {
  constructor(key) {
    [this.a, this.b, this.c, this.d] = cyrb128(key);
    for (let i = 0; i < 12; i++) this.next();
  }
  next() {
    // sfc32
    let { a, b, c, d } = this;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    Object.assign(this, { a, b, c, d });
    return (t >>> 0) / 4294967296;
  }
  int(lo, hi) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p) {
    return this.next() < p;
  }
  pick(arr) {
    return arr[Math.floor(this.next() * arr.length)];
  }
  weighted(pairs) {
    // [[value, weight], ...]
    let total = 0;
    for (const [, w] of pairs) total += w;
    let x = this.next() * total;
    for (const [v, w] of pairs) {
      x -= w;
      if (x < 0) return v;
    }
    return pairs[pairs.length - 1][0];
  }
  normal() {
    // Box–Muller
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
  lognormal(median, sigma, lo, hi) {
    return Math.max(lo, Math.min(hi, Math.round(median * Math.exp(sigma * this.normal()))));
  }
  chars(alphabet, n) {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(this.next() * alphabet.length)];
    return s;
  }
  hex(n) {
    return this.chars(HEX, n);
  }
  uuid() {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[this.int(0, 3)]}${h.slice(17, 20)}-${h.slice(20)}`;
  }
}

// ---------------------------------------------------------------- text pool
// One ~3 MB pool of prose, code, non-ASCII (BMP only, so a slice never splits a surrogate pair)
// and ANSI escapes; bodies are slices of it at seeded offsets, which keeps generation fast.
const WORDS = (
  'the a to of and in that is for it with as on be this are by file function return const ' +
  'value test error type data path config module import export session tool result agent query table ' +
  'schema record line parse json duckdb census probe evidence transcript build run check verify update ' +
  'fix refactor add remove rename move read write edit grep glob bash commit branch merge review plan ' +
  'step task todo note user assistant model token cache usage output input stream event handler server ' +
  'client request response status code header body payload index count sum group order filter join'
).split(' ');
const UNICODE = ['naïve', 'café', 'résumé', 'données', 'Übergröße', '—', '–', '…', '✓', '✗', '→', '日本語', 'テスト', '中文', 'Ωμέγα', '€'];

function buildPool(rng, targetChars) {
  const out = [];
  let n = 0;
  const words = (k) => {
    const w = [];
    for (let i = 0; i < k; i++) w.push(rng.pick(WORDS));
    return w.join(' ');
  };
  while (n < targetChars) {
    const kind = rng.weighted([
      ['prose', 55],
      ['code', 28],
      ['uni', 9],
      ['ansi', 4],
      ['path', 4],
    ]);
    let line;
    if (kind === 'prose') line = `${words(rng.int(4, 24))}.`;
    else if (kind === 'code') {
      const w1 = rng.pick(WORDS),
        w2 = rng.pick(WORDS);
      line = rng.pick([
        `  const ${w1} = await ${w2}("${w1}/${w2}.ts", { ${w2}: ${rng.int(0, 999)} });`,
        `    if (${w1} !== '${w2}') throw new Error(\`${w1}: \${${w2}}\`);`,
        `  "${w1}": ["${w2}", ${rng.int(0, 99)}, null, true],`,
        `\treturn ${w1}.replace(/\\\\/g, '/').split('\\n');`,
        `select ${w1}, count(*) from ${w2} where ${w1} like '%${w2}%' group by all;`,
        `C:\\Users\\dev\\${w1}\\${w2}.json`,
      ]);
    } else if (kind === 'uni') line = `${rng.pick(UNICODE)} ${words(rng.int(2, 8))} ${rng.pick(UNICODE)}`;
    else if (kind === 'ansi')
      line = `\u001b[32m${rng.pick(UNICODE)}\u001b[0m ${words(rng.int(2, 6))} \u001b[2m(${rng.int(1, 900)}ms)\u001b[0m`;
    else line = `/private/tmp/proj/${rng.pick(WORDS)}/${rng.pick(WORDS)}_${rng.int(1, 99)}.ts:${rng.int(1, 400)}`;
    out.push(line);
    n += line.length + 1;
  }
  return out.join('\n');
}

// ---------------------------------------------------------------- generator
const VERSIONS = [
  ['2.1.6', 2],
  ['2.1.20', 1],
  ['2.1.31', 1],
  ['2.1.38', 3],
  ['2.1.39', 2],
];
const TOOLS = [
  ['Read', 25],
  ['Bash', 20],
  ['Edit', 12],
  ['Grep', 10],
  ['Glob', 6],
  ['Write', 5],
  ['TodoWrite', 4],
  ['WebFetch', 2],
  ['WebSearch', 2],
  ['Skill', 1],
  ['mcp__github__get_issue', 1],
  ['NotebookEdit', 0.5],
  ['AskUserQuestion', 0.5],
  ['ExitPlanMode', 0.3],
];
const AGENT_TOOLS = [
  ['Read', 40],
  ['Grep', 25],
  ['Glob', 20],
  ['Bash', 15],
];
const SKILLS = ['wsd:boot', 'wsd:onboard', 'pdf', 'xlsx', 'plugin:review-pr', 'omg-probe-standalone-html'];
// --skill-heavy: Skill at weight 14 of about 104 in a main thread and 10 of 110 in a sub-agent,
// which with the sessions that open with a Skill call makes it about 16% of all calls.
const HEAVY_TOOLS = [...TOOLS.filter(([name]) => name !== 'Skill'), ['Skill', 14], ['SlashCommand', 1.5]];
const HEAVY_AGENT_TOOLS = [...AGENT_TOOLS, ['Skill', 10]];
const UNKNOWN_SKILLS = ['omg-repo-house-html', 'wsd:reboot', 'nonexistent', 'plugin:lint-all'];
const SKILL_TOOLS = new Set(['Skill', 'SlashCommand']);
const minor = (v) => Number(v.split('.')[2]);

class Generator {
  constructor(seed, { noTimestamps = false, skillHeavy = false } = {}) {
    this.seed = seed;
    Object.assign(this, { noTimestamps, skillHeavy });
    this.tools = skillHeavy ? HEAVY_TOOLS : TOOLS;
    this.agentTools = skillHeavy ? HEAVY_AGENT_TOOLS : AGENT_TOOLS;
    this.skillCalls = new Map(); // tool_use id -> ground-truth row of expected-skills.ndjson
    this.pool = buildPool(new Rng(`${seed}:pool`), 3_000_000);
    this.b64 = new Rng(`${seed}:b64`).chars(`${B62}+/`, 8192);
    this.counts = new Map(); // sessionId -> Map(name -> n)
    this.seen = new Map(); // sessionId -> Set(tool_use id)
    this.stats = {
      bytes: 0,
      files: 0,
      sessions: 0,
      lines: 0,
      tool_uses: 0,
      subagent_files: 0,
      progress_lines: 0,
      big_results: 0,
      skill_calls: 0,
      skill_errors: 0,
      skill_unanswered: 0,
      sessions_with_skill: 0,
    };
  }

  text(rng, len) {
    const start = rng.int(0, this.pool.length - len - 1);
    return this.pool.slice(start, start + len);
  }

  /** A body of `len` chars; now and then with a decoy `"type":"tool_use"` inside the string. */
  body(rng, len) {
    const t = this.text(rng, len);
    if (!rng.chance(0.02)) return t;
    const decoy = `{"type":"tool_use","id":"toolu_01${rng.chars(B62, 22)}","name":"${rng.weighted(TOOLS)}","input":{}}`;
    const cut = rng.int(0, t.length);
    return `${t.slice(0, cut)}\n${decoy}\n${t.slice(cut)}`;
  }

  count(sessionId, id, name) {
    let seen = this.seen.get(sessionId);
    if (!seen) {
      seen = new Set();
      this.seen.set(sessionId, seen);
    }
    if (seen.has(id)) return false;
    seen.add(id);
    let m = this.counts.get(sessionId);
    if (!m) {
      m = new Map();
      this.counts.set(sessionId, m);
    }
    m.set(name, (m.get(name) ?? 0) + 1);
    this.stats.tool_uses++;
    return true;
  }

  /** A Skill or SlashCommand call's row of expected-skills.ndjson, with what orders it in `skills`. */
  skillCall(sessionId, block, thread, timestamp) {
    const skill = block.name === 'Skill' ? block.input.skill : block.input.command.replace(/^\/+/, '').split(' ')[0];
    this.skillCalls.set(block.id, {
      session_id: sessionId,
      tool_use_id: block.id,
      skill,
      is_error: null,
      result: null,
      order: { timestamp: this.noTimestamps ? null : timestamp, file: thread.rel, rec: thread.lines.length, block: 1 },
    });
    this.stats.skill_calls++;
  }

  /** Session i: its main file, its sub-agent files; returns [{rel, text}]. */
  session(i) {
    const rng = new Rng(`${this.seed}:session:${i}`);
    const sid = rng.uuid();
    const proj = `-private-tmp-proj-${String(rng.int(0, PROJECTS - 1)).padStart(2, '0')}`;
    const version = rng.weighted(VERSIONS);
    const base = {
      sessionId: sid,
      version,
      cwd: `/private/tmp/proj-${proj.slice(-2)}`,
      gitBranch: rng.pick(['main', 'master', 'dev']),
      slug: `${rng.pick(WORDS)}-${rng.pick(WORDS)}-${rng.pick(WORDS)}`,
      model: minor(version) >= 38 ? 'claude-opus-4-6' : rng.pick(['claude-opus-4-5-20251101', 'claude-sonnet-4-5-20250929']),
    };
    const main = new Thread(this, rng, base, { clock: BASE_TIME + i * 37 * 60_000 + rng.int(0, 600_000), rel: `${proj}/${sid}.jsonl` });
    const files = [];
    const nAgents = rng.chance(0.2) ? rng.int(1, 3) : 0;
    const warmups = [];
    let linked = 0;
    for (let k = 0; k < nAgents; k++) rng.chance(0.1) ? warmups.push(k) : linked++;
    const orphanTask = minor(version) >= 38 && rng.chance(0.05);
    const dupes = rng.chance(0.03);
    const target = rng.lognormal(230_000, 1.0, 8_000, 12_000_000);

    if (rng.chance(0.1))
      for (let k = rng.int(1, 3); k > 0; k--) {
        main.raw({ type: 'summary', summary: this.text(rng, rng.int(20, 70)).replace(/\s+/g, ' '), leafUuid: rng.uuid() });
      }
    if (minor(version) >= 38)
      main.progress(
        { type: 'hook_progress', hookEvent: 'SessionStart', hookName: 'SessionStart:startup', command: '$HOME/.claude/hooks/start.sh' },
        null,
      );
    for (const _ of warmups) files.push(this.agent(rng, base, main, proj, sid, { warmup: true }));

    const agentTurn = (opts) =>
      main.turn({
        task: (taskId, prompt) => {
          const a = this.agent(rng, base, main, proj, sid, { prompt, write: !opts.orphan });
          if (!opts.orphan) files.push(a);
          if (minor(version) >= 38)
            for (const rec of a.mirror)
              main.progress(
                { message: rec, normalizedMessages: [], type: 'agent_progress', prompt, agentId: a.agentId },
                taskId,
                `agent_${rec.message?.id ?? rec.uuid}`,
              );
          return a;
        },
      });
    // --skill-heavy: most sessions open with a skill, as a session started with /skill-name does.
    if (this.skillHeavy && rng.chance(0.9)) main.turn({ tools: [['Skill', 1]] });
    while (main.bytes < target || linked > 0 || orphanTask) {
      if (linked > 0 && (main.bytes >= target || rng.chance(0.15))) {
        agentTurn({});
        linked--;
        continue;
      }
      if (orphanTask && main.bytes >= target) {
        agentTurn({ orphan: true });
        break;
      }
      main.turn({});
      if (dupes && rng.chance(0.3)) main.rewriteToolUses(rng.int(1, 3));
    }
    files.unshift({ rel: `${proj}/${sid}.jsonl`, text: main.text(), lines: main.lines.length });
    this.stats.sessions++;
    return files;
  }

  /** A sub-agent run: its file (unless !write) and the records a parent's progress lines mirror. */
  agent(rng, base, parent, proj, sid, { prompt = null, warmup = false, write = true }) {
    const agentId = rng.hex(7);
    const t = new Thread(
      this,
      rng,
      { ...base, model: rng.pick(['claude-sonnet-4-5-20250929', 'claude-haiku-4-5-20251001']) },
      { clock: parent.clock, agentId, count: write, mirror: true, rel: `${proj}/${sid}/subagents/agent-${agentId}.jsonl` },
    );
    t.user(warmup ? 'Warmup' : prompt, { parentUuid: null });
    if (warmup) {
      t.assistant([{ type: 'text', text: this.text(rng, rng.int(40, 400)) }]);
      if (rng.chance(0.5)) t.step(this.agentTools, 1);
    } else {
      const target = rng.lognormal(40_000, 1.0, 3_000, 3_000_000);
      while (t.bytes < target) t.step(this.agentTools, rng.int(1, 3));
      t.assistant([{ type: 'text', text: this.text(rng, rng.int(200, 3000)) }]);
    }
    parent.clock = t.clock;
    if (write) this.stats.subagent_files++;
    return {
      rel: `${proj}/${sid}/subagents/agent-${agentId}.jsonl`,
      text: t.text(),
      lines: t.lines.length,
      agentId,
      mirror: t.mirrored,
      toolUses: t.toolUseCount,
    };
  }
}

/** One transcript file being written: a main session or a sub-agent. */
class Thread {
  constructor(gen, rng, base, { clock, agentId = null, count = true, mirror = false, rel }) {
    Object.assign(this, { gen, rng, base, clock, agentId, counting: count, rel });
    this.lines = [];
    this.bytes = 0;
    this.parent = null;
    this.mirrored = mirror ? [] : null;
    this.toolUses = []; // written assistant tool_use records, for re-writes
    this.toolUseCount = 0;
  }
  ts() {
    this.clock += this.rng.int(40, 20_000);
    return new Date(this.clock).toISOString();
  }
  raw(obj) {
    let line = obj,
      dropped = 0;
    if (this.gen.noTimestamps && 'timestamp' in obj) {
      const { timestamp, ...rest } = obj; // the same record without its timestamp key; the clock still ran
      line = rest;
      dropped = `"timestamp":${JSON.stringify(timestamp)},`.length;
    }
    const s = JSON.stringify(line);
    this.lines.push(s);
    // Sizes decide when a session ends: they count the timestamp, so both variants make the same lines.
    this.bytes += Buffer.byteLength(s) + 1 + dropped;
    if (obj.type === 'progress') this.gen.stats.progress_lines++;
  }
  text() {
    return this.lines.length ? `${this.lines.join('\n')}\n` : '';
  }
  head(parentUuid = this.parent) {
    const b = this.base;
    const h = {
      parentUuid,
      isSidechain: this.agentId !== null,
      userType: 'external',
      cwd: b.cwd,
      sessionId: b.sessionId,
      version: b.version,
      gitBranch: b.gitBranch,
    };
    if (this.agentId) h.agentId = this.agentId;
    h.slug = b.slug;
    return h;
  }
  record(obj) {
    this.raw(obj);
    this.parent = obj.uuid;
    return obj;
  }

  user(content, { parentUuid = this.parent, extra = {} } = {}) {
    return this.record({
      ...this.head(parentUuid),
      type: 'user',
      message: { role: 'user', content },
      uuid: this.rng.uuid(),
      timestamp: this.ts(),
      ...extra,
    });
  }

  progress(data, parentToolUseID, toolUseID = this.rng.uuid()) {
    this.raw({ ...this.head(), type: 'progress', data, toolUseID, parentToolUseID, uuid: this.rng.uuid(), timestamp: this.ts() });
  }

  /** One API message: one line per content block, same message.id and (growing) usage. */
  assistant(blocks) {
    const rng = this.rng;
    const id = `msg_01${rng.chars(B62, 22)}`,
      requestId = `req_011C${rng.chars(B62, 20)}`;
    // The 5-minute and 1-hour writes add up to cache_creation_input_tokens, as the API counts them
    // (usage refuses more 1-hour writes than writes). The draws keep their order, so the corpus is otherwise the same.
    const input = rng.int(1, 9),
      writes = rng.int(0, 9000),
      reads = rng.int(5000, 150000),
      oneHour = Math.min(rng.int(0, 9000), writes);
    const usage = {
      input_tokens: input,
      cache_creation_input_tokens: writes,
      cache_read_input_tokens: reads,
      cache_creation: { ephemeral_5m_input_tokens: writes - oneHour, ephemeral_1h_input_tokens: oneHour },
      output_tokens: 1,
      service_tier: 'standard',
    };
    if (minor(this.base.version) >= 38) usage.inference_geo = 'not_available';
    const out = [];
    blocks.forEach((block, k) => {
      if (k === blocks.length - 1) usage.output_tokens = rng.int(20, 2000);
      const rec = this.record({
        ...this.head(),
        message: {
          model: this.base.model,
          id,
          type: 'message',
          role: 'assistant',
          content: [block],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage },
        },
        requestId,
        type: 'assistant',
        uuid: rng.uuid(),
        timestamp: this.ts(),
      });
      if (block.type === 'tool_use') {
        if (this.counting && this.gen.count(this.base.sessionId, block.id, block.name) && SKILL_TOOLS.has(block.name)) {
          this.gen.skillCall(this.base.sessionId, block, this, rec.timestamp);
        }
        this.toolUses.push(rec);
        this.toolUseCount++;
        this.mirrored?.push({ type: 'assistant', timestamp: rec.timestamp, message: rec.message, requestId, uuid: rec.uuid });
      }
      out.push(rec);
    });
    return out;
  }

  toolUse(name, input) {
    const b = { type: 'tool_use', id: `toolu_01${this.rng.chars(B62, 22)}`, name, input };
    if (minor(this.base.version) >= 22) b.caller = { type: 'direct' };
    return b;
  }

  /** The tool_result user line answering `use` (written by assistant line `from`). */
  result(use, from, answer) {
    const rng = this.rng,
      g = this.gen;
    let content,
      tur,
      isError = false;
    if (answer) ({ content, tur } = answer);
    else if (g.skillHeavy && SKILL_TOOLS.has(use.name)) {
      const name = use.name === 'Skill' ? use.input.skill : use.input.command.replace(/^\/+/, '').split(' ')[0];
      if (UNKNOWN_SKILLS.includes(name)) {
        isError = true;
        content = `<tool_use_error>Unknown skill: ${name}</tool_use_error>`;
        tur = `Error: Unknown skill: ${name}`;
      } else {
        content = use.name === 'Skill' ? `Launching skill: ${name}` : `Launching command: /${name}`;
        tur = { success: true, commandName: name };
      }
    } else if (rng.chance(0.06)) {
      isError = true;
      const msg = rng.pick([
        'File does not exist.',
        `Exit code 1\n${g.text(rng, rng.int(20, 600))}`,
        'String to replace not found in file.',
      ]);
      content = msg.startsWith('Exit') ? msg : `<tool_use_error>${msg}</tool_use_error>`;
      tur = `Error: ${msg}`;
    } else {
      const u = rng.next();
      const len = u < 0.003 ? rng.int(100_000, 400_000) : u < 0.03 ? rng.int(10_000, 50_000) : rng.lognormal(500, 1.1, 20, 8_000);
      if (len >= 10_000) g.stats.big_results++;
      const body = g.body(rng, len);
      content = body;
      const fp = use.input.file_path ?? `/private/tmp/proj/${rng.pick(WORDS)}.ts`;
      switch (use.name) {
        case 'Read':
          tur = {
            type: 'text',
            file: { filePath: fp, content: body, numLines: body.split('\n').length, startLine: 1, totalLines: rng.int(1, 3000) },
          };
          break;
        case 'Bash':
          tur = { stdout: body, stderr: '', interrupted: false, isImage: false };
          break;
        case 'Edit':
          tur = {
            filePath: fp,
            oldString: use.input.old_string,
            newString: use.input.new_string,
            originalFile: body,
            replaceAll: false,
            structuredPatch: [],
            userModified: false,
          };
          content = `The file ${fp} has been updated.`;
          break;
        case 'Write':
          tur = { type: 'create', filePath: fp, content: use.input.content, structuredPatch: [], originalFile: null };
          content = `File created successfully at: ${fp}`;
          break;
        case 'Glob':
          tur = { filenames: body.split('\n').slice(0, 50), durationMs: rng.int(1, 300), numFiles: rng.int(0, 50), truncated: false };
          break;
        case 'Grep':
          tur = { mode: 'files_with_matches', filenames: body.split('\n').slice(0, 50), numFiles: rng.int(0, 50) };
          break;
        case 'Skill':
          content = `Launching skill: ${use.input.skill}`;
          tur = { success: true, commandName: use.input.skill };
          break;
        default:
          tur = rng.chance(0.5) ? body : { result: body, durationMs: rng.int(10, 9000) };
      }
      if (rng.chance(0.1)) content = [{ type: 'text', text: typeof content === 'string' ? content : '' }];
    }
    const block = rng.chance(0.5)
      ? { tool_use_id: use.id, type: 'tool_result', content }
      : { type: 'tool_result', content, tool_use_id: use.id };
    if (isError) block.is_error = true;
    else if (rng.chance(0.1)) block.is_error = false;
    const rec = this.user([block], { parentUuid: from.uuid, extra: { toolUseResult: tur, sourceToolAssistantUUID: from.uuid } });
    const call = this.counting ? g.skillCalls.get(use.id) : undefined;
    if (call && call.result === null) {
      // the first answer; a call answered twice keeps it
      call.result =
        typeof content === 'string'
          ? content
          : content
              .filter((b) => b.type === 'text')
              .map((b) => b.text)
              .join('\n');
      call.is_error =
        block.is_error === true || (typeof tur === 'string' && tur.startsWith('Error:')) || call.result.includes('<tool_use_error>');
      if (call.is_error) g.stats.skill_errors++;
    }
    this.mirrored?.push({ type: 'user', message: rec.message, uuid: rec.uuid, timestamp: rec.timestamp, toolUseResult: tur });
    return rec;
  }

  input(name) {
    const rng = this.rng,
      g = this.gen,
      fp = `/private/tmp/proj/${rng.pick(WORDS)}/${rng.pick(WORDS)}.ts`;
    switch (name) {
      case 'Read':
        return { file_path: fp };
      case 'Bash':
        return { command: g.text(rng, rng.int(10, 200)), description: g.text(rng, rng.int(10, 60)) };
      case 'Edit':
        return { file_path: fp, old_string: g.text(rng, rng.int(20, 800)), new_string: g.text(rng, rng.int(20, 800)) };
      case 'Write':
        return { file_path: fp, content: g.body(rng, rng.int(200, 6000)) };
      case 'Grep':
        return { pattern: rng.pick(WORDS), path: fp, output_mode: 'files_with_matches' };
      case 'Glob':
        return { pattern: `**/*${rng.pick(WORDS)}*.ts` };
      case 'TodoWrite':
        return {
          todos: Array.from({ length: rng.int(1, 6) }, () => ({
            content: g.text(rng, rng.int(10, 80)),
            status: rng.pick(['pending', 'in_progress', 'completed']),
            activeForm: g.text(rng, rng.int(10, 80)),
          })),
        };
      case 'WebFetch':
        return { url: `https://example.com/${rng.pick(WORDS)}`, prompt: g.text(rng, rng.int(20, 200)) };
      case 'WebSearch':
        return { query: g.text(rng, rng.int(10, 80)) };
      case 'Skill':
        return g.skillHeavy && rng.chance(0.08)
          ? { skill: rng.pick(UNKNOWN_SKILLS) }
          : g.skillHeavy && rng.chance(0.3)
            ? { skill: rng.pick(SKILLS), args: g.text(rng, rng.int(5, 80)) }
            : { skill: rng.pick(SKILLS) };
      case 'SlashCommand':
        return { command: `/${rng.pick(SKILLS)}${rng.chance(0.5) ? ` ${rng.pick(WORDS)}` : ''}` };
      case 'mcp__github__get_issue':
        return { owner: 'acme', repo: rng.pick(WORDS), issue_number: rng.int(1, 9999) };
      default:
        return { question: g.text(rng, rng.int(10, 200)) };
    }
  }

  /** One assistant message (maybe thinking, maybe text, then n tool_use blocks) and its results. */
  step(tools, n, task = null) {
    const rng = this.rng,
      g = this.gen;
    const blocks = [];
    if (rng.chance(0.3))
      blocks.push({
        type: 'thinking',
        thinking: g.body(rng, rng.lognormal(600, 0.9, 50, 6000)),
        signature: g.b64.slice(0, rng.int(200, 1200)),
      });
    if (rng.chance(0.6)) blocks.push({ type: 'text', text: g.body(rng, rng.lognormal(250, 1.0, 4, 5000)) });
    const uses = [];
    for (let k = 0; k < n; k++) {
      const name = rng.weighted(tools);
      uses.push(this.toolUse(name, this.input(name)));
    }
    if (task)
      uses.push(
        this.toolUse('Task', {
          description: g.text(rng, rng.int(15, 60)),
          prompt: task.prompt,
          subagent_type: rng.pick(['general-purpose', 'Explore', 'Plan']),
        }),
      );
    const recs = this.assistant([...blocks, ...uses]).slice(blocks.length);
    uses.forEach((use, k) => {
      if (use.name === 'Task') {
        const a = task.run(use.id, use.input.prompt);
        const text = g.text(rng, rng.int(300, 4000));
        const content = [
          { type: 'text', text },
          { type: 'text', text: `agentId: ${a.agentId} (for resuming to continue this agent's work if needed)` },
        ];
        this.result(use, recs[k], {
          content,
          tur: {
            status: 'completed',
            prompt: use.input.prompt,
            agentId: a.agentId,
            content: [{ type: 'text', text }],
            totalDurationMs: rng.int(5_000, 600_000),
            totalTokens: rng.int(1_000, 90_000),
            totalToolUseCount: a.toolUses,
            usage: { input_tokens: rng.int(1, 99), output_tokens: rng.int(100, 9000) },
          },
        });
      } else if (g.skillHeavy && SKILL_TOOLS.has(use.name) && rng.chance(0.02)) {
        if (this.counting && g.skillCalls.has(use.id)) g.stats.skill_unanswered++; // interrupted: no tool_result
      } else {
        this.result(use, recs[k]);
        if (SKILL_TOOLS.has(use.name))
          this.user([{ type: 'text', text: g.text(rng, rng.int(500, 6000)) }], { extra: { isMeta: true, sourceToolUseID: use.id } });
      }
    });
    return uses.length;
  }

  /** A user turn: snapshot, prompt, assistant steps until a final text, turn_duration. */
  turn({ task = null, tools = this.gen.tools }) {
    const rng = this.rng,
      g = this.gen;
    const promptUuid = rng.uuid();
    this.raw({
      type: 'file-history-snapshot',
      messageId: promptUuid,
      snapshot: { messageId: promptUuid, trackedFileBackups: {}, timestamp: new Date(this.clock).toISOString() },
      isSnapshotUpdate: false,
    });
    this.record({
      ...this.head(),
      type: 'user',
      message: { role: 'user', content: g.body(rng, rng.lognormal(200, 1.2, 5, 8000)) },
      uuid: promptUuid,
      timestamp: this.ts(),
      ...(minor(this.base.version) >= 38 ? { permissionMode: 'default' } : {}),
    });
    const start = this.clock;
    const steps = rng.int(1, 12);
    const taskAt = task ? rng.int(0, steps - 1) : -1;
    for (let s = 0; s < steps; s++) {
      this.step(
        s === 0 ? tools : this.gen.tools,
        rng.weighted([
          [1, 6],
          [2, 2],
          [3, 1],
          [0, s === taskAt ? 1 : 0],
        ]),
        s === taskAt ? { prompt: g.text(rng, rng.int(200, 1500)), run: task } : null,
      );
    }
    this.assistant([{ type: 'text', text: g.body(rng, rng.lognormal(300, 1.0, 10, 6000)) }]);
    if (rng.chance(0.3))
      this.record({
        ...this.head(),
        type: 'system',
        subtype: 'stop_hook_summary',
        hookCount: 1,
        hookInfos: [{ command: '$CLAUDE_PROJECT_DIR/.claude/hooks/notify.sh' }],
        hookErrors: [],
        preventedContinuation: false,
        stopReason: '',
        hasOutput: false,
        level: 'suggestion',
        timestamp: this.ts(),
        uuid: rng.uuid(),
        toolUseID: rng.uuid(),
      });
    this.record({
      ...this.head(),
      type: 'system',
      subtype: 'turn_duration',
      durationMs: this.clock - start,
      timestamp: this.ts(),
      uuid: rng.uuid(),
      isMeta: false,
    });
  }

  /** Write some earlier tool_use lines again (as a resumed session does): same ids, counted once. */
  rewriteToolUses(n) {
    for (let k = 0; k < n && this.toolUses.length; k++) {
      const old = this.rng.pick(this.toolUses);
      this.record({ ...old, parentUuid: this.parent, uuid: this.rng.uuid(), timestamp: this.ts() });
    }
  }
}

// ---------------------------------------------------------------- main
function main() {
  const args = parseArgs(process.argv.slice(2));
  if (existsSync(args.out) && readdirSync(args.out).length) throw new Error(`${args.out} exists and is not empty; remove it first`);
  const gen = new Generator(args.seed, args);
  const nSessions = Math.round(SESSIONS_PER_SCALE * args.scale);
  const made = new Set();
  for (let i = 0; i < nSessions; i++) {
    for (const f of gen.session(i)) {
      const path = join(args.out, f.rel);
      const dir = path.slice(0, path.lastIndexOf('/'));
      if (!made.has(dir)) {
        mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
      writeFileSync(path, f.text);
      gen.stats.files++;
      gen.stats.bytes += Buffer.byteLength(f.text);
      gen.stats.lines += f.lines;
    }
  }
  const rows = [];
  for (const [sid, m] of gen.counts) for (const [name, n] of m) rows.push(`${sid}\t${name}\t${n}`);
  rows.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  writeFileSync(join(args.out, 'expected.tsv'), rows.join('\n') + (rows.length ? '\n' : ''));
  gen.stats.groups = rows.length;
  // expected-skills.ndjson in the order of `skills`: session, then the first copy's timestamp
  // (nulls last), file, record, block, id.
  const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  const calls = [...gen.skillCalls.values()].sort(
    (a, b) =>
      cmp(a.session_id, b.session_id) ||
      (a.order.timestamp === null) - (b.order.timestamp === null) ||
      cmp(a.order.timestamp ?? '', b.order.timestamp ?? '') ||
      cmp(a.order.file, b.order.file) ||
      a.order.rec - b.order.rec ||
      a.order.block - b.order.block ||
      cmp(a.tool_use_id, b.tool_use_id),
  );
  writeFileSync(join(args.out, 'expected-skills.ndjson'), calls.map(({ order, ...row }) => `${JSON.stringify(row)}\n`).join(''));
  gen.stats.sessions_with_skill = new Set(calls.map((c) => c.session_id)).size;
  const self = readFileSync(fileURLToPath(import.meta.url));
  const params = {
    generator: 'bench/gen.mjs',
    generator_sha256: createHash('sha256').update(self).digest('hex'),
    seed: args.seed,
    scale: args.scale,
    sessions: nSessions,
    no_timestamps: args.noTimestamps,
    skill_heavy: args.skillHeavy,
  };
  writeFileSync(join(args.out, 'params.json'), `${JSON.stringify({ params, stats: gen.stats }, null, 2)}\n`);
  const s = gen.stats;
  process.stderr.write(
    `gen: ${args.out}: ${s.bytes.toLocaleString('en-US')} bytes, ${s.files} files (${s.subagent_files} sub-agent), ` +
      `${s.sessions} sessions, ${s.lines.toLocaleString('en-US')} lines, ${s.tool_uses.toLocaleString('en-US')} tool_uses in ${s.groups} (session, tool) groups, ` +
      `${s.progress_lines.toLocaleString('en-US')} progress lines, ${s.big_results} results >= 10 KB, ` +
      `${s.skill_calls.toLocaleString('en-US')} skill calls (${s.skill_errors} errors, ${s.skill_unanswered} unanswered) in ${s.sessions_with_skill} sessions\n`,
  );
}

main();
