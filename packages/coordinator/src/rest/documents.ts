/** Single-document APIs: index, create, get, exists, delete, update, `_source`, `_mget`. */
import {
  actionRequestValidation,
  applySourceFilter,
  type DocWriteCheck,
  INTERNAL_VERSIONING_MESSAGE,
  illegalArgument,
  indexNotFound,
  parseJson,
  parseMgetBody,
  parseUpdateBody,
  RawJson,
  resourceNotFound,
  ShoalError,
  type SourceFilter,
} from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import { admitScripts } from '../scripts/compilation-limit.ts';
import { getDocument } from '../search/get-document.ts';
import type { NodeServices } from '../services.ts';
import { itemProblems, type WriteItem } from '../write/write-item.ts';
import { executeWrites, refreshPolicy } from '../write/write-path.ts';
import { docWriteJson } from '../write/write-response.ts';
import { storedFieldsAsk, storedFieldsJson } from './get-stored-fields.ts';
import { casParams, checkWriteParams, longParam, versionTypeParam } from './params.ts';
import { sourceFilterFromParams } from './source-params.ts';

function requireBody(req: RestRequest): Buffer {
  if (!req.body || req.body.length === 0) throw actionRequestValidation(['source is missing']);
  return req.body;
}

async function writeOne(
  req: RestRequest,
  s: NodeServices,
  item: WriteItem,
  /** `_update`'s `_source` filter for the `get` it returns. */
  returned?: SourceFilter,
): Promise<RestResponse> {
  const refresh = refreshPolicy(req.query.refresh);
  const [r] = await executeWrites(s, [item], refresh, checkWriteParams(req.query));
  if (!r) throw new ShoalError('illegal_state_exception', 'write produced no result', 500);
  if (r.error) throw ShoalError.fromWire(r.error);
  const body = docWriteJson(r, refresh === 'true');
  if (r.source) {
    const filtered = returned && (returned.includes.length > 0 || returned.excludes.length > 0);
    body.get = {
      _source: filtered ? applySourceFilter(parseJson(r.source), returned) : new RawJson(r.source),
    };
  }
  const headers: Record<string, string> = {};
  if (r.status === 201) headers.Location = `/${encodeURIComponent(r.index)}/_doc/${encodeURIComponent(r.id)}`;
  return { status: r.status, body, headers };
}

/** A request Elasticsearch would refuse in `validate()` is refused before anything is written. */
function validate(item: WriteItem, extra: Partial<DocWriteCheck> = {}): void {
  const problems = itemProblems(item, extra);
  if (problems.length > 0) throw actionRequestValidation(problems);
}

function indexItem(req: RestRequest, create: boolean): WriteItem {
  const opType = req.query.op_type;
  // RestIndexAction.CreateHandler.validateOpType
  if (create && opType !== undefined && opType.toLowerCase() !== 'create') {
    throw illegalArgument(`opType must be 'create', found: [${opType}]`);
  }
  const body = requireBody(req);
  checkWriteParams(req.query);
  const version = longParam(req.query, 'version');
  const versionType = versionTypeParam(req.query);
  const { ifSeqNo, ifPrimaryTerm } = casParams(req.query);
  let action: 'index' | 'create' = create ? 'create' : 'index';
  if (!create && opType !== undefined) {
    const op = opType.toLowerCase();
    if (op !== 'index' && op !== 'create') {
      throw illegalArgument(`opType must be 'create' or 'index', found: [${opType}]`);
    }
    action = op;
  }
  const item: WriteItem = {
    action,
    target: req.params.index!,
    id: req.params.id,
    routing: req.query.routing,
    ifSeqNo,
    ifPrimaryTerm,
    version,
    versionType,
    requireAlias: req.query.require_alias === 'true',
    body,
  };
  // RestIndexAction.AutoIdHandler: without an id and an explicit op_type the request is a create.
  validate(item, item.id === undefined && opType === undefined ? { op: 'create' } : {});
  return item;
}

const indexDoc = (req: RestRequest, s: NodeServices) => writeOne(req, s, indexItem(req, false));
const createDoc = (req: RestRequest, s: NodeServices) => writeOne(req, s, indexItem(req, true));

async function deleteDoc(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const waits = checkWriteParams(req.query);
  const version = longParam(req.query, 'version');
  const versionType = versionTypeParam(req.query);
  const item: WriteItem = {
    action: 'delete',
    target: req.params.index!,
    id: req.params.id,
    routing: req.query.routing,
    ...casParams(req.query),
    version,
    versionType,
  };
  validate(item);
  const refresh = refreshPolicy(req.query.refresh);
  if (!s.indices.get(req.params.index!) && s.indices.aliasTargets(req.params.index!).length === 0) {
    throw indexNotFound(req.params.index!);
  }
  const [r] = await executeWrites(s, [item], refresh, waits);
  if (r!.error) throw ShoalError.fromWire(r!.error);
  return { status: r!.status, body: docWriteJson(r!, refresh === 'true') };
}

async function updateDoc(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  // RestUpdateAction: versioning parameters are refused outright on updates.
  if (req.query.version !== undefined || req.query.version_type !== undefined) {
    throw actionRequestValidation([INTERNAL_VERSIONING_MESSAGE]);
  }
  checkWriteParams(req.query);
  const cas = casParams(req.query);
  const raw = req.json();
  if (raw === undefined || raw === null) throw actionRequestValidation(['script or doc is missing']);
  const body = parseUpdateBody(raw, (id) => s.storedScripts.get(id));
  if (body.script) admitScripts(s, [body.script]);
  // UpdateRequest.fetchSource: the body's `_source`, else the URL's `_source*` parameters.
  const urlSource =
    req.query._source !== undefined ||
    req.query._source_includes !== undefined ||
    req.query._source_excludes !== undefined;
  const returned =
    body.source !== undefined
      ? sourceFilterFromParams({ _source: JSON.stringify(body.source) })
      : urlSource
        ? sourceFilterFromParams(req.query)
        : undefined;
  const bytes = (v: unknown) =>
    v === undefined
      ? undefined
      : Buffer.from(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x)));
  const item: WriteItem = {
    action: 'update',
    target: req.params.index!,
    id: req.params.id,
    routing: req.query.routing,
    // The body's if_seq_no / if_primary_term are read after the URL's, so they win.
    ifSeqNo: body.ifSeqNo ?? cas.ifSeqNo,
    ifPrimaryTerm: body.ifPrimaryTerm ?? cas.ifPrimaryTerm,
    body: bytes(body.doc),
    upsert: bytes(body.upsert),
    docAsUpsert: body.docAsUpsert === true,
    detectNoop: body.detectNoop !== false,
    returnSource: returned?.enabled === true,
    requireAlias: req.query.require_alias === 'true',
  };
  if (body.script) {
    item.script = { source: body.script.source!, params: body.script.params };
    item.scriptedUpsert = body.scriptedUpsert === true;
  }
  validate(item, {
    hasScript: body.script !== undefined,
    hasDoc: body.doc !== undefined,
    hasUpsert: body.upsert !== undefined,
    docAsUpsert: item.docAsUpsert,
  });
  return writeOne(req, s, item, returned);
}

function hitJson(
  index: string,
  id: string,
  got: Awaited<ReturnType<typeof getDocument>>,
  filter: SourceFilter,
) {
  if (!got.found) return { _index: index, _id: id, found: false };
  const out: Record<string, unknown> = {
    _index: index,
    _id: id,
    _version: got.version,
    _seq_no: got.seqNo,
    _primary_term: got.primaryTerm,
    found: true,
  };
  if (got.routing !== undefined) out._routing = got.routing;
  if (got.ignored) out._ignored = got.ignored;
  if (filter.enabled && got.source) {
    if (filter.includes.length === 0 && filter.excludes.length === 0) out._source = new RawJson(got.source);
    else out._source = applySourceFilter(parseJson(got.source), filter);
  }
  return out;
}

async function getDoc(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  let filter = sourceFilterFromParams(req.query);
  const got = await getDocument(s, req.params.index!, req.params.id!, req.query, req.indexAccess);
  const stored = storedFieldsAsk(req.query);
  if (stored && !stored.withSource) filter = { ...filter, enabled: false };
  const body = hitJson(got.index, req.params.id!, got, filter);
  const fields = stored && got.found ? storedFieldsJson(s, got.index, stored, got.source) : undefined;
  if (fields) body.fields = fields;
  return { status: got.found ? 200 : 404, body };
}

async function getSource(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const got = await getDocument(s, req.params.index!, req.params.id!, req.query, req.indexAccess);
  if (!got.found) throw resourceNotFound(`Document not found [${got.index}]/[${req.params.id}]`);
  // RestGetSourceAction: a document whose `_source` was not kept (`_source.enabled: false`).
  if (!got.source) throw resourceNotFound(`Source not found [${got.index}]/[${req.params.id}]`);
  const filter = sourceFilterFromParams(req.query);
  if (filter.includes.length === 0 && filter.excludes.length === 0)
    return { status: 200, body: new RawJson(got.source) };
  return { status: 200, body: applySourceFilter(parseJson(got.source), filter) };
}

async function mget(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const body = req.json();
  if (body === undefined) throw actionRequestValidation(['no documents to get']);
  const specs = parseMgetBody(body, req.params.index);
  const baseFilter = sourceFilterFromParams(req.query);
  const docs = await Promise.all(
    specs.map(async (d) => {
      try {
        const q = { ...req.query, ...(d.routing ? { routing: d.routing } : {}) };
        const got = await getDocument(s, d.index!, d.id, q, req.indexAccess);
        const filter =
          d.source === undefined ? baseFilter : sourceFilterFromParams({ _source: JSON.stringify(d.source) });
        return hitJson(got.index, d.id, got, filter);
      } catch (e) {
        const err = e instanceof ShoalError ? e : new ShoalError('exception', String(e), 500);
        return { _index: d.index, _id: d.id, error: { root_cause: [errJson(err)], ...errJson(err) } };
      }
    }),
  );
  return { status: 200, body: { docs } };
}

function errJson(e: ShoalError): Record<string, unknown> {
  return { type: e.type, reason: e.reason, ...e.metadata };
}

export function documentRoutes(): Route<NodeServices>[] {
  return [
    { method: 'PUT', path: '/:index/_doc/:id', action: 'indices:data/write/index', handler: indexDoc },
    { method: 'POST', path: '/:index/_doc/:id', action: 'indices:data/write/index', handler: indexDoc },
    { method: 'POST', path: '/:index/_doc', action: 'indices:data/write/index', handler: indexDoc },
    { method: 'PUT', path: '/:index/_create/:id', action: 'indices:data/write/index', handler: createDoc },
    { method: 'POST', path: '/:index/_create/:id', action: 'indices:data/write/index', handler: createDoc },
    { method: 'GET', path: '/:index/_doc/:id', action: 'indices:data/read/get', handler: getDoc },
    { method: 'HEAD', path: '/:index/_doc/:id', action: 'indices:data/read/get', handler: getDoc },
    { method: 'GET', path: '/:index/_source/:id', action: 'indices:data/read/get', handler: getSource },
    { method: 'HEAD', path: '/:index/_source/:id', action: 'indices:data/read/get', handler: getSource },
    { method: 'DELETE', path: '/:index/_doc/:id', action: 'indices:data/write/delete', handler: deleteDoc },
    { method: 'POST', path: '/:index/_update/:id', action: 'indices:data/write/update', handler: updateDoc },
    { method: 'GET', path: '/_mget', action: 'indices:data/read/mget', handler: mget },
    { method: 'POST', path: '/_mget', action: 'indices:data/read/mget', handler: mget },
    { method: 'GET', path: '/:index/_mget', action: 'indices:data/read/mget', handler: mget },
    { method: 'POST', path: '/:index/_mget', action: 'indices:data/read/mget', handler: mget },
  ];
}
