/**
 * `null_value` is validated when the mapping is parsed and kept in parsed form, so documents
 * with nulls index it without re-parsing.
 */
import { illegalArgument, isShoalError } from '@shoal/protocol';
import { DEFAULT_DATE_FORMAT, DEFAULT_DATE_NANOS_FORMAT, parseDateValue } from '../dates/index.ts';
import { parseBooleanValue } from './boolean-value.ts';
import { parseGeoPoint } from './geo-value.ts';
import { normalizeIp } from './ip-value.ts';
import { type NumericType, parseNumber } from './number-values.ts';
import type { LeafType } from './params.ts';

/** Returns the value to store for `null_value` (numbers parsed, everything else as given). */
export function validateNullValue(field: string, type: LeafType, params: Record<string, unknown>): unknown {
  const v = params.null_value;
  try {
    switch (type) {
      case 'long':
      case 'integer':
      case 'short':
      case 'byte':
      case 'double':
      case 'float':
      case 'half_float':
      case 'scaled_float': {
        // NumberType.parse(Object, coerce=false): strings are fine, decimal parts are not.
        const n = parseNumber(type as NumericType, v, true);
        const whole = type === 'long' || type === 'integer' || type === 'short' || type === 'byte';
        if (whole && !Number.isInteger(Number(v)))
          throw illegalArgument(`Value [${String(v)}] has a decimal part`);
        return n;
      }
      case 'boolean':
        return parseBooleanValue(v);
      case 'date':
      case 'date_nanos': {
        const format =
          (params.format as string | undefined) ??
          (type === 'date' ? DEFAULT_DATE_FORMAT : DEFAULT_DATE_NANOS_FORMAT);
        parseDateValue(v as string, format, type === 'date' ? 'millis' : 'nanos');
        return v;
      }
      case 'ip':
        normalizeIp(String(v));
        return v;
      case 'geo_point':
        parseGeoPoint(v, field, true);
        return v;
      default:
        return v;
    }
  } catch (e) {
    if (isShoalError(e))
      throw illegalArgument(`Error parsing [null_value] on field [${field}]: ${e.reason}`, e);
    throw e;
  }
}
