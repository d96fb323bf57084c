/**
 * The terminal (#18 §5): help on stdout, one -f, colour as NO_COLOR and FORCE_COLOR say, tables
 * that fit the terminal's width, money in dollars, one column order in every format, and no probe
 * columns where there is no probe.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

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
