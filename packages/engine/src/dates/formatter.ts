/**
 * A date `format` as mappings and queries give it: one or more formats joined by `||`, tried in
 * order when parsing; the first one prints. Compiled formatters are cached by their text.
 */
import { illegalArgument, isShoalError } from '@shoal/protocol';
import { localFromEpoch } from './calendar.ts';
import { namedFormat, patternFormat, type SingleFormat } from './named-formats.ts';
import { type InstantValue, ParsedFields, resolveFields } from './parsed-fields.ts';
import { UTC, type Zone } from './time-zone.ts';

export interface DateFormatter {
  /** The format text as given (`strict_date_optional_time||epoch_millis`). */
  readonly pattern: string;
  /**
   * Parses `text` into `out`. Returns null on success, else the java.time message that
   * Elasticsearch carries as the cause (`Text 'x' could not be parsed at index 0`).
   */
  parse(text: string, roundUp: boolean, zone: Zone, out: InstantValue): string | null;
  /** Prints an instant with the first format of the list, in `zone`. */
  format(millis: number, nanoOfMilli: number, zone: Zone): string;
}

const scratch = new ParsedFields();

function compile(pattern: string): DateFormatter {
  if (pattern.length === 0) throw illegalArgument('No date pattern provided');
  const parts = pattern.split('||');
  const formats: SingleFormat[] = parts.map((p) => {
    if (p.length === 0) throw illegalArgument(`Invalid format: [${pattern}]: empty format in list`);
    const named = namedFormat(p);
    if (named) return named;
    try {
      return patternFormat(p);
    } catch (e) {
      if (isShoalError(e) && !e.reason.startsWith('Invalid format'))
        throw illegalArgument(`Invalid format: [${p}]: ${e.reason}`, e);
      throw e;
    }
  });
  const first = formats[0]!;
  return {
    pattern,
    parse(text, roundUp, zone, out) {
      let message = '';
      for (const fmt of formats) {
        const f = scratch.reset();
        const end = fmt.parse(text, f);
        if (end === text.length) {
          const err = resolveFields(f, roundUp, zone, out);
          if (err === null) return null;
          message = `Text '${text}' could not be parsed: ${err}`;
        } else if (end >= 0) {
          message = `Text '${text}' could not be parsed, unparsed text found at index ${end}`;
        } else {
          message = `Text '${text}' could not be parsed at index ${-1 - end}`;
        }
      }
      return formats.length > 1 ? 'Failed to parse with all enclosed parsers' : message;
    },
    format(millis, nanoOfMilli, zone) {
      const offset = zone.offsetAt(millis);
      return first.print(localFromEpoch(millis, nanoOfMilli, offset), offset, zone.id, millis, nanoOfMilli);
    },
  };
}

const CACHE = new Map<string, DateFormatter>();

/** The compiled formatter for a format text; throws illegal_argument_exception for a bad pattern. */
export function dateFormatter(pattern: string): DateFormatter {
  let f = CACHE.get(pattern);
  if (!f) {
    f = compile(pattern);
    if (CACHE.size > 1000) CACHE.clear();
    CACHE.set(pattern, f);
  }
  return f;
}

export { UTC };
