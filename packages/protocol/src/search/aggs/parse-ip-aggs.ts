/**
 * The `ip_range` body (IpRangeAggregationBuilder.PARSER: `ranges` of `key`/`from`/`to` or
 * `key`/`mask`, `keyed`) and the `ip_prefix` body (IpPrefixAggregationBuilder.PARSER:
 * `prefix_length`, `is_ipv6`, `append_prefix_length`, `min_doc_count`, `keyed`). Neither takes a
 * script. Addresses and masks are checked on the shard, where they are parsed.
 */
import { illegalArgument } from '../../errors/catalogue.ts';
import { parsingError } from '../../query/local-errors.ts';
import { here, isObject, type ParseCtx, tokenOf } from '../../query/parse-context.ts';
import { booleanValue, intValue, text, textOrNull } from '../../query/xcontent-values.ts';
import type { BodyContext, Mutable, SpecDraft } from './body-context.ts';
import { type DeclaredField, longValue, readDeclared, TOKENS } from './object-parser.ts';
import type { IpRangeEntry } from './spec.ts';
import { finishSource, type SourceDraft, sourceFields } from './values-source.ts';

/** The values-source fields of an aggregation that refuses scripts as Elasticsearch does. */
function scriptlessSource(ctx: ParseCtx, type: string, draft: SourceDraft): Record<string, DeclaredField> {
  return {
    ...sourceFields(ctx, type, draft, { formattable: false, timeZoneAware: false }),
    script: {
      tokens: TOKENS.OBJECT_OR_STRING,
      read: () => {
        throw illegalArgument(`[${type}] does not support scripts`);
      },
    },
  };
}

export function parseIpRange(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx, name } = b;
  const draft: SourceDraft = {};
  let keyed = false;
  let ranges: IpRangeEntry[] = [];
  const seen = readDeclared(ctx, 'ip_range', body, {
    ...scriptlessSource(ctx, 'ip_range', draft),
    keyed: { tokens: TOKENS.BOOLEAN, read: (v) => (keyed = booleanValue(ctx, v)) },
    ranges: { tokens: TOKENS.ARRAY, read: (v) => (ranges = readIpRanges(ctx, v as unknown[])) },
  });
  const source = finishSource(draft, seen);
  if (ranges.length === 0) throw illegalArgument(`No [ranges] specified for the [${name}] aggregation`);
  return { type: 'ip_range', source, ranges, keyed };
}

/** IpRangeAggregationBuilder.parseRange: a hand-written parser, hence its own messages. */
function readIpRanges(ctx: ParseCtx, items: unknown[]): IpRangeEntry[] {
  return items.map((item, i) => {
    ctx.path.push(i);
    if (!isObject(item)) {
      throw parsingError(`[ranges] must contain objects, but hit a ${tokenOf(item)}`, here(ctx, 'value'));
    }
    const r: Mutable<IpRangeEntry> = {};
    for (const key of Object.keys(item)) {
      const v = item[key];
      if (key === 'key') r.key = text(ctx, v, key);
      else if (key === 'mask') r.mask = text(ctx, v, key);
      else if (key === 'from' || key === 'to') {
        const t = textOrNull(ctx, v, key);
        if (t !== null) r[key] = t;
      } else {
        throw parsingError(`Unexpected ip range parameter: [${key}]`, here(ctx, 'key', key));
      }
    }
    ctx.path.pop();
    if (r.mask !== undefined)
      return r.key === undefined ? { key: r.mask, mask: r.mask } : { key: r.key, mask: r.mask };
    return r;
  });
}

const IPV4_MAX = 32;
const IPV6_MAX = 128;

export function parseIpPrefix(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx } = b;
  const draft: SourceDraft = {};
  let prefixLength = -1;
  let isIpv6 = false;
  let appendPrefixLength = false;
  let minDocCount = 1;
  let keyed = false;
  const range = (field: string, max: number, value: number) =>
    illegalArgument(`[${field}] must be in range [0, ${max}] while value is [${value}]`);
  const seen = readDeclared(ctx, 'ip_prefix', body, {
    ...scriptlessSource(ctx, 'ip_prefix', draft),
    prefix_length: {
      tokens: TOKENS.NUMBER,
      read: (v) => {
        prefixLength = intValue(ctx, v);
        if (prefixLength < 0) throw range('prefix_length', isIpv6 ? IPV6_MAX : IPV4_MAX, prefixLength);
      },
    },
    is_ipv6: { tokens: TOKENS.BOOLEAN, read: (v) => (isIpv6 = booleanValue(ctx, v)) },
    append_prefix_length: {
      tokens: TOKENS.BOOLEAN,
      read: (v) => (appendPrefixLength = booleanValue(ctx, v)),
    },
    min_doc_count: {
      tokens: TOKENS.NUMBER,
      read: (v) => {
        minDocCount = longValue(ctx, v);
        if (minDocCount < 1) {
          throw illegalArgument(
            `[min_doc_count] must be in range [1, 2147483647] while value is [${minDocCount}]`,
          );
        }
      },
    },
    keyed: { tokens: TOKENS.BOOLEAN, read: (v) => (keyed = booleanValue(ctx, v)) },
  });
  const source = finishSource(draft, seen);
  const max = isIpv6 ? IPV6_MAX : IPV4_MAX;
  if (prefixLength < 0 || prefixLength > max) throw range('prefix_length', max, prefixLength);
  return { type: 'ip_prefix', source, prefixLength, isIpv6, appendPrefixLength, minDocCount, keyed };
}
