/**
 * The checks Elasticsearch makes on one document write (index, create, update, delete) before
 * anything is routed: IndexRequest/DeleteRequest/UpdateRequest.validate, with
 * DocWriteRequest.validateSeqNoBasedCASParams and validateDocIdLength, and the setters that
 * throw while the request is still being read (setIfSeqNo, setIfPrimaryTerm,
 * ActiveShardCount.parseString). Validation returns messages rather than throwing, so a bulk
 * request can gather every item's messages into one action_request_validation_exception, as
 * BulkRequest.validate does.
 */
import { illegalArgument, numberFormat } from '../errors/catalogue.ts';

export type VersionType = 'internal' | 'external' | 'external_gte';

export interface DocWriteCheck {
  op: 'index' | 'create' | 'update' | 'delete';
  id?: string;
  version?: number;
  versionType?: VersionType;
  ifSeqNo?: number;
  ifPrimaryTerm?: number;
  /** update only: the body had a `doc`, an `upsert`, `doc_as_upsert: true`. */
  hasDoc?: boolean;
  hasUpsert?: boolean;
  docAsUpsert?: boolean;
  hasScript?: boolean;
}

/** Versions.MATCH_ANY and Versions.MATCH_DELETED: the "no version given" markers. */
const MATCH_ANY = -3;
const MATCH_DELETED = -4;
/** IndexRequest.MAX_DOCUMENT_ID_LENGTH_IN_BYTES. */
export const MAX_DOC_ID_BYTES = 512;

export const INTERNAL_VERSIONING_MESSAGE =
  'internal versioning can not be used for optimistic concurrency control. Please use `if_seq_no` and `if_primary_term` instead';

/** VersionType.validateVersionForWrites. */
function validVersionForWrites(type: VersionType, v: number): boolean {
  if (type === 'internal') return v > 0 || v === MATCH_ANY || v === MATCH_DELETED;
  return v >= 0;
}

/** VersionType.name(): what the validation messages print. */
function versionTypeName(type: VersionType): string {
  return type.toUpperCase();
}

function seqNoBasedCasMessages(c: DocWriteCheck, version: number, type: VersionType): string[] {
  const out: string[] = [];
  if (!validVersionForWrites(type, version)) {
    out.push(`illegal version value [${version}] for version type [${versionTypeName(type)}]`);
  }
  if (type === 'internal' && version !== MATCH_ANY && version !== MATCH_DELETED) {
    out.push(INTERNAL_VERSIONING_MESSAGE);
  }
  const seqNoSet = c.ifSeqNo !== undefined;
  const termSet = c.ifPrimaryTerm !== undefined && c.ifPrimaryTerm !== 0;
  if (seqNoSet && (type !== 'internal' || version !== MATCH_ANY)) {
    out.push('compare and write operations can not use versioning');
  }
  if (seqNoSet && !termSet) out.push('ifSeqNo is set, but primary term is [0]');
  if (termSet && !seqNoSet) out.push(`ifSeqNo is unassigned, but primary term is [${c.ifPrimaryTerm}]`);
  return out;
}

function idLengthMessages(id: string | undefined): string[] {
  if (id === undefined) return [];
  const bytes = Buffer.byteLength(id, 'utf8');
  if (bytes <= MAX_DOC_ID_BYTES) return [];
  return [`id [${id}] is too long, must be no longer than ${MAX_DOC_ID_BYTES} bytes but was: ${bytes}`];
}

/** The validation messages of one write, in Elasticsearch's order; empty when it is valid. */
export function docWriteValidation(c: DocWriteCheck): string[] {
  const type = c.versionType ?? 'internal';
  switch (c.op) {
    case 'index':
    case 'create':
      return indexValidation(c, type);
    case 'delete': {
      const out: string[] = [];
      if (!c.id) out.push('id is missing');
      out.push(...seqNoBasedCasMessages(c, c.version ?? MATCH_ANY, type));
      return out;
    }
    case 'update': {
      const out: string[] = [];
      if (!c.id) out.push('id is missing');
      out.push(...seqNoBasedCasMessages(c, MATCH_ANY, 'internal'));
      if (c.ifSeqNo !== undefined) {
        if (c.docAsUpsert) out.push('compare and write operations can not be used with upsert');
        if (c.hasUpsert) out.push("upsert requests don't support `if_seq_no` and `if_primary_term`");
      }
      if (!c.hasDoc && !c.hasScript) out.push('script or doc is missing');
      if (c.hasDoc && c.hasScript) out.push("can't provide both script and doc");
      if (!c.hasDoc && c.docAsUpsert) out.push('doc must be specified if doc_as_upsert is enabled');
      out.push(...idLengthMessages(c.id));
      return out;
    }
  }
}

function indexValidation(c: DocWriteCheck, type: VersionType): string[] {
  const create = c.op === 'create';
  // IndexRequest.resolveVersionDefaults: a create without a version expects no document.
  const version = c.version ?? (create ? MATCH_DELETED : MATCH_ANY);
  if (create) {
    if (type !== 'internal') return ['create operations only support internal versioning. use index instead'];
    if (version !== MATCH_DELETED)
      return ['create operations do not support explicit versions. use index instead'];
    if (c.ifSeqNo !== undefined || (c.ifPrimaryTerm !== undefined && c.ifPrimaryTerm !== 0)) {
      return ['create operations do not support compare and set. use index instead'];
    }
  }
  const out: string[] = [];
  if (c.id === undefined && (type !== 'internal' || (version !== MATCH_DELETED && version !== MATCH_ANY))) {
    out.push('an id must be provided if version type or value are set');
  }
  out.push(...seqNoBasedCasMessages(c, version, type));
  out.push(...idLengthMessages(c.id));
  return out;
}

/** IndexRequest.setIfSeqNo (and its update/delete twins): -2 is "unassigned", other negatives fail. */
export function checkIfSeqNo(seqNo: number | undefined): number | undefined {
  if (seqNo === undefined || seqNo === -2) return undefined;
  if (seqNo < 0) throw illegalArgument(`sequence numbers must be non negative. got [${seqNo}].`);
  return seqNo;
}

/** IndexRequest.setIfPrimaryTerm: 0 is "unassigned". */
export function checkIfPrimaryTerm(term: number | undefined): number | undefined {
  if (term === undefined) return undefined;
  if (term < 0) throw illegalArgument(`primary term must be non negative. got [${term}]`);
  return term === 0 ? undefined : term;
}

const JAVA_INT = /^[+-]?\d+$/;

/**
 * ActiveShardCount.parseString, for the `wait_for_active_shards` parameter: `all` or a
 * non-negative int. Returns the count, `'all'`, or undefined when the parameter is absent.
 */
export function parseActiveShardCount(value: string | undefined): number | 'all' | undefined {
  if (value === undefined) return undefined;
  if (value === 'all') return 'all';
  const n = JAVA_INT.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n > 2147483647 || n < -2147483648) {
    throw illegalArgument(`cannot parse ActiveShardCount[${value}]`, numberFormat(value));
  }
  if (n < 0) throw illegalArgument('shard count cannot be a negative value');
  return n;
}
