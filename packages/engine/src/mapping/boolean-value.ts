/**
 * Boolean field values. Accepted as Elasticsearch's parser accepts them: JSON booleans, the
 * strings "true"/"false", and "" (false). Indexed as the terms `true` / `false` — the term
 * representation Shoal uses for booleans everywhere (term queries normalise true/"true" to it,
 * aggregations show key 1/0 with key_as_string "true"/"false").
 */
import { illegalArgument } from '@shoal/protocol';
import { javaToString } from './java-text.ts';

export const TRUE_TERM = 'true';
export const FALSE_TERM = 'false';

export function parseBooleanValue(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    if (v === 'true') return true;
    if (v === 'false' || v === '') return false;
    throw illegalArgument(`Failed to parse value [${v}] as only [true] or [false] are allowed.`);
  }
  if (typeof v === 'number' || typeof v === 'bigint') {
    throw illegalArgument(
      `Current token (VALUE_NUMBER_${Number.isInteger(Number(v)) ? 'INT' : 'FLOAT'}) not of boolean type`,
    );
  }
  throw illegalArgument(`Failed to parse value [${javaToString(v)}] as only [true] or [false] are allowed.`);
}
