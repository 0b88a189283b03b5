/**
 * The coordinator's rewrite of a parsed search before any shard sees it
 * (Rewriteable.rewriteAndFetch): each `terms` lookup fetches its document — as the user who
 * searches, who needs `read` on the lookup index — and becomes a plain `terms` query on the
 * values at its path (none when the document is missing, as TermsQueryBuilder.fetch leaves
 * it). The request given is not changed (a parsed search may be cached and sent again); a copy
 * is returned with the lookups replaced.
 */
import { accessDenied, extractRawValues, type TermsLookupQuery, termsFromLookup } from '@shoal/protocol';
import type { RestRequest } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { getDocument } from './get-document.ts';

/** Every `terms` lookup node anywhere in `root` (the query, post_filter, aggregations' filters…). */
export function findLookups(root: unknown): TermsLookupQuery[] {
  const out: TermsLookupQuery[] = [];
  const walk = (v: unknown): void => {
    if (typeof v !== 'object' || v === null) return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    if (ArrayBuffer.isView(v)) return;
    const o = v as Record<string, unknown>;
    if (o.type === 'terms_lookup' && typeof o.lookup === 'object') {
      out.push(o as unknown as TermsLookupQuery);
      return;
    }
    for (const k in o) walk(o[k]);
  };
  walk(root);
  return out;
}

/** `root` with each node of `replaced` swapped for its replacement (only the paths to them copied). */
function replaceNodes<T>(root: T, replaced: Map<unknown, unknown>): T {
  const walk = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    const r = replaced.get(v);
    if (r !== undefined) return r;
    if (ArrayBuffer.isView(v)) return v;
    if (Array.isArray(v)) {
      let copy: unknown[] | undefined;
      v.forEach((x, i) => {
        const y = walk(x);
        if (y !== x) {
          copy ??= [...v];
          copy[i] = y;
        }
      });
      return copy ?? v;
    }
    if (Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null) return v;
    let copy: Record<string, unknown> | undefined;
    const o = v as Record<string, unknown>;
    for (const k in o) {
      const y = walk(o[k]);
      if (y !== o[k]) {
        copy ??= { ...o };
        copy[k] = y;
      }
    }
    return copy ?? v;
  };
  return walk(root) as T;
}

/** The values a lookup names, fetched with the searching user's `read` privilege checked. */
async function lookupValues(s: NodeServices, req: RestRequest, node: TermsLookupQuery): Promise<unknown[]> {
  const { index, id, path, routing } = node.lookup;
  const auth = req.authentication;
  if (s.privilegeCheck && auth) {
    const answer = await s.privilegeCheck(auth, [{ names: [index], privileges: ['read'] }]);
    if (!answer.hasAll) {
      throw accessDenied(
        `action [indices:data/read/get] is unauthorized for user [${auth.user.username}] with effective roles [${[...auth.user.roles].sort().join(',')}] on indices [${index}], this action is granted by the index privileges [read,all]`,
      );
    }
  }
  const got = await getDocument(s, index, id, routing === undefined ? {} : { routing });
  if (!got.found || !got.source || got.source.length === 0) return [];
  const source: unknown = JSON.parse(Buffer.from(got.source).toString('utf8'));
  return extractRawValues(source, path);
}

/**
 * `search` with its lookups resolved; undefined when it has none (the common case, which
 * stays synchronous).
 */
export function rewriteLookups<T extends object>(
  s: NodeServices,
  req: RestRequest,
  search: T,
): Promise<T> | undefined {
  const lookups = findLookups(search);
  if (lookups.length === 0) return undefined;
  return Promise.all(lookups.map((n) => lookupValues(s, req, n))).then((values) => {
    const replaced = new Map<unknown, unknown>();
    lookups.forEach((n, i) => {
      replaced.set(n, termsFromLookup(n, values[i]!));
    });
    return replaceNodes(search, replaced);
  });
}
