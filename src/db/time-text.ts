/**
 * The text of DuckDB's dates, timestamps and intervals: as DuckDB writes them (CAST(x AS VARCHAR)),
 * and as ISO 8601 for JSON. node-api's own text names the infinities of a DATE and of a TIMESTAMP_S,
 * _MS or _NS as the instants they are kept as (5881580-07-11, 2262-04-11 23:47:16.854775807), and
 * the year 1 BC as 0000.
 */
import {
  DuckDBDateValue,
  type DuckDBTimestampMillisecondsValue,
  type DuckDBTimestampNanosecondsValue,
  type DuckDBTimestampSecondsValue,
  type DuckDBTimestampTZValue,
  type DuckDBTimestampValue,
} from '@duckdb/node-api';

export type Timestamp =
  | DuckDBTimestampValue
  | DuckDBTimestampTZValue
  | DuckDBTimestampSecondsValue
  | DuckDBTimestampMillisecondsValue
  | DuckDBTimestampNanosecondsValue;

/** What DuckDB keeps a timestamp at infinity as, in any unit. */
const INFINITE = 2n ** 63n - 1n;

/** The year 1 BC as DuckDB writes it: node-api writes the year 0 it counts it as. */
const yearZero = (text: string) => (text.startsWith('0000-') ? `0001-${text.slice(5, 10)} (BC)${text.slice(10)}` : text);

/** DuckDB's word for a date or timestamp at infinity, from the value as kept (no text made); undefined for any other. */
export function infinity(v: DuckDBDateValue | Timestamp): 'infinity' | '-infinity' | undefined {
  const [kept, top] =
    'days' in v
      ? [v.days, DuckDBDateValue.PosInf.days]
      : ['micros' in v ? v.micros : 'millis' in v ? v.millis : 'nanos' in v ? v.nanos : v.seconds, INFINITE];
  return kept === top ? 'infinity' : kept === -top ? '-infinity' : undefined;
}

/** A DATE's text as DuckDB writes it. */
export const dateText = (d: DuckDBDateValue): string => infinity(d) ?? yearZero(d.toString());

/** A timestamp's text as DuckDB writes it, in any unit, with or without a time zone. */
export const timestampDuckText = (t: Timestamp): string => infinity(t) ?? yearZero(String(t));

/**
 * A timestamp as ISO 8601 (2024-02-29T12:34:56.123456, +02:00 for an offset); infinity as DuckDB's
 * word; a time before year 1 as DuckDB's to_json writes it (0044-03-15 (BC) 10:00:00), which no
 * ISO 8601 text of the Julian calendar spells.
 */
export function timestampText(t: Timestamp): string {
  const text = timestampDuckText(t);
  return isoOffset(text.includes(' (BC) ') ? text : text.replace(' ', 'T'));
}

/** An ISO 8601 UTC offset: DuckDB writes `+02` or `+05:30`. */
export const isoOffset = (text: string) => text.replace(/([+-]\d\d)$/, '$1:00');

/**
 * An INTERVAL as an ISO 8601 duration (P1Y2M3DT4H5M6.5S). DuckDB keeps months, days and
 * microseconds apart, each with its own sign; so does this, one sign per part (as PostgreSQL's
 * iso_8601 style does): -1 day +2 hours is P-1DT2H.
 */
export function isoDuration(months: number, days: number, micros: bigint): string {
  const part = (n: number | bigint, unit: string) => (n === 0 || n === 0n ? '' : `${n}${unit}`);
  const sign = micros < 0n ? '-' : '';
  const abs = micros < 0n ? -micros : micros;
  const h = abs / 3_600_000_000n;
  const m = (abs / 60_000_000n) % 60n;
  const us = abs % 60_000_000n;
  const s =
    us === 0n
      ? ''
      : `${sign}${us / 1_000_000n}${
          us % 1_000_000n
            ? `.${String(us % 1_000_000n)
                .padStart(6, '0')
                .replace(/0+$/, '')}`
            : ''
        }S`;
  const date = part(Math.trunc(months / 12), 'Y') + part(months % 12, 'M') + part(days, 'D');
  const time = (h ? `${sign}${h}H` : '') + (m ? `${sign}${m}M` : '') + s;
  return date === '' && time === '' ? 'PT0S' : `P${date}${time ? `T${time}` : ''}`;
}
