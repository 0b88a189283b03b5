/**
 * The `_search` body, key by key, as SearchSourceBuilder.parseXContent reads it: each key is
 * accepted only with the JSON shapes Elasticsearch accepts for it, anything else is
 * `Unknown key for a <TOKEN> in [<key>].`, and the builder setters' checks apply as values arrive.
 */

import { illegalArgument } from '../errors/catalogue.ts';
import type { KnnQuery, QueryNode } from '../query/ast.ts';
import { parseKnnBody } from '../query/knn.ts';
import { parsingError } from '../query/local-errors.ts';
import {
  assertSupports,
  here,
  isObject,
  isValue,
  onValue,
  type ParseCtx,
  parseField,
  tokenOf,
  unknownField,
  VT,
} from '../query/parse-context.ts';
import { parseInnerQuery } from '../query/parse-query.ts';
import { booleanValue, floatValue, intValue, scalarText, text } from '../query/xcontent-values.ts';
import type { ScriptSpec } from '../script/script-spec.ts';
import { parseTimeValue } from '../values/time-value.ts';
import { parseAggregations } from './aggs/parse-aggs.ts';
import type { AggregationsSpec } from './aggs/spec.ts';
import {
  type FieldAndFormat,
  readFieldAndFormats,
  readStoredFields,
  type StoredFieldsSpec,
} from './fetch-fields.ts';
import { readFetchSource } from './fetch-source.ts';
import { type HighlightSpec, readHighlight } from './highlight.ts';
import { type IndexBoost, readIndicesBoost, readIndicesBoostObject } from './indices-boost.ts';
import { readSort } from './parse-sort.ts';
import { type RescoreSpec, readRescorer } from './rescore.ts';
import { parseRuntimeMappings, type RuntimeMappings } from './runtime-mappings.ts';
import { readScriptFields, type ScriptField } from './script-fields.ts';
import type { SearchRequest, SourceFilter } from './search-request.ts';
import type { SortSpec } from './sort-spec.ts';

/** What the body (and then the URL) set: SearchSourceBuilder's state, unset fields absent. */
export interface SearchSource {
  query?: QueryNode;
  runtimeMappings?: RuntimeMappings;
  postFilter?: QueryNode;
  from?: number;
  size?: number;
  sort?: SortSpec[];
  trackTotalHitsUpTo?: number;
  trackScores?: boolean;
  source?: SourceFilter;
  searchAfter?: unknown[];
  version?: boolean;
  seqNoPrimaryTerm?: boolean;
  /** Milliseconds; negative means none. */
  timeoutMs?: number;
  terminateAfter?: number;
  minScore?: number;
  explain?: boolean;
  profile?: boolean;
  aggs?: AggregationsSpec;
  pit?: NonNullable<SearchRequest['pit']>;
  slice?: NonNullable<SearchRequest['slice']>;
  collapse?: Record<string, unknown>;
  rescore?: RescoreSpec[];
  stats?: string[];
  indicesBoost?: IndexBoost[];
  fetchFields?: FieldAndFormat[];
  docValueFields?: FieldAndFormat[];
  storedFields?: StoredFieldsSpec;
  highlight?: HighlightSpec;
  scriptFields?: ScriptField[];
  /** Every script the body names (filled by the caller that collects them). */
  scripts?: ScriptSpec[];
  /** Top-level `knn` searches, k and num_candidates as given (resolved against size later). */
  knn?: KnnQuery[];
  ignoredKeys: string[];
  /** How many `script_fields` the body names (checked against `index.max_script_fields`). */
  scriptFieldsCount?: number;
  warnings: string[];
}

export const TRACK_TOTAL_HITS_ACCURATE_VALUE = 2147483647;

/** SearchSourceBuilder.from / size / terminateAfter / trackTotalHitsUpTo setters. */
export function checkFrom(from: number): number {
  if (from < 0) throw illegalArgument(`[from] parameter cannot be negative but was [${from}]`);
  return from;
}
export function checkSize(size: number): number {
  if (size < 0) throw illegalArgument(`[size] parameter cannot be negative, found [${size}]`);
  return size;
}
export function checkTerminateAfter(n: number): number {
  if (n < 0) throw illegalArgument('terminateAfter must be > 0');
  return n;
}
export function checkTrackTotalHitsUpTo(n: number): number {
  if (n < -1)
    throw illegalArgument(`[track_total_hits] parameter must be positive or equals to -1, got ${n}`);
  return n;
}

/** Keys accepted for validity but not acted on by Shoal (response decorations, mostly). */
const IGNORED_OBJECT_KEYS = new Set(['suggest', 'ext']);
const IGNORED_ARRAY_KEYS = new Set<string>();

/** Parses a decoded `_search` body (already known to be an object) at `ctx.path`. */
export function readSearchBody(ctx: ParseCtx, body: Record<string, unknown>): SearchSource {
  const s: SearchSource = { ignoredKeys: [], warnings: [] };
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (isValue(v)) readValueKey(ctx, s, key, v);
    else if (isObject(v)) readObjectKey(ctx, s, key, v);
    else if (Array.isArray(v)) readArrayKey(ctx, s, key, v);
    else throw unknownKey(ctx, key, v);
  }
  return s;
}

export function unknownKey(ctx: ParseCtx, key: string, v: unknown) {
  return parsingError(`Unknown key for a ${tokenOf(v)} in [${key}].`, here(ctx, 'value', key));
}

function readValueKey(
  ctx: ParseCtx,
  s: SearchSource,
  key: string,
  v: string | number | bigint | boolean,
): void {
  switch (key) {
    case 'from':
      s.from = onValue(ctx, key, () => checkFrom(intValue(ctx, v, key)));
      return;
    case 'size':
      s.size = onValue(ctx, key, () => checkSize(intValue(ctx, v, key)));
      return;
    case 'timeout':
      s.timeoutMs = onValue(ctx, key, () => parseTimeValue(text(ctx, v, key), 'timeout'));
      return;
    case 'terminate_after':
      s.terminateAfter = onValue(ctx, key, () => checkTerminateAfter(intValue(ctx, v, key)));
      return;
    case 'min_score':
      s.minScore = floatValue(ctx, v, key);
      return;
    case 'version':
      s.version = booleanValue(ctx, v, key);
      return;
    case 'seq_no_primary_term':
      s.seqNoPrimaryTerm = booleanValue(ctx, v, key);
      return;
    case 'explain':
      s.explain = booleanValue(ctx, v, key);
      return;
    case 'track_scores':
      s.trackScores = booleanValue(ctx, v, key);
      return;
    case 'track_total_hits':
      if (typeof v === 'boolean' || v === 'true' || v === 'false') {
        s.trackTotalHitsUpTo = booleanValue(ctx, v, key) ? TRACK_TOTAL_HITS_ACCURATE_VALUE : -1;
      } else {
        s.trackTotalHitsUpTo = onValue(ctx, key, () => checkTrackTotalHitsUpTo(intValue(ctx, v, key)));
      }
      return;
    case '_source':
      ctx.path.push(key);
      s.source = readFetchSource(ctx, v, s.warnings);
      ctx.path.pop();
      return;
    case 'stored_fields':
      ctx.path.push(key);
      s.storedFields = readStoredFields(ctx, v);
      ctx.path.pop();
      return;
    case 'sort':
      ctx.path.push(key);
      s.sort = readSort(ctx, scalarText(v));
      ctx.path.pop();
      return;
    case 'profile':
      s.profile = booleanValue(ctx, v, key);
      return;
    default:
      throw unknownKey(ctx, key, v);
  }
}

function readObjectKey(ctx: ParseCtx, s: SearchSource, key: string, v: Record<string, unknown>): void {
  ctx.path.push(key);
  switch (key) {
    case 'query':
      s.query = parseInnerQuery(ctx, v);
      break;
    case 'post_filter':
      s.postFilter = parseInnerQuery(ctx, v);
      break;
    case '_source':
      s.source = readFetchSource(ctx, v, s.warnings);
      break;
    case 'aggregations':
    case 'aggs': {
      const parsed = parseAggregations(v, { body: ctx.root, path: ctx.path, parent: ctx });
      if (parsed.aggs.length > 0) s.aggs = parsed.aggs;
      s.warnings.push(...parsed.warnings);
      break;
    }
    case 'sort':
      s.sort = readSort(ctx, v);
      break;
    case 'rescore':
      s.rescore = [readRescorer(ctx, v)];
      break;
    case 'slice':
      s.slice = readSlice(ctx, v);
      break;
    case 'collapse':
      s.collapse = v;
      break;
    case 'pit':
      s.pit = readPit(ctx, v);
      break;
    case 'highlight':
      s.highlight = readHighlight(ctx, v);
      break;
    case 'indices_boost':
      s.indicesBoost = readIndicesBoostObject(ctx, v, s.warnings);
      break;
    case 'runtime_mappings':
      s.runtimeMappings = parseRuntimeMappings(v, ctx);
      break;
    case 'knn':
      ctx.path.pop();
      s.knn = [readKnn(ctx, key, v)];
      return;
    case 'script_fields':
      // Counted for index.max_script_fields before the fields are read.
      if (typeof v === 'object' && v !== null && !Array.isArray(v))
        s.scriptFieldsCount = Object.keys(v).length;
      s.scriptFields = readScriptFields(ctx, v, s.warnings);
      break;
    default:
      ctx.path.pop();
      if (!IGNORED_OBJECT_KEYS.has(key)) throw unknownKey(ctx, key, v);
      s.ignoredKeys.push(key);
      return;
  }
  ctx.path.pop();
}

function readArrayKey(ctx: ParseCtx, s: SearchSource, key: string, v: unknown[]): void {
  ctx.path.push(key);
  switch (key) {
    case 'sort':
      s.sort = readSort(ctx, v);
      break;
    case 'rescore':
      s.rescore = v.map((r, i) => {
        ctx.path.push(i);
        const spec = readRescorer(ctx, r);
        ctx.path.pop();
        return spec;
      });
      break;
    case '_source':
      s.source = readFetchSource(ctx, v, s.warnings);
      break;
    case 'search_after':
      s.searchAfter = readSearchAfter(ctx, v);
      break;
    case 'fields':
      s.fetchFields = readFieldAndFormats(ctx, v);
      break;
    case 'docvalue_fields':
      s.docValueFields = readFieldAndFormats(ctx, v);
      break;
    case 'stored_fields':
      s.storedFields = readStoredFields(ctx, v);
      break;
    case 'indices_boost':
      s.indicesBoost = readIndicesBoost(ctx, v);
      break;
    case 'knn':
      s.knn = v.map((entry, i) => {
        ctx.path.push(i);
        if (!isObject(entry)) throw unknownKey(ctx, String(i), entry);
        const node = parseKnnBody(entry, ctx, parseInnerQuery, 'knn');
        ctx.path.pop();
        return node;
      });
      break;
    case 'stats':
      s.stats = v.map((x, i) => {
        if (typeof x !== 'string') {
          throw parsingError(
            `Expected [VALUE_STRING] in [stats] but found [${tokenOf(x)}]`,
            here(ctx, 'value', i),
          );
        }
        return x;
      });
      break;
    default:
      ctx.path.pop();
      if (!IGNORED_ARRAY_KEYS.has(key)) throw unknownKey(ctx, key, v);
      s.ignoredKeys.push(key);
      return;
  }
  ctx.path.pop();
}

/** SearchAfterBuilder.fromXContent: scalars only, kept as sent (bigints stay bigints). */
function readSearchAfter(ctx: ParseCtx, v: unknown[]): unknown[] {
  for (let i = 0; i < v.length; i++) {
    const e = v[i];
    if (e !== null && !isValue(e)) {
      throw parsingError(
        `Expected [VALUE_STRING] or [VALUE_NUMBER] or [VALUE_BOOLEAN] or [VALUE_NULL] but found [${tokenOf(e)}] inside search_after.`,
        here(ctx, 'value', i),
      );
    }
  }
  if (v.length === 0) {
    here(ctx, 'end');
    throw illegalArgument('Values must contains at least one value.');
  }
  return v.slice();
}

/** SliceBuilder's ObjectParser: `id`, `max`, `field`, with the setters' cross-checks. */
function readSlice(ctx: ParseCtx, body: Record<string, unknown>): NonNullable<SearchSource['slice']> {
  const slice: NonNullable<SearchSource['slice']> = { id: -1, max: -1 };
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (key === 'field') {
      assertSupports(ctx, 'slice', key, v, VT.STRING);
      slice.field = v as string;
    } else if (key === 'id' || key === 'max') {
      assertSupports(ctx, 'slice', key, v, VT.INT);
      parseField(ctx, 'slice', key, () => {
        const n = intValue(ctx, v);
        if (key === 'id') {
          if (n < 0) throw illegalArgument('id must be greater than or equal to 0');
          if (slice.max !== -1 && n >= slice.max) throw illegalArgument('max must be greater than id');
          slice.id = n;
        } else {
          if (n <= 1) throw illegalArgument('max must be greater than 1');
          if (slice.id !== -1 && slice.id >= n) throw illegalArgument('max must be greater than id');
          slice.max = n;
        }
      });
    } else {
      throw unknownField(ctx, 'slice', key, ['field', 'id', 'max']);
    }
  }
  return slice;
}

/** PointInTimeBuilder.fromXContent: `id` (required) and `keep_alive`. */
function readPit(ctx: ParseCtx, body: Record<string, unknown>): NonNullable<SearchSource['pit']> {
  let id: string | undefined;
  let keepAliveMs: number | undefined;
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (key === 'id') {
      assertSupports(ctx, 'pit', key, v, VT.STRING);
      id = v as string;
    } else if (key === 'keep_alive') {
      assertSupports(ctx, 'pit', key, v, VT.STRING);
      keepAliveMs = parseField(ctx, 'pit', key, () => parseTimeValue(v as string, 'keep_alive'));
    } else {
      throw unknownField(ctx, 'pit', key, ['id', 'keep_alive']);
    }
  }
  if (id === undefined) {
    here(ctx, 'end');
    throw illegalArgument('point in time id is not provided');
  }
  return keepAliveMs === undefined ? { id } : { id, keepAliveMs };
}

/** One top-level `knn` search object at `key`. */
function readKnn(ctx: ParseCtx, key: string, v: Record<string, unknown>): KnnQuery {
  ctx.path.push(key);
  const node = parseKnnBody(v, ctx, parseInnerQuery, 'knn');
  ctx.path.pop();
  return node;
}
