/**
 * Generated regions in markdown documents. A region is
 *
 *     <!-- omg-evidence:begin census probe=. format=text -->
 *     …generated…
 *     <!-- omg-evidence:provenance … content=<hash> -->
 *     <!-- omg-evidence:end -->
 *
 * This module finds the regions of a document (markers at the start of a line, outside fenced code),
 * renders each from the evidence, and says which are current, stale or hand-edited. Bytes outside
 * the markers are never touched. Writing (atomically) and printing are the command's job.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { dirname, join, relative, resolve } from 'node:path';
import { formatArms } from '../cli/commands/arms.js';
import { formatCensus } from '../cli/commands/census.js';
import { costReports, formatCost } from '../cli/commands/cost.js';
import { schemaRows, formatSchema } from '../cli/commands/schema.js';
import { formatSkills } from '../cli/commands/skills.js';
import { formatVerdicts } from '../cli/commands/verdict.js';
import { InputError, OmgError } from '../base/errors.js';
import { feedFile, sha256 } from '../base/hash.js';
import { FenceScanner } from './fences.js';
import { bodyState, provenanceLine, shortHash as hash } from './provenance.js';
import { Evidence, type Source } from '../evidence.js';
import { render as renderRows } from '../output/formats.js';
import { formatResult } from '../cli/commands/sql.js';
import { displayPath, listFiles, packageVersion, queriesDir } from '../base/paths.js';
import { listQueries, readQuery } from '../evidence.js';
import { listTranscriptFiles } from '../evidence.js';

const BEGIN = /^<!-- omg-evidence:begin(?:\s+(.*?))?\s*-->[ \t]*\r?$/;
const END = /^<!-- omg-evidence:end\s*-->[ \t]*\r?$/;
/** A line that means to be a marker (indented less than code is): one not BEGIN or END is an error, never text. */
const MARKER_LIKE = /^ {0,3}<!--\s*omg-evidence:/;

/** What a region can name besides a query: the command tables, and the two documentation tables. */
const TABLES = ['census', 'skills', 'arms', 'verdict', 'cost', 'commands', 'queries', 'schema'] as const;
const FORMATS = ['markdown', 'text', 'table'] as const;

export interface Region {
  /** 1-based line of the begin marker. */
  begin: number;
  /** 1-based line of the end marker. */
  end: number;
  name: string;
  options: Record<string, string[]>;
  /** The lines between the markers, as they are. */
  body: string[];
}

export interface Parsed {
  path: string;
  /** The document's bytes as read: writing refuses if the file no longer holds them. */
  bytes: Buffer;
  lines: string[];
  regions: Region[];
  /** Things the user should know that do not stop rendering (doc:line first). */
  warnings: string[];
}

function fail(doc: string, line: number, what: string, hint?: string): never {
  throw new InputError(`${displayPath(doc)}:${line}: ${what}`, hint);
}

/** `key=value key="a b"` into a map of key → values (a key may repeat). */
function parseOptions(doc: string, line: number, text: string): Record<string, string[]> {
  const options: Record<string, string[]> = {};
  const re = /\s*([A-Za-z_][\w-]*)=(?:"([^"]*)"|(\S+))/y;
  let at = 0;
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) {
      if (text.slice(at).trim() === '') break;
      fail(
        doc,
        line,
        `cannot read the marker's options at "${text.slice(at).trim()}"`,
        'options are key=value pairs, e.g. probe=. format=text',
      );
    }
    options[m[1]!] ??= [];
    options[m[1]!]!.push(m[2] ?? m[3]!);
    at = re.lastIndex;
  }
  return options;
}

/**
 * A document's text. Bytes that are not UTF-8 would be written back as U+FFFD, outside the regions
 * too: such a document is refused, naming the line of its first such byte.
 */
function utf8Text(bytes: Buffer, path: string): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  let start = 0;
  for (let line = 1; ; line++) {
    const end = bytes.indexOf(0x0a, start);
    if (!isUtf8(bytes.subarray(start, end < 0 ? bytes.length : end)) || end < 0) {
      throw new InputError(
        `${displayPath(path)}:${line}: not UTF-8 text`,
        'render reads and writes UTF-8 documents only; convert it first (iconv -t UTF-8)',
      );
    }
    start = end + 1;
  }
}

/** Find a document's regions. Throws (naming the line) on an unbalanced or nested marker. */
export function parseDocument(path: string): Parsed {
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new InputError(`${displayPath(path)}: no such document`, 'give the path of a markdown file');
  }
  const bytes = readFileSync(path);
  const lines = utf8Text(bytes, path).split('\n');
  const regions: Region[] = [];
  let open: { begin: number; name: string; options: Record<string, string[]> } | null = null;
  // Inside a region only its end marker counts (its own content has fences); outside, fenced code is text.
  const fences = new FenceScanner();
  // The fence open now (its line), and the first marker it holds: an unclosed one hides every marker after it.
  let openFence: { line: number; marker?: number } | null = null;
  lines.forEach((text, i) => {
    const line = i + 1;
    if (!open && fences.line(text)) {
      if (!openFence) openFence = { line };
      else if (!fences.inFence) openFence = null;
      else if (openFence.marker === undefined && (BEGIN.test(text) || END.test(text))) openFence.marker = line;
      return;
    }
    const b = BEGIN.exec(text);
    if (b) {
      if (open)
        fail(
          path,
          line,
          `nested marker: a region begins inside the region begun on line ${open.begin}`,
          'close each region with <!-- omg-evidence:end --> before the next begins',
        );
      const [name, ...rest] = (b[1] ?? '').split(/\s+/);
      if (!name) fail(path, line, 'the begin marker names nothing to render', `name one of ${TABLES.join(', ')} or a query`);
      open = { begin: line, name, options: parseOptions(path, line, rest.join(' ')) };
    } else if (END.test(text)) {
      if (!open) fail(path, line, 'an end marker with no region begun', 'remove it, or add the <!-- omg-evidence:begin … --> it closes');
      regions.push({ ...open, end: line, body: lines.slice(open.begin, i) });
      open = null;
    } else if (!open && MARKER_LIKE.test(text)) {
      // Outside a region, a misspelt or indented marker would leave its region silently unrendered.
      fail(
        path,
        line,
        'a line that looks like a marker but is not one',
        'write <!-- omg-evidence:begin NAME … --> or <!-- omg-evidence:end --> at the start of the line',
      );
    }
  });
  if (open) fail(path, (open as { begin: number }).begin, 'a region begun here is never ended', 'add <!-- omg-evidence:end --> after it');
  const warnings: string[] = [];
  const unclosed = openFence as { line: number; marker?: number } | null;
  if (fences.inFence && unclosed?.marker !== undefined) {
    warnings.push(
      `${displayPath(path)}:${unclosed.line}: the fenced code begun here is never closed, so it runs to the end of the document and the markers in it (from line ${unclosed.marker}) are text, not regions`,
    );
  }
  return { path, bytes, lines, regions, warnings };
}

/** A fenced code block holding `text`. */
const fence = (text: string) => `${['```', ...text.replace(/\n$/, '').split('\n'), '```'].join('\n')}\n`;

export interface Rendered {
  region: Region;
  /** The new body lines (content, then the provenance line). */
  body: string[];
  /** The body is exactly what rendering gives. */
  current: boolean;
  /** The body is not empty and is not exactly as render wrote it: rewriting it would lose an edit. */
  handEdited: boolean;
}

interface Spec {
  name: string;
  format: (typeof FORMATS)[number];
  from: Source;
  probes: string[];
  params: Record<string, string>;
}

/** Validate a region's name and options against what it can render. */
function specOf(doc: string, r: Region): Spec {
  const isTable = (TABLES as readonly string[]).includes(r.name);
  const query = isTable ? undefined : listQueries().includes(r.name) ? readQuery(r.name) : undefined;
  if (!isTable && !query) {
    fail(doc, r.begin, `unknown table or query "${r.name}"`, `name one of ${TABLES.join(', ')}, or a query: ${listQueries().join(', ')}`);
  }
  const known = ['probe', 'format', ...(['census', 'skills'].includes(r.name) ? ['from'] : []), ...(query?.params ?? [])];
  for (const key of Object.keys(r.options)) {
    if (!known.includes(key))
      fail(doc, r.begin, `unknown option "${key}" for ${r.name}`, `the options of ${r.name} are ${known.join(', ')}`);
  }
  for (const [key, values] of Object.entries(r.options)) {
    if (key !== 'probe' && values.length > 1)
      fail(doc, r.begin, `option "${key}" is given ${values.length} times`, 'only probe may repeat');
  }
  const format = (r.options.format?.[0] ?? 'markdown') as Spec['format'];
  if (!(FORMATS as readonly string[]).includes(format)) fail(doc, r.begin, `format must be ${FORMATS.join(', ')}; got "${format}"`);
  const from = (r.options.from?.[0] ?? 'records') as Source;
  if (from !== 'records' && from !== 'transcripts') fail(doc, r.begin, `from must be records or transcripts; got "${from}"`);
  const probes = (r.options.probe ?? []).map((p) => resolve(dirname(doc), p));
  for (const p of probes) {
    if (!existsSync(p) || !statSync(p).isDirectory())
      fail(doc, r.begin, `probe "${displayPath(p)}" does not exist`, 'probe= is a path relative to the document');
  }
  const params = Object.fromEntries(
    Object.entries(r.options)
      .filter(([k]) => query?.params.includes(k))
      .map(([k, v]) => [k, v[0]!]),
  );
  return { name: r.name, format, from, probes, params };
}

/** The files a region's output depends on (what the loader read, and the registration's SQL), hashed by path and content. */
async function inputsHash(ev: Evidence | undefined, spec: Spec): Promise<string> {
  if (!ev) return hash(packageVersion);
  const loaded = await ev.sourceFiles();
  const files = new Set(loaded);
  for (const p of ev.probes) {
    for (const f of listFiles(join(p.dir, 'registration'))) files.add(f);
    // A census reads the probe's own transcripts from the records too (its forgeable column).
    if (spec.from === 'transcripts' || spec.name === 'census')
      for (const f of listTranscriptFiles(join(p.dir, 'transcripts'))) files.add(f);
  }
  const h = sha256();
  for (const f of [...files].sort()) {
    const probe = ev.probes.find((p) => f.startsWith(`${p.dir}/`))!;
    h.update(`${probe.id}/${relative(probe.dir, f)}\0`);
    feedFile(h, f);
    h.update('\0');
  }
  return h.digest('hex').slice(0, 12);
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

function queryHash(spec: Spec): string {
  const names = QUERIES[spec.name] ?? [spec.name];
  return hash(names.map((n) => readFileSync(join(queriesDir, `${n}.sql`), 'utf8')).join('\0') + JSON.stringify(spec.params));
}

async function content(spec: Spec, ev: Evidence | undefined, help: () => string): Promise<string> {
  const tabular = spec.format === 'markdown' ? 'markdown' : 'table';
  const wrap = (s: string) => (spec.format === 'markdown' ? s : fence(s));
  switch (spec.name) {
    case 'census':
      return spec.format === 'text'
        ? fence(formatCensus(await ev!.censusRows(spec.from, { forgeable: false }), 'text'))
        : wrap(formatCensus(await ev!.censusRows(spec.from), tabular));
    case 'skills':
      return wrap(formatSkills(await ev!.skillRows(spec.from), tabular));
    case 'arms':
      return wrap(formatArms(await ev!.armRows(), tabular));
    case 'verdict':
      return wrap(formatVerdicts(await ev!.verdicts(), tabular));
    case 'cost':
      return wrap(formatCost(await costReports(ev!), tabular));
    case 'commands':
      return fence(help());
    case 'schema':
      return wrap(formatSchema(await schemaRows(ev!), tabular));
    case 'queries': {
      const rows = listQueries().map((n) => ({ query: `\`${n}\``, summary: readQuery(n).summary, params: readQuery(n).params.join(', ') }));
      return wrap(renderRows(tabular, [{ key: 'query' }, { key: 'summary' }, { key: 'params' }], rows, { cells: (r) => r }));
    }
    default: {
      const res = await ev!.query(spec.name, spec.params);
      return wrap(formatResult(res.columns, res.types, res.rows, tabular));
    }
  }
}

/** Opens each distinct set of probes once per run. */
export class EvidenceCache {
  private readonly open = new Map<string, Promise<Evidence>>();
  get(probes: string[], from: Source): Promise<Evidence> {
    const key = JSON.stringify([probes, from]);
    if (!this.open.has(key))
      this.open.set(key, Evidence.open(probes, { transcripts: from === 'transcripts' ? true : undefined, ownTranscripts: true }));
    return this.open.get(key)!;
  }
  async close(): Promise<void> {
    for (const p of this.open.values()) (await p.catch(() => undefined))?.close();
  }
}

/** The evidence a region reads; a probe that cannot be opened is an error naming the region's line. */
async function openFor(doc: string, region: Region, spec: Spec, cache: EvidenceCache): Promise<Evidence> {
  try {
    return await cache.get(spec.probes, spec.from);
  } catch (e) {
    if (!(e instanceof OmgError) || e.message.startsWith(`${displayPath(doc)}:`)) throw e;
    fail(doc, region.begin, e.message, e.hint);
  }
}

/** Render every region of a parsed document. `help` gives the command reference. */
export async function renderDocument(doc: Parsed, cache: EvidenceCache, help: () => string): Promise<Rendered[]> {
  const specs = doc.regions.map((r) => specOf(doc.path, r));
  const out: Rendered[] = [];
  for (const [i, region] of doc.regions.entries()) {
    const spec = specs[i]!;
    const needsEvidence = spec.name !== 'commands' && spec.name !== 'queries';
    const ev = needsEvidence ? await openFor(doc.path, region, spec, cache) : undefined;
    const text = await content(spec, ev, help);
    const probeIds = ev ? ev.probes.map((p) => p.id).join(',') : '-';
    const lines = text.replace(/\n$/, '').split('\n');
    const provenance = provenanceLine(
      `omg-evidence@${packageVersion} probe=${probeIds} inputs=${await inputsHash(ev, spec)} query=${queryHash(spec)}`,
      lines.map((l) => `${l}\n`).join(''),
    );
    const body = [...lines, provenance];
    const old = region.body.map((l) => l.replace(/\r$/, ''));
    const current = old.length === body.length && old.every((l, k) => l === body[k]);
    out.push({ region, body, current, handEdited: !current && bodyState(old) === 'edited' });
  }
  return out;
}

/**
 * The document with every region's body replaced; bytes outside the markers are kept. The new lines
 * end as the begin marker's line does, so a CRLF document stays CRLF.
 */
export function applyRegions(doc: Parsed, rendered: Rendered[]): string {
  const lines: string[] = [];
  let at = 0;
  for (const r of rendered) {
    lines.push(...doc.lines.slice(at, r.region.begin));
    const cr = doc.lines[r.region.begin - 1]!.endsWith('\r') ? '\r' : '';
    lines.push(...r.body.map((l) => l + cr));
    at = r.region.end - 1;
  }
  lines.push(...doc.lines.slice(at));
  return lines.join('\n');
}
