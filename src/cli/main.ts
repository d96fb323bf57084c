/**
 * The command line: assembles one commander program from the command files, and is the one place
 * that prints errors and picks the exit code (errors.ts). Commands write data to stdout and throw;
 * they never exit.
 */
import { Command, CommanderError } from 'commander';
import { makeAgreeCommand } from './commands/agree.js';
import { makeArmsCommand } from './commands/arms.js';
import { makeAuditCommand } from './commands/audit.js';
import { makeCostCommand } from './commands/cost.js';
import { makeExportCommand } from './commands/export.js';
import { makeLoadCommand } from './commands/load.js';
import { makeRenderCommand } from './commands/render.js';
import { makeSchemaCommand } from './commands/schema.js';
import { makeSqlCommand } from './commands/sql.js';
import { makeCensusCommand } from './commands/census.js';
import { makeExtractCommand } from './commands/extract.js';
import { makeInitCommand } from './commands/init.js';
import { makeSkillsCommand } from './commands/skills.js';
import { makeVerdictCommand } from './commands/verdict.js';
import { makeUsageCommand } from './commands/usage.js';
import { makeReportCommand } from './commands/report.js';
import { EXIT, OmgError, OutputClosed } from '../base/errors.js';
import { processIO, visible, type IO } from './io.js';
import { packageVersion } from '../base/paths.js';

export function makeProgram(io: IO): Command {
  const program = new Command('omg-evidence')
    .description('Turn the committed evidence of a Claude Code CLI probe into the tables of its write-up, and question it with SQL.')
    .version(packageVersion, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => io.stdout(s),
      writeErr: (s) => io.stderr(s),
      outputError: (s, write) => write(`omg-evidence: ${commanderMessage(s)}`),
    })
    .exitOverride();
  const makers = [
    makeCensusCommand,
    makeSkillsCommand,
    makeAgreeCommand,
    makeExtractCommand,
    makeArmsCommand,
    makeVerdictCommand,
    makeCostCommand,
    makeUsageCommand,
    makeReportCommand,
    makeSqlCommand,
    makeSchemaCommand,
    makeLoadCommand,
    makeExportCommand,
    makeAuditCommand,
    makeInitCommand,
  ];
  const all = [...makers.map((make) => make(io)), makeRenderCommand(io, () => commandReference(program))];
  for (const cmd of all) {
    cmd.exitOverride().configureOutput(program.configureOutput()).showHelpAfterError('(run with --help for usage)');
    program.addCommand(cmd);
  }
  return program;
}

/** Every command's --help, for the generated command reference in docs/commands.md. */
export function commandReference(program: Command): string {
  const width = { helpWidth: 100 };
  const parts = [program.configureHelp(width).helpInformation()];
  for (const cmd of program.commands) parts.push(cmd.configureHelp(width).helpInformation());
  return parts.join('\n');
}

/** Run the CLI with `argv` (without node and the script). Resolves to the exit code. */
export async function main(argv: string[], io: IO = processIO): Promise<number> {
  const program = makeProgram(io);
  // A bare `omg-evidence`, `help`, `help help` and `help CMD` are --help and CMD --help: the same text, on
  // stdout, exit 0 (commander's own `help` command exits as for an error). An unknown CMD is a usage error.
  // `help CMD --help` and `help -- CMD` ask for the same.
  if (argv[0] === 'help') argv = argv.filter((a, i) => i === 0 || !['--', '-h', '--help'].includes(a));
  if (argv.length === 0 || (argv[0] === 'help' && argv.length <= 2)) {
    if (argv[1] === 'help') argv = ['--help'];
    else if (argv[1] !== undefined && !program.commands.some((c) => c.name() === argv[1])) argv = [argv[1]];
    else argv = [...argv.slice(1), '--help'];
  }
  try {
    // More than a command after help is a usage error, as commander's own excess arguments are.
    if (argv[0] === 'help') {
      program.error(`too many arguments for 'help'. Expected at most 1 argument but got ${argv.length - 1}.`, {
        code: 'commander.excessArguments',
        exitCode: EXIT.usage,
      });
    }
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    return report(err, io);
  }
}

function report(err: unknown, io: IO): number {
  if (err instanceof CommanderError) {
    // Commander has already printed its message (or the help / version).
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.ok;
    return EXIT.usage;
  }
  if (err instanceof OutputClosed) return err.exitCode;
  if (err instanceof OmgError) {
    io.stderr(`omg-evidence: ${shorten(err.message)}${err.hint ? ` (${shorten(err.hint)})` : ''}\n`);
    for (const line of err.details) io.stderr(`omg-evidence: ${shorten(line)}\n`);
    return err.exitCode;
  }
  const e = err as Error;
  io.stderr(`omg-evidence: unexpected error: ${shorten(e?.message ?? String(err))}\n`);
  if (io.env.OMG_EVIDENCE_DEBUG) io.stderr(`${e?.stack ?? ''}\n`);
  else io.stderr('omg-evidence: this is a bug; set OMG_EVIDENCE_DEBUG=1 to see the stack trace\n');
  return EXIT.error;
}

/**
 * commander's message as ours are: shown and shortened (shorten), its own `(Did you mean …?)` kept on a
 * line of its own. An unknown "option" holding a space or a line break is a query that starts with `--`.
 */
function commanderMessage(s: string): string {
  const [, text = s, suggestion = ''] = /^(?:error: )?([\s\S]*?)(\n\(Did you mean [^\n]*\?\))?\n?$/.exec(s) ?? [];
  const query = /^unknown option '[\s\S]*\s[\s\S]*'$/.test(text) ? ' (a query starting with - goes after --, or use -F FILE or stdin)' : '';
  return `${shorten(text)}${query}${suggestion}\n`;
}

/**
 * A message with each word of more than 160 characters cut to its first 80 and last 60 around an
 * ellipsis, and the whole to its first 600 and last 300 when still over 1,000: a value or a path
 * from a hostile input is echoed, never a line of a megabyte. Cuts fall between code points.
 */
export function shorten(message: string): string {
  // Megabytes (DuckDB repeats a value it cannot convert) are cut first: V8's search for a long word
  // overflows its stack on a word of ten million characters, in the one place that prints errors.
  if (message.length > 65_536)
    message = `${message.slice(0, unitBefore(message, 32_768))}…${message.slice(unitBefore(message, message.length - 16_384))}`;
  const cut = (text: string, head: number, tail: number) => {
    const cps = Array.from(text);
    return cps.length > head + tail + 20 ? `${cps.slice(0, head).join('')}…${cps.slice(-tail).join('')}` : text;
  };
  return cut(
    visible(message).replace(/\S{161,}/gu, (w) => cut(w, 80, 60)),
    600,
    300,
  );
}

/** `at`, or one before it when a cut there would split a surrogate pair. */
function unitBefore(text: string, at: number): number {
  const unit = text.charCodeAt(at);
  return unit >= 0xdc00 && unit <= 0xdfff ? at - 1 : at;
}
