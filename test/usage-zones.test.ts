/**
 * `usage` across daylight-saving changes and time zones: a date bound on a day whose midnight
 * repeats or is skipped, first and last times in an hour the clocks repeat, and the zone of TZ.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, cli, repo } from './helpers.js';

const fixture = (name: string) => join('test', 'fixtures', 'usage', name);
const HOME = { HOME: join(repo, 'test', 'fixtures', 'usage', 'nowhere') };

/** The daily report's [key, output_tokens] of `name`'s transcripts, with `args`. */
async function daily(name: string, ...args: string[]): Promise<unknown[][]> {
  const r = await cli(['usage', '--transcripts', fixture(name), '-f', 'json', ...args], { env: HOME });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  return (JSON.parse(r.stdout) as Record<string, unknown>[]).map((row) => [row.key, row.output_tokens]);
}

describe('usage: a date bound is the day its rows are keyed by, whatever midnight does', () => {
  // Cuba falls back from 01:00 to 00:00 on 2025-11-02: responses at 03:59Z (23:59 on 1 November),
  // 04:30Z (00:30 CDT) and 05:30Z (00:30 CST), of 1, 2 and 3 output tokens.
  const havana = ['--timezone', 'America/Havana'];

  it('a day whose midnight repeats: its date selects every response keyed by it (the later midnight had cut the first off)', async () => {
    expect(await daily('midnight-repeated', ...havana)).toEqual([
      ['2025-11-01', 1],
      ['2025-11-02', 5],
      [null, 6],
    ]);
    expect(await daily('midnight-repeated', ...havana, '--since', '2025-11-02', '--until', '2025-11-02')).toEqual([
      ['2025-11-02', 5],
      [null, 5],
    ]);
    expect(await daily('midnight-repeated', ...havana, '--since', '2025-11-02')).toEqual([
      ['2025-11-02', 5],
      [null, 5],
    ]);
    // It had counted 00:30 CDT, keyed 2025-11-02, as of 1 November.
    expect(await daily('midnight-repeated', ...havana, '--until', '2025-11-01')).toEqual([
      ['2025-11-01', 1],
      [null, 1],
    ]);
  });

  it('a date and a timestamp compare by the timestamp’s day (00:45 CDT is on 2 November, not before it)', async () => {
    expect(await daily('midnight-repeated', ...havana, '--since', '2025-11-02', '--until', '2025-11-02T04:45Z')).toEqual([
      ['2025-11-02', 2],
      [null, 2],
    ]);
    const r = await cli(
      ['usage', '--transcripts', fixture('midnight-repeated'), ...havana, '--since', '2025-11-03', '--until', '2025-11-02T23:00Z'],
      { env: HOME },
    );
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: 'omg-evidence: --since 2025-11-03 is after --until 2025-11-02 23:00:00+00:00 in America/Havana: nothing would be counted\n',
    });
  });

  it('a day whose midnight is skipped (Havana on 2025-03-09, Santiago on 2025-09-07) starts at its first instant', async () => {
    // 04:30Z and 05:30Z on 9 March (23:30 CST on the 8th, 01:30 CDT), 03:30Z and 04:30Z on 7 September
    // (23:30 -04 on the 6th, 01:30 -03 in Santiago), of 1, 10, 100 and 1,000 output tokens.
    expect(await daily('midnight-skipped', ...havana, '--since', '2025-03-09', '--until', '2025-03-09')).toEqual([
      ['2025-03-09', 10],
      [null, 10],
    ]);
    expect(await daily('midnight-skipped', ...havana, '--until', '2025-03-08')).toEqual([
      ['2025-03-08', 1],
      [null, 1],
    ]);
    const santiago = ['--timezone', 'America/Santiago'];
    expect(await daily('midnight-skipped', ...santiago, '--since', '2025-09-07')).toEqual([
      ['2025-09-07', 1000],
      [null, 1000],
    ]);
    expect(await daily('midnight-skipped', ...santiago, '--since', '2025-09-06', '--until', '2025-09-06')).toEqual([
      ['2025-09-06', 100],
      [null, 100],
    ]);
  });
});

describe('usage: first and last are instants, shown in the zone (with the offset in an hour it repeats)', () => {
  const sessions = async (name: string, zone: string) => {
    const r = await cli(['usage', 'session', '--transcripts', fixture(name), '--timezone', zone, '-f', 'json'], { env: HOME });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    return (JSON.parse(r.stdout) as Record<string, unknown>[]).map((row) => [row.key, row.first_at, row.last_at]);
  };

  it('on a fall back, sessions are ordered and bounded by instant (01:45 EDT before 01:30 EST; they had been by wall-clock time)', async () => {
    // Session …01 answers at 05:45Z (01:45 EDT), session …02 at 06:30Z (01:30 EST).
    expect(await sessions('hour-repeated', 'America/New_York')).toEqual([
      ['77777777-0000-4000-8000-000000000001', '2025-11-02 01:45:00-04:00', '2025-11-02 01:45:00-04:00'],
      ['77777777-0000-4000-8000-000000000002', '2025-11-02 01:30:00-05:00', '2025-11-02 01:30:00-05:00'],
      [null, '2025-11-02 01:45:00-04:00', '2025-11-02 01:30:00-05:00'],
    ]);
    // Where the zone does not repeat the time, it is shown as it was, without an offset.
    expect(await sessions('hour-repeated', 'UTC')).toEqual([
      ['77777777-0000-4000-8000-000000000001', '2025-11-02 05:45:00', '2025-11-02 05:45:00'],
      ['77777777-0000-4000-8000-000000000002', '2025-11-02 06:30:00', '2025-11-02 06:30:00'],
      [null, '2025-11-02 05:45:00', '2025-11-02 06:30:00'],
    ]);
  });

  it('only a time in the repeated hour has its offset: 23:59 the day before does not', async () => {
    expect(await sessions('midnight-repeated', 'America/Havana')).toEqual([
      ['66666666-0000-4000-8000-000000000006', '2025-11-01 23:59:00', '2025-11-02 00:30:00-05:00'],
      [null, '2025-11-01 23:59:00', '2025-11-02 00:30:00-05:00'],
    ]);
  });
});

describe('usage: the default zone is the one Node resolves from TZ (a child process, whose TZ Node reads at start)', () => {
  const keys = (tz: string) => {
    const r = bin(['usage', '--transcripts', fixture('days'), '-f', 'json'], { env: { ...HOME, TZ: tz } });
    return {
      code: r.code,
      stderr: r.stderr,
      keys: (JSON.parse(r.stdout) as Record<string, unknown>[]).map((row) => [row.key, row.output_tokens]),
    };
  };

  // The days fixture's daily output tokens, counted in Tokyo and in UTC.
  const IN_TOKYO = {
    code: 0,
    stderr: '',
    keys: [
      ['2026-03-01', 1],
      ['2026-03-02', 1110],
      [null, 1111],
    ],
  };
  const IN_UTC = {
    code: 0,
    stderr: '',
    keys: [
      ['2026-03-01', 11],
      ['2026-03-02', 1100],
      [null, 1111],
    ],
  };

  it('TZ=:Asia/Tokyo (glibc’s leading colon) is Tokyo (it had been refused as no IANA zone, and days counted in UTC)', () => {
    expect(keys(':Asia/Tokyo')).toEqual(IN_TOKYO);
  });

  // glibc reads TZ=:/etc/localtime as a zone file; Intl names no zone for a path, so it had been said to be
  // none, and days counted in UTC. A link in a scratch folder stands for /etc/localtime (the file is not read).
  it('TZ as a path to a zone file, through a link (:/etc/localtime), is the zone named by its path under zoneinfo/', () => {
    const dir = mkdtempSync(join(tmpdir(), 'omg-tz-'));
    try {
      mkdirSync(join(dir, 'zoneinfo', 'Asia'), { recursive: true });
      writeFileSync(join(dir, 'zoneinfo', 'Asia', 'Tokyo'), '');
      symlinkSync(join(dir, 'zoneinfo', 'Asia', 'Tokyo'), join(dir, 'localtime'));
      // zoneinfo/posix/ and zoneinfo/right/ (with leap seconds) hold the same zones under the same names.
      mkdirSync(join(dir, 'zoneinfo', 'right', 'Asia'), { recursive: true });
      writeFileSync(join(dir, 'zoneinfo', 'right', 'Asia', 'Tokyo'), '');
      for (const tz of [
        `:${join(dir, 'localtime')}`,
        join(dir, 'zoneinfo', 'Asia', 'Tokyo'),
        join(dir, 'zoneinfo', 'right', 'Asia', 'Tokyo'),
      ]) {
        expect(keys(tz)).toEqual(IN_TOKYO);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an empty TZ is UTC, as glibc reads it, without a warning (it had been said to be no IANA zone)', () => {
    expect(keys('')).toEqual(IN_UTC);
  });

  // Node names TZ=GMT+5 "GMT+05:00", which neither Intl nor DuckDB takes as a zone: it had failed in the query;
  // and it makes TZ=IST-5:30 UTC, which had been taken without a word.
  it.each(['JST-9', 'GMT+5', 'GMT-3', 'IST-5:30'])(
    'a TZ that names no IANA zone (%s) is said, and days are counted in UTC (it had failed deep in the query)',
    (tz) => {
      expect(keys(tz)).toEqual({
        ...IN_UTC,
        stderr: `omg-evidence: warning: this machine's time zone (TZ="${tz}") is not an IANA zone: days are counted in UTC (--timezone ZONE chooses)\n`,
      });
    },
  );
});
