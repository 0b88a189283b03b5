/**
 * The `composite` body (CompositeAggregationBuilder): `size`, `sources` — each a one-key object
 * naming a `terms`, `histogram`, `date_histogram` or `geotile_grid` source — and `after`, the
 * previous page's `after_key`.
 */
import { illegalArgument } from '../../errors/catalogue.ts';
import type { JsonScalar } from '../../query/ast.ts';
import { parseBoundingBox } from '../../query/geo.ts';
import { parsingError } from '../../query/local-errors.ts';
import { here, isObject, isValue, type ParseCtx, tokenOf } from '../../query/parse-context.ts';
import { booleanValue, doubleValue, intValue, text } from '../../query/xcontent-values.ts';
import type { BodyContext, DraftOf, Mutable, SpecDraft } from './body-context.ts';
import { DateIntervalReader, readOffset } from './date-interval.ts';
import { type DeclaredField, readDeclared, TOKENS } from './object-parser.ts';
import type { CompositeSourceSpec } from './spec.ts';
import { finishSource, type SourceDraft, sourceFields } from './values-source.ts';

export function parseComposite(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx, name } = b;
  let size = 10;
  let sources: CompositeSourceSpec[] | undefined;
  let after: Record<string, JsonScalar> | undefined;
  readDeclared(ctx, 'composite', body, {
    size: {
      tokens: TOKENS.NUMBER,
      read: (v) => {
        size = intValue(ctx, v);
        if (size <= 0) throw illegalArgument(`[size] must be greater than 0. Found [${size}] in [${name}]`);
      },
    },
    sources: {
      tokens: TOKENS.ARRAY,
      read: (v) => (sources = (v as unknown[]).map((s, i) => source(b, s, i))),
    },
    after: { tokens: TOKENS.OBJECT, read: (v) => (after = afterKey(ctx, v as Record<string, unknown>)) },
  });
  if (sources === undefined) throw illegalArgument('Required [sources]');
  if (sources.length === 0) throw illegalArgument('Composite [sources] cannot be null or empty');
  const names = new Set<string>();
  const duplicates = new Set<string>();
  for (const s of sources) {
    if (names.has(s.name)) duplicates.add(s.name);
    names.add(s.name);
  }
  if (duplicates.size > 0) {
    throw illegalArgument(
      `Composite source names must be unique, found duplicates: [${[...duplicates].join(', ')}]`,
    );
  }
  const spec: DraftOf<'composite'> = { type: 'composite', size, sources };
  if (after !== undefined) {
    const given = Object.keys(after).length;
    if (given !== sources.length) {
      throw illegalArgument(`[after] has ${given} value(s) but [sources] has ${sources.length}`);
    }
    for (const s of sources) {
      if (!Object.hasOwn(after, s.name)) throw illegalArgument(`Missing value for [after.${s.name}]`);
    }
    spec.after = after;
  }
  return spec;
}

function afterKey(ctx: ParseCtx, o: Record<string, unknown>): Record<string, JsonScalar> {
  const out: Record<string, JsonScalar> = {};
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (v !== null && !isValue(v)) {
      here(ctx, 'value', k);
      throw illegalArgument(`Invalid value for [after.${k}]: ${tokenOf(v)}`);
    }
    out[k] = v;
  }
  return out;
}

/** CompositeValuesSourceParserHelper.fromXContent: `{"<name>": {"<type>": {…}}}`. */
function source(b: BodyContext, item: unknown, i: number): CompositeSourceSpec {
  const ctx = b.ctx;
  ctx.path.push(i);
  if (!isObject(item)) {
    throw parsingError(
      `Failed to parse object: expecting token of type [START_OBJECT] but found [${tokenOf(item)}]`,
      here(ctx, 'value'),
    );
  }
  const name = Object.keys(item)[0];
  if (name === undefined) {
    throw parsingError(
      'Failed to parse object: expecting token of type [FIELD_NAME] but found [END_OBJECT]',
      here(ctx, 'end'),
    );
  }
  const def = item[name];
  ctx.path.push(name);
  const type = isObject(def) ? Object.keys(def)[0] : undefined;
  if (!isObject(def) || type === undefined) {
    throw parsingError(
      `Failed to parse object: expecting token of type [START_OBJECT] but found [${tokenOf(def)}]`,
      here(ctx, 'value'),
    );
  }
  const body = def[type];
  ctx.path.push(type);
  if (type !== 'terms' && type !== 'histogram' && type !== 'date_histogram' && type !== 'geotile_grid') {
    throw parsingError(`invalid source type: ${type}`, here(ctx, 'value'));
  }
  if (!isObject(body)) {
    throw parsingError(
      `Failed to parse object: expecting token of type [START_OBJECT] but found [${tokenOf(body)}]`,
      here(ctx, 'value'),
    );
  }
  const spec = sourceBody(b, name, type, body);
  ctx.path.splice(ctx.path.length - 3, 3);
  return spec;
}

function sourceBody(
  b: BodyContext,
  name: string,
  kind: CompositeSourceSpec['kind'],
  body: Record<string, unknown>,
): CompositeSourceSpec {
  const ctx = b.ctx;
  const draft: SourceDraft = {};
  let asc = true;
  let missingBucket = false;
  const fields: Record<string, DeclaredField> = {
    ...sourceFields(ctx, kind, draft, {
      formattable: kind === 'date_histogram',
      timeZoneAware: kind === 'date_histogram',
    }),
    order: {
      tokens: TOKENS.STRING,
      read: (v) => {
        const o = text(ctx, v).toLowerCase();
        if (o !== 'asc' && o !== 'desc') throw illegalArgument(`Unknown SortOrder [${text(ctx, v)}]`);
        asc = o === 'asc';
      },
    },
    missing_bucket: { tokens: TOKENS.BOOLEAN, read: (v) => (missingBucket = booleanValue(ctx, v)) },
  };
  // Composite sources take no `missing`: only missing_bucket.
  delete fields.missing;
  let interval: number | undefined;
  const dates = new DateIntervalReader(ctx, b.warnings);
  let offsetMillis = 0;
  if (kind === 'histogram') {
    fields.interval = {
      tokens: TOKENS.NUMBER,
      read: (v) => {
        interval = doubleValue(ctx, v);
        if (!(interval > 0))
          throw illegalArgument(`[interval] must be greater than 0 for histogram source [${name}]`);
      },
    };
  } else if (kind === 'date_histogram') {
    Object.assign(fields, dates.fields());
    fields.offset = { tokens: TOKENS.NUMBER, read: (v) => (offsetMillis = readOffset(ctx, v)) };
  }
  // GeoTileGridValuesSourceBuilder: `precision` (zoom 0–29, default 7) and `bounds`; no script.
  let precision = 7;
  let bounds: CompositeSourceSpec['bounds'];
  if (kind === 'geotile_grid') {
    delete fields.script;
    delete fields.format;
    fields.precision = {
      tokens: TOKENS.NUMBER,
      read: (v) => {
        precision = intValue(ctx, v);
        if (precision < 0 || precision > 29) {
          throw illegalArgument(`Invalid geotile_grid precision of ${precision}. Must be between 0 and 29.`);
        }
      },
    };
    fields.bounds = {
      tokens: TOKENS.OBJECT,
      read: (v) => {
        const box = parseBoundingBox(v as Record<string, unknown>);
        bounds = [box.top, box.left, box.bottom, box.right].some(Number.isNaN) ? undefined : box;
      },
    };
  }
  const seen = readDeclared(ctx, kind, body, fields);
  const spec: Mutable<CompositeSourceSpec> = {
    name,
    kind,
    source: finishSource(draft, seen),
    asc,
    missingBucket,
  };
  if (kind === 'histogram') {
    if (interval === undefined)
      throw illegalArgument(`[interval] must be greater than 0 for histogram source [${name}]`);
    spec.interval = interval;
  } else if (kind === 'geotile_grid') {
    spec.precision = precision;
    if (bounds !== undefined) spec.bounds = bounds;
  } else if (kind === 'date_histogram') {
    const tz = spec.source.timeZone;
    const r = { interval: dates.interval(), offsetMillis };
    spec.rounding = tz === undefined ? r : { ...r, timeZone: tz };
  }
  return spec;
}
