/**
 * Java's DecimalFormat for the patterns aggregations take as `format` on numbers (`#.##`,
 * `0.000`, `$#,##0.00`, `#%`): literal prefix and suffix, grouping, minimum and maximum
 * integer and fraction digits, percent, rounding HALF_EVEN as DecimalFormat rounds.
 */

interface Pattern {
  prefix: string;
  suffix: string;
  minInt: number;
  minFrac: number;
  maxFrac: number;
  grouping: number;
  percent: boolean;
}

const cache = new Map<string, Pattern>();

function compile(pattern: string): Pattern {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const positive = pattern.split(';')[0]!;
  const m = /^([^#0,.]*)([#0,]*)(?:\.([#0]*))?(.*)$/.exec(positive);
  const intPart = m?.[2] ?? '#';
  const fracPart = m?.[3] ?? '';
  const lastComma = intPart.lastIndexOf(',');
  const p: Pattern = {
    prefix: (m?.[1] ?? '').replace(/'/g, ''),
    suffix: (m?.[4] ?? '').replace(/'/g, ''),
    minInt: (intPart.match(/0/g) ?? []).length,
    minFrac: (fracPart.match(/0/g) ?? []).length,
    maxFrac: fracPart.length,
    grouping: lastComma >= 0 ? intPart.length - lastComma - 1 : 0,
    percent: positive.includes('%'),
  };
  cache.set(pattern, p);
  return p;
}

/** Rounds half to even at `digits` fraction digits (ties within floating-point noise count as ties). */
function roundHalfEven(v: number, digits: number): string {
  const factor = 10 ** digits;
  const x = Math.abs(v) * factor;
  const floor = Math.floor(x);
  const tie = Math.abs(x - floor - 0.5) < 1e-9 * Math.max(1, x);
  const r = tie ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(x);
  return (r / factor).toFixed(digits);
}

export function decimalFormat(v: number, pattern: string): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '∞' : '-∞';
  const p = compile(pattern);
  const value = p.percent ? v * 100 : v;
  let text = roundHalfEven(value, p.maxFrac);
  let [int, frac = ''] = text.split('.');
  while (frac.length > p.minFrac && frac.endsWith('0')) frac = frac.slice(0, -1);
  int = int!.replace(/^0+/, '');
  while (int.length < p.minInt) int = `0${int}`;
  if (p.grouping > 0) {
    const groups: string[] = [];
    for (let i = int.length; i > 0; i -= p.grouping)
      groups.unshift(int.slice(Math.max(0, i - p.grouping), i));
    int = groups.join(',');
  }
  if (int === '' && frac === '') int = '0';
  text = frac.length > 0 ? `${int}.${frac}` : int;
  const negative = value < 0 && /[1-9]/.test(text);
  return `${negative ? '-' : ''}${p.prefix}${text}${p.suffix}`;
}
