/**
 * The terminal (#18 §5): help on stdout, one -f, colour as NO_COLOR and FORCE_COLOR say, tables
 * that fit the terminal's width, money in dollars, one column order in every format, and no probe
 * columns where there is no probe.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProgram } from '../src/cli.js';
import { processIO } from '../src/io.js';
import { cli } from './helpers.js';

const ESC = '\x1b';

describe('help', () => {
  it('help prints the help on stdout, exit 0', async () => {
    const run = await cli(['help']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toBe((await cli(['--help'])).stdout);
    expect(run.stdout).toMatch(/^Usage: omg-evidence \[options\] \[command\]\n/);
  });

  it('help CMD prints the command help on stdout, exit 0, as CMD --help does', async () => {
    const run = await cli(['help', 'census']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^Usage: omg-evidence census \[options\] \[probe\.\.\.\]\n/);
    expect(run.stdout).toBe((await cli(['census', '--help'])).stdout);
  });

  it('a bare omg-evidence prints the help on stdout, exit 0', async () => {
    const run = await cli([]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toBe((await cli(['--help'])).stdout);
  });

  it('help for a command that does not exist is a usage error, exit 2', async () => {
    const run = await cli(['help', 'cenus']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe("omg-evidence: unknown command 'cenus'\n(Did you mean census?)\n(run with --help for usage)\n");
  });
});

describe('-f is --format', () => {
  it('in every command that has --format', () => {
    const program = makeProgram(processIO);
    const withFormat = program.commands.filter((c) => c.options.some((o) => o.long === '--format'));
    expect(withFormat.map((c) => c.name())).toEqual(['census', 'skills', 'agree', 'arms', 'verdict', 'cost', 'sql', 'schema', 'audit']);
    for (const c of withFormat) expect([c.name(), c.options.find((o) => o.long === '--format')!.short]).toEqual([c.name(), '-f']);
  });

  it('sql -f csv prints csv; its file is -F or --file', async () => {
    expect(await cli(['sql', '-f', 'csv', 'select 1 as x'])).toEqual({ code: 0, stdout: 'x\r\n1\r\n', stderr: '' });
    const dir = mkdtempSync(join(tmpdir(), 'omg-term-'));
    try {
      writeFileSync(join(dir, 'q.sql'), 'select 2 as y');
      expect(await cli(['sql', '-F', join(dir, 'q.sql'), '-f', 'csv'])).toEqual({ code: 0, stdout: 'y\r\n2\r\n', stderr: '' });
      expect(await cli(['sql', '--file', join(dir, 'q.sql'), '--format', 'csv'])).toEqual({ code: 0, stdout: 'y\r\n2\r\n', stderr: '' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('colour', () => {
  const args = ['schema', '--format', 'table'];
  it('on a terminal, without NO_COLOR: bold header, grey borders', async () => {
    const run = await cli(args, { tty: true, env: { NO_COLOR: undefined } });
    expect(run.stdout.split('\n')[1]).toMatch(/^\x1b\[90m│\x1b\[39m\x1b\[1m view +\x1b\[22m\x1b\[90m│/);
  });

  it('NO_COLOR turns it off on a terminal', async () => {
    const run = await cli(args, { tty: true, env: { NO_COLOR: '1' } });
    expect(run.stdout).not.toContain(ESC);
    expect(run.stdout.split('\n')[0]).toMatch(/^┌─/);
  });

  it('FORCE_COLOR turns it on in a pipe, and wins over NO_COLOR', async () => {
    for (const env of [{ FORCE_COLOR: '1' }, { FORCE_COLOR: '', NO_COLOR: '1' }, { FORCE_COLOR: '3' }]) {
      const run = await cli(args, { env });
      expect(run.stdout.split('\n')[0]).toMatch(/^\x1b\[90m┌─/);
    }
  });

  it('FORCE_COLOR=0 or false turns it off on a terminal', async () => {
    for (const FORCE_COLOR of ['0', 'false']) {
      const run = await cli(args, { tty: true, env: { NO_COLOR: undefined, FORCE_COLOR } });
      expect(run.stdout).not.toContain(ESC);
    }
  });
});
