/**
 * The body of `POST /{target}/_rollover[/{new_index}]` (Elasticsearch's RolloverRequest): the
 * conditions, each with its value and the text it is shown with in the response
 * (`[max_docs: 1000]`), and the settings, mappings and aliases of the new index.
 */

import { numberFormat } from '../errors/catalogue.ts';
import { xContentParseError } from '../query/local-errors.ts';
import { here, isObject, newCtx, type ParseCtx, tokenOf } from '../query/parse-context.ts';
import { formatByteSize, parseByteSize } from '../values/byte-size.ts';
import { formatTimeValue, parseTimeValue } from '../values/time-value.ts';

export type RolloverConditionKind =
  | 'max_age'
  | 'max_docs'
  | 'max_size'
  | 'max_primary_shard_size'
  | 'max_primary_shard_docs'
  | 'min_age'
  | 'min_docs'
  | 'min_size'
  | 'min_primary_shard_size'
  | 'min_primary_shard_docs';

export interface RolloverCondition {
  kind: RolloverConditionKind;
  /** Milliseconds, documents or bytes. */
  value: number;
  /** `[max_age: 7d]`, as the response's `conditions` names it. */
  label: string;
}

export interface RolloverRequest {
  conditions: RolloverCondition[];
  settings?: unknown;
  mappings?: unknown;
  aliases?: unknown;
}

const AGE = new Set(['max_age', 'min_age']);
const DOCS = new Set(['max_docs', 'min_docs', 'max_primary_shard_docs', 'min_primary_shard_docs']);
const SIZE = new Set(['max_size', 'min_size', 'max_primary_shard_size', 'min_primary_shard_size']);

function condition(ctx: ParseCtx, kind: string, v: unknown): RolloverCondition {
  if (AGE.has(kind)) {
    const ms = parseTimeValue(String(v), kind);
    return { kind: kind as RolloverConditionKind, value: ms, label: `[${kind}: ${formatTimeValue(ms)}]` };
  }
  if (DOCS.has(kind)) {
    const n = typeof v === 'number' ? v : /^-?\d+$/.test(String(v)) ? Number(v) : Number.NaN;
    if (!Number.isInteger(n)) throw numberFormat(String(v));
    return { kind: kind as RolloverConditionKind, value: n, label: `[${kind}: ${n}]` };
  }
  if (SIZE.has(kind)) {
    const bytes = parseByteSize(String(v), kind);
    return {
      kind: kind as RolloverConditionKind,
      value: bytes,
      label: `[${kind}: ${formatByteSize(bytes)}]`,
    };
  }
  throw xContentParseError(`[conditions] unknown field [${kind}]`, here(ctx, 'key', kind));
}

export function parseRolloverRequest(body: unknown): RolloverRequest {
  const out: RolloverRequest = { conditions: [] };
  if (body === undefined) return out;
  const ctx = newCtx(body);
  if (!isObject(body)) {
    throw xContentParseError(`[rollover] Expected START_OBJECT but was ${tokenOf(body)}`, here(ctx, 'value'));
  }
  for (const [key, v] of Object.entries(body)) {
    if (key === 'conditions') {
      if (!isObject(v)) {
        throw xContentParseError(
          `[rollover] conditions doesn't support values of type: ${tokenOf(v)}`,
          here(ctx, 'value', key),
        );
      }
      ctx.path.push(key);
      for (const [kind, value] of Object.entries(v)) out.conditions.push(condition(ctx, kind, value));
      ctx.path.pop();
    } else if (key === 'settings' || key === 'mappings' || key === 'aliases') {
      out[key] = v;
    } else if (key === 'lazy') {
      // Only data streams roll over lazily; Shoal rolls over at once.
    } else {
      throw xContentParseError(`[rollover] unknown field [${key}]`, here(ctx, 'key', key));
    }
  }
  return out;
}
