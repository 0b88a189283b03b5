/**
 * `order` of terms and histograms (InternalOrder.Parser.parseOrderParam): `{"_count": "desc"}`,
 * `{"_key": "asc"}`, `{"my_metric": "asc"}`, `{"stats.avg": "desc"}`, or an array of these.
 * As BucketOrder.compound does, an order that does not end with the key gets `_key` ascending
 * as its last tie-breaker, so bucket order is always total.
 */
import { parsingError } from '../../query/local-errors.ts';
import { here, isObject, type ParseCtx, tokenOf } from '../../query/parse-context.ts';
import type { BucketOrder } from './spec.ts';

export const COUNT_DESC_KEY_ASC: readonly BucketOrder[] = [
  { kind: 'count', asc: false },
  { kind: 'key', asc: true },
];
export const KEY_ASC: readonly BucketOrder[] = [{ kind: 'key', asc: true }];

/** Reads `order` (at `ctx.path`) into a total order. `warnings` gets the `_term`/`_time` deprecation. */
export function readOrder(ctx: ParseCtx, v: unknown, warnings: string[]): BucketOrder[] {
  const orders: BucketOrder[] = [];
  if (Array.isArray(v)) {
    v.forEach((item, i) => {
      ctx.path.push(i);
      if (!isObject(item)) {
        throw parsingError(`Unexpected token [${tokenOf(item)}] for [order]`, here(ctx, 'value'));
      }
      orders.push(orderParam(ctx, item, warnings));
      ctx.path.pop();
    });
  } else if (isObject(v)) {
    orders.push(orderParam(ctx, v, warnings));
  }
  return withTieBreaker(orders);
}

function orderParam(ctx: ParseCtx, o: Record<string, unknown>, warnings: string[]): BucketOrder {
  let key: string | undefined;
  let asc = false;
  for (const k of Object.keys(o)) {
    key = k;
    const dir = o[k];
    if (typeof dir !== 'string') {
      throw parsingError(`Unexpected token [${tokenOf(dir)}] for [order]`, here(ctx, 'value', k));
    }
    const d = dir.toLowerCase();
    if (d === 'asc') asc = true;
    else if (d === 'desc') asc = false;
    else throw parsingError(`Unknown order direction [${dir}]`, here(ctx, 'value', k));
  }
  if (key === undefined) throw parsingError('Must specify at least one field for [order]', here(ctx, 'end'));
  if (key === '_term' || key === '_time') {
    warnings.push(`Deprecated aggregation order key [${key}] used, replaced by [_key]`);
  }
  switch (key) {
    case '_term':
    case '_time':
    case '_key':
      return { kind: 'key', asc };
    case '_count':
      return { kind: 'count', asc };
    default:
      return { kind: 'path', path: key, asc };
  }
}

function withTieBreaker(orders: BucketOrder[]): BucketOrder[] {
  const last = orders[orders.length - 1];
  if (last === undefined) return [...COUNT_DESC_KEY_ASC];
  if (last.kind !== 'key') orders.push({ kind: 'key', asc: true });
  return orders;
}

/** Whether the order is Elasticsearch's default for terms: by count descending (then key). */
export function isCountDesc(order: readonly BucketOrder[]): boolean {
  const first = order[0];
  return first !== undefined && first.kind === 'count' && !first.asc;
}

/** Whether buckets are ordered by key alone. */
export function isKeyOrder(order: readonly BucketOrder[]): boolean {
  return order[0]?.kind === 'key';
}
