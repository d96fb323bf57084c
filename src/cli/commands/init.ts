/**
 * `omg-evidence init DIR`: scaffolds a minimal probe (output/scaffold.ts) that census, verdict and
 * render work on as it stands, to be replaced record by record with a probe of one's own.
 */
import type { Command } from 'commander';
import { displayPath } from '../../base/paths.js';
import { scaffoldProbe } from '../../output/scaffold.js';
import { makeCommand } from '../command.js';
import { say, type IO } from '../io.js';

export function makeInitCommand(io: IO): Command {
  return makeCommand<Record<string, never>>(io, {
    name: 'init',
    description: 'scaffold a minimal probe in a new or empty folder: one spawn, one arm, a budget, one conjunct',
    arguments: [['<dir>', 'the folder to create (or an empty one)']],
    action: async ({ args }) => {
      const dir = String(args[0]);
      const written = scaffoldProbe(dir);
      // On stderr, as every command that writes files says what it wrote: a stdout that failed
      // (init DIR > /dev/full) had made a probe written whole exit 1, its folder left behind.
      io.stderr(written.map((f) => `${f}\n`).join(''));
      const d = displayPath(dir);
      const [p, readme] = [shellWord(d), shellWord(`${d}/README.md`)];
      say(io, `init: wrote a probe of ${written.length} files to ${d}; next: omg-evidence census ${p}, verdict ${p}, render ${readme}`);
    },
  });
}

/** `word` as a POSIX shell reads it back: as it is when that is safe, else in single quotes. */
function shellWord(word: string): string {
  // A leading dash would read as an option: ./-name is the same path.
  const path = word.startsWith('-') ? `./${word}` : word;
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}
