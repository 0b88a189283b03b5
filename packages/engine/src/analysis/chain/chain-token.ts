/**
 * A token as an analysis chain passes it from step to step: Lucene's term, position, offset,
 * type and position-length attributes, and the keyword flag the stemmers read.
 */
import { illegalArgument } from '@shoal/protocol';

export interface ChainToken {
  term: string;
  position: number;
  startOffset: number;
  endOffset: number;
  type: string;
  positionLength: number;
  /** Present once a step that knows keyword marking (a stemmer) is in the chain. */
  keyword?: boolean;
}

/** A component's settings as the request gives them inline (`{ "type": "stop", … }`). */
export type ComponentSettings = Record<string, unknown>;

export function intSetting(s: ComponentSettings, key: string, dflt: number): number {
  const v = s[key];
  if (v === undefined) return dflt;
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw illegalArgument(`Failed to parse value [${String(v)}] for setting [${key}]`);
  }
  return n;
}

export function boolSetting(s: ComponentSettings, key: string, dflt: boolean): boolean {
  const v = s[key];
  if (v === undefined) return dflt;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw illegalArgument(`Failed to parse value [${String(v)}] as only [true] or [false] are allowed.`);
}

export function stringSetting(s: ComponentSettings, key: string, dflt: string): string {
  const v = s[key];
  return v === undefined ? dflt : String(v);
}

/** A list setting: an array, or one comma-separated string. */
export function listSetting(s: ComponentSettings, key: string): string[] | undefined {
  const v = s[key];
  if (v === undefined) return undefined;
  if (Array.isArray(v)) return v.map(String);
  return String(v)
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x.length > 0);
}

/**
 * A Java regex's flags (Regex.flagsFromString) and syntax, as far as JavaScript's `u` regexes
 * read the same patterns.
 */
export function javaRegExp(pattern: string, flags: string | undefined, global: boolean): RegExp {
  let js = global ? 'gu' : 'u';
  for (const f of (flags ?? '').split('|').map((x) => x.trim().toUpperCase())) {
    if (f === 'CASE_INSENSITIVE') js += 'i';
    else if (f === 'MULTILINE') js += 'm';
    else if (f === 'DOTALL') js += 's';
    else if (f === '' || f === 'UNICODE_CASE' || f === 'UNICODE_CHARACTER_CLASS' || f === 'COMMENTS')
      continue;
    else if (f !== 'CANON_EQ' && f !== 'LITERAL' && f !== 'UNIX_LINES')
      throw illegalArgument(`Unknown regex flag [${f}]`);
  }
  try {
    return new RegExp(pattern, js);
  } catch (e) {
    throw illegalArgument(`Invalid regex pattern [${pattern}]: ${(e as Error).message}`);
  }
}
