/**
 * The `hits.hits` array written straight to JSON text: each hit's fields in Elasticsearch's
 * order around its stored `_source`, which is spliced in, never parsed. The same JSON as the
 * object form (search-response.ts `hitJson`) through stringifyJson, without building a
 * thousand objects and walking them; used when nothing needs the object form (`filter_path`).
 * A shard's fetched sources are decoded once, as one string, and each hit takes its slice.
 */

import type { ShardFetchResult } from '@shoal/engine';
import {
  jsonScalar,
  jsonString,
  RawJson,
  type SearchRequest,
  scoreJson,
  sortValuesJson,
} from '@shoal/protocol';
import type { FetchedHit } from './fetch-phase.ts';

const utf8 = new TextDecoder();

/**
 * The sources of one fetch as text, up to document `last`: slices of one decoded string when
 * they are all ASCII. A page takes a prefix of what each shard prefetched, so only that prefix
 * is decoded.
 */
function sourcesOf(f: ShardFetchResult, last: number): (i: number) => string {
  const o = f.sourceOffsets;
  const bytes = f.sourceBytes.subarray(0, o[last + 1]!);
  const text = utf8.decode(bytes);
  if (text.length === bytes.byteLength) return (i) => text.slice(o[i]!, o[i + 1]!);
  return (i) => utf8.decode(f.sourceBytes.subarray(o[i]!, o[i + 1]!));
}

/** Per fetch result: the last document the page uses, then its source reader. */
interface SourceSlot {
  fetched: ShardFetchResult;
  last: number;
  source?: (i: number) => string;
}

export function hitsJson(hits: FetchedHit[], req: SearchRequest, hasSort: boolean): RawJson {
  const withSource = req.source.enabled;
  const storedNone = req.storedFields?.fetch === false;
  // A page reads from a handful of fetch results: a list beats a Map at that size.
  const slots: SourceSlot[] = [];
  const slotOf: SourceSlot[] = new Array(hits.length);
  if (withSource) {
    for (let n = 0; n < hits.length; n++) {
      const { fetched, i } = hits[n]!;
      let slot = slots.find((x) => x.fetched === fetched);
      if (!slot) {
        slot = { fetched, last: i };
        slots.push(slot);
      } else if (i > slot.last) slot.last = i;
      slotOf[n] = slot;
    }
  }
  let indexName: string | undefined;
  let indexJson = '';
  let out = '[';
  for (let n = 0; n < hits.length; n++) {
    const { fetched, i, hit, outcome } = hits[n]!;
    const index = outcome.target.meta.name;
    if (index !== indexName) {
      indexName = index;
      indexJson = jsonString(index);
    }
    let text = `${n === 0 ? '' : ','}{"_index":${indexJson}`;
    if (!storedNone) text += `,"_id":${jsonString(fetched.ids[i]!)}`;
    if (req.version) text += `,"_version":${jsonScalar(fetched.versions[i]!)}`;
    if (req.seqNoPrimaryTerm) {
      text += `,"_seq_no":${jsonScalar(fetched.seqNos[i]!)},"_primary_term":${jsonScalar(fetched.primaryTerms[i]!)}`;
    }
    text += `,"_score":${scoreJson(hit.score)}`;
    const routing = fetched.routing[i];
    if (routing !== null && routing !== undefined && !storedNone)
      text += `,"_routing":${jsonString(routing)}`;
    const ignored = fetched.ignored?.[i];
    if (ignored) text += `,"_ignored":[${ignored.map(jsonString).join(',')}]`;
    if (
      withSource &&
      fetched.sourceBytes.length > 0 &&
      fetched.sourceOffsets[i + 1]! > fetched.sourceOffsets[i]!
    ) {
      const slot = slotOf[n]!;
      slot.source ??= sourcesOf(fetched, slot.last);
      text += `,"_source":${slot.source(i)}`;
    }
    if (fetched.fieldsJson) text += fetched.fieldsJson[i]!;
    if (fetched.highlight?.[i]) text += `,"highlight":${fetched.highlight[i]}`;
    if (hasSort) {
      text += `,"sort":[${sortValuesJson(hit.display ?? hit.sort, outcome.result.floatingKeys ?? 0)}]`;
    }
    const matched = fetched.matched?.[i];
    if (matched) text += `,"matched_queries":${matched}`;
    out += `${text}}`;
  }
  return new RawJson(`${out}]`);
}
