/**
 * render's format=svg regions (#20 §2): the chart is written beside the document, the region holds
 * its image link (and the SVG's hash in its provenance line); render --check exits 3 when either the
 * link or the SVG's bytes are stale; an SVG changed by hand, or another's file at its name, is
 * replaced only with --force.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { displayed } from '../src/output/shown.js';
import type { Region } from '../src/regions/document.js';
import { refuseLinkedChart } from '../src/regions/render.js';
import { writeFileAtomically } from '../src/regions/write-document.js';
import { hashFileLf, sha256 } from '../src/base/hash.js';
import { bundled, cli, probeFixture } from './helpers.js';

const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

/** A document with `regions` (marker options) beside a copy of the bundled probe. */
function scratch(...regions: string[]): { dir: string; doc: string; svg: string } {
  const dir = mkdtempSync(join(tmpdir(), 'omg-render-svg-'));
  temps.push(dir);
  cpSync(bundled, join(dir, 'probe'), { recursive: true });
  const doc = join(dir, 'adr.md');
  writeFileSync(
    doc,
    `# ADR\n\n${regions.map((r) => `<!-- omg-evidence:begin ${r} -->\n<!-- omg-evidence:end -->\n`).join('\n')}\nAfter.\n`,
  );
  return { dir, doc, svg: join(dir, 'adr.arms.svg') };
}

describe('render format=svg', () => {
  it('writes the chart beside the document and the image link in the region; then everything is current', async () => {
    const { dir, doc, svg } = scratch('arms probe=probe format=svg', 'census probe=probe format=svg file="spawns timeline.svg"');
    const run = await cli(['render', doc]);
    expect(run.code).toBe(0);
    const text = readFileSync(doc, 'utf8');
    expect(text).toMatch(
      /<!-- omg-evidence:begin arms probe=probe format=svg -->\n!\[Tool calls per arm, by tool\]\(adr\.arms\.svg\)\n<!-- omg-evidence:provenance omg-evidence@\S+ probe=probe inputs=[0-9a-f]{12} query=[0-9a-f]{12} svg=[0-9a-f]{12} content=[0-9a-f]{12} -->\n/,
    );
    expect(text).toContain('![Spawns over time, by phase](spawns%20timeline.svg)');
    const chart = readFileSync(svg, 'utf8');
    expect(chart).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(chart).toContain('>Tool calls per arm, by tool</text>');
    expect(readFileSync(join(dir, 'spawns timeline.svg'), 'utf8')).toContain('>Spawns over time, by phase</text>');
    expect((await cli(['render', doc])).stderr).toMatch(/: 0 of 2 region\(s\) rewritten\n$/);
    expect((await cli(['render', '--check', doc])).code).toBe(0);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it("a file at the chart's temporary name is someone else's: it stays, and the chart is written through another", async () => {
    const { doc, svg } = scratch('arms probe=probe format=svg');
    // The process's pid names the temporary file (in-process here: the executable writes in a child of its own).
    writeFileSync(`${svg}.omg-evidence-${process.pid}.tmp`, 'theirs\n');
    const r = await cli(['render', doc]);
    expect(r.code).toBe(0);
    expect(readFileSync(svg, 'utf8')).toMatch(/^<svg /);
    expect(
      readdirSync(dirname(svg))
        .filter((f) => f.endsWith('.tmp'))
        .map((f) => readFileSync(join(dirname(svg), f), 'utf8')),
    ).toEqual(['theirs\n']);
  });

  it('a tool named with U+FFFF or U+FFFE is labelled by code points: the SVG is well-formed XML', async () => {
    const { doc, svg, dir } = scratch('arms probe=probe format=svg');
    const uses = join(dir, 'probe', 'tool_use');
    for (const f of readdirSync(uses).filter((n) => n.endsWith('.jsonl'))) {
      const path = join(uses, f);
      writeFileSync(path, readFileSync(path, 'utf8').replaceAll('"name":"Bash"', '"name":"B\\uffffa\\ufffesh"'));
    }
    expect((await cli(['render', doc])).code).toBe(0);
    const chart = readFileSync(svg, 'utf8');
    // XML 1.0's Char: what a document may hold at all.
    expect(chart.match(/[^\t\n\r\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu)).toBeNull();
    expect(chart).toContain('>B⟨U+FFFF⟩a⟨U+FFFE⟩sh</text>');
    // The loader refuses a lone surrogate in JSON; a name that held one would be shown so too.
    expect(displayed('a\ud800b\udfff')).toBe('a⟨U+D800⟩b⟨U+DFFF⟩');
  });

  it('an SVG checked out with CRLF line endings (git core.autocrlf) is current, not edited by hand', async () => {
    const { doc, svg } = scratch('arms probe=probe format=svg');
    expect((await cli(['render', doc])).code).toBe(0);
    writeFileSync(svg, readFileSync(svg, 'utf8').replaceAll('\n', '\r\n'));
    expect(await cli(['render', '--check', doc])).toMatchObject({ code: 0 });
    expect((await cli(['render', doc])).code).toBe(0);
  });

  it("an SVG whose bytes differ only where one is not UTF-8 (0xFF for the chart's U+FFFD) is not current: --check exits 3", async () => {
    // Read as text, the byte had been the U+FFFD the chart holds, and an SVG that is not XML passed.
    const { dir, doc, svg } = scratch('arms probe=probe format=svg');
    const uses = join(dir, 'probe', 'tool_use');
    for (const f of readdirSync(uses).filter((f) => f.endsWith('.jsonl')))
      writeFileSync(join(uses, f), readFileSync(join(uses, f), 'utf8').replaceAll('"name":"Bash"', '"name":"B\\ufffdsh"'));
    expect((await cli(['render', doc])).code).toBe(0);
    const bytes = readFileSync(svg);
    const fffd = Buffer.from('\ufffd');
    expect(bytes.includes(fffd)).toBe(true);
    const at = bytes.indexOf(fffd);
    writeFileSync(svg, Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff]), bytes.subarray(at + 3)]));
    const check = await cli(['render', '--check', doc]);
    expect(check.code).toBe(3);
    expect(check.stderr).toBe(
      `omg-evidence: 1 region(s) edited by hand: ${doc}:3 (arms: its SVG ${svg}) (move each edit outside the markers, or render --force to overwrite it)\n`,
    );
  });

  it('a chart that is a symbolic link is written through it, as a document is: the link stays a link', async () => {
    const { dir, doc, svg } = scratch('arms probe=probe format=svg');
    expect((await cli(['render', doc])).code).toBe(0);
    mkdirSync(join(dir, 'charts'));
    renameSync(svg, join(dir, 'charts', 'arms.svg'));
    symlinkSync(join('charts', 'arms.svg'), svg);
    // The evidence changes: the chart is stale, and rendered again into the file the link names.
    const uses = join(dir, 'probe', 'tool_use');
    const first = readdirSync(uses).find((f) => f.endsWith('.jsonl'))!;
    writeFileSync(join(uses, first), readFileSync(join(uses, first), 'utf8').split('\n').slice(1).join('\n'));
    expect((await cli(['render', doc])).code).toBe(0);
    expect(readlinkSync(svg)).toBe(join('charts', 'arms.svg'));
    expect((await cli(['render', '--check', doc])).code).toBe(0);
  });

  it('a chart that is a link into the evidence, or to the document, is refused, --force or not, and nothing is written', async () => {
    const { dir, doc, svg } = scratch('arms probe=probe format=svg');
    const results = join(dir, 'probe', 'results.jsonl');
    const before = { results: readFileSync(results, 'utf8'), doc: readFileSync(doc, 'utf8') };
    symlinkSync(join('probe', 'results.jsonl'), svg);
    for (const force of [[], ['--force']]) {
      expect(await cli(['render', ...force, doc])).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${doc}:3: adr.arms.svg is a link to ${results}, inside the probe ${join(dir, 'probe')}: nothing was written (remove the link, or give the region file=NAME.svg; evidence is read-only)\n`,
      });
    }
    rmSync(svg);
    symlinkSync('adr.md', svg);
    const again = await cli(['render', '--force', doc]);
    expect([again.code, again.stderr]).toEqual([
      1,
      // The link's target is the document being rendered: refused as a chart over a document of the run.
      `omg-evidence: ${doc}:3: arms writes adr.arms.svg, which is ${doc}, a document this run renders (give one of them file=NAME.svg, a name of its own)\n`,
    ]);
    expect({ results: readFileSync(results, 'utf8'), doc: readFileSync(doc, 'utf8') }).toEqual(before);
  });

  it("a chart linked into another region's probe is refused too, --force or not (its .svg had been overwritten)", async () => {
    const { dir, doc } = scratch('arms probe=probe format=svg file=b.svg', 'arms probe=other');
    cpSync(bundled, join(dir, 'other'), { recursive: true });
    writeFileSync(join(dir, 'other', 'fig.svg'), '<svg/>');
    symlinkSync(join('other', 'fig.svg'), join(dir, 'b.svg'));
    const r = await cli(['render', '--force', doc]);
    expect([r.code, r.stderr]).toEqual([
      1,
      expect.stringContaining(`b.svg is a link to ${join(dir, 'other', 'fig.svg')}, inside the probe ${join(dir, 'other')}`),
    ]);
    expect(readFileSync(join(dir, 'other', 'fig.svg'), 'utf8')).toBe('<svg/>');
  });

  it("a chart linked to another region's chart is that chart: refused at once, naming both (render --check had never been current)", async () => {
    const { dir, doc } = scratch('arms probe=probe format=svg file=a.svg', 'cost probe=probe format=svg file=b.svg');
    symlinkSync('a.svg', join(dir, 'b.svg'));
    expect(await cli(['render', doc])).toEqual({
      code: 1,
      stdout: '',
      stderr: `omg-evidence: ${doc}:6: cost writes b.svg, as the region at line 3 does (give one of them file=NAME.svg, a name of its own)\n`,
    });
  });

  it('a chart that is a link loop is a one-line error (it was "unexpected error … this is a bug"), and a dangling link into a probe is refused', async () => {
    const { dir, doc, svg } = scratch('arms probe=probe format=svg');
    symlinkSync('adr.arms.svg', svg);
    for (const args of [[], ['--check'], ['--force']]) {
      expect(await cli(['render', ...args, doc])).toEqual({
        code: 1,
        stdout: '',
        stderr: `omg-evidence: ${doc}:3: adr.arms.svg is a symbolic link loop (ELOOP): nothing was written (remove the link, or give the region file=NAME.svg; evidence is read-only)\n`,
      });
    }
    rmSync(svg);
    symlinkSync(join('probe', 'new.svg'), svg);
    const r = await cli(['render', doc]);
    expect([r.code, r.stderr]).toEqual([
      1,
      expect.stringContaining(`adr.arms.svg is a link to ${join(dir, 'probe', 'new.svg')}, inside the probe`),
    ]);
  });

  it('--check exits 3 when the SVG is missing, and render writes it again', async () => {
    const { doc, svg } = scratch('arms probe=probe format=svg');
    await cli(['render', doc]);
    const chart = readFileSync(svg, 'utf8');
    rmSync(svg);
    const check = await cli(['render', '--check', doc]);
    expect(check.code).toBe(3);
    expect(check.stdout).toMatch(/adr\.md:3 arms: .*adr\.arms\.svg differs from the chart the evidence draws \(or is missing\)\n$/);
    expect(check.stderr).toContain('1 region(s) stale');
    expect((await cli(['render', doc])).code).toBe(0);
    expect(readFileSync(svg, 'utf8')).toBe(chart);
  });

  it('--check exits 3 when the evidence changes: the link (its provenance) and the SVG are both stale; render rewrites both', async () => {
    const { dir, doc, svg } = scratch('arms probe=probe format=svg');
    await cli(['render', doc]);
    const before = { doc: readFileSync(doc, 'utf8'), svg: readFileSync(svg, 'utf8') };
    const uses = join(dir, 'probe', 'tool_use');
    const first = readdirSync(uses).filter((f) => f.endsWith('.jsonl'))[0]!;
    writeFileSync(join(uses, first), readFileSync(join(uses, first), 'utf8').split('\n').slice(1).join('\n'));
    const check = await cli(['render', '--check', doc]);
    expect(check.code).toBe(3);
    expect(check.stdout).toContain('adr.arms.svg differs');
    expect(check.stdout).toMatch(/\n-<!-- omg-evidence:provenance [^\n]* svg=[0-9a-f]{12} /);
    expect(readFileSync(svg, 'utf8')).toBe(before.svg);
    expect((await cli(['render', doc])).code).toBe(0);
    expect(readFileSync(svg, 'utf8')).not.toBe(before.svg);
    expect(readFileSync(doc, 'utf8')).not.toBe(before.doc);
    expect((await cli(['render', '--check', doc])).code).toBe(0);
  });

  it('an SVG edited by hand, or a file of its name render did not write, is replaced only with --force', async () => {
    const { doc, svg } = scratch('arms probe=probe format=svg');
    writeFileSync(svg, '<svg>mine</svg>\n');
    const refused = await cli(['render', doc]);
    expect(refused.code).toBe(1);
    // The region's text is as render wrote it: the message names the SVG, not the region.
    expect(refused.stderr).toMatch(
      /adr\.md:3: .*adr\.arms\.svg, the arms region's chart, was edited by hand or is not a chart render wrote \(move the file away, give the region file=NAME\.svg, or pass --force to overwrite it\)\n$/,
    );
    expect(readFileSync(svg, 'utf8')).toBe('<svg>mine</svg>\n');
    expect((await cli(['render', '--force', doc])).code).toBe(0);
    const chart = readFileSync(svg, 'utf8');
    writeFileSync(svg, chart.replace('Tool calls per arm', 'Tool calls per ARM'));
    expect((await cli(['render', doc])).code).toBe(1);
    expect((await cli(['render', '--check', doc])).stderr).toMatch(
      /1 region\(s\) edited by hand: .*adr\.md:3 \(arms: its SVG .*adr\.arms\.svg\)/,
    );
    expect((await cli(['render', '--force', doc])).code).toBe(0);
    expect(readFileSync(svg, 'utf8')).toBe(chart);
  });

  it('a table without a chart, or a file that is not an .svg beside the document, is an error naming doc:line', async () => {
    const { doc } = scratch('verdict probe=probe format=svg');
    const r = await cli(['render', doc]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/adr\.md:3: verdict has no chart \(format=svg draws arms, cost, skills, census\)\n$/);
    const other = scratch('arms probe=probe format=svg file=../x.svg');
    const r2 = await cli(['render', other.doc]);
    expect(r2.code).toBe(1);
    expect(r2.stderr).toContain('adr.md:3: file must name an .svg file beside the document; got "../x.svg"');
    // A document named d.svg whose region names d.svg would have its chart written over itself.
    const self = scratch('arms probe=probe format=svg file=d.svg');
    const named = join(self.dir, 'd.svg');
    renameSync(self.doc, named);
    const before = readFileSync(named, 'utf8');
    const r3 = await cli(['render', '--force', named]);
    expect([r3.code, r3.stderr]).toEqual([
      1,
      expect.stringMatching(/d\.svg:3: file names the document itself \("d\.svg"\) \(name another \.svg file beside the document\)\n$/),
    ]);
    expect(readFileSync(named, 'utf8')).toBe(before);
  });

  it('two regions that would write one SVG file are refused, naming both lines, and nothing is written', async () => {
    const same = scratch('arms probe=probe format=svg', 'arms probe=probe format=svg');
    const before = readFileSync(same.doc, 'utf8');
    const r = await cli(['render', same.doc]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /adr\.md:6: arms writes adr\.arms\.svg, as the region at line 3 does \(give one of them file=NAME\.svg, a name of its own\)\n$/,
    );
    expect(readFileSync(same.doc, 'utf8')).toBe(before);
    expect(readdirSync(same.dir).filter((f) => f.endsWith('.svg'))).toEqual([]);
    const named = scratch('arms probe=probe format=svg file=c.svg', 'cost probe=probe format=svg file=c.svg');
    const r2 = await cli(['render', '--check', named.doc]);
    expect(r2.code).toBe(1);
    expect(r2.stderr).toContain('adr.md:6: cost writes c.svg, as the region at line 3 does');
  });

  it('a folder or a FIFO at the SVG path is an error naming doc:line, with --check too (it neither hangs nor crashes)', async () => {
    const folder = scratch('arms probe=probe format=svg');
    mkdirSync(folder.svg);
    for (const args of [
      ['render', folder.doc],
      ['render', '--check', folder.doc],
    ]) {
      const r = await cli(args);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /adr\.md:3: adr\.arms\.svg is a folder, not an SVG file render can write \(move it away, or give the region file=NAME\.svg\)\n$/,
      );
    }
    const fifo = scratch('arms probe=probe format=svg');
    execFileSync('mkfifo', [fifo.svg]);
    // A writer, so that a read of the FIFO (the bug) ends, and the test fails rather than hangs.
    const writer = spawn('sh', ['-c', 'echo x > "$1"', 'sh', fifo.svg], { stdio: 'ignore' });
    const r = await cli(['render', '--check', fifo.doc]).finally(() => writer.kill());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('adr.md:3: adr.arms.svg is not a regular file, not an SVG file render can write');
  }, 60_000);

  it('two documents of one run that would write one SVG file (notes.md, notes.markdown) are refused, naming both, and nothing is written', async () => {
    const { dir, doc } = scratch('arms probe=probe format=svg');
    const md = join(dir, 'notes.md');
    const markdown = join(dir, 'notes.markdown');
    renameSync(doc, md);
    writeFileSync(markdown, readFileSync(md, 'utf8'));
    const before = readFileSync(md, 'utf8');
    const r = await cli(['render', md, markdown]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /notes\.markdown:3: arms writes notes\.arms\.svg, as .*notes\.md:3 does \(give one of them file=NAME\.svg, a name of its own\)\n$/,
    );
    expect(readdirSync(dir).sort()).toEqual(['notes.markdown', 'notes.md', 'probe']);
    expect(readFileSync(md, 'utf8')).toBe(before);
  });

  it('a chart whose file= is another document of the run is refused, --force or not: the document is not replaced', async () => {
    const { dir, doc } = scratch('arms probe=probe format=svg file=b.svg');
    const b = join(dir, 'b.svg');
    const writeUp = '# b, a write-up\n\n<!-- omg-evidence:begin verdict probe=probe -->\n<!-- omg-evidence:end -->\n';
    writeFileSync(b, writeUp);
    const r = await cli(['render', '--force', b, doc]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `omg-evidence: ${doc}:3: arms writes b.svg, which is ${b}, a document this run renders (give one of them file=NAME.svg, a name of its own)\n`,
    );
    expect(readFileSync(b, 'utf8')).toBe(writeUp);
  });

  it("a chart's file larger than a string may hold (600 MB, sparse) is compared through one buffer, not read whole: edited, exit 3", async () => {
    const { doc, svg } = scratch('arms probe=probe format=svg');
    writeFileSync(svg, '');
    truncateSync(svg, 600 << 20);
    const r = await cli(['render', '--check', doc]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('adr.md:3 (arms: its SVG');
  }, 60_000);

  it('a CRLF split across two reads of the one buffer is read as LF; a lone CR is kept', () => {
    const { dir } = scratch();
    const hex = (s: string) => sha256().update(s).digest('hex');
    const cases = [`${'a'.repeat((1 << 20) - 1)}\r\nb`, 'x\ry\r\nz\r', `${'a'.repeat((1 << 20) - 1)}\rb`];
    for (const [i, text] of cases.entries()) {
      writeFileSync(join(dir, `${i}.svg`), text, 'latin1');
      expect(hashFileLf(join(dir, `${i}.svg`))).toBe(hex(text.replaceAll('\r\n', '\n')));
    }
  });

  it('a document reached through a symbolic link gets its SVG beside the file it points to, named after it', async () => {
    const { dir } = scratch();
    mkdirSync(join(dir, 'real'));
    mkdirSync(join(dir, 'links', 'deep'), { recursive: true });
    const real = join(dir, 'real', 'adr.md');
    // probe= is relative to the file the link points to, as its chart is.
    writeFileSync(real, '# ADR\n\n<!-- omg-evidence:begin arms probe=../probe format=svg -->\n<!-- omg-evidence:end -->\n');
    // A folder deeper than the target's, so that ../probe from the link's folder is no probe.
    symlinkSync(join('..', '..', 'real', 'adr.md'), join(dir, 'links', 'deep', 'notes.md'));
    const r = await cli(['render', join(dir, 'links', 'deep', 'notes.md')]);
    expect(r.code).toBe(0);
    expect(readdirSync(join(dir, 'links', 'deep'))).toEqual(['notes.md']);
    expect(readdirSync(join(dir, 'real')).sort()).toEqual(['adr.arms.svg', 'adr.md']);
    expect(readFileSync(real, 'utf8')).toContain('](adr.arms.svg)');
    expect((await cli(['render', '--check', join(dir, 'links', 'deep', 'notes.md')])).code).toBe(0);
    expect((await cli(['render', '--check', real])).code).toBe(0);
  });

  it('a document whose name starts with a dot gets its chart named after it (.notes.md: .notes.arms.svg)', async () => {
    const { dir, doc } = scratch('arms probe=probe format=svg');
    const dotted = join(dir, '.notes.md');
    writeFileSync(dotted, readFileSync(doc, 'utf8'));
    const r = await cli(['render', dotted]);
    expect(r.stderr).toMatch(/\.notes\.md: 1 of 1 region\(s\) rewritten\n$/);
    expect(r.code).toBe(0);
    expect(readdirSync(dir)).toContain('.notes.arms.svg');
    expect(readFileSync(dotted, 'utf8')).toContain('](.notes.arms.svg)');
  });
});

describe('format=svg skills', () => {
  it("counts the spawns arms counts: a pilot's Skill call is left out, a void arm's kept", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-render-svg-'));
    temps.push(dir);
    cpSync(probeFixture('pilot-skill-call'), join(dir, 'probe'), { recursive: true });
    const doc = join(dir, 'adr.md');
    writeFileSync(doc, '# ADR\n\n<!-- omg-evidence:begin skills probe=probe format=svg -->\n<!-- omg-evidence:end -->\n');
    expect((await cli(['render', doc])).code).toBe(0);
    const labels = [...readFileSync(join(dir, 'adr.skills.svg'), 'utf8').matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(labels).toContain('A-TWO');
    expect(labels).not.toContain('A-ONE');
    const rows = await cli(['sql', '-F', 'queries/skill_resolution.sql', probeFixture('pilot-skill-call'), '--format', 'csv']);
    expect(rows.stdout).toBe('probe,arm,answer,calls,sessions\r\npilot-skill-call,A-TWO,Unknown skill,1,1\r\n');
    // arms: the pilot is A-ONE's only spawn, so it describes none, and no skill.
    const arms = await cli(['arms', probeFixture('pilot-skill-call'), '--format', 'json']);
    expect(
      JSON.parse(arms.stdout).map((a: { arm: string; n: number; skills: unknown[]; unknown_skills: unknown[] }) => [
        a.arm,
        a.n,
        a.skills.length,
        a.unknown_skills.length,
      ]),
    ).toEqual([
      ['A-ONE', 0, 0, 0],
      ['A-TWO', 1, 0, 1],
    ]);
  });
});

describe('a chart swapped for a link between drawing and writing (render wrote through it, over results.jsonl)', () => {
  it('is refused right before the rename, and the probe is untouched', () => {
    const { dir, doc } = scratch();
    const chart = join(dir, 'c.svg');
    const results = join(dir, 'probe', 'results.jsonl');
    const before = readFileSync(results);
    const swapped = () => {
      symlinkSync(join('probe', 'results.jsonl'), chart);
      refuseLinkedChart(doc, { begin: 3 } as Region, chart);
    };
    expect(() => writeFileAtomically(chart, '<svg/>\n', swapped)).toThrow(
      /:3: c\.svg is a link to .*probe\/results\.jsonl, inside the probe .*probe: nothing was written/,
    );
    expect(readFileSync(results)).toEqual(before);
    expect(readdirSync(dir).sort()).toEqual(['adr.md', 'c.svg', 'probe']);
  });
});
