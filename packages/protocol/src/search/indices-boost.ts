/**
 * `indices_boost`, as SearchSourceBuilder.IndexBoost reads it in Elasticsearch 8: an array of
 * objects holding exactly one `"<index expression>": <number>` each. The 7.x object form
 * (`{"a": 1.5, "b": 2}`), which Elasticsearch 8 keeps for REST API compatibility with 7.x, is
 * accepted too, with 7.x's deprecation warning (Shoal keeps 7.x deprecations working).
 */
import { parsingError } from '../query/local-errors.ts';
import { here, isObject, isValue, type ParseCtx, tokenOf } from '../query/parse-context.ts';
import { floatValue } from '../query/xcontent-values.ts';

export const INDICES_BOOST_OBJECT_DEPRECATION =
  'Object format in indices_boost is deprecated, please use array format instead';

export interface IndexBoost {
  /** An index name, alias or wildcard expression, resolved by the coordinator. */
  index: string;
  /** A Java float, as `parser.floatValue()` reads it. */
  boost: number;
}

/** Reads the array at `ctx.path` (the `indices_boost` key). */
export function readIndicesBoost(ctx: ParseCtx, entries: unknown[]): IndexBoost[] {
  const out: IndexBoost[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (!isObject(e)) {
      // parser.currentName() inside an array is null.
      throw parsingError(
        `Expected [START_OBJECT] in [null] but found [${tokenOf(e)}]`,
        here(ctx, 'value', i),
      );
    }
    const keys = Object.keys(e);
    ctx.path.push(i);
    try {
      if (keys.length === 0) {
        throw parsingError(
          'Expected [FIELD_NAME] in [indices_boost] but found [END_OBJECT]',
          here(ctx, 'end'),
        );
      }
      const index = keys[0]!;
      const v = e[index];
      if (typeof v !== 'number' && typeof v !== 'bigint') {
        throw parsingError(
          `Expected [VALUE_NUMBER] in [indices_boost] but found [${tokenOf(v)}]`,
          here(ctx, 'value', index),
        );
      }
      if (keys.length > 1) {
        throw parsingError(
          'Expected [END_OBJECT] in [indices_boost] but found [FIELD_NAME]',
          here(ctx, 'key', keys[1]!),
        );
      }
      out.push({ index, boost: Math.fround(Number(v)) });
    } finally {
      ctx.path.pop();
    }
  }
  return out;
}

/**
 * Reads the 7.x object form at `ctx.path` (the `indices_boost` key): each key an index
 * expression, each value a float (a numeric string too, as `parser.floatValue()` coerces it).
 */
export function readIndicesBoostObject(
  ctx: ParseCtx,
  entries: Record<string, unknown>,
  warnings: string[],
): IndexBoost[] {
  warnings.push(INDICES_BOOST_OBJECT_DEPRECATION);
  const out: IndexBoost[] = [];
  for (const [index, v] of Object.entries(entries)) {
    if (!isValue(v)) {
      throw parsingError(`Unknown key for a ${tokenOf(v)} in [${index}].`, here(ctx, 'value', index));
    }
    out.push({ index, boost: floatValue(ctx, v, index) });
  }
  return out;
}
