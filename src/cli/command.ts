/**
 * The one command factory: a description (name, arguments, options, which evidence method, which
 * formats, how rows are printed) becomes a commander Command. The files in commands/ hold only
 * their descriptions, and what is particular to a command.
 */
import { Command, type Option } from 'commander';
import { UsageError } from '../base/errors.js';
import { Evidence } from '../evidence.js';
import type { TableStyle } from '../output/formats.js';
import { warn, type IO } from './io.js';
import { chosenFormat, formatOption, tableStyle, wideOption } from './options.js';

/** What the probe arguments mean to most commands. */
export const PROBES: Argument = ['[probe...]', 'probe directories'];

/** A positional argument: its commander syntax and its help. */
export type Argument = readonly [syntax: string, description: string];

/** One run of a command: what it was given, and where it prints. */
export interface Call<O> {
  io: IO;
  /** The positional arguments, in order (a variadic one as an array). */
  args: unknown[];
  /** The first argument as probe directories (`[probe...]`); [] when the command takes none. */
  probes: string[];
  opts: O;
  /** The format asked for, or the default for where stdout goes ('' when the command offers none). */
  format: string;
  /** How a terminal table is drawn, read when it is drawn (--wide, the terminal's width). */
  style(): TableStyle;
  /** Print a warning on stderr. */
  onWarning(message: string): void;
}

export interface CommandSpec<O> {
  name: string;
  description: string;
  /** Default: [probe...]. */
  arguments?: readonly Argument[];
  /** Options before --format (sql's --file). */
  leading?: readonly Option[];
  /** The formats it offers: adds --format (with `formatNote` in its help) and --wide. */
  formats?: readonly string[];
  formatNote?: string;
  /** Options after --format and --wide. */
  options?: readonly Option[];
  action(call: Call<O>): Promise<void>;
}

export function makeCommand<O extends object>(io: IO, spec: CommandSpec<O>): Command {
  const cmd = new Command(spec.name).description(spec.description);
  for (const [syntax, description] of spec.arguments ?? [PROBES]) cmd.argument(syntax, description);
  for (const o of spec.leading ?? []) cmd.addOption(o);
  if (spec.formats) cmd.addOption(formatOption(spec.formats, spec.formatNote)).addOption(wideOption());
  for (const o of spec.options ?? []) cmd.addOption(o);
  refuseRepeatedOptions(cmd);
  return cmd.action(async (...given: unknown[]) => {
    // Commander passes the positional arguments, then the options, then the command.
    const args = given.slice(0, -2);
    const opts = given.at(-2) as O;
    const shown = opts as { format?: string; wide?: boolean };
    refuseBadPaths(cmd, args, opts);
    await spec.action({
      io,
      args,
      probes: (spec.arguments ?? [PROBES])[0]?.[0] === '[probe...]' ? (args[0] as string[]) : [],
      opts,
      format: spec.formats ? chosenFormat(shown.format, io) : '',
      style: () => tableStyle(io, shown.wide),
      onWarning: (w) => warn(io, w),
    });
  });
}

/**
 * An option of one value given twice (`--transcripts A --transcripts B`) had kept the last, A's
 * sessions dropped without a word: a usage error, as commander counts none.
 */
function refuseRepeatedOptions(cmd: Command): void {
  for (const o of cmd.options) {
    if (!(o.required || o.optional) || o.variadic) continue;
    let seen = 0;
    cmd.on(`option:${o.name()}`, () => {
      if (++seen > 1) throw new UsageError(`${o.long} is given more than once`, `give ${o.long} once`);
    });
  }
}

/**
 * An empty path names no file: the OS reads '' as the current folder, which had been read (a probe,
 * sessions) or written (a database, a page) in its place, or ignored (--db ''). Nor does one Node read as U+FFFD.
 */
function refuseBadPaths(cmd: Command, args: unknown[], opts: object): void {
  for (const o of cmd.options) {
    const value = (opts as Record<string, unknown>)[o.attributeName()];
    if (!/<(file|dir)>/.test(o.flags)) continue;
    if (value === '') throw new UsageError(`${o.long} is empty`, EMPTY_HINT);
    // `report --html --force p` had written a page named --force: an option's value that reads as an
    // option is one whose value was left out.
    if (typeof value === 'string' && /^-./.test(value)) {
      throw new UsageError(
        `${o.long} ${value}: its value looks like an option`,
        `give ${o.long} a path; for a name that starts with -, ./${value}`,
      );
    }
    if (typeof value === 'string' && value.includes('\ufffd')) throw notUtf8(`${o.long}`, value);
  }
  cmd.registeredArguments.forEach((a, i) => {
    const values = ([] as unknown[]).concat(args[i] ?? []);
    // With --file, sql's query argument is a probe too.
    const name = a.name() === 'query' && (opts as { file?: string }).file !== undefined ? 'probe' : a.name();
    if (!['probe', 'doc', 'dir', 'what'].includes(name)) return;
    if (values.includes('')) throw new UsageError(`the ${name} argument is empty`, EMPTY_HINT);
    const lossy = values.find((v) => typeof v === 'string' && v.includes('\ufffd'));
    if (lossy !== undefined) throw notUtf8(`the ${name} argument`, lossy as string);
  });
}

const EMPTY_HINT = 'give a path; an empty one would name the current folder';

/**
 * Node reads a command line's bytes that are not UTF-8 as U+FFFD: such a path would be read, or
 * written, under another name than the one given.
 */
const notUtf8 = (what: string, value: string) =>
  new UsageError(
    `${what} "${value}" holds U+FFFD: its bytes are not UTF-8 (or hold U+FFFD itself), and it would name another file`,
    'name it in UTF-8: rename the file or folder, or reach it through a link whose name is UTF-8',
  );

/** A command that opens the evidence, reads rows from it, prints them, and maybe says more. */
export interface EvidenceCommandSpec<O, R> extends Omit<CommandSpec<O>, 'action' | 'formats'> {
  formats: readonly string[];
  /** How the evidence is opened. Default: the probes, warnings printed, and --db. */
  open?(call: Call<O>): Promise<Evidence>;
  /** The evidence method it calls (and any warning about what it read). */
  rows(ev: Evidence, call: Call<O>): Promise<R>;
  /** How rows are printed in the format asked for. */
  print(rows: R, format: string, style: TableStyle, call: Call<O>): string;
  /** After printing: a summary on stderr, warnings, an exit code (thrown). */
  after?(rows: R, ev: Evidence, call: Call<O>): Promise<void>;
}

export function makeEvidenceCommand<O extends { format?: string; wide?: boolean; db?: string }, R>(
  io: IO,
  spec: EvidenceCommandSpec<O, R>,
): Command {
  return makeCommand<O>(io, {
    ...spec,
    action: async (call) => {
      const opening = spec.open ? spec.open(call) : openProbes(call);
      await withEvidence(opening, async (ev) => {
        const rows = await spec.rows(ev, call);
        call.io.stdout(spec.print(rows, call.format, call.style(), call));
        await spec.after?.(rows, ev, call);
      });
    },
  });
}

/** The probes named, warnings printed on stderr, and --db and --check-timeout when given. */
function openProbes(call: Call<{ db?: string; checkTimeout?: number }>): Promise<Evidence> {
  return Evidence.open(call.probes, { onWarning: call.onWarning, db: call.opts.db, checkTimeout: call.opts.checkTimeout });
}

/** Open evidence, use it, and close it whatever happens. */
export async function withEvidence<T>(opening: Promise<Evidence>, use: (ev: Evidence) => Promise<T>): Promise<T> {
  const ev = await opening;
  try {
    return await use(ev);
  } finally {
    await ev.close();
  }
}
