/**
 * The first phase of a write batch: decide every op's outcome without touching the engine.
 * Ops see the effects of earlier ops of the same batch through an overlay. If any document
 * needs a dynamic mapping update, the engine applies nothing and hands the merged update back
 * (the caller updates the mapping and retries), as TransportShardBulkAction does; documents
 * after the first update are parsed against the mapping with that update, as they would be
 * on the retry.
 */
import { documentSourceMissing, illegalArgument, isShoalError, type ShoalError } from '@shoal/protocol';
import type { IndexMapping, ParsedDocument, ShardWriteOp, ShardWriteResult } from '../contract.ts';
import { type CtxMap, runWriteScript, sourceBytes } from '../script/write-script.ts';
import type { Segment } from './segment.ts';
import type { DocMeta } from './segment-builder.ts';
import { applyPartialUpdate, mergeFragments, parseJsonObject, serialiseJson } from './source-update.ts';
import { conflict, documentMissing, type ShardIdent, seqNoConflict } from './write-errors.ts';

/** What the engine knows about an id: a live doc, or a delete tombstone (`exists: false`). */
export interface DocState {
  exists: boolean;
  version: number;
  seqNo: number;
  primaryTerm: number;
  source?: Uint8Array;
  routing?: string;
  /** `_ignored` of the document, read only by GET (ignoredOfDoc). */
  ignored?: string[];
}

export type WriteEffect =
  | { kind: 'index'; doc: ParsedDocument; meta: DocMeta }
  | { kind: 'delete'; id: string; meta: DocMeta };

export interface WritePlan {
  results: ShardWriteResult[];
  effects: WriteEffect[];
  mappingUpdate?: Record<string, unknown>;
  nextSeqNo: number;
}

export interface PlanContext {
  ident: ShardIdent;
  mapping: IndexMapping;
  primaryTerm: number;
  nextSeqNo: number;
  lookup(id: string): DocState | undefined;
}

export function planWrites(ops: readonly ShardWriteOp[], ctx: PlanContext): WritePlan {
  const overlay = new Map<string, DocState>();
  const lookup = (id: string) => (overlay.has(id) ? overlay.get(id) : ctx.lookup(id));
  const results: ShardWriteResult[] = [];
  const effects: WriteEffect[] = [];
  let mapping = ctx.mapping;
  let mappingUpdate: Record<string, unknown> | undefined;
  let seqNo = ctx.nextSeqNo;
  const term = ctx.primaryTerm;

  /** Parses a doc; undefined when it failed (result recorded) or needs a mapping update. */
  const parse = (
    id: string,
    source: Uint8Array,
    routing?: string,
    dynamicTemplates?: Record<string, string>,
  ): ParsedDocument | ShoalError | undefined => {
    let parsed: ReturnType<IndexMapping['parseDocument']>;
    try {
      parsed = mapping.parseDocument(id, source, routing, dynamicTemplates);
    } catch (e) {
      if (isShoalError(e)) return e;
      throw e;
    }
    if (parsed.dynamicUpdate) {
      mappingUpdate ??= {};
      mergeFragments(mappingUpdate, structuredClone(parsed.dynamicUpdate));
      try {
        mapping = mapping.merge(parsed.dynamicUpdate);
      } catch {
        // A conflicting update: the retry after the mapping update reports it for this doc.
      }
      return undefined;
    }
    return parsed.doc;
  };

  const fail = (id: string, err: ShoalError) => {
    results.push({ status: err.status, id, error: err.toWire() });
  };

  const index = (doc: ParsedDocument, version: number, cur: DocState | undefined, status?: number) => {
    const meta = { seqNo: seqNo++, version, primaryTerm: term };
    effects.push({ kind: 'index', doc, meta });
    overlay.set(doc.id, { exists: true, ...meta, source: keptSource(doc), routing: doc.routing });
    const created = !cur?.exists;
    const result: ShardWriteResult = {
      status: status ?? (created ? 201 : 200),
      id: doc.id,
      result: created ? 'created' : 'updated',
      version,
      seqNo: meta.seqNo,
      primaryTerm: term,
    };
    results.push(result);
    return result;
  };

  for (const op of ops) {
    const id = op.id;
    const cur = lookup(id);
    const live = cur?.exists ? cur : undefined;

    if (op.ifSeqNo !== undefined) {
      const ifTerm = op.ifPrimaryTerm ?? term;
      if (!live || live.seqNo !== op.ifSeqNo || live.primaryTerm !== ifTerm) {
        if (op.op === 'update' && !live && op.upsert === undefined && !op.docAsUpsert) {
          fail(id, documentMissing(id, ctx.ident));
        } else {
          fail(id, seqNoConflict(id, op.ifSeqNo, ifTerm, live, ctx.ident));
        }
        continue;
      }
    }

    if (op.op === 'index' || op.op === 'delete') {
      let parsed: ParsedDocument | undefined;
      if (op.op === 'index') {
        const p = parse(id, op.source, op.routing, op.dynamicTemplates);
        if (p === undefined) continue;
        if (!('fields' in p)) {
          fail(id, p);
          continue;
        }
        parsed = p;
        if (op.create && live) {
          fail(id, conflict(id, `document already exists (current version [${live.version}])`, ctx.ident));
          continue;
        }
      }
      let version: number;
      const vt = op.versionType ?? 'internal';
      if (vt !== 'internal' && op.version !== undefined) {
        version = op.version;
        if (cur && (vt === 'external' ? cur.version >= version : cur.version > version)) {
          const rel = vt === 'external' ? 'higher or equal to' : 'higher than';
          fail(
            id,
            conflict(
              id,
              `current version [${cur.version}] is ${rel} the one provided [${version}]`,
              ctx.ident,
            ),
          );
          continue;
        }
      } else {
        version = cur ? cur.version + 1 : 1;
      }
      if (parsed) {
        index(parsed, version, cur);
        continue;
      }
      const meta = { seqNo: seqNo++, version, primaryTerm: term };
      effects.push({ kind: 'delete', id, meta });
      overlay.set(id, { exists: false, ...meta });
      results.push({
        status: live ? 200 : 404,
        id,
        result: live ? 'deleted' : 'not_found',
        version,
        seqNo: meta.seqNo,
        primaryTerm: term,
      });
      continue;
    }

    // update
    if (live && live.source === undefined) {
      fail(id, documentSourceMissing(id, ctx.ident.index, ctx.ident.indexUuid, ctx.ident.shardId));
      continue;
    }
    let scripted: ScriptedUpdate | undefined;
    if (op.script) {
      let ran: CtxMap | undefined;
      try {
        ran = runUpdateScript(op, live, ctx.ident.index);
      } catch (e) {
        // UpdateHelper.executeScript: any failure of the script is the request's bad argument.
        if (isShoalError(e)) {
          fail(id, illegalArgument('failed to execute script', e));
          continue;
        }
        throw e;
      }
      if (ran) {
        try {
          const write = ran.op === 'index' || ran.op === 'create';
          scripted = { op: ran.op, bytes: write ? sourceBytes(ran.source) : undefined };
        } catch (e) {
          if (isShoalError(e)) {
            fail(id, e);
            continue;
          }
          throw e;
        }
      }
    }
    if (!live) {
      const upsert = op.upsert ?? (op.docAsUpsert ? op.doc : undefined);
      if (upsert === undefined) {
        fail(id, documentMissing(id, ctx.ident));
        continue;
      }
      if (scripted?.op === 'noop') {
        // A scripted upsert that chose not to create: nothing written, nothing to show.
        results.push({ status: 200, id, result: 'noop', version: -1 });
        continue;
      }
      const bytes = scripted ? scripted.bytes! : upsert;
      const p = parse(id, bytes, op.routing);
      if (p === undefined) continue;
      if (!('fields' in p)) {
        fail(id, p);
        continue;
      }
      const r = index(p, cur ? cur.version + 1 : 1, cur);
      if (op.returnSource) r.source = bytes.slice();
      continue;
    }
    const current = live.source ?? new Uint8Array(0);
    let bytes: Uint8Array;
    if (scripted) {
      if (scripted.op === 'noop') {
        results.push(noop(id, live, op.returnSource ? current : undefined));
        continue;
      }
      if (scripted.op === 'delete') {
        const meta = { seqNo: seqNo++, version: live.version + 1, primaryTerm: term };
        effects.push({ kind: 'delete', id, meta });
        overlay.set(id, { exists: false, ...meta });
        results.push({ status: 200, id, result: 'deleted', ...versionOf(meta) });
        continue;
      }
      bytes = scripted.bytes!;
    } else {
      const merged = parseJsonObject(current);
      const changed = op.doc ? applyPartialUpdate(merged, parseJsonObject(op.doc), op.detectNoop) : false;
      if (!changed && (op.detectNoop || !op.doc)) {
        results.push(noop(id, live, op.returnSource ? current : undefined));
        continue;
      }
      // The one place where `_source` is re-serialised: the merged document of an update.
      bytes = serialiseJson(merged);
    }
    const p = parse(id, bytes, op.routing ?? live.routing);
    if (p === undefined) continue;
    if (!('fields' in p)) {
      fail(id, p);
      continue;
    }
    const r = index(p, live.version + 1, cur);
    if (op.returnSource) r.source = bytes.slice();
  }

  if (mappingUpdate) return { results: [], effects: [], mappingUpdate, nextSeqNo: ctx.nextSeqNo };
  return { results, effects, nextSeqNo: seqNo };
}

/** The `_source` a document keeps: none when the mapping disables `_source`. */
export function keptSource(doc: ParsedDocument): Uint8Array | undefined {
  const kept = doc.storedSource ?? doc.source;
  return kept.length === 0 ? undefined : kept;
}

type UpdateOp = Extract<ShardWriteOp, { op: 'update' }>;

/** What an update script decided: the op, and the document to write for `index`/`create`. */
interface ScriptedUpdate {
  op: string;
  bytes?: Uint8Array;
}

/**
 * Runs an update's script (UpdateHelper): on the live document, or on the upsert document
 * when there is none and `scripted_upsert` asks. Returns undefined when the script does not
 * run (a plain upsert of a missing document).
 */
function runUpdateScript(op: UpdateOp, live: DocState | undefined, index: string): CtxMap | undefined {
  const script = op.script!;
  if (!live) {
    if (!op.scriptedUpsert || op.upsert === undefined) return undefined;
    return runWriteScript('upsert', script, {
      index,
      id: op.id,
      now: Date.now(),
      source: parseJsonObject(op.upsert),
    });
  }
  return runWriteScript('update', script, {
    index,
    id: op.id,
    version: live.version,
    routing: op.routing ?? live.routing ?? null,
    now: Date.now(),
    source: parseJsonObject(live.source ?? new Uint8Array(0)),
  });
}

function versionOf(meta: { seqNo: number; version: number; primaryTerm: number }) {
  return { version: meta.version, seqNo: meta.seqNo, primaryTerm: meta.primaryTerm };
}

/** An update that changed nothing: the live document's version, nothing written. */
function noop(id: string, live: DocState, source: Uint8Array | undefined): ShardWriteResult {
  const r: ShardWriteResult = {
    status: 200,
    id,
    result: 'noop',
    version: live.version,
    seqNo: live.seqNo,
    primaryTerm: live.primaryTerm,
  };
  if (source) r.source = source.slice();
  return r;
}

/** The state of a live doc of a segment. */
export function segmentDocState(segment: Segment, doc: number): DocState {
  const st = segment.stored;
  const s: DocState = {
    exists: true,
    version: st.versions[doc]!,
    seqNo: st.seqNos[doc]!,
    primaryTerm: st.primaryTerms[doc]!,
  };
  const source = segment.source(doc);
  if (source.length > 0) s.source = source;
  const r = st.routing[doc];
  if (r !== null && r !== undefined) s.routing = r;
  return s;
}

/** The `_ignored` names of a buffered document (from its parsed fields) or a segment's doc. */
export function ignoredOfDoc(from: ParsedDocument | { segment: Segment; doc: number }): string[] | undefined {
  if ('fields' in from) {
    const f = from.fields.find((x) => x.path === '_ignored');
    return f?.terms && f.terms.length > 0 ? [...f.terms] : undefined;
  }
  const ss = from.segment.field('_ignored')?.sortedSet;
  if (!ss) return undefined;
  const start = ss.starts[from.doc]!;
  const end = ss.starts[from.doc + 1]!;
  if (end <= start) return undefined;
  const out: string[] = [];
  for (let k = start; k < end; k++) out.push(ss.terms[ss.ords[k]!]!);
  return out;
}
