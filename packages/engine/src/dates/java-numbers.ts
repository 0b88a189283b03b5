/**
 * What Java's Long.parseLong and Double.parseDouble accept. Dynamic mapping uses them: strings
 * that parse as numbers are never detected as dates, and with `numeric_detection` they map to
 * `long` / `float`.
 */
const LONG_RE = /^[+-]?\d+$/;
const DOUBLE_RE =
  /^[+-]?(NaN|Infinity|((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?)|(0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?\d+[fFdD]?))$/;

const LONG_MAX = 9223372036854775807n;
const LONG_MIN = -9223372036854775808n;

export function isJavaLong(s: string): boolean {
  if (!LONG_RE.test(s)) return false;
  if (s.length < 18) return true;
  const v = BigInt(s);
  return v >= LONG_MIN && v <= LONG_MAX;
}

/** Java trims chars <= U+0020 before parsing a double. */
function javaTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) <= 32) a++;
  while (b > a && s.charCodeAt(b - 1) <= 32) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

export function isJavaDouble(s: string): boolean {
  return DOUBLE_RE.test(javaTrim(s));
}

/** Double.parseDouble's value, or NaN when Java would throw (check isJavaDouble for "NaN"). */
export function javaParseDouble(s: string): number {
  const t = javaTrim(s);
  if (!DOUBLE_RE.test(t)) return Number.NaN;
  let body = t;
  const last = body.charCodeAt(body.length - 1);
  if ((last | 32) === 102 || (last | 32) === 100) {
    if (!/[xX]/.test(body) || /[pP]/.test(body)) body = body.slice(0, -1);
  }
  if (/^[+-]?0[xX]/.test(body)) return parseHexFloat(body);
  return Number(body);
}

function parseHexFloat(s: string): number {
  const m = /^([+-]?)0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)[pP]([+-]?\d+)$/.exec(s);
  if (!m) return Number.NaN;
  const mant = Number.parseInt(`${m[2] || '0'}${m[3]}`, 16) / 16 ** m[3]!.length;
  const v = mant * 2 ** Number(m[4]);
  return m[1] === '-' ? -v : v;
}

/** Java's Double.toString (shared with the aggregations' texts). */
export { javaDouble as javaDoubleToString } from '@shoal/protocol';
