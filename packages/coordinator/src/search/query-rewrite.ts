/**
 * The coordinator's rewrite of a parsed search before any shard sees it
 * (Rewriteable.rewriteAndFetch): each `terms` lookup fetches its document — as the user who
 * searches, who needs `read` on the lookup index — and becomes a plain `terms` query on the
 * values at its path (none when the document is missing, as TermsQueryBuilder.fetch leaves
 * it); each `more_like_this` item naming a stored document gets that document's source (an
 * item that cannot be read is left out, as the failed term vectors of Elasticsearch's
 * MoreLikeThisQueryBuilder.fetch are). The request given is not changed (a parsed search may
 * be cached and sent again); a copy is returned with the nodes replaced.
 */
import {
  accessDenied,
  extractRawValues,
  isShoalError,
  type MltItem,
  type MoreLikeThisQuery,
  notImplemented,
  type TermsLookupQuery,
  termsFromLookup,
} from '@shoal/protocol';
import type { RestRequest } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { getDocument } from './get-document.ts';

type FetchingNode = TermsLookupQuery | MoreLikeThisQuery;

/** Whether a more_like_this node has items whose documents are still to be fetched. */
function unfetched(o: Record<string, unknown>): boolean {
  if (o.type !== 'more_like_this') return false;
  const n = o as unknown as MoreLikeThisQuery;
  return [...n.likeItems, ...n.unlikeItems].some((i) => i.doc === undefined);
}

/**
 * Every node that needs a document anywhere in `root` (the query, post_filter, aggregations'
 * filters…): `terms` lookups and more_like_this queries with stored items.
 */
export function findLookups(root: unknown): FetchingNode[] {
  const out: FetchingNode[] = [];
  const walk = (v: unknown): void => {
    if (typeof v !== 'object' || v === null) return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    if (ArrayBuffer.isView(v)) return;
    const o = v as Record<string, unknown>;
    if ((o.type === 'terms_lookup' && typeof o.lookup === 'object') || unfetched(o)) {
      out.push(o as unknown as FetchingNode);
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

/** A document's source, read with the searching user's `read` privilege checked; undefined when missing. */
async function readSource(
  s: NodeServices,
  req: RestRequest,
  index: string,
  id: string,
  routing: string | undefined,
): Promise<Record<string, unknown> | undefined> {
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
  if (!got.found || !got.source || got.source.length === 0) return undefined;
  return JSON.parse(Buffer.from(got.source).toString('utf8')) as Record<string, unknown>;
}

/** The values a lookup names (none when its document is missing). */
async function lookupValues(s: NodeServices, req: RestRequest, node: TermsLookupQuery): Promise<unknown[]> {
  const { index, id, path, routing } = node.lookup;
  const source = await readSource(s, req, index, id, routing);
  return source === undefined ? [] : extractRawValues(source, path);
}

/** The index an item without `_index` names: the one index searched. */
function searchedIndex(req: RestRequest): string {
  const target = req.params.index;
  if (target === undefined || target.includes(',') || target.includes('*') || target.startsWith('_all')) {
    throw notImplemented('more_like_this items without [_index] when the search names several indices');
  }
  return target;
}

/** A more_like_this node with its stored items' sources (items that cannot be read left out). */
async function withItemDocs(
  s: NodeServices,
  req: RestRequest,
  node: MoreLikeThisQuery,
): Promise<MoreLikeThisQuery> {
  const fill = async (items: MltItem[]): Promise<MltItem[]> => {
    const out = await Promise.all(
      items.map(async (item): Promise<MltItem | undefined> => {
        if (item.doc !== undefined) return item;
        const index = item.index ?? searchedIndex(req);
        try {
          const doc = await readSource(s, req, index, item.id!, item.routing);
          return doc === undefined ? { ...item, index } : { ...item, index, doc, fetched: true };
        } catch (e) {
          if (isShoalError(e) && e.status < 500) return { ...item, index };
          throw e;
        }
      }),
    );
    return out.filter((i): i is MltItem => i !== undefined);
  };
  return { ...node, likeItems: await fill(node.likeItems), unlikeItems: await fill(node.unlikeItems) };
}

function fetchFor(s: NodeServices, req: RestRequest, node: FetchingNode): Promise<unknown> {
  if (node.type === 'more_like_this') return withItemDocs(s, req, node);
  return lookupValues(s, req, node).then((values) => termsFromLookup(node, values));
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
  return Promise.all(lookups.map((n) => fetchFor(s, req, n))).then((values) => {
    const replaced = new Map<unknown, unknown>();
    lookups.forEach((n, i) => {
      replaced.set(n, values[i]!);
    });
    return replaceNodes(search, replaced);
  });
}
