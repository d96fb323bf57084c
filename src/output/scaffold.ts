/**
 * `omg-evidence init DIR`: a minimal probe written from the files under templates/probe/, with the
 * probe id (DIR's name) filled in where a template says `{{probe}}`. It writes only into a folder
 * that is new or empty: a probe is evidence, and nothing already there is ever overwritten.
 */
import { lstatSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError } from '../base/errors.js';
import { ioError, onPath } from '../base/io-error.js';
import { displayPath, makeFolders, packageRoot, walkFiles } from '../base/paths.js';
import { refuseInsideProbe, writeNewFile } from '../base/replace-file.js';
import { codePoint, INVISIBLE } from './shown.js';

/** The templates of a probe, shipped with the package. */
export const probeTemplatesDir: string = join(packageRoot, 'templates', 'probe');

/** Write a minimal probe into `dir` (new, or an empty folder). Returns the files written, relative to `dir`, sorted. */
export function scaffoldProbe(dir: string): string[] {
  if (dir.trim() === '') throw new InputError('init: no folder named', 'name a new or empty folder for the probe: omg-evidence init DIR');
  const out = resolve(dir);
  const probe = basename(out);
  // The name is the probe's id, in its README's title and markers and in its records, and the
  // commands init suggests next name the folder: a line break would split or end them.
  const control = [dir, probe].map((d) => CONTROL.exec(d)?.[0]).find((c) => c !== undefined);
  if (control !== undefined) {
    throw new InputError(
      `${escapeControls(displayPath(out))}: the probe's folder name holds a control or invisible character (${codePoint(control)}); nothing was written`,
      'name the folder with printable characters only',
    );
  }
  // A folder inside a probe (its registration/, its transcripts/) would change what the probe holds, and break it.
  refuseInsideProbe(out, 'the probe', false, 'name a folder outside every probe: a probe is evidence, and read-only');
  const stat = lstatOrNull(out);
  if (stat?.isSymbolicLink()) {
    throw new InputError(`${displayPath(out)}: is a symbolic link`, 'name the folder itself, new or empty: init writes through no link');
  }
  if (stat && !stat.isDirectory()) {
    throw new InputError(`${displayPath(out)}: exists and is not a folder`, 'name a new or empty folder for the probe');
  }
  if (stat && onPath(out, () => readdirSync(out), 'cannot be listed', 'name a new or empty folder you may read and write').length > 0) {
    throw new InputError(`${displayPath(out)}: not empty`, 'name a new or empty folder for the probe; init never overwrites');
  }
  const templates = walkFiles(probeTemplatesDir).map((f) => f.rel);
  if (templates.length === 0) {
    throw new InputError(
      `${displayPath(probeTemplatesDir)}: no probe templates`,
      'reinstall omg-evidence: its templates/ folder is missing',
    );
  }
  // A failure midway takes back what this run made, and only that (a folder or a file another
  // run made at once is that run's), so nothing half-written is left; an empty folder that was
  // there stays, as it was.
  const made: { path: string; folder: boolean }[] = [];
  const folder = (d: string) => made.push(...makeFolders(d).map((path) => ({ path, folder: true })));
  try {
    folder(out);
    for (const rel of templates) {
      const text = readFileSync(join(probeTemplatesDir, rel), 'utf8');
      // In a JSON string the id is written as JSON escapes it; elsewhere as it is.
      const id = rel.endsWith('.jsonl') ? JSON.stringify(probe).slice(1, -1) : probe;
      const target = join(out, rel);
      folder(dirname(target));
      // Never replace a file, even one that appeared since the folder was found empty; one that
      // fails part-way is taken back (writeNewFile).
      writeNewFile(
        target,
        text.replaceAll('{{probe}}', () => id),
      );
      made.push({ path: target, folder: false });
    }
    // Each file was new, but the folder may have gained others meanwhile: another init's, one of
    // a folder inside this one (init a/b beside init a/b/tool_use). Of two such runs, at most one
    // finds its folder as it wrote it; the other takes back what it wrote.
    const extra = walkFiles(out)
      .map((f) => f.rel)
      .find((rel) => !templates.includes(rel));
    if (extra !== undefined) {
      throw new InputError(
        `${displayPath(out)}: ${extra} was written into it by another process while init ran; init took back what it wrote`,
        'name a new or empty folder that nothing else writes into',
      );
    }
  } catch (err) {
    for (const m of made.reverse()) {
      try {
        // A folder goes only when empty: what another run wrote into it stays.
        if (m.folder) rmdirSync(m.path);
        else rmSync(m.path);
      } catch {
        // Left as it is.
      }
    }
    if (err instanceof InputError) throw err;
    throw ioError((err as NodeJS.ErrnoException).path ?? out, err, 'cannot write', 'name a new or empty folder you can write to');
  }
  return templates;
}

/**
 * C0, DEL, C1, the line and paragraph separators, and what tables show as code points (bidi
 * overrides, zero-width and other invisible characters, noncharacters): the suggested commands would name such a folder as no shell can.
 */
const CONTROL = new RegExp(`[\\u0000-\\u001f\\u007f\\u2028\\u2029${INVISIBLE}]`, 'u');

/** `text` with each control character written as its \u escape. */
const escapeControls = (text: string) =>
  text.replace(new RegExp(CONTROL.source, 'gu'), (c) => {
    const hex = c.codePointAt(0)!.toString(16);
    return hex.length > 4 ? `\\u{${hex}}` : `\\u${hex.padStart(4, '0')}`;
  });

function lstatOrNull(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}
