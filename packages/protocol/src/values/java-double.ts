/**
 * Java's Double.toString, as Elasticsearch prints doubles in texts: range keys (`10.0-20.0`),
 * keyed histogram keys, and messages that quote a double (mapping errors, number parsing). It is
 * also how Jackson writes a double in JSON (aggregation values: `15.0`, `1.0E10`). Its digits are
 * the shortest that read back as the same double, as JavaScript's and JDK 19+'s are.
 */
export function javaDouble(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Number.POSITIVE_INFINITY) return 'Infinity';
  if (v === Number.NEGATIVE_INFINITY) return '-Infinity';
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(v);
  if (abs >= 1e-3 && abs < 1e7) {
    const s = String(v);
    return s.includes('.') ? s : `${s}.0`;
  }
  const [mant, exp] = v.toExponential().split('e') as [string, string];
  const m = mant.includes('.') ? mant : `${mant}.0`;
  return `${m}E${exp.startsWith('+') ? exp.slice(1) : exp}`;
}

/**
 * The shortest decimal that rounds to the same float32 as `x`: the digits Java's Float.toString
 * prints (`0.13076457`, not the double `0.1307645738124847`). "p digits round back to the
 * float" is monotone in p (the nearest (p+1)-digit decimal is at least as close as the p-digit
 * one), so precisions 1..9 are bisected: 3–4 toPrecision calls instead of up to 9.
 */
export function shortestFloatDecimal(x: number): number {
  const target = Math.fround(x);
  if (!Number.isFinite(target) || target === 0) return target;
  let lo = 1;
  let hi = 9;
  let best = Number(target.toPrecision(9));
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = Number(target.toPrecision(mid));
    if (Math.fround(v) === target) {
      best = v;
      hi = mid - 1;
    } else {
      lo = mid + 1;
    }
  }
  return Math.fround(best) === target ? best : target;
}

/** Java's Float.toString of the float32 nearest `v`, as Jackson writes a Float: `1.0`, `1.0996094`. */
export function javaFloat(v: number): string {
  return javaDouble(shortestFloatDecimal(v));
}
