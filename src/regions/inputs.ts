/**
 * The hashes of a region's provenance line: the input files its output depends on, and the
 * queries (and parameters) that compute it.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { feedFile, sha256 } from '../base/hash.js';
import { packageVersion, queriesDir } from '../base/paths.js';
import { type Evidence, readQuery, VIEWS } from '../evidence.js';
import { shortHash as hash } from './provenance.js';

/** What of a region the hashes depend on: the table or query it names, where from, and its parameters. */
export interface HashedSpec {
  name: string;
  from: 'records' | 'transcripts';
  params: Record<string, string>;
}

/** The files a region's output depends on (what the loader read, and the registration's SQL), hashed by path and content. */
export async function inputsHash(ev: Evidence | undefined, spec: HashedSpec): Promise<string> {
  if (!ev) return hash(packageVersion);
  const files = ev.inputFiles({ transcripts: readsTranscripts(spec) });
  const h = sha256();
  for (const f of files) {
    const probe = ev.probes.find((p) => f.startsWith(`${p.dir}/`))!;
    h.update(`${probe.id}/${relative(probe.dir, f)}\0`);
    feedFile(h, f);
    h.update('\0');
  }
  return h.digest('hex').slice(0, 12);
}

/** The views made from transcripts. */
const FROM_TRANSCRIPTS = new Set(VIEWS.filter((v) => v.source === 'transcripts').map((v) => v.name));
/** What the registered triggers and checks answer into: a check may read any view, the transcripts' too. */
const CHECKED = ['trigger_results', 'conjunct_results'];

/**
 * Whether a region's output depends on the transcripts loaded: from=transcripts, or a query of it whose
 * `reads:` names a transcript view (a census's forgeable column, cost's sessions, usage) or a check's answers.
 */
function readsTranscripts(spec: HashedSpec): boolean {
  if (spec.from === 'transcripts') return true;
  const reads = (QUERIES[spec.name] ?? [spec.name]).flatMap((n) => readQuery(n).reads);
  return reads.some((t) => FROM_TRANSCRIPTS.has(t) || CHECKED.includes(t));
}

/** The queries a table is computed by, for the provenance's query hash. */
const QUERIES: Record<string, string[]> = {
  census: ['census', 'forgeable'],
  skills: ['skills'],
  arms: ['arms'],
  verdict: ['verdict', 'completeness', 'budget', 'uniformity', 'registration_parts'],
  cost: ['cost', 'cost_by_arm', 'cost_by_model'],
  commands: [],
  queries: [],
  schema: [],
};

export function queryHash(spec: HashedSpec): string {
  const names = QUERIES[spec.name] ?? [spec.name];
  return hash(names.map((n) => readFileSync(join(queriesDir, `${n}.sql`), 'utf8')).join('\0') + JSON.stringify(spec.params));
}
