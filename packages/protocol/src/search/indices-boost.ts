/**
 * `indices_boost`, as SearchSourceBuilder.IndexBoost reads it in Elasticsearch 8: an array of
 * objects holding exactly one `"<index expression>": <number>` each. The object form
 * (`{"a": 1.5}`) exists only for REST API compatibility with 7.x and is refused as any unknown
 * object key is.
 */
import { parsingError } from '../query/local-errors.ts';
import { here, isObject, type ParseCtx, tokenOf } from '../query/parse-context.ts';

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
