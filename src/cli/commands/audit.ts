/**
 * `omg-evidence audit [PROBE...]`: every file of a probe searched for home-directory paths and
 * secrets (analysis/audit.ts, base/leaks.ts), and warned of markers and artifacts the spawn's own
 * calls could have produced (queries/forgeable.sql). The findings are data (stdout), each with
 * file:line, kind and the match masked; the summary goes to stderr. Exit 3 when anything is found.
 */
import type { Command } from 'commander';
import { DiffersError, OmgError } from '../../base/errors.js';
import { bundledProbeDir } from '../../base/paths.js';
import { auditMask, auditProbes, Evidence } from '../../evidence.js';
import { withEvidence } from '../command.js';
import { formatAudit, type AuditFormat } from '../../output/audit.js';
import { forgeryWarnings } from '../../output/census-block.js';
import { TABULAR_FORMATS } from '../../output/formats.js';
import { makeCommand } from '../command.js';
import { say, type IO } from '../io.js';

export function makeAuditCommand(io: IO): Command {
  return makeCommand<{ format?: AuditFormat; wide?: boolean }>(io, {
    name: 'audit',
    description: 'search every file of a probe for home-directory paths and secrets (exit 3 if any)',
    arguments: [['[probe...]', 'probe directories (default: the bundled probe)']],
    formats: ['text', ...TABULAR_FORMATS],
    action: async ({ probes, format, style, onWarning }) => {
      const dirs = probes.length ? probes : [bundledProbeDir];
      const audit = auditProbes(dirs, io.env.HOME);
      io.stdout(formatAudit(audit.findings, format as AuditFormat, style()));
      // Things worth saying that change no exit code, before the summary; masked as the findings are,
      // since a forgeable call's command or a load error quotes a record or a file's name.
      const mask = auditMask(io.env.HOME);
      for (const w of [...audit.warnings, ...(await forgeable(dirs))]) onWarning(mask(w));
      const homes = audit.findings.filter((f) => f.kind === 'home-path').length;
      const secrets = audit.findings.length - homes;
      const files = audit.leaky;
      const scope = `${audit.files} file(s) of ${dirs.length} probe(s)`;
      if (audit.findings.length) {
        throw new DiffersError(
          `audit: ${homes} home-directory path(s) and ${secrets} secret(s) in ${files} of ${scope}`,
          'write home paths as $HOME; a secret must be revoked, and removed from the git history too',
        );
      }
      say(io, `audit: no home-directory path or secret in ${scope}`);
    },
  });
}

/**
 * The K-FM lesson: markers and artifacts the spawn's own calls could have produced, each probe
 * loaded alone, so that one that does not load hides no other's. Loading repeats none of the scan's
 * findings (its own warnings are not printed); a probe that does not load is said, and the scan's
 * findings and exit code stand.
 */
async function forgeable(dirs: string[]): Promise<string[]> {
  const warnings: string[] = [];
  for (const dir of dirs) {
    try {
      const open = Evidence.open([dir], { ownTranscripts: true });
      warnings.push(...(await withEvidence(open, async (ev) => forgeryWarnings(await ev.forgeableRows(), dirs.length > 1))));
    } catch (err) {
      if (!(err instanceof OmgError)) throw err;
      warnings.push(`forgeable markers and artifacts not checked: ${err.message}`);
    }
  }
  return warnings;
}
