#!/usr/bin/env node
/**
 * An independent count of the tokens in Claude Code transcripts, for test/usage.test.ts to hold
 * transcript_messages and transcript_sessions to. It shares no code or SQL with omg-evidence: a
 * plain line-by-line read of every *.jsonl under the folders named.
 *
 * Its method: every `assistant` line with a `message.usage` is a snapshot of one API response,
 * and so is every `progress` line whose `data.message` is an assistant record with one (a sub-agent's
 * line mirrored into its parent's file), read as that record: in the progress line's session, with
 * the record's own id, requestId and usage. A snapshot is named by `message.id` and `requestId` (a
 * line without requestId, or with an empty one, takes the one another line of its message.id in the
 * same session gives); a line with no message.id is a response of its own. Of each response's
 * snapshots the one with the most output_tokens counts, the later read on ties; it counts once,
 * in the session of the first line read of it (files are read in sorted path order). Per session,
 * each usage field is summed over its responses, in all and per model (with the 1-hour part of
 * the cache writes, which prices differently).
 *
 * Usage: node test/usage-count.mjs DIR... ; prints {session_id: {responses, field: total, …,
 * models: {model: {responses, field: total, …, cache_creation_1h_input_tokens}}}} as JSON.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const FIELDS = ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'];

function files(dir) {
  if (statSync(dir).isFile()) return [dir];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? files(p) : p.endsWith('.jsonl') ? [p] : [];
    });
}

const snapshots = [];
for (const file of process.argv.slice(2).flatMap(files).sort()) {
  let fileSession = null;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (text.trim() === '') return;
      const line = JSON.parse(text);
      fileSession ??= line.sessionId ?? null;
      const mirror = line.type === 'progress' && line.data?.message?.type === 'assistant' ? line.data.message : null;
      const record = mirror ?? line;
      const usage = record.message?.usage;
      if ((line.type !== 'assistant' && !mirror) || !usage) return;
      snapshots.push({
        id: record.message.id,
        request: record.requestId,
        session: line.sessionId ?? fileSession,
        model: record.message.model,
        usage,
        where: `${file}:${i}`,
      });
    });
}

// A message id's requestId in its session, for its lines without one.
const requestOf = new Map();
for (const s of snapshots) if (s.id && s.request) requestOf.set(`${s.session}\0${s.id}`, s.request);

const responses = new Map();
for (const s of snapshots) {
  const key = s.id ? `${s.id}\0${s.request || requestOf.get(`${s.session}\0${s.id}`) || ''}` : s.where;
  const seen = responses.get(key);
  if (!seen) responses.set(key, { session: s.session, model: s.model, usage: s.usage });
  else if ((s.usage.output_tokens ?? 0) >= (seen.usage.output_tokens ?? 0)) seen.usage = s.usage;
}

const zero = () => Object.fromEntries([['responses', 0], ...FIELDS.map((f) => [f, 0])]);
const add = (t, usage) => {
  t.responses += 1;
  for (const f of FIELDS) t[f] += usage[f] ?? 0;
};
const totals = {};
for (const { session, model, usage } of responses.values()) {
  totals[session] ??= { ...zero(), models: {} };
  add(totals[session], usage);
  totals[session].models[model] ??= { ...zero(), cache_creation_1h_input_tokens: 0 };
  const m = totals[session].models[model];
  add(m, usage);
  m.cache_creation_1h_input_tokens += usage.cache_creation?.ephemeral_1h_input_tokens ?? 0;
}
process.stdout.write(`${JSON.stringify(totals, null, 2)}\n`);
