/**
 * `omg-evidence render DOC...`: regenerate every marked region of markdown documents from the
 * evidence (render.ts), writing each changed document atomically. `--check` writes nothing and
 * exits 3 when any region is stale, with a unified diff of each. A region whose content was edited
 * by hand is never overwritten without `--force`.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { unifiedDiff } from '../diff.js';
import { DiffersError, InputError } from '../errors.js';
import type { IO } from '../io.js';
import { displayPath } from '../paths.js';
import type { Parsed, Rendered } from '../render.js';

function regionDiff(doc: Parsed, r: Rendered): string {
  const where = `${displayPath(doc.path)}:${r.region.begin}`;
  return unifiedDiff(
    r.region.body.map((l) => l.replace(/\r$/, '')),
    r.body,
    [`${where} ${r.region.name} (in the document)`, `${where} ${r.region.name} (from the evidence)`],
    r.region.begin + 1,
  );
}

export function makeRenderCommand(io: IO, help: () => string): Command {
  return new Command('render')
    .description('regenerate the tables inside markdown documents from the evidence; --check exits 3 when any is stale')
    .argument('<doc...>', 'markdown documents with <!-- omg-evidence:begin … --> regions')
    .option('--check', 'write nothing; exit 3 when a region is stale, with a diff')
    .option('--diff', 'print the diff of each region that changes')
    .option('--force', 'overwrite regions that were edited by hand')
    .action(async (docs: string[], opts: { check?: boolean; diff?: boolean; force?: boolean }) => {
      // The renderer reaches every command's formatting: loaded only when rendering.
      const { applyRegions, EvidenceCache, parseDocument, renderDocument } = await import('../render.js');
      const cache = new EvidenceCache();
      try {
        // Parse every document first, so a bad marker anywhere stops the run before anything is written.
        const parsed = docs.map((d) => parseDocument(d));
        const stale: string[] = [];
        for (const doc of parsed) {
          const rendered = await renderDocument(doc, cache, help);
          const changed = rendered.filter((r) => !r.current);
          if (opts.check) {
            for (const r of changed) {
              io.stdout(regionDiff(doc, r));
              stale.push(`${displayPath(doc.path)}:${r.region.begin} (${r.region.name}${r.handEdited ? ', edited by hand' : ''})`);
            }
            continue;
          }
          const edited = changed.filter((r) => r.handEdited);
          if (edited.length && !opts.force) {
            const r = edited[0]!;
            throw new InputError(
              `${displayPath(doc.path)}:${r.region.begin}: the ${r.region.name} region was edited by hand since it was rendered${edited.length > 1 ? ` (and ${edited.length - 1} more)` : ''}`,
              'move the edit outside the markers, or pass --force to overwrite it',
            );
          }
          if (opts.diff) for (const r of changed) io.stdout(regionDiff(doc, r));
          if (changed.length) {
            const tmp = `${doc.path}.omg-evidence-${process.pid}.tmp`;
            writeFileSync(tmp, applyRegions(doc, rendered));
            renameSync(tmp, doc.path);
          }
          io.stderr(`omg-evidence: render: ${displayPath(doc.path)}: ${changed.length} of ${rendered.length} region(s) rewritten\n`);
        }
        if (stale.length) throw new DiffersError(`${stale.length} region(s) stale: ${stale.join(', ')}`, 'run omg-evidence render on the document(s) to regenerate them');
        if (opts.check) io.stderr(`omg-evidence: render --check: every region is current\n`);
      } finally {
        await cache.close();
      }
    });
}
