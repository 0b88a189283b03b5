/**
 * `inner_hits` of a collapsed search (ExpandSearchPhase): once the page is fetched, each hit's
 * group is searched again — the original query (and post_filter) with a filter on the hit's
 * collapse value, or on its absence — with each inner_hits definition's paging, sort and fetch
 * options, and the result becomes the hit's `inner_hits.<name>`.
 */
import { RawJson } from '@shoal/protocol';
import type { RestRequest } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import type { InnerHitsSpec } from './inner-hits-spec.ts';
import { internalSearch } from './internal-search.ts';
import type { SearchBody } from './search-response.ts';

/** The hit's collapse value as its `fields` show it (undefined: the doc has none). */
function collapseValue(hit: Record<string, unknown>, field: string): unknown {
  const f = hit.fields;
  const fields = (f instanceof RawJson ? f.parse() : f) as Record<string, unknown[]> | undefined;
  return fields?.[field]?.[0];
}

/** Each hit of `body` with its groups' inner hits. */
export async function expandCollapsed(
  s: NodeServices,
  req: RestRequest,
  field: string,
  specs: InnerHitsSpec[],
  body: SearchBody,
): Promise<SearchBody> {
  if (specs.length === 0 || body instanceof RawJson) return body;
  const hits = (body.hits as { hits?: Record<string, unknown>[] } | undefined)?.hits;
  if (!Array.isArray(hits) || hits.length === 0) return body;
  const raw = (req.json() ?? {}) as Record<string, unknown>;
  const index = req.params.index ?? '_all';
  const query: Record<string, string> = {};
  if (req.query.rest_total_hits_as_int !== undefined)
    query.rest_total_hits_as_int = req.query.rest_total_hits_as_int;
  await Promise.all(
    hits.map(async (hit) => {
      const value = collapseValue(hit, field);
      const group =
        value === undefined || value === null
          ? { bool: { must_not: [{ exists: { field } }] } }
          : { term: { [field]: typeof value === 'bigint' ? String(value) : value } };
      const filter: unknown[] = [group];
      if (raw.post_filter !== undefined) filter.push(raw.post_filter);
      const must = raw.query === undefined ? [] : [raw.query];
      const inner: Record<string, unknown> = {};
      for (const spec of specs) {
        const subBody: Record<string, unknown> = { ...spec.options, query: { bool: { must, filter } } };
        if (raw.runtime_mappings !== undefined) subBody.runtime_mappings = raw.runtime_mappings;
        const out = await internalSearch(s, index, subBody, query);
        inner[spec.name] = { hits: out.hits };
      }
      hit.inner_hits = inner;
    }),
  );
  return body;
}
