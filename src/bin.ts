#!/usr/bin/env node
/** The `omg-evidence` executable: runs the CLI on this process's arguments and I/O. */
// `sql` and the commands that run a probe's registered checks run in a child process that this one
// can stop (cli/supervise.ts): decided before DuckDB starts (prestart.ts).
{
  const { childOfSupervisor, supervise, supervises } = await import('./cli/supervise.js');
  if (supervises(process.argv.slice(2))) process.exit(await supervise(process.argv.slice(2)));
  childOfSupervisor();
}
await import('./db/prestart.js');

// The CLI loads once DuckDB has started (prestart.ts): a static import would be evaluated first.
const [{ main }, { Database }, { closeStdout, stdoutClosed, stdoutWritten }] = await Promise.all([
  import('./cli/main.js'),
  import('./db/database.js'),
  import('./cli/io.js'),
]);

// A reader that stops early (`omg-evidence census | head`) closes the pipe: that is the end of
// the output, not an error. The command still ends with its own exit code: `verdict | head` is 4
// when the verdict does not hold (a query being printed is stopped: sql.ts).
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE' || stdoutClosed()) return closeStdout();
  // Any other (a full disk, EIO): what was written is not all of it, which stderr says if it can.
  process.stderr.write(
    `omg-evidence: cannot write the output (${err.code ?? err.message}); what was written is incomplete (check the disk or device stdout goes to)\n`,
  );
  process.exit(1);
});
// stderr carries no data: a stderr that cannot be written (2>/dev/full), or whose reader has gone (EPIPE),
// changes neither what the command does nor its exit code (init had exited 1 with its probe written whole, and a
// warning into a closed pipe had ended a command at once with exit 0, its output unwritten).
process.stderr.on('error', () => undefined);

// The process ends with the command: in-memory databases end with it (Database.leaveToExit).
Database.leaveToExit();
const code = await main(process.argv.slice(2));
process.exitCode = code;
// Exit once everything written has been handed to the OS (a pipe's writes can be asynchronous).
// After an error (1) or a usage error (2) stdout is incomplete anyway: a reader that has stopped
// reading (a query stopped by --timeout while it held the rows) does not keep the process.
const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((done) => stream.write('', () => done()));
// A command that wrote nothing there does not write to it at all: an empty write to a full device
// fails (ENOSPC), and had made init DIR > /dev/full exit 1, its probe written whole.
const flushOut = !(code === 1 || code === 2 || stdoutClosed() || !stdoutWritten());
await Promise.all([...(flushOut ? [flushed(process.stdout)] : []), flushed(process.stderr)]);
process.exit(code);
