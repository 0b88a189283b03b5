/**
 * URL parameters as Elasticsearch's RestRequest reads them (paramAsBoolean, paramAsInt,
 * paramAsLong). Every function takes the raw value, `undefined` when the parameter is absent.
 */
import { illegalArgument, numberFormat } from '../errors/catalogue.ts';

/**
 * `?pretty` (empty) is true; `true`/`false` exactly; absent or blank gives `defaultValue`;
 * anything else is 400 `Failed to parse value [x] as only [true] or [false] are allowed.`
 * (Booleans.parseBoolean; the message does not name the parameter).
 */
export function parseBooleanParam(value: string | undefined, _name: string, defaultValue = false): boolean {
  if (value === undefined) return defaultValue;
  if (value.length === 0) return true;
  if (value.trim().length === 0) return defaultValue;
  return parseBooleanStrict(value);
}

/** Booleans.parseBoolean: only the exact words `true` and `false`. */
export function parseBooleanStrict(value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw illegalArgument(`Failed to parse value [${value}] as only [true] or [false] are allowed.`);
}

/** Booleans.isBoolean: whether the text is exactly `true` or `false` (`track_total_hits` uses it). */
export function isBooleanText(value: string): boolean {
  return value === 'true' || value === 'false';
}

/** Java's Integer.parseInt / Long.parseLong grammar: optional sign, ASCII digits. */
const JAVA_INTEGER = /^[+-]?\d+$/;
const INT_MIN = -2147483648n;
const INT_MAX = 2147483647n;
const LONG_MIN = -9223372036854775808n;
const LONG_MAX = 9223372036854775807n;

/** A Java int, or undefined when the text is not one (syntax or range). */
export function javaInt(text: string): number | undefined {
  if (!JAVA_INTEGER.test(text)) return undefined;
  const v = BigInt(text);
  return v < INT_MIN || v > INT_MAX ? undefined : Number(v);
}

/** A Java long as bigint, or undefined when the text is not one. */
export function javaLong(text: string): bigint | undefined {
  if (!JAVA_INTEGER.test(text)) return undefined;
  const v = BigInt(text);
  return v < LONG_MIN || v > LONG_MAX ? undefined : v;
}

/** `?size=abc` → 400 `Failed to parse int parameter [size] with value [abc]`, caused by the NumberFormatException. */
export function parseIntParam(value: string | undefined, name: string, defaultValue: number): number;
export function parseIntParam(value: string | undefined, name: string): number | undefined;
export function parseIntParam(
  value: string | undefined,
  name: string,
  defaultValue?: number,
): number | undefined {
  if (value === undefined) return defaultValue;
  const v = javaInt(value);
  if (v === undefined) {
    throw illegalArgument(
      `Failed to parse int parameter [${name}] with value [${value}]`,
      numberFormat(value),
    );
  }
  return v;
}

/** `?x=abc` for a long parameter → `Failed to parse long parameter [x] with value [abc]`. */
export function parseLongParam(value: string | undefined, name: string): bigint | undefined {
  if (value === undefined) return undefined;
  const v = javaLong(value);
  if (v === undefined) {
    throw illegalArgument(
      `Failed to parse long parameter [${name}] with value [${value}]`,
      numberFormat(value),
    );
  }
  return v;
}
