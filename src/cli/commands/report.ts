/**
 * `omg-evidence report [PROBE...] --html FILE`: one self-contained HTML page (output/html.ts) of each
 * probe's verdict, arms, charts, census and audit, and, with --transcripts DIR or with no probe,
 * of the sessions' tokens, cost, tools and skills.
 *
 * The page is a document, not a check: it is written whether or not a verdict holds (exit 0), and
 * only a page that cannot be made or written is an error. It writes FILE and nothing else,
 * atomically, and never over a file that is not a report it wrote (or that was edited since)
 * without --force.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { type Command, Option } from 'commander';
import { InputError } from '../../base/errors.js';
import { firstHomePath } from '../../base/home-paths.js';
import { danglingLink, onPath, statThere } from '../../base/io-error.js';
import { displayPath, packageVersion, realPath } from '../../base/paths.js';
import { folderStays, refuseInsideEvidence, refuseInsideProbe, replaceFile } from '../../base/replace-file.js';
import {
  auditMask,
  claudeSessionsDir,
  Evidence,
  homeOf,
  listTranscriptFiles,
  PROBE_REPORT_QUERIES,
  TRANSCRIPT_REPORT_QUERIES,
} from '../../evidence.js';
import { makeCommand, withEvidence } from '../command.js';
import { say, warn, type IO } from '../io.js';
import { checkTimeoutOption, dbOption, fileToWrite, sayDefaultSessions, transcriptsOption } from '../options.js';
import { progressReporter } from '../progress.js';

/**
 * The sessions' folder as the page names it: as written on the command line (so the page is the same
 * from any folder), the home folder as ~, and the default as the place it was found; never a home path.
 */
export function sourceName(given: string | undefined, dir: string, env: Record<string, string | undefined>): string {
  if (given === undefined)
    return env.CLAUDE_CONFIG_DIR && dir === join(env.CLAUDE_CONFIG_DIR, 'projects') ? '$CLAUDE_CONFIG_DIR/projects' : '~/.claude/projects';
  const home = homeOf(env) && resolve(homeOf(env)).replace(/[/\\]+$/, '');
  // Compared as it resolves: `/home//alice`, `/tmp/../home/alice` and a relative `../alice` had kept the home.
  const abs = resolve(given);
  if (home && (abs === home || abs.startsWith(`${home}/`) || abs.startsWith(`${home}${sep}`))) return `~${abs.slice(home.length)}`;
  // Another user's home (sessions read with sudo, or copied from elsewhere): named from after it.
  const other = firstHomePath(abs);
  if (other) return `…${abs.slice(other.index + other.text.length)}`;
  return isAbsolute(given) ? abs : given;
}

interface ReportOptions {
  html: string;
  transcripts?: string;
  db?: string;
  force?: boolean;
  checkTimeout?: number;
}

/**
 * Where the page goes, checked before any evidence is read: the file's bytes when it is a report
 * `report` wrote (or any file, with --force), null when there is none yet.
 */
function target(path: string, force: boolean, isOwnReport: (text: string) => boolean): { file: string; was: Buffer | null } {
  // A file or folder that cannot be read (EACCES), a name too long: an error naming the path.
  return onPath(
    path,
    () => checkTarget(path, force, isOwnReport),
    'cannot be read',
    'name a file you may read and write, in a folder you may write',
  );
}

function checkTarget(path: string, force: boolean, isOwnReport: (text: string) => boolean): { file: string; was: Buffer | null } {
  const shown = displayPath(path);
  const folder = dirname(path);
  const there = statThere(folder);
  if (there && !there.isDirectory())
    throw new InputError(`${shown}: ${displayPath(folder)} is a file, not a folder`, 'name a file in a folder that exists');
  if (!there) {
    throw new InputError(
      `${shown}: the folder ${displayPath(folder)} does not exist`,
      'create it first, or name a file in a folder that exists',
    );
  }
  if (!existsSync(path)) {
    // A link to nothing is said as every reader says it, a loop too (statThere): "a broken symbolic link" had said neither.
    const dangling = statThere(path) ? undefined : danglingLink(path, 'remove it, or name another file');
    if (dangling) throw dangling;
    return { file: path, was: null };
  }
  const file = realPath(path);
  const st = statSync(file);
  if (st.isDirectory()) throw new InputError(`${shown}: is a folder`, 'name the HTML file to write, e.g. report.html');
  if (!st.isFile()) throw new InputError(`${shown}: is not a regular file`, 'name the HTML file to write, e.g. report.html');
  const was = readFileSync(file);
  if (!force && !isOwnReport(was.toString('utf8'))) {
    throw new InputError(
      `${shown}: exists, and is not a report omg-evidence wrote (or was edited since); nothing was written`,
      'name another file, or pass --force to replace it',
    );
  }
  return { file, was };
}

/**
 * `value` with every string in it, however deep, masked as audit prints it (`mask`), and the strings
 * that held a home path or a secret: the page shows no more of the evidence than audit does.
 */
export function maskedEvidence<T>(value: T, mask: (s: string) => string, found = new Set<string>()): T {
  if (typeof value === 'string') {
    const shown = mask(value);
    if (shown !== value) found.add(value);
    return shown as T;
  }
  if (Array.isArray(value)) return value.map((v) => maskedEvidence(v, mask, found)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskedEvidence(v, mask, found)])) as T;
  }
  return value;
}

export function makeReportCommand(io: IO): Command {
  return makeCommand<ReportOptions>(io, {
    name: 'report',
    description:
      "one self-contained HTML page with charts: each probe's verdict, arms, cost, skills, census and audit; the sessions' usage with --transcripts or no probe",
    arguments: [
      [
        '[probe...]',
        "probe directories (default: none, and the page shows the sessions usage reads: --transcripts DIR, else Claude Code's own)",
      ],
    ],
    options: [
      new Option('--html <file>', 'the HTML file to write').makeOptionMandatory(),
      transcriptsOption('sessions'),
      dbOption(),
      checkTimeoutOption(),
      new Option('--force', 'replace a file that is not a report omg-evidence wrote, or one edited since'),
    ],
    action: async ({ probes, opts, onWarning }) => {
      // The page's layout and its charts' engines load only for this command.
      const { isOwnReport, loadChartEngines, reportHtml } = await import('../../output/html.js');
      fileToWrite('--html', opts.html, 'the page', 'HTML file');
      const out = resolve(opts.html);
      const sessionsDir = probes.length === 0 ? (opts.transcripts ?? claudeSessionsDir(io.env)) : opts.transcripts;
      refuseInsideEvidence(out, [...probes, ...(sessionsDir === undefined ? [] : [sessionsDir])], 'the report');
      refuseInsideProbe(out, 'the report');
      const stays = folderStays(out);
      const at = target(out, opts.force === true, isOwnReport);
      // The charts' engines load while DuckDB loads the evidence; a failure shows when a chart is drawn.
      loadChartEngines().catch(() => undefined);
      const sessions = probes.length === 0 || opts.transcripts !== undefined;
      const dir = sessionsDir;
      if (probes.length === 0 && opts.transcripts === undefined) {
        sayDefaultSessions(io, dir!);
      }
      // With --db, the same page from the database file load built, which names the same inputs.
      const common = { onWarning, onProgress: progressReporter(io), db: opts.db };
      const opening =
        probes.length === 0
          ? Evidence.openTranscripts(dir!, { ...common, queries: TRANSCRIPT_REPORT_QUERIES })
          : Evidence.open(probes, {
              ...common,
              transcripts: opts.transcripts,
              // Each probe's own transcripts/ tells which markers its spawns could have forged.
              ownTranscripts: true,
              checkTimeout: opts.checkTimeout,
              queries: [...PROBE_REPORT_QUERIES, ...(sessions ? TRANSCRIPT_REPORT_QUERIES : [])],
            });
      const html = await withEvidence(opening, async (ev) => {
        const reports = probes.length ? await ev.probeReports({ home: io.env.HOME }) : [];
        const transcripts = sessions
          ? await ev.transcriptReport(sourceName(opts.transcripts, dir!, io.env), listTranscriptFiles(dir!).length)
          : undefined;
        // Each probe's audit is masked already; the rest of the page is masked as audit masks what it prints.
        const mask = auditMask(io.env.HOME);
        const found = new Set<string>();
        const shown = reports.map((r) => ({ ...maskedEvidence({ ...r, audit: null }, mask, found), audit: r.audit }));
        const sessionsShown = maskedEvidence(transcripts, mask, found);
        if (found.size)
          warn(io, `report: the page masks ${found.size} text(s) of the evidence holding a home-directory path or a secret; run audit`);
        return reportHtml({ probes: shown, transcripts: sessionsShown, version: packageVersion });
      });
      // Only over what target() checked, into the folder checked: a file changed meanwhile is never lost.
      replaceFile(
        out,
        at.was,
        html,
        {
          changed: 'the file changed while the report was being made',
          again: 'run report again',
          what: 'the report',
          writable: 'check that the file and its folder are writable',
        },
        stays,
      );
      say(io, `report: ${displayPath(out)} written`);
    },
  });
}
