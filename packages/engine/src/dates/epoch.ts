/**
 * `epoch_millis` and `epoch_second`: an optionally negative integer with an optional fraction
 * (up to 6 digits for millis, 9 for seconds), as Elasticsearch's EpochTime accepts them.
 */

import type { ParsedFields } from './parsed-fields.ts';
import { fail } from './pattern-items.ts';

export function parseEpoch(text: string, f: ParsedFields, unit: 'millis' | 'seconds'): number {
  const n = text.length;
  let p = 0;
  let neg = false;
  if (text.charCodeAt(0) === 45) {
    neg = true;
    p = 1;
  }
  const intStart = p;
  let whole = 0;
  while (p < n) {
    const c = text.charCodeAt(p);
    if (c < 48 || c > 57) break;
    whole = whole * 10 + (c - 48);
    p++;
  }
  if (p === intStart) return fail(intStart);
  let fracNanos = 0;
  let hasFraction = false;
  if (p < n && text.charCodeAt(p) === 46) {
    const maxDigits = unit === 'millis' ? 6 : 9;
    const fracStart = p + 1;
    p = fracStart;
    while (p < n && p - fracStart < maxDigits) {
      const c = text.charCodeAt(p);
      if (c < 48 || c > 57) break;
      fracNanos = fracNanos * 10 + (c - 48);
      p++;
    }
    if (p === fracStart) return fail(p);
    for (let i = p - fracStart; i < maxDigits; i++) fracNanos *= 10;
    hasFraction = true;
  }
  if (p !== n) return fail(p);
  // Total nanoseconds past the whole unit, then split into millis + nano-of-milli.
  let millis: number;
  let nanoOfMilli: number;
  if (unit === 'millis') {
    millis = whole;
    nanoOfMilli = fracNanos;
  } else {
    millis = whole * 1000 + Math.floor(fracNanos / 1_000_000);
    nanoOfMilli = fracNanos % 1_000_000;
  }
  if (neg) {
    if (nanoOfMilli > 0) {
      millis = -millis - 1;
      nanoOfMilli = 1_000_000 - nanoOfMilli;
    } else {
      millis = -millis;
    }
  }
  f.epochMillis = millis;
  f.epochNanoOfMilli = nanoOfMilli;
  f.epochHasFraction = hasFraction;
  f.epochUnit = unit;
  return n;
}

function trimZeros(digits: string): string {
  let end = digits.length;
  while (end > 0 && digits.charCodeAt(end - 1) === 48) end--;
  return digits.slice(0, end);
}

export function printEpoch(millis: number, nanoOfMilli: number, unit: 'millis' | 'seconds'): string {
  if (unit === 'millis') {
    if (nanoOfMilli === 0) return String(millis);
    if (millis < 0) {
      const frac = trimZeros(String(1_000_000 - nanoOfMilli).padStart(6, '0'));
      return `-${-(millis + 1)}.${frac}`;
    }
    return `${millis}.${trimZeros(String(nanoOfMilli).padStart(6, '0'))}`;
  }
  const totalNanosInSecond = (((millis % 1000) + 1000) % 1000) * 1_000_000 + nanoOfMilli;
  const seconds = Math.floor(millis / 1000);
  if (totalNanosInSecond === 0) return String(seconds);
  if (seconds < 0) {
    const frac = trimZeros(String(1_000_000_000 - totalNanosInSecond).padStart(9, '0'));
    return `-${-(seconds + 1)}.${frac}`;
  }
  return `${seconds}.${trimZeros(String(totalNanosInSecond).padStart(9, '0'))}`;
}
