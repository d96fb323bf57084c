#!/usr/bin/env node
/** The `omg-evidence` executable: runs the CLI on this process's arguments and I/O. */
import './prestart.js';
import { main } from './cli.js';

// A reader that stops early (`omg-evidence census | head`) closes the pipe: that is the end of
// the output, not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

process.exitCode = await main(process.argv.slice(2));
