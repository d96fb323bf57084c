/**
 * `omg-evidence render DOC...`: regenerate every marked region of markdown documents from the
 * evidence (render.ts), writing each changed document atomically (write-document.ts). `--check`
 * writes nothing and exits 3 when any region is stale or edited by hand, with a unified diff of
 * each. A region that is not exactly as render wrote it is never overwritten without `--force`.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { unifiedDiff } from '../../regions/diff.js';
import { DiffersError, InputError } from '../../base/errors.js';
import { makeCommand } from '../command.js';
import { displayedInTerminal } from '../../output/shown.js';
import { say, type IO } from '../io.js';
import { checkTimeoutOption } from '../options.js';
import { displayPath, realPath } from '../../base/paths.js';
import type { Parsed } from '../../regions/document.js';
import type { Rendered } from '../../regions/render.js';
import { mustBeUnchanged, replaceDocument, writeFileAtomically } from '../../regions/write-document.js';

/**
 * What --check and --diff print of a region: shown (displayed), since a document's own lines and its path
 * may hold escapes a hostile edit put there (an OSC 52 clipboard write) that must not reach a reviewer's terminal.
 */
function regionDiff(doc: Parsed, r: Rendered): string {
  return displayedInTerminal(regionChanges(doc, r));
}

function regionChanges(doc: Parsed, r: Rendered): string {
  const where = `${displayPath(doc.path)}:${r.region.begin}`;
  const body = r.region.body.map((l) => l.replace(/\r$/, ''));
  const same = body.length === r.body.length && body.every((l, k) => l === r.body[k]);
  const svg =
    r.svg && !r.svg.current
      ? `${where} ${r.region.name}: ${displayPath(r.svg.path)} differs from the chart the evidence draws (or is missing)\n`
      : '';
  if (same) return svg;
  return (
    svg +
    unifiedDiff(
      r.region.body.map((l) => l.replace(/\r$/, '')),
      r.body,
      [`${where} ${r.region.name} (in the document)`, `${where} ${r.region.name} (from the evidence)`],
      r.region.begin + 1,
    )
  );
}

export function makeRenderCommand(io: IO, help: () => string): Command {
  return makeCommand<{ check?: boolean; diff?: boolean; force?: boolean; checkTimeout?: number }>(io, {
    name: 'render',
    description: 'regenerate the tables inside markdown documents from the evidence; --check exits 3 when any is stale',
    arguments: [['<doc...>', 'markdown documents with <!-- omg-evidence:begin … --> regions']],
    options: [
      new Option('--check', 'write nothing; exit 3 when a region is stale, with a diff'),
      new Option('--diff', 'print the diff of each region that changes'),
      new Option('--force', 'overwrite regions that were edited by hand'),
      checkTimeoutOption(),
    ],
    action: async ({ args, opts, onWarning }) => {
      const docs = args[0] as string[];
      // The renderer reaches every table's formatter: loaded only when rendering.
      const [{ applyRegions, parseDocument }, { EvidenceCache, refuseLinkedChart, renderDocument }] = await Promise.all([
        import('../../regions/document.js'),
        import('../../regions/render.js'),
      ]);
      const cache = new EvidenceCache(opts.checkTimeout);
      try {
        // Parse every document first, so a bad marker anywhere stops the run before anything is written.
        // A document named twice (through a symlink too) is rendered once: a second write would find
        // the file changed since it was read, and refuse.
        const named = new Map<string, string>();
        for (const d of docs) {
          const key = existsSync(d) ? realPath(d) : resolve(d);
          if (!named.has(key)) named.set(key, d);
        }
        const once = [...named.values()];
        const parsed = once.map((d) => parseDocument(d));
        for (const w of parsed.flatMap((d) => d.warnings)) onWarning(w);
        // A document whose markers were all lost had passed --check: there it is a difference, here a warning.
        const bare = parsed.filter((d) => d.regions.length === 0).map((d) => displayPath(d.path));
        if (!opts.check) for (const d of bare) onWarning(`${d}: holds no region, so render has nothing to write in it`);
        const stale: string[] = [];
        const edited: string[] = [];
        const all: { doc: Parsed; rendered: Rendered[]; changed: Rendered[] }[] = [];
        // No chart is written over a document of the run: with --force, file=b.svg had replaced the write-up b.svg.
        const claimed = new Map([...named].map(([k, d]) => [k, `which is ${displayPath(d)}, a document this run renders`]));
        for (const doc of parsed) {
          const rendered = await renderDocument(doc, cache, help, claimed);
          all.push({ doc, rendered, changed: rendered.filter((r) => !r.current) });
        }
        if (opts.check) {
          for (const { doc, changed } of all) {
            for (const r of changed) {
              io.stdout(regionDiff(doc, r));
              (r.handEdited ? edited : stale).push(
                `${displayPath(doc.path)}:${r.region.begin} (${r.region.name}${r.edited === 'svg' ? `: its SVG ${displayPath(r.svg!.path)}` : ''})`,
              );
            }
          }
        } else {
          // A hand edit in any document stops the run before any document is written.
          for (const { doc, changed } of opts.force ? [] : all) {
            const byHand = changed.filter((r) => r.handEdited);
            if (!byHand.length) continue;
            const r = byHand[0]!;
            const more = byHand.length > 1 ? ` (and ${byHand.length - 1} more)` : '';
            if (r.edited === 'svg')
              throw new InputError(
                `${displayPath(doc.path)}:${r.region.begin}: ${displayPath(r.svg!.path)}, the ${r.region.name} region's chart, was edited by hand or is not a chart render wrote${more}`,
                'move the file away, give the region file=NAME.svg, or pass --force to overwrite it',
              );
            throw new InputError(
              `${displayPath(doc.path)}:${r.region.begin}: the ${r.region.name} region was edited by hand since it was rendered${more}`,
              'move the edit outside the markers, or pass --force to overwrite it',
            );
          }
          // Every document's new text before any is written: one that would change its regions stops the run.
          const texts = all.map(({ doc, rendered, changed }) => (changed.length ? applyRegions(doc, rendered) : undefined));
          for (const [i, { doc, rendered, changed }] of all.entries()) {
            if (opts.diff) for (const r of changed) io.stdout(regionDiff(doc, r));
            // The charts first: a document whose links are written names only files that exist; and
            // none of a document changed meanwhile.
            const charts = changed.flatMap((r) => (r.svg && !r.svg.current ? [{ ...r.svg, region: r.region }] : []));
            if (charts.length) mustBeUnchanged(doc.path, doc.bytes);
            // Checked again right before it is written: a link swapped in since the region was drawn is refused.
            for (const c of charts) writeFileAtomically(c.path, c.data, () => refuseLinkedChart(doc.path, c.region, c.path));
            if (texts[i] !== undefined)
              replaceDocument(
                doc.path,
                doc.bytes,
                texts[i],
                charts.map((c) => c.path),
              );
            say(io, `render: ${displayPath(doc.path)}: ${changed.length} of ${rendered.length} region(s) rewritten`);
          }
        }
        const lost = opts.check ? bare : [];
        if (stale.length || edited.length || lost.length) {
          // Stale regions render can regenerate; edited ones it would overwrite only with --force.
          const what = [
            ...(stale.length ? [`${stale.length} region(s) stale: ${stale.join(', ')}`] : []),
            ...(edited.length ? [`${edited.length} region(s) edited by hand: ${edited.join(', ')}`] : []),
            ...(lost.length ? [`${lost.length} document(s) with no region: ${lost.join(', ')}`] : []),
          ];
          const hints = [
            ...(stale.length ? ['run omg-evidence render on the document(s) to regenerate them'] : []),
            ...(edited.length ? ['move each edit outside the markers, or render --force to overwrite it'] : []),
            ...(lost.length ? ['restore the markers of each, or leave it out of the check'] : []),
          ];
          throw new DiffersError(what.join('; '), hints.join('; '));
        }
        if (opts.check) say(io, 'render --check: every region is current');
      } finally {
        await cache.close();
      }
    },
  });
}
