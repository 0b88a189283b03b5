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
