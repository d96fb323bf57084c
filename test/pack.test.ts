/**
 * The package as a consumer gets it (#18 §4): `npm pack`, then the tarball installed into an
 * empty project from the registry alone, with no build on the consumer's machine (the tarball
 * carries dist/). The library imports and answers, the executable runs, and the declarations
 * type-check. Needs the npm registry (or npm's cache) for the dependencies, as `npm install` does.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repo } from './helpers.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let dir = '';
let consumer = '';

const run = (cmd: string, args: string[]) =>
  spawnSync(cmd, args, { cwd: consumer, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 240_000 });

describe('the packed package, installed into an empty project', () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'omg-pack-'));
    consumer = join(dir, 'consumer');
    // --ignore-scripts: npm test has just built dist/; pack must not build again.
    execFileSync(npm, ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: repo, stdio: 'pipe' });
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack wrote no tarball into ${dir}`);
    execFileSync('mkdir', [consumer]);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
    execFileSync(npm, ['install', '--no-audit', '--no-fund', join(dir, tarball)], { cwd: consumer, stdio: 'pipe', timeout: 240_000 });
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("resolves arquero's flechette to the version we pin", () => {
    const r = run(process.execPath, ['-e', "console.log(require('@uwdata/flechette/package.json').version)"]);
    expect(r.stdout).toBe('2.6.0\n');
  });

  it("import { openEvidence } from 'omg-evidence' opens the bundled probe", () => {
    const code = `import { openEvidence } from 'omg-evidence';
const ev = await openEvidence();
const t = await ev.census();
console.log(t.numRows(), t.columnNames().slice(0, 3).join(','));
await ev.close();`;
    writeFileSync(join(consumer, 'library.mjs'), code);
    const r = run(process.execPath, ['library.mjs']);
    expect({ code: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 0, stdout: '28 probe,seq,arm\n', stderr: '' });
  });

  it('npx omg-evidence census runs the executable', () => {
    const r = run('npx', ['--no-install', 'omg-evidence', 'census', '-f', 'csv']);
    expect(r.status).toBe(0);
    // CSV ends its records with CRLF (RFC 4180).
    expect(r.stdout.split('\r\n')[0]).toBe('probe,seq,arm,phase,session_id,status,exit_code,tools,artifacts,markers,skills,note,forgeable');
    expect(r.stdout.trimEnd().split('\r\n')).toHaveLength(29);
  });

  it('its declarations type-check in a strict consumer, with skipLibCheck false', () => {
    writeFileSync(
      join(consumer, 'typed.ts'),
      `import { openEvidence, type Evidence, InputError } from 'omg-evidence';
const ev: Evidence = await openEvidence();
const n: number = (await ev.census()).numRows();
console.log(n, InputError.name);
`,
    );
    const options = { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, types: [] };
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { ...options, skipLibCheck: false }, files: ['typed.ts'] }),
    );
    const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = run(process.execPath, [tsc, '-p', '.']);
    // arquero 8.0.3's and flechette 2.6.0's own declarations do not pass skipLibCheck: false
    // (docs/library.md says so); ours must, without @types/node in the consumer.
    const errors = r.stdout.split('\n').filter((l) => l.includes('error TS'));
    expect(errors.filter((l) => !/^node_modules\/(arquero|@uwdata\/flechette)\//.test(l))).toEqual([]);
  });
});
