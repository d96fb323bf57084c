// `npm run screenshot`: docs/report.png, the top of the bundled probe's report (header, verdict, arms, the first charts) as headless Chromium
// draws it (Debian's chromium; CHROMIUM names another executable). The README shows it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const repo = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'omg-screenshot-'));
const out = process.argv[2] ?? join(repo, 'docs', 'report.png');
try {
  const html = join(dir, 'report.html');
  execFileSync(process.execPath, [join(repo, 'dist', 'bin.js'), 'report', join(repo, 'evidence', '0017-staged-agent-restores-layer-1'), '--html', html], {
    stdio: 'inherit',
  });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' });
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 2400 }, colorScheme: 'light', deviceScaleFactor: 1 });
    await page.goto(pathToFileURL(html).href);
    await page.screenshot({ path: out });
  } finally {
    await browser.close();
  }
  console.error(`screenshot: ${out} written`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
