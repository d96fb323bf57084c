/**
 * The hashes of a region's provenance line: the input files its output depends on, and the
 * queries (and parameters) that compute it.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { join, relative } from 'node:path';
import { InputError } from '../base/errors.js';
import { feedFile, sha256 } from '../base/hash.js';
import { displayPath, packageVersion, queriesDir } from '../base/paths.js';
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

/**
 * `ev`, unless the document at `doc` is one of its input files (a registration .sql holding a region): each
 * render would change what the region is made from, which could never be current. A document elsewhere in a
 * probe's folder (adr-tables.md) is no input, and stays allowed.
 */
export async function notAnInput(doc: string, opening: Promise<Evidence>): Promise<Evidence> {
  const ev = await opening;
  const real = (f: string) => {
    try {
      return realpathSync(f);
    } catch {
      return f;
    }
  };
  const self = real(doc);
  const input = ev.inputFiles().find((f) => real(f) === self);
  if (input !== undefined) {
    throw new InputError(
      `the document is an input of the probe this region reads (${displayPath(input)}), which is read-only: rendering it would change what the region is made from; nothing was written`,
      'put the region in a document the probe does not read',
    );
  }
  return ev;
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
