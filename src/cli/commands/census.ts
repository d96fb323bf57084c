/**
 * `omg-evidence census [PROBE...]`: the per-spawn tool_use census (queries/census.sql), from the
 * committed records or from the transcripts, in the ADR's fixed-width text block or any tabular
 * format. With `--transcripts DIR` and no probe, the census of every session in DIR
 * (queries/sessions.sql).
 */
import type { Command } from 'commander';
import { Evidence, type Row, type Source } from '../../evidence.js';
import { formatCensus, formatSessions, type CensusFormat } from '../../output/census.js';
import type { CensusRow } from '../../output/census-block.js';
import { TABULAR_FORMATS } from '../../output/formats.js';
import { type Call, makeEvidenceCommand } from '../command.js';
import type { IO } from '../io.js';
import {
  dbOption,
  fromOption,
  resolveSource,
  transcriptsOnly,
  transcriptsOption,
  warnNoTranscripts,
  warnNotSessions,
  warnUnmatched,
} from '../options.js';
import { progressReporter } from '../progress.js';

type Options = { format?: CensusFormat; wide?: boolean; from?: Source; transcripts?: string; db?: string };

/** The census of the probes' spawns, or (transcripts only) of the sessions in DIR. */
type Census = { spawns: CensusRow[] } | { sessions: Row[] };

const standalone = ({ probes, opts }: Call<Options>) => transcriptsOnly(probes, opts);

export function makeCensusCommand(io: IO): Command {
  return makeEvidenceCommand<Options, Census>(io, {
    name: 'census',
    description: 'per-spawn tool_use census of one or more probes (default: the bundled probe), or of every session in --transcripts DIR',
    formats: ['text', ...TABULAR_FORMATS],
    formatNote: '; text is the ADR block',
    options: [fromOption(), transcriptsOption('alone'), dbOption()],
    open: (call) => {
      const { probes, opts, onWarning, format } = call;
      if (standalone(call)) {
        return Evidence.openTranscripts(opts.transcripts!, {
          onWarning,
          db: opts.db,
          queries: ['sessions'],
          onProgress: progressReporter(io),
        });
      }
      // From the records, each probe's own transcripts/ is read too when present: the forgeable
      // column needs the tool calls' inputs, which the records do not keep.
      // The text block (the ADR's) shows no forgeable column, so it reads no transcript it does not count.
      return Evidence.open(probes, {
        onWarning,
        transcripts: resolveSource(opts.from, opts.transcripts).open,
        ownTranscripts: format !== 'text',
        db: opts.db,
        queries: ['census', 'forgeable'],
        onProgress: progressReporter(io),
      });
    },
    rows: async (ev, call) => {
      const { opts, onWarning, format } = call;
      if (standalone(call)) {
        const sessions = await ev.sessionRows();
        warnNoTranscripts(sessions.length, opts.transcripts!, onWarning);
        warnNotSessions(sessions, opts.transcripts!, onWarning);
        return { sessions };
      }
      const source = resolveSource(opts.from, opts.transcripts);
      if (source.from === 'transcripts') await warnUnmatched(ev, opts.transcripts, onWarning);
      return { spawns: await ev.censusRows(source.from, { forgeable: format !== 'text' }) };
    },
    print: (census, format, style) =>
      'sessions' in census
        ? formatSessions(census.sessions, format as CensusFormat, style)
        : formatCensus(census.spawns, format as CensusFormat, style),
  });
}
