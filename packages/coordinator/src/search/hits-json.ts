/**
 * The `hits.hits` array written straight to bytes: each hit's fields in Elasticsearch's order
 * around its stored `_source` bytes, which are copied, never decoded or parsed. The same JSON
 * as the object form (search-response.ts `hitJson`) through stringifyJson, without building a
 * thousand objects and walking them; used when nothing needs the object form (`filter_path`).
 */
import { RawJson, type SearchRequest, type SortValue } from '@shoal/protocol';
import type { FetchedHit } from './fetch-phase.ts';

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

export function hitsJson(hits: FetchedHit[], req: SearchRequest, hasSort: boolean): RawJson {
  const parts: Uint8Array[] = [];
  let text = '[';
  const flush = () => {
    parts.push(Buffer.from(text));
    text = '';
  };
  hits.forEach((f, n) => {
    const { fetched, i, hit, outcome } = f;
    text += `${n > 0 ? ',' : ''}{"_index":${JSON.stringify(outcome.target.meta.name)},"_id":${JSON.stringify(fetched.ids[i])}`;
    if (req.version) text += `,"_version":${valueJson(fetched.versions[i]!)}`;
    if (req.seqNoPrimaryTerm) {
      text += `,"_seq_no":${valueJson(fetched.seqNos[i]!)},"_primary_term":${valueJson(fetched.primaryTerms[i]!)}`;
    }
    text += `,"_score":${Number.isNaN(hit.score) ? 'null' : valueJson(hit.score)}`;
    const routing = fetched.routing[i];
    if (routing !== null && routing !== undefined) text += `,"_routing":${JSON.stringify(routing)}`;
    if (req.source.enabled && fetched.sourceBytes.length > 0) {
      const start = fetched.sourceOffsets[i]!;
      const end = fetched.sourceOffsets[i + 1]!;
      if (end > start) {
        text += ',"_source":';
        flush();
        parts.push(fetched.sourceBytes.subarray(start, end));
      }
    }
    if (hasSort) {
      const values = hit.display ?? hit.sort;
      text += `,"sort":[${values.map(valueJson).join(',')}]`;
    }
    text += '}';
  });
  text += ']';
  flush();
  return new RawJson(Buffer.concat(parts));
}
