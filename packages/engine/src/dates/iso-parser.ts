/**
 * Hand-written parser for `strict_date_optional_time` (the default date format) and its
 * lenient sibling `date_optional_time`: `yyyy[-MM[-dd]]['T'HH[:mm[:ss[.S…]]]][zone]`, zone
 * being `Z`, `+HH`, `+HHmm`, `+HH:mm` or a region id. Dates are parsed for every indexed
 * document, so this is a char-code loop rather than the generic pattern engine.
 */

import type { ParsedFields } from './parsed-fields.ts';
import { fail } from './pattern-items.ts';
import { offsetFromText, resolveZone } from './time-zone.ts';

function digitsEnd(text: string, pos: number, max: number): number {
  let end = pos;
  const limit = Math.min(text.length, pos + max);
  while (end < limit) {
    const c = text.charCodeAt(end);
    if (c < 48 || c > 57) break;
    end++;
  }
  return end;
}

function value(text: string, from: number, to: number): number {
  let v = 0;
  for (let i = from; i < to; i++) v = v * 10 + (text.charCodeAt(i) - 48);
  return v;
}

/** Reads a 2-digit (strict) or 1–2 digit (lenient) number; returns end or failure. */
function two(text: string, pos: number, strict: boolean): number {
  const end = digitsEnd(text, pos, 2);
  if (end - pos === 2 || (!strict && end - pos === 1)) return end;
  return fail(pos);
}

export function parseIsoDateOptionalTime(text: string, f: ParsedFields, strict: boolean): number {
  const n = text.length;
  let p = 0;
  // Year: 4 digits, or a sign and more digits (java.time's EXCEEDS_PAD).
  let neg = false;
  const c0 = text.charCodeAt(0);
  if (c0 === 43 || c0 === 45) {
    neg = c0 === 45;
    p = 1;
  }
  let end = digitsEnd(text, p, 10);
  const yLen = end - p;
  // A sign is taken only when the year exceeds four digits, so `-1000` stays epoch millis for
  // `strict_date_optional_time||epoch_millis`.
  if (strict ? yLen < 4 || yLen > 4 !== (p === 1) : yLen < 1) return fail(p);
  f.year = neg ? -value(text, p, end) : value(text, p, end);
  p = end;
  if (p < n && text.charCodeAt(p) === 45) {
    end = two(text, p + 1, strict);
    if (end < 0) return end;
    f.month = value(text, p + 1, end);
    p = end;
    if (p < n && text.charCodeAt(p) === 45) {
      end = two(text, p + 1, strict);
      if (end < 0) return end;
      f.day = value(text, p + 1, end);
      p = end;
    }
  }
  if (p < n && text.charCodeAt(p) === 84) {
    p++;
    end = p < n ? two(text, p, strict) : fail(p);
    if (end >= 0) {
      f.hour = value(text, p, end);
      p = end;
      if (p < n && text.charCodeAt(p) === 58) {
        end = two(text, p + 1, strict);
        if (end < 0) return end;
        f.minute = value(text, p + 1, end);
        p = end;
        if (p < n && text.charCodeAt(p) === 58) {
          end = two(text, p + 1, strict);
          if (end < 0) return end;
          f.second = value(text, p + 1, end);
          p = end;
          const sep = p < n ? text.charCodeAt(p) : 0;
          if (sep === 46 || sep === 44) {
            end = digitsEnd(text, p + 1, 9);
            if (end === p + 1) return fail(p + 1);
            let nano = value(text, p + 1, end);
            for (let i = end - p - 1; i < 9; i++) nano *= 10;
            f.nano = nano;
            p = end;
          }
        }
      }
    }
    if (p < n) {
      const r = parseZone(text, p, f);
      if (r < 0) return r;
      p = r;
    }
  } else if (p < n) {
    const c = text.charCodeAt(p);
    if (c === 90 || c === 43 || c === 45) {
      const r = parseZone(text, p, f);
      if (r >= 0) p = r;
    }
  }
  return p;
}

function parseZone(text: string, p: number, f: ParsedFields): number {
  const c = text.charCodeAt(p);
  if (c === 90) {
    f.offsetMillis = 0;
    return p + 1;
  }
  if (c === 43 || c === 45) {
    let end = p + 1;
    while (end < text.length) {
      const d = text.charCodeAt(end);
      if ((d >= 48 && d <= 57) || d === 58) end++;
      else break;
    }
    for (let e = end; e > p + 2; e--) {
      if (text.charCodeAt(e - 1) === 58) continue;
      const off = offsetFromText(text.slice(p, e));
      if (off !== undefined) {
        f.offsetMillis = off;
        return e;
      }
    }
    return fail(p);
  }
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
    try {
      f.zone = resolveZone(text.slice(p));
      return text.length;
    } catch {
      return fail(p);
    }
  }
  return p;
}
