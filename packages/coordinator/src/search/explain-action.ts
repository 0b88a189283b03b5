/**
 * `GET|POST /{index}/_explain/{id}`: how one document scores against a query, computed on its
 * shard's primary (routed like a get). Through a filtering alias the alias filter is added
 * to the query, as Elasticsearch does. A missing document answers 404 with `matched: false`.
 */
import {
  actionRequestValidation,
  applySourceFilter,
  indexNotFound,
  parseJson,
  parseQuery,
  parseQueryString,
  parsingException,
  type QueryNode,
  RawJson,
  readQueryStringParams,
  ShoalError,
  withAliasFilter,
} from '@shoal/protocol';
import type { RestRequest, RestResponse } from '../http/rest-types.ts';
import { storedFieldsAsk, storedFieldsJson } from '../rest/get-stored-fields.ts';
import { sourceFilterFromParams } from '../rest/source-params.ts';
import type { NodeServices } from '../services.ts';
import { docShard } from '../state/document-routing.ts';
import { checkBlocks } from '../state/index-blocks.ts';
import { aliasIndexRouting } from '../write/index-routing.ts';
import { aliasFilterQuery } from './alias-filters.ts';
import { readRestriction } from './read-restrictions.ts';
import { restrictedGet } from './restricted-get.ts';
import { queryLimits } from './shard-request.ts';

/** The body's `query` (RestActions.getQueryContent): nothing else is allowed beside it. */
function explainQueryOf(req: RestRequest): QueryNode {
  // `q` (with df, analyzer, default_operator, lenient) stands for the body (RestExplainAction).
  const q = readQueryStringParams(req.query, `/${req.params.index}/_explain/${req.params.id}`);
  if (q) return parseQueryString(q.q, q.options);
  const body = req.body && req.body.length > 0 ? req.json() : undefined;
  if (body === undefined || body === null) throw actionRequestValidation(['query is missing']);
  if (typeof body !== 'object' || Array.isArray(body))
    throw parsingException('request body must be an object');
  let query: QueryNode | undefined;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (key !== 'query') throw parsingException(`request does not support [${key}]`);
    query = parseQuery(value);
  }
  if (!query) throw actionRequestValidation(['query is missing']);
  return query;
}

export async function explainAction(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const target = req.params.index!;
  const id = req.params.id!;
  let query = explainQueryOf(req);
  let meta = s.indices.get(target);
  let routing = req.query.routing;
  if (!meta) {
    const aliased = s.indices.aliasTargets(target);
    if (aliased.length === 0) throw indexNotFound(target);
    if (aliased.length > 1) {
      throw new ShoalError(
        'illegal_argument_exception',
        `alias [${target}] has more than one index associated with it [${aliased.map((m) => m.name).join(', ')}], can't execute a single index op`,
        400,
      );
    }
    meta = aliased[0]!;
    const alias = meta.aliases.get(target);
    routing = aliasIndexRouting(routing, target, alias);
    if (alias?.filter !== undefined) query = withAliasFilter(query, aliasFilterQuery(alias));
  }
  checkBlocks([meta], 'read');
  const shardId = docShard(meta, id, routing);
  const copy = s.shards.primary(meta.uuid, shardId);
  if (copy?.state !== 'STARTED' || !copy.worker) {
    throw new ShoalError(
      'no_shard_available_action_exception',
      `No shard available for [explain [${meta.name}][${id}]]`,
      503,
    );
  }
  const limits = queryLimits(meta);
  const restriction = readRestriction(req.indexAccess, meta);
  const r = await copy.worker.run({
    t: 'explain',
    key: copy.key,
    id,
    query,
    ...(limits ? { limits } : {}),
    ...restriction,
  });
  if (!r.found) return { status: 404, body: { _index: meta.name, _id: id, matched: false } };
  const body: Record<string, unknown> = {
    _index: meta.name,
    _id: id,
    matched: r.matched,
    explanation: r.explanation,
  };
  // ExplainResponse: the document's `get` only when its source or stored fields are asked for.
  const filter = sourceFilterFromParams(req.query);
  const stored = storedFieldsAsk(req.query);
  const sourceAsked =
    (req.query._source !== undefined || req.query._source_includes !== undefined) && filter.enabled;
  // A `_source` among the stored fields asks for the source too (ShardGetService).
  const withSource = sourceAsked || (filter.enabled && stored?.names.includes('_source') === true);
  if (withSource || stored) {
    const read = await copy.worker.run({ t: 'get', key: copy.key, id, realtime: false });
    const got = restriction
      ? await restrictedGet(copy, { ...read, index: meta.name }, restriction, false)
      : read;
    const get: Record<string, unknown> = { found: got.found };
    if (got.source && withSource) {
      const filtered = filter.includes.length > 0 || filter.excludes.length > 0;
      get._source = filtered ? applySourceFilter(parseJson(got.source), filter) : new RawJson(got.source);
    }
    const fields = stored && got.found ? storedFieldsJson(s, meta.name, stored, got.source) : undefined;
    if (fields) get.fields = fields;
    body.get = get;
  }
  return { status: 200, body };
}
