#!/usr/bin/env node
/** The `omg-evidence` executable: runs the CLI on this process's arguments and I/O. */
import { main } from './cli.js';

process.exitCode = await main(process.argv.slice(2));
