/**
 * `omg-evidence audit [PROBE...]`: every file of a probe searched for home-directory paths and
 * secrets (audit.ts, leaks.ts), and warned of markers and artifacts the spawn's own calls could have
 * produced (queries/forgeable.sql). The findings are data (stdout), each with file:line, kind and the
 * match masked; the summary goes to stderr. Exit 3 when anything is found.
 */
import { Command } from 'commander';
import { auditProbes, type Finding } from '../../evidence.js';
import { forgeryWarnings } from '../../output/census-block.js';
import { DiffersError, OmgError } from '../../base/errors.js';
import { Evidence, withEvidence } from '../../evidence.js';
import { render, TABULAR_FORMATS, type Column, type TableStyle } from '../../output/formats.js';
import { warn, type IO } from '../io.js';
import { chosenFormat, formatOption, tableStyle, wideOption } from '../options.js';
import { bundledProbeDir } from '../../base/paths.js';

const FORMATS = ['text', ...TABULAR_FORMATS] as const;
type Format = (typeof FORMATS)[number];

const where = (f: Finding) => `${f.probe}/${f.file}:${f.line}`;

export function formatAudit(findings: Finding[], format: Format, style: TableStyle = {}): string {
  if (format === 'text') return findings.map((f) => `${where(f)}: ${f.kind}: ${f.match}\n`).join('');
  const columns: Column[] =
    format === 'csv'
      ? [{ key: 'probe' }, { key: 'file' }, { key: 'line', right: true }, { key: 'kind' }, { key: 'match' }]
      : [{ key: 'where' }, { key: 'kind' }, { key: 'match' }];
  return render(format, columns, findings, {
    cells: (f) => ({ probe: f.probe, file: f.file, line: f.line, where: where(f), kind: f.kind, match: f.match }),
    style,
  });
}

export function makeAuditCommand(io: IO): Command {
  return new Command('audit')
    .description('search every file of a probe for home-directory paths and secrets (exit 3 if any)')
    .argument('[probe...]', 'probe directories (default: the bundled probe)')
    .addOption(formatOption(FORMATS))
    .addOption(wideOption())
    .action(async (probes: string[], opts: { format?: Format; wide?: boolean }) => {
      const format = chosenFormat(opts.format, io);
      const dirs = probes.length ? probes : [bundledProbeDir];
      const audit = auditProbes(dirs, io.env.HOME);
      io.stdout(formatAudit(audit.findings, format, tableStyle(io, opts.wide)));
      // Things worth saying that change no exit code, before the summary.
      const warnings = [...audit.warnings, ...(await forgeable(dirs))];
      for (const w of warnings) warn(io, w);
      const homes = audit.findings.filter((f) => f.kind === 'home-path').length;
      const secrets = audit.findings.length - homes;
      const files = new Set(audit.findings.map((f) => `${f.probe}/${f.file}`)).size;
      const scope = `${audit.files} file(s) of ${dirs.length} probe(s)`;
      if (audit.findings.length) {
        throw new DiffersError(
          `audit: ${homes} home-directory path(s) and ${secrets} secret(s) in ${files} of ${scope}`,
          'write home paths as $HOME; a secret must be revoked, and removed from the git history too',
        );
      }
      io.stderr(`omg-evidence: audit: no home-directory path or secret in ${scope}\n`);
    });
}

/**
 * The K-FM lesson: markers and artifacts the spawn's own calls could have produced. Loading the
 * probes repeats none of the scan's findings (its own warnings are not printed); a probe that does
 * not load is said, and the scan's findings and exit code stand.
 */
async function forgeable(dirs: string[]): Promise<string[]> {
  try {
    return await withEvidence(Evidence.open(dirs, { ownTranscripts: true }), async (ev) => forgeryWarnings(await ev.forgeableRows()));
  } catch (err) {
    if (err instanceof OmgError) return [`forgeable markers and artifacts not checked: ${err.message}`];
    throw err;
  }
}
