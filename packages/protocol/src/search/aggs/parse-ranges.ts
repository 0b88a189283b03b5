/**
 * `range` and `date_range` bodies: `ranges` (each with `key`, `from` inclusive, `to` exclusive,
 * as numbers or text — a date or date math for date fields), `keyed`, and the values-source
 * fields (`date_range` also takes `time_zone`).
 */
import { illegalArgument } from '../../errors/catalogue.ts';
import { parsingError } from '../../query/local-errors.ts';
import { here, isObject, type ParseCtx, tokenOf } from '../../query/parse-context.ts';
import { booleanValue, doubleValue, text } from '../../query/xcontent-values.ts';
import type { BodyContext, Mutable, SpecDraft } from './body-context.ts';
import { readDeclared, TOKENS } from './object-parser.ts';
import type { RangeEntry } from './spec.ts';
import { finishSource, type SourceDraft, sourceFields } from './values-source.ts';

export function parseRange(type: 'range' | 'date_range') {
  return (b: BodyContext, body: Record<string, unknown>): SpecDraft => {
    const { ctx, name } = b;
    const draft: SourceDraft = {};
    let keyed = false;
    let ranges: RangeEntry[] | undefined;
    const fields = {
      ...sourceFields(ctx, type, draft, { formattable: true, timeZoneAware: type === 'date_range' }),
      keyed: { tokens: TOKENS.BOOLEAN, read: (v: unknown) => (keyed = booleanValue(ctx, v)) },
      ranges: { tokens: TOKENS.ARRAY, read: (v: unknown) => (ranges = readRanges(ctx, v as unknown[])) },
    };
    const seen = readDeclared(ctx, type, body, fields);
    const source = finishSource(draft, seen);
    if (ranges === undefined || ranges.length === 0) {
      throw illegalArgument(`No [ranges] specified for the [${name}] aggregation`);
    }
    return { type, source, ranges, keyed };
  };
}

function readRanges(ctx: ParseCtx, items: unknown[]): RangeEntry[] {
  return items.map((item, i) => {
    ctx.path.push(i);
    if (!isObject(item)) {
      throw parsingError(`Unexpected token ${tokenOf(item)} in [ranges].`, here(ctx, 'value'));
    }
    const r: Mutable<RangeEntry> = {};
    readDeclared(ctx, 'range', item, {
      key: { tokens: TOKENS.STRING, read: (v) => (r.key = text(ctx, v)) },
      from: { tokens: TOKENS.VALUE, read: (v) => setBound(ctx, r, 'from', v) },
      to: { tokens: TOKENS.VALUE, read: (v) => setBound(ctx, r, 'to', v) },
    });
    ctx.path.pop();
    return r;
  });
}

/** A bound: null is open, a number is taken as a double, text is resolved on the shard. */
function setBound(ctx: ParseCtx, r: Mutable<RangeEntry>, which: 'from' | 'to', v: unknown): void {
  if (v === null) return;
  if (typeof v === 'string') r[which] = v;
  else r[which] = doubleValue(ctx, v);
}
