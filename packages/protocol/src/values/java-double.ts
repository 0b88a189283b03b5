/**
 * Java's Double.toString, as Elasticsearch prints doubles in texts: range keys (`10.0-20.0`),
 * keyed histogram keys, and messages that quote a double (mapping errors, number parsing).
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
