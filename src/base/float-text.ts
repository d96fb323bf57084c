/**
 * A DOUBLE's text as DuckDB writes it (`CAST(x AS VARCHAR)`): the fewest digits that read back as
 * the same value, in fixed notation from 1e-4 to below 1e16 (an integer with `.0`), otherwise as
 * `1e+20`, `1.5e-05`; `nan`, `inf` and `-inf`. A FLOAT's the same with the fewest digits that read
 * back as the same 32-bit float (0.1, not 0.10000000149011612). DuckDB writes about 1 in 100 FLOATs
 * otherwise, by no rule found: with more digits (1197321.75 for 1197321.8, 769196032.0 for
 * 769196000.0) though as often not (-39184994000.0). JSON names a MAP's key by it, as to_json does.
 */
export function floatText(x: number, float32: boolean): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // toExponential() gives a double's shortest digits; a float's are the fewest that round to it.
  let sci = x.toExponential();
  if (float32) {
    for (let p = 1; p <= 9; p++) {
      sci = x.toExponential(p - 1);
      if (Math.fround(Number(sci)) === x) break;
    }
  }
  const [mantissa, power] = sci.split('e') as [string, string];
  const e = Number(power);
  const sign = mantissa.startsWith('-') ? '-' : '';
  const digits = mantissa.replace(/^-/, '').replace('.', '').replace(/0+$/, '') || '0';
  if (e < -4 || e >= 16) {
    const exp = `${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
    return `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${exp}`;
  }
  if (e < 0) return `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
  const whole = digits.slice(0, e + 1).padEnd(e + 1, '0');
  return `${sign}${whole}.${digits.slice(e + 1) || '0'}`;
}
