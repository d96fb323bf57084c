/**
 * Rendering the regions of a document (document.ts finds them) from the evidence: each region's
 * name and options checked, its table made by the output/ formatters, and its provenance line
 * (inputs.ts); and which regions are current, stale or hand-edited. Writing (atomically) and
 * printing are the command's job.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { OmgError } from '../base/errors.js';
import { displayPath, packageVersion } from '../base/paths.js';
import { onPath } from '../base/io-error.js';
import { linkedOrNot, probeHolding } from '../base/replace-file.js';
import { costReports, Evidence, listQueries, readQuery, VIEWS, type Source } from '../evidence.js';
import { formatArms } from '../output/arms.js';
import { chartSvg } from '../output/chart-svg.js';
import { type Chart, costByArmChart, skillResolutionChart, spawnsOverTimeChart, toolsPerArmChart } from '../output/charts.js';
import { formatCensus } from '../output/census.js';
import { formatCost } from '../output/cost.js';
import { tabulate } from '../output/formats.js';
import { documentedColumns, formatSchema } from '../output/schema.js';
import { formatSkills } from '../output/skills.js';
import { formatResult } from '../output/sql.js';
import { formatVerdicts } from '../output/verdict.js';
import { fail, holds, TABLES, type Parsed, type Region } from './document.js';
import { inputsHash, notAnInput, queryHash } from './inputs.js';
import { bodyState, chartOnDisk, provenanceLine, shortHash } from './provenance.js';

const FORMATS = ['markdown', 'text', 'table', 'svg'] as const;

/** The tables that have a chart (format=svg), and the chart each draws. */
const CHARTS: Record<string, (ev: Evidence) => Promise<Chart>> = {
  arms: async (ev) => toolsPerArmChart(await ev.armRows()),
  cost: async (ev) => costByArmChart((await costReports(ev))[0]?.by_arm ?? []),
  skills: async (ev) => skillResolutionChart((await ev.query('skill_resolution')).rows),
  census: async (ev) => spawnsOverTimeChart((await ev.query('spawn_times')).rows),
};

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
  /** What was edited: the region's text, or (format=svg) only its SVG file. */
  edited?: 'region' | 'svg';
  /** format=svg: the chart's file beside the document, its bytes, and whether the file holds them. */
  svg?: { path: string; data: string; current: boolean };
}

interface Spec {
  name: string;
  format: (typeof FORMATS)[number];
  from: Source;
  probes: string[];
  params: Record<string, string>;
  /** format=svg: the chart's file name, beside the document. */
  file?: string;
}

/** Validate a region's name and options against what it can render. */
function specOf(doc: string, r: Region): Spec {
  const isTable = (TABLES as readonly string[]).includes(r.name);
  const query = isTable ? undefined : listQueries().includes(r.name) ? readQuery(r.name) : undefined;
  if (!isTable && !query) {
    fail(doc, r.begin, `unknown table or query "${r.name}"`, `name one of ${TABLES.join(', ')}, or a query: ${listQueries().join(', ')}`);
  }
  const svg = r.options.format?.[0] === 'svg';
  const known = ['probe', 'format', ...(['census', 'skills'].includes(r.name) && !svg ? ['from'] : []), ...(query?.params ?? [])];
  if (svg) known.push('file');
  for (const key of Object.keys(r.options)) {
    if (!known.includes(key))
      fail(doc, r.begin, `unknown option "${key}" for ${r.name}`, `the options of ${r.name} are ${known.join(', ')}`);
  }
  const missing = (query?.params ?? []).filter((p) => !(p in r.options));
  if (missing.length)
    fail(doc, r.begin, `${r.name} needs the option(s) ${missing.join(', ')}`, `give each as name=value, e.g. ${missing[0]}=…`);
  for (const [key, values] of Object.entries(r.options)) {
    if (key !== 'probe' && values.length > 1)
      fail(doc, r.begin, `option "${key}" is given ${values.length} times`, 'only probe may repeat');
  }
  const format = (r.options.format?.[0] ?? 'markdown') as Spec['format'];
  if (!(FORMATS as readonly string[]).includes(format)) fail(doc, r.begin, `format must be ${FORMATS.join(', ')}; got "${format}"`);
  if (svg && !(r.name in CHARTS)) fail(doc, r.begin, `${r.name} has no chart`, `format=svg draws ${Object.keys(CHARTS).join(', ')}`);
  const given = r.options.file?.[0];
  // A name given must be a plain .svg file beside the document; the default is the document's own name (.notes.md gives .notes.arms.svg).
  if (given !== undefined && (!/^[^/\\\0]+\.svg$/.test(given) || given.startsWith('.')))
    fail(doc, r.begin, `file must name an .svg file beside the document; got "${given}"`);
  if (given !== undefined && given === basename(realDoc(doc)))
    fail(doc, r.begin, `file names the document itself ("${given}")`, 'name another .svg file beside the document');
  const file = svg ? (given ?? `${basename(realDoc(doc), extname(realDoc(doc)))}.${r.name}.svg`) : undefined;
  if (file && Buffer.byteLength(file) > 255)
    fail(
      doc,
      r.begin,
      `the chart's file name is ${Buffer.byteLength(file)} bytes, more than a name may hold (255)`,
      'give the region file=NAME.svg, a shorter name',
    );
  const from = (r.options.from?.[0] ?? 'records') as Source;
  if (from !== 'records' && from !== 'transcripts') fail(doc, r.begin, `from must be records or transcripts; got "${from}"`);
  // Relative to the document as the file it is, as its chart is: the same through a link or not.
  const probes = (r.options.probe ?? []).map((p) => resolve(dirname(realDoc(doc)), p));
  for (const p of probes) {
    if (!existsSync(p) || !statSync(p).isDirectory())
      fail(doc, r.begin, `probe "${displayPath(p)}" does not exist`, 'probe= is a path relative to the document');
  }
  const params = Object.fromEntries(
    Object.entries(r.options)
      .filter(([k]) => query?.params.includes(k))
      .map(([k, v]) => [k, v[0]!]),
  );
  return { name: r.name, format, from, probes, params, file };
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
      return wrap(formatSchema(VIEWS, documentedColumns(VIEWS, await ev!.viewColumns()), tabular));
    case 'queries': {
      const rows = listQueries().map((n) => ({ query: `\`${n}\``, summary: readQuery(n).summary, params: readQuery(n).params.join(', ') }));
      const columns = [{ key: 'query', markdown: true }, { key: 'summary', markdown: true }, { key: 'params' }];
      return wrap(tabulate(tabular, columns, rows, { cells: (r) => r }));
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
  /** `checkTimeout`: OpenOptions.checkTimeout, for the verdicts and arms regions. */
  constructor(private readonly checkTimeout?: number) {}
  get(probes: string[], from: Source): Promise<Evidence> {
    const key = JSON.stringify([probes, from]);
    if (!this.open.has(key)) {
      const transcripts = from === 'transcripts' ? true : undefined;
      this.open.set(key, Evidence.open(probes, { transcripts, ownTranscripts: true, checkTimeout: this.checkTimeout }));
    }
    return this.open.get(key)!;
  }
  async close(): Promise<void> {
    for (const p of this.open.values()) (await p.catch(() => undefined))?.close();
  }
  private readonly made = new Map<string, Promise<string>>();
  /** What `make` gives for `key`, made once per run: regions that ask the same of the same evidence. */
  once(key: unknown[], make: () => Promise<string>): Promise<string> {
    const k = JSON.stringify(key);
    if (!this.made.has(k)) this.made.set(k, make());
    return this.made.get(k)!;
  }
}

/** What `run` gives for a region; its error (a probe that cannot be opened, a parameter its query refuses) names the region's line. */
async function atRegion<T>(doc: string, region: Region, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (!(e instanceof OmgError) || e.message.startsWith(`${displayPath(doc)}:`)) throw e;
    fail(doc, region.begin, e.message, e.hint, e.details);
  }
}

/** Render every region of a parsed document. `help` gives the command reference. */
export async function renderDocument(
  doc: Parsed,
  cache: EvidenceCache,
  help: () => string,
  /** The SVG files other documents of this run write, and the documents, by absolute path: why a chart may not be one. */
  claimed: Map<string, string> = new Map(),
): Promise<Rendered[]> {
  const specs = doc.regions.map((r) => specOf(doc.path, r));
  sharedSvgFiles(doc, specs, claimed);
  const out: Rendered[] = [];
  for (const [i, region] of doc.regions.entries()) {
    const spec = specs[i]!;
    const needsEvidence = spec.name !== 'commands' && spec.name !== 'queries';
    const ev = needsEvidence ? await atRegion(doc.path, region, () => notAnInput(doc.path, cache.get(spec.probes, spec.from))) : undefined;
    const svg = spec.format === 'svg' ? await atRegion(doc.path, region, () => chartFile(doc.path, region, spec, ev!)) : undefined;
    const asked = [spec.probes, spec.from, spec.name, spec.format, spec.params];
    const text = svg ? svg.link : await atRegion(doc.path, region, () => cache.once(['content', ...asked], () => content(spec, ev, help)));
    const probeIds = ev ? ev.probes.map((p) => lineSafe(p.id)).join(',') : '-';
    const lines = text.replace(/\n$/, '').split('\n');
    const provenance = provenanceLine(
      `omg-evidence@${packageVersion} probe=${probeIds} inputs=${await cache.once(['inputs', ...asked], () => inputsHash(ev, spec))} query=${queryHash(spec)}${svg ? ` svg=${shortHash(svg.data)}` : ''}`,
      lines.map((l) => `${l}\n`).join(''),
    );
    const body = [...lines, provenance];
    const old = region.body.map((l) => l.replace(/\r$/, ''));
    const current = holds(region, body) && (svg?.current ?? true);
    const state = bodyState(old);
    // An SVG that is neither what this region last wrote (its svg= hash) nor what it would write now was edited, or is another's.
    const svgEdited = svg !== undefined && svg.onDisk !== null && !svg.current && svg.onDisk !== svgHashIn(old, state);
    out.push({
      region,
      body,
      current,
      handEdited: !current && (state === 'edited' || svgEdited),
      ...(!current && state === 'edited' ? { edited: 'region' as const } : !current && svgEdited ? { edited: 'svg' as const } : {}),
      ...(svg ? { svg: { path: svg.path, data: svg.data, current: svg.current } } : {}),
    });
  }
  return out;
}

/**
 * Two format=svg regions of a document that write one file (by name, or through a link: the file each name
 * is) would each rewrite it in turn, and never be current together: refused before anything is drawn.
 */
function sharedSvgFiles(doc: Parsed, specs: Spec[], claimed: Map<string, string>): void {
  const dir = dirname(realDoc(doc.path));
  const targets = specs.map((spec) => spec.file && (linkedOrNot(join(dir, spec.file)) ?? spec.file));
  const first = new Map<string, number>();
  for (const [i, spec] of specs.entries()) {
    const target = targets[i];
    if (target === undefined) continue;
    const line = doc.regions[i]!.begin;
    // Another region of the document, or another document of the run (notes.md beside notes.markdown).
    const other = first.get(target);
    const elsewhere = other === undefined ? claimed.get(target) : `as the region at line ${other} does`;
    if (elsewhere !== undefined)
      fail(doc.path, line, `${spec.name} writes ${spec.file}, ${elsewhere}`, 'give one of them file=NAME.svg, a name of its own');
    first.set(target, line);
  }
  for (const [i, target] of targets.entries()) {
    if (target !== undefined) claimed.set(target, `as ${displayPath(doc.path)}:${doc.regions[i]!.begin} does`);
  }
}

/** The svg= hash of a region's provenance line, when render wrote it (null otherwise). */
function svgHashIn(body: string[], state: ReturnType<typeof bodyState>): string | null {
  return state === 'rendered' ? (/ svg=([0-9a-f]{12}) /.exec(body.at(-1) ?? '')?.[1] ?? null) : null;
}

/**
 * The document as the file it is: a document reached through a symbolic link is written through it, so
 * its chart goes beside (and is named after) the file the link points to, where the image link resolves.
 */
function realDoc(doc: string): string {
  try {
    return realpathSync(doc);
  } catch {
    return doc;
  }
}

/**
 * A format=svg region's chart: drawn from one probe, its file beside the document, the hash of what
 * that file holds now (null when absent), and the image link the region holds.
 */
async function chartFile(doc: string, region: Region, spec: Spec, ev: Evidence) {
  if (ev.probes.length !== 1)
    fail(doc, region.begin, `format=svg draws one probe; the region names ${ev.probes.length}`, 'name one probe=');
  const chart = await CHARTS[spec.name]!(ev);
  const data = `${await chartSvg(chart, { standalone: true })}\n`;
  const path = join(dirname(realDoc(doc)), spec.file!);
  refuseLinkedChart(doc, region, path);
  // Only a file is read: a FIFO would block the read forever, a folder would fail it.
  const kind = statSync(path, { throwIfNoEntry: false });
  if (kind && !kind.isFile())
    fail(
      doc,
      region.begin,
      `${spec.file} is ${kind.isDirectory() ? 'a folder' : 'not a regular file'}, not an SVG file render can write`,
      'move it away, or give the region file=NAME.svg',
    );
  // Bytes, not text (a byte not UTF-8 reads as the U+FFFD a chart may hold); CRLF (git's autocrlf) changes no chart.
  const onDisk = kind ? onPath(path, () => chartOnDisk(path, data)) : null;
  // The link's path, %-escaped where markdown would read a character otherwise.
  const link = `![${chart.title}](${spec.file!.replace(/[^\w.-]/g, (c) => [...Buffer.from(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''))})`;
  return { path, data, current: onDisk?.same === true, onDisk: onDisk?.hash ?? null, link };
}

/**
 * A chart that is a symbolic link is written through it, but only to an .svg file in no probe, --force or
 * not: a link to results.jsonl, to the document, or into another region's probe had them replaced by the chart.
 */
export function refuseLinkedChart(doc: string, region: Region, path: string): void {
  // Followed even when it points at nothing yet (a dangling link into a probe); a loop is refused.
  const real = linkedOrNot(path);
  if (real === path) return;
  const probe = real && probeHolding(real);
  if (!real || probe || extname(real).toLowerCase() !== '.svg')
    fail(
      doc,
      region.begin,
      `${basename(path)} is ${real ? `a link to ${displayPath(real)}, ${probe ? `inside the probe ${displayPath(probe)}` : 'not an .svg file'}` : 'a symbolic link loop (ELOOP)'}: nothing was written`,
      'remove the link, or give the region file=NAME.svg; evidence is read-only',
    );
}

/**
 * A probe id as it can stand in the provenance line: a folder name may hold a newline, a space or
 * `-->`, which would break the line or end its comment; those characters (and `%`) are %-escaped.
 */
function lineSafe(id: string): string {
  return id.replace(/[%>\s\p{Cc}]/gu, (c) => encodeURIComponent(c));
}
