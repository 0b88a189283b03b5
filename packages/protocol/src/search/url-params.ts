/**
 * RestRequest's typed accessors over a parameter map, absent parameters giving `undefined`
 * (the shared helpers in values/params.ts take the raw value).
 */
import { illegalArgument } from '../errors/catalogue.ts';
import { isShoalError } from '../errors/shoal-error.ts';
import { javaParseDouble } from '../query/xcontent-values.ts';
import { parseBooleanParam, parseIntParam } from '../values/params.ts';

export type Params = Readonly<Record<string, string | undefined>>;

/** RestRequest.paramAsInt. */
export function paramAsInt(params: Params, key: string): number | undefined {
  return parseIntParam(params[key], key);
}

/** RestRequest.paramAsBoolean: a present but empty parameter means true. */
export function paramAsBoolean(params: Params, key: string): boolean | undefined {
  const v = params[key];
  return v === undefined ? undefined : parseBooleanParam(v, key);
}

/** RestRequest.paramAsFloat. */
export function paramAsFloat(params: Params, key: string): number | undefined {
  const v = params[key];
  if (v === undefined) return undefined;
  try {
    return Math.fround(javaParseDouble(v));
  } catch (e) {
    if (!isShoalError(e)) throw e;
    throw illegalArgument(`Failed to parse float parameter [${key}] with value [${v}]`, e);
  }
}
