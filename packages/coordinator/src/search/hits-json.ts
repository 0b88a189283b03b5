/**
 * The `hits.hits` array written straight to JSON text: each hit's fields in Elasticsearch's
 * order around its stored `_source`, which is spliced in, never parsed. The same JSON as the
 * object form (search-response.ts `hitJson`) through stringifyJson, without building a
 * thousand objects and walking them; used when nothing needs the object form (`filter_path`).
 * A shard's fetched sources are decoded once, as one string, and each hit takes its slice.
 */

import type { ShardFetchResult } from '@shoal/engine';
import { RawJson, type SearchRequest, type SortValue } from '@shoal/protocol';
import type { FetchedHit } from './fetch-phase.ts';

const utf8 = new TextDecoder();

/** One value as stringifyJson writes it (bigint exact, non-finite numbers as strings). */
function valueJson(v: SortValue): string {
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) ? String(v) : `"${v}"`;
    case 'bigint':
      return v.toString();
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      return 'null';
  }
}

/**
 * A string JSON.stringify leaves as it is: no quote, backslash or control character, and no
 * surrogate (a lone one would be escaped).
 */
function isPlain(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

function stringJson(s: string): string {
  return isPlain(s) ? `"${s}"` : JSON.stringify(s);
}

/** The sources of one fetch as text: slices of one decoded string when they are all ASCII. */
function sourcesOf(f: ShardFetchResult): (i: number) => string {
  const text = utf8.decode(f.sourceBytes);
  const o = f.sourceOffsets;
  if (text.length === f.sourceBytes.byteLength) return (i) => text.slice(o[i]!, o[i + 1]!);
  return (i) => utf8.decode(f.sourceBytes.subarray(o[i]!, o[i + 1]!));
}

export function hitsJson(hits: FetchedHit[], req: SearchRequest, hasSort: boolean): RawJson {
  const sources = new Map<ShardFetchResult, (i: number) => string>();
  const indexJson = new Map<string, string>();
  const out: string[] = new Array(hits.length);
  hits.forEach((f, n) => {
    const { fetched, i, hit, outcome } = f;
    const index = outcome.target.meta.name;
    let ij = indexJson.get(index);
    if (ij === undefined) {
      ij = stringJson(index);
      indexJson.set(index, ij);
    }
    let text = `{"_index":${ij},"_id":${stringJson(fetched.ids[i]!)}`;
    if (req.version) text += `,"_version":${valueJson(fetched.versions[i]!)}`;
    if (req.seqNoPrimaryTerm) {
      text += `,"_seq_no":${valueJson(fetched.seqNos[i]!)},"_primary_term":${valueJson(fetched.primaryTerms[i]!)}`;
    }
    text += `,"_score":${Number.isNaN(hit.score) ? 'null' : valueJson(hit.score)}`;
    const routing = fetched.routing[i];
    if (routing !== null && routing !== undefined) text += `,"_routing":${stringJson(routing)}`;
    if (
      req.source.enabled &&
      fetched.sourceBytes.length > 0 &&
      fetched.sourceOffsets[i + 1]! > fetched.sourceOffsets[i]!
    ) {
      let source = sources.get(fetched);
      if (!source) {
        source = sourcesOf(fetched);
        sources.set(fetched, source);
      }
      text += `,"_source":${source(i)}`;
    }
    if (hasSort) text += `,"sort":[${(hit.display ?? hit.sort).map(valueJson).join(',')}]`;
    out[n] = `${text}}`;
  });
  return new RawJson(`[${out.join(',')}]`);
}
