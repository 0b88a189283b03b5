/** Assembles the `_search` response body in Elasticsearch's key order. */
import {
  isFloatingKey,
  RawJson,
  type RawJsonWriter,
  type SearchRequest,
  scoreJson,
  sortValueJson,
  TRACK_TOTAL_HITS_DISABLED,
} from '@shoal/protocol';
import { explainedShard } from './explain-fetch.ts';
import type { FetchedHit } from './fetch-phase.ts';
import { hitsJson } from './hits-json.ts';
import type { ShardQueryOutcome } from './query-phase.ts';
import { type ShardFailure, shardFailuresJson } from './shard-failure.ts';

export function totalHits(
  outcomes: ShardQueryOutcome[],
  trackTotalHits: number,
): { value: number; relation: 'eq' | 'gte' } | undefined {
  if (trackTotalHits === TRACK_TOTAL_HITS_DISABLED) return undefined;
  let value = 0;
  let relation: 'eq' | 'gte' = 'eq';
  for (const o of outcomes) {
    value += o.result.totalHits;
    if (o.result.totalRelation === 'gte') relation = 'gte';
  }
  if (value > trackTotalHits) return { value: trackTotalHits, relation: 'gte' };
  return { value, relation };
}

function hitJson(f: FetchedHit, req: SearchRequest, hasSort: boolean): Record<string, unknown> {
  const { fetched, i, hit, outcome } = f;
  const storedNone = req.storedFields?.fetch === false;
  const out: Record<string, unknown> = f.node === undefined ? {} : explainedShard(f, f.node);
  out._index = outcome.target.meta.name;
  if (!storedNone) out._id = fetched.ids[i];
  if (req.version) out._version = fetched.versions[i];
  if (req.seqNoPrimaryTerm) {
    out._seq_no = fetched.seqNos[i];
    out._primary_term = fetched.primaryTerms[i];
  }
  out._score = Number.isNaN(hit.score) ? null : new RawJson(scoreJson(hit.score));
  const routing = fetched.routing[i];
  if (routing !== null && routing !== undefined && !storedNone) out._routing = routing;
  const ignored = fetched.ignored?.[i];
  if (ignored) out._ignored = ignored;
  if (req.source.enabled && fetched.sourceBytes.length > 0) {
    const start = fetched.sourceOffsets[i]!;
    const end = fetched.sourceOffsets[i + 1]!;
    if (end > start) out._source = new RawJson(fetched.sourceBytes.subarray(start, end));
  }
  if (fetched.fieldsJson?.[i]) Object.assign(out, fieldsObject(fetched.fieldsJson[i]!));
  if (fetched.highlight?.[i]) out.highlight = new RawJson(fetched.highlight[i]!);
  if (hasSort) {
    const values = hit.display ?? hit.sort;
    const floating = outcome.result.floatingKeys ?? 0;
    // Floating values keep Elasticsearch's `2.0` through filter_path and pretty as raw scalars.
    out.sort =
      floating === 0
        ? values
        : values.map((v, k) =>
            isFloatingKey(floating, k) && typeof v === 'number' ? new RawJson(sortValueJson(v, true)) : v,
          );
  }
  const matched = fetched.matched?.[i];
  if (matched) out.matched_queries = new RawJson(matched);
  const explanation = fetched.explanations?.[i];
  if (explanation) out._explanation = explanation;
  return out;
}

/** A hit's `fields` JSON (`,"fields":{…}…`) as the object form's keys. */
function fieldsObject(json: string): Record<string, unknown> {
  // Raw, so Java's `1.0` survives; a quote after a comma only occurs between keys.
  const out: Record<string, unknown> = {};
  const cut = json.indexOf(',"ignored_field_values":');
  const fields = cut < 0 ? json : json.slice(0, cut);
  if (fields.startsWith(',"fields":')) out.fields = new RawJson(fields.slice(10));
  if (cut >= 0) out.ignored_field_values = new RawJson(json.slice(cut + 24));
  return out;
}

export interface SearchResponseParts {
  took: number;
  req: SearchRequest;
  totalShards: number;
  skipped: number;
  outcomes: ShardQueryOutcome[];
  failures: ShardFailure[];
  hits: (FetchedHit | undefined)[];
  hasSort: boolean;
  maxScore: number;
  /** A scroll page: the id to continue with (written first). */
  scrollId?: string;
  /** A PIT search: the id to use next. */
  pitId?: string;
  /** Write `hits.hits` straight to bytes (nothing needs the object form: no `filter_path`). */
  rawHits?: boolean;
  /** `hits.hits` already written by the shards (rendered-page.ts); `hits` is then empty. */
  renderedHits?: RawJsonWriter;
  /** The reduced aggregations (written after `hits`). */
  aggregations?: Record<string, unknown>;
}

/**
 * `terminated_early` as SearchPhaseController reduces it: true when any shard stopped early,
 * absent when no shard answered a request with terminate_after.
 */
function terminatedEarly(p: SearchResponseParts): boolean | undefined {
  if (p.req.terminateAfter === undefined || p.outcomes.length === 0) return undefined;
  return p.outcomes.some((o) => o.result.terminatedEarly === true);
}

/** A `_search` body: the object form, or (a rendered first page) the whole body as bytes. */
export type SearchBody = Record<string, unknown> | RawJson;

/**
 * A rendered first page's whole body, written straight to bytes: what searchResponse and the
 * JSON writer make of the same parts, without building and walking the envelope's objects.
 * Only for the usual page — no shard failures, no aggregations, no scroll or PIT id —
 * undefined otherwise (searchResponse writes it).
 */
export function renderedSearchBody(p: SearchResponseParts, page: RawJsonWriter): RawJson | undefined {
  if (
    p.failures.length > 0 ||
    p.aggregations !== undefined ||
    p.scrollId !== undefined ||
    p.pitId !== undefined
  )
    return undefined;
  let head = `{"took":${p.took},"timed_out":false`;
  const terminated = terminatedEarly(p);
  if (terminated !== undefined) head += `,"terminated_early":${terminated}`;
  head += `,"_shards":{"total":${p.totalShards},"successful":${p.totalShards},"skipped":${p.skipped},"failed":0},"hits":{`;
  const total = totalHits(p.outcomes, p.req.trackTotalHits);
  if (total !== undefined) {
    head += p.req.restTotalHitsAsInt
      ? `"total":${total.value},`
      : `"total":{"value":${total.value},"relation":"${total.relation}"},`;
  } else if (p.req.restTotalHitsAsInt) head += '"total":-1,';
  head += `"max_score":${Number.isNaN(p.maxScore) ? 'null' : scoreJson(p.maxScore)},"hits":`;
  return new RawJson(new SearchBodyWriter(head, page));
}

/** `head` (ASCII), the page's hits, and the two closing braces. */
class SearchBodyWriter implements RawJsonWriter {
  readonly byteLength: number;

  constructor(
    private readonly head: string,
    private readonly page: RawJsonWriter,
  ) {
    this.byteLength = head.length + page.byteLength + 2;
  }

  writeTo(out: Uint8Array, at: number): void {
    (out as Buffer).write(this.head, at, 'latin1');
    const end = at + this.head.length;
    this.page.writeTo(out, end);
    out[end + this.page.byteLength] = 0x7d; // }
    out[end + this.page.byteLength + 1] = 0x7d; // }
  }
}

export function searchResponse(p: SearchResponseParts): Record<string, unknown> {
  const shards: Record<string, unknown> = {
    total: p.totalShards,
    successful: p.totalShards - p.failures.length,
    skipped: p.skipped,
    failed: p.failures.length,
  };
  if (p.failures.length > 0) shards.failures = shardFailuresJson(p.failures);
  const total = totalHits(p.outcomes, p.req.trackTotalHits);
  const hits: Record<string, unknown> = {};
  if (total !== undefined) hits.total = p.req.restTotalHitsAsInt ? total.value : total;
  else if (p.req.restTotalHitsAsInt) hits.total = -1;
  hits.max_score = Number.isNaN(p.maxScore) ? null : new RawJson(scoreJson(p.maxScore));
  if (p.renderedHits) hits.hits = new RawJson(p.renderedHits);
  else {
    const fetched = p.hits.filter((h): h is FetchedHit => h !== undefined);
    hits.hits = p.rawHits
      ? hitsJson(fetched, p.req, p.hasSort)
      : fetched.map((h) => hitJson(h, p.req, p.hasSort));
  }
  const out: Record<string, unknown> = {};
  if (p.scrollId !== undefined) out._scroll_id = p.scrollId;
  if (p.pitId !== undefined) out.pit_id = p.pitId;
  out.took = p.took;
  out.timed_out = false;
  const terminated = terminatedEarly(p);
  if (terminated !== undefined) out.terminated_early = terminated;
  out._shards = shards;
  out.hits = hits;
  if (p.aggregations !== undefined) out.aggregations = p.aggregations;
  return out;
}
