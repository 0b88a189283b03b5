/**
 * Splits a `_bulk` body into write items. Action lines are small and parsed here (routing needs
 * `_index`, `_id` and `routing`); document lines stay bytes and travel to the shard untouched.
 * Update lines are parsed to pull out `doc` and `upsert`.
 */
import {
  actionRequestValidation,
  checkIfPrimaryTerm,
  checkIfSeqNo,
  type DocWriteCheck,
  illegalArgument,
  parseJson,
  parseUpdateBody,
  resourceNotFound,
  type ShoalError,
  tokenOf,
  type VersionType,
} from '@shoal/protocol';
import { itemProblems, type WriteItem } from './write-item.ts';

const ACTIONS = new Set(['index', 'create', 'update', 'delete']);
const NEWLINE = 0x0a;
/**
 * The keys BulkRequestParser reads from an action's metadata; any other key (`_type` included,
 * since 8.0) refuses the whole request.
 */
const METADATA_KEYS = new Set([
  '_index',
  '_id',
  'routing',
  'op_type',
  'version',
  'version_type',
  'retry_on_conflict',
  'pipeline',
  '_source',
  'if_seq_no',
  'if_primary_term',
  'require_alias',
  'require_data_stream',
  'list_executed_pipelines',
  'dynamic_templates',
]);
/** Metadata keys whose value may be an object; every other value must be a scalar. */
const OBJECT_KEYS = new Set(['_source', 'dynamic_templates']);

export interface BulkDefaults {
  index?: string;
  routing?: string;
  requireAlias?: boolean;
  /** Resolves a stored script named by an update line. */
  storedScript?: (id: string) => { source: string; lang: string } | undefined;
}

function malformed(line: number, detail: string): ShoalError {
  return illegalArgument(`Malformed action/metadata line [${line}], ${detail}`);
}

function isBlank(buf: Uint8Array): boolean {
  for (const b of buf) if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  return true;
}

function toJsonBytes(v: unknown): Uint8Array {
  return Buffer.from(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x)));
}

function optInt(meta: Record<string, unknown>, key: string): number | undefined {
  const v = meta[key];
  if (v === undefined || v === null) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n)) throw illegalArgument(`[${key}] must be an integer, got [${String(v)}]`);
  return n;
}

function versionType(meta: Record<string, unknown>): VersionType | undefined {
  const v = meta.version_type;
  if (v === undefined || v === null) return undefined;
  if (v === 'internal' || v === 'external' || v === 'external_gte') return v;
  throw illegalArgument(`No version type match [${String(v)}]`);
}

/** Checks every metadata key and value shape as BulkRequestParser does, line by line. */
function checkMetadata(line: number, meta: Record<string, unknown>): void {
  for (const [key, v] of Object.entries(meta)) {
    if (Array.isArray(v)) {
      throw malformed(line, `expected a simple value for field [${key}] but found [START_ARRAY]`);
    }
    if (v !== null && typeof v === 'object') {
      if (OBJECT_KEYS.has(key)) continue;
      throw malformed(line, `expected a simple value for field [${key}] but found [START_OBJECT]`);
    }
    if (v !== null && !METADATA_KEYS.has(key)) {
      throw illegalArgument(`Action/metadata line [${line}] contains an unknown parameter [${key}]`);
    }
  }
}

export function parseBulkBody(body: Buffer | undefined, defaults: BulkDefaults): WriteItem[] {
  if (!body || body.length === 0) throw actionRequestValidation(['no requests added']);
  if (body[body.length - 1] !== NEWLINE) {
    throw illegalArgument('The bulk request must be terminated by a newline [\\n]');
  }
  const items: WriteItem[] = [];
  const problems: string[] = [];
  let pos = 0;
  let lineNo = 0;
  const nextLine = (): Buffer | undefined => {
    while (pos < body.length) {
      const end = body.indexOf(NEWLINE, pos);
      const line = body.subarray(pos, end);
      pos = end + 1;
      lineNo++;
      if (!isBlank(line)) return line;
    }
    return undefined;
  };
  for (let line = nextLine(); line !== undefined; line = nextLine()) {
    const actionLine = lineNo;
    const parsed = parseJson(line);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw malformed(actionLine, `expected START_OBJECT or END_OBJECT but found [${tokenOf(parsed)}]`);
    }
    const keys = Object.keys(parsed);
    const action = keys[0];
    if (action === undefined || !ACTIONS.has(action)) {
      throw malformed(
        actionLine,
        `expected field [create], [delete], [index] or [update] but found [${action}]`,
      );
    }
    if (keys.length > 1) {
      throw malformed(actionLine, `expected END_OBJECT but found [FIELD_NAME]`);
    }
    const meta = (parsed as Record<string, unknown>)[action];
    if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) {
      throw malformed(actionLine, `expected START_OBJECT but found [${tokenOf(meta)}]`);
    }
    const m = meta as Record<string, unknown>;
    checkMetadata(actionLine, m);
    const hasTemplates =
      m.dynamic_templates !== undefined &&
      m.dynamic_templates !== null &&
      Object.keys(m.dynamic_templates as object).length > 0;
    if (action === 'delete' && hasTemplates) {
      throw illegalArgument(`Delete request in line [${actionLine}] does not accept dynamic_templates`);
    }
    const target = (m._index as string | undefined) ?? defaults.index;
    const item: WriteItem = {
      // `op_type: create` on an index action makes it a create, as IndexRequest.create(true) does.
      action: action === 'index' && m.op_type === 'create' ? 'create' : (action as WriteItem['action']),
      target: target ?? '',
      id: m._id === undefined || m._id === null ? undefined : String(m._id),
      routing: (m.routing as string | undefined) ?? defaults.routing,
      ifSeqNo: checkIfSeqNo(optInt(m, 'if_seq_no')),
      ifPrimaryTerm: checkIfPrimaryTerm(optInt(m, 'if_primary_term')),
      version: optInt(m, 'version'),
      versionType: versionType(m),
      requireAlias: (m.require_alias as boolean | undefined) ?? defaults.requireAlias,
    };
    if (hasTemplates && action !== 'update') {
      const templates: Record<string, string> = {};
      for (const [path, name] of Object.entries(m.dynamic_templates as Record<string, unknown>))
        templates[path] = String(name);
      item.dynamicTemplates = templates;
    }
    let updateShape: Partial<DocWriteCheck> | undefined;
    if (action !== 'delete') {
      const doc = nextLine();
      // BulkRequestParser: an index, create or update action whose source line never comes ends
      // the request, and is dropped without a word (alone, the request has "no requests added").
      if (doc === undefined) break;
      if (action === 'update') {
        if (
          item.version !== undefined ||
          (item.versionType !== undefined && item.versionType !== 'internal')
        ) {
          throw illegalArgument(
            'Update requests do not support versioning. Please use `if_seq_no` and `if_primary_term` instead',
          );
        }
        if (hasTemplates) {
          throw illegalArgument(`Update request in line [${lineNo}] does not accept dynamic_templates`);
        }
        // A missing stored script fails this item only (on its shard, in Elasticsearch).
        let missingScript: string | undefined;
        const stored = defaults.storedScript;
        const resolve = stored
          ? (id: string) => {
              const found = stored(id);
              if (found) return found;
              missingScript = id;
              return { source: '', lang: 'painless' };
            }
          : undefined;
        const u = parseUpdateBody(parseJson(doc), resolve);
        if (missingScript !== undefined) {
          item.failure = resourceNotFound(`unable to find script [${missingScript}] in cluster state`);
        }
        if (u.script) {
          item.script = { source: u.script.source!, params: u.script.params };
          item.scriptedUpsert = u.scriptedUpsert === true;
        }
        if (u.doc !== undefined) item.body = toJsonBytes(u.doc);
        if (u.upsert !== undefined) item.upsert = toJsonBytes(u.upsert);
        if (u.ifSeqNo !== undefined) item.ifSeqNo = u.ifSeqNo;
        if (u.ifPrimaryTerm !== undefined) item.ifPrimaryTerm = u.ifPrimaryTerm;
        item.docAsUpsert = u.docAsUpsert === true;
        item.detectNoop = u.detectNoop !== false;
        const source = u.source ?? m._source;
        item.returnSource = source !== undefined && source !== null && source !== false;
        updateShape = {
          hasScript: u.script !== undefined,
          hasDoc: u.doc !== undefined,
          hasUpsert: u.upsert !== undefined,
          docAsUpsert: item.docAsUpsert,
        };
      } else {
        item.body = doc;
      }
    }
    items.push(item);
    // BulkRequest.validate: every item's ReplicationRequest and DocWriteRequest checks, gathered.
    if (target === undefined) problems.push('index is missing');
    problems.push(...itemProblems(item, updateShape));
  }
  if (items.length === 0) throw actionRequestValidation(['no requests added']);
  if (problems.length > 0) throw actionRequestValidation(problems);
  return items;
}
