/**
 * One shard's engine, single-threaded: an indexing buffer (not searchable until refresh), the
 * version bookkeeping of every id (buffer → tombstones → segments), copy-on-write live docs,
 * and the published reader that searches run on. Writes are realtime for `get` (like
 * Elasticsearch's realtime GET), and visible to search only after `refresh()`.
 */
import type {
  GetResult,
  IndexMapping,
  ShardDocsStats,
  ShardWriteOp,
  ShardWriteOutcome,
} from '../contract.ts';
import type { SegmentData } from '../store/segment-codec.ts';
import type { ShardStore, StoreEntry } from '../store/shard-store.ts';
import { type TranslogOp, translogOpOf } from '../store/translog-ops.ts';
import { EngineStats } from './engine-stats.ts';
import { LiveDocs } from './live-docs.ts';
import { expungeChoice, forceMergeChoice, pickMerge, replaceMerged } from './merge-policy.ts';
import { Segment } from './segment.ts';
import { type DocMeta, SegmentBuilder } from './segment-builder.ts';
import { mergeSegmentData } from './segment-merge.ts';
import { ReaderSnapshot, type ShardReader } from './shard-reader.ts';
import type { ShardIdent } from './write-errors.ts';
import {
  type DocState,
  ignoredOfDoc,
  keptSource,
  planWrites,
  segmentDocState,
  type WriteEffect,
} from './write-planner.ts';

export interface ShardEngineOptions {
  index: string;
  indexUuid: string;
  shardId: number;
  mapping: IndexMapping;
  primaryTerm?: number;
  /** How long delete tombstones are kept (`index.gc_deletes`, default 60s). */
  gcDeletesMillis?: number;
  /** Clock for tombstone expiry; tests may pin it. */
  now?: () => number;
  /**
   * The shard's files: with a store, every applied write batch goes to the translog first,
   * every segment is written to its file, and `flush` commits. Without one, memory only.
   */
  store?: ShardStore;
}

interface SegmentEntry {
  segment: Segment;
  liveDocs: LiveDocs;
}

interface BufferedDoc {
  doc: import('../contract.ts').ParsedDocument;
  meta: DocMeta;
  live: boolean;
}

interface Tombstone extends DocMeta {
  at: number;
}

type Location =
  | { kind: 'buffer'; slot: number }
  | { kind: 'segment'; entry: SegmentEntry; doc: number }
  | { kind: 'tombstone'; tombstone: Tombstone };

export class ShardEngine {
  readonly ident: ShardIdent;
  private mapping: IndexMapping;
  private primaryTerm: number;
  private readonly gcDeletesMillis: number;
  private readonly now: () => number;
  private entries: SegmentEntry[] = [];
  private buffer: BufferedDoc[] = [];
  private bufferById = new Map<string, number>();
  private readonly tombstones = new Map<string, Tombstone>();
  private nextSeqNo = 0;
  private changedSinceRefresh = false;
  private readerIds = 0;
  private current: ReaderSnapshot;
  readonly store: ShardStore | undefined;
  readonly stats = new EngineStats();

  constructor(opts: ShardEngineOptions) {
    this.store = opts.store;
    this.ident = { index: opts.index, indexUuid: opts.indexUuid, shardId: opts.shardId };
    this.mapping = opts.mapping;
    this.primaryTerm = opts.primaryTerm ?? 1;
    this.gcDeletesMillis = opts.gcDeletesMillis ?? 60_000;
    this.now = opts.now ?? Date.now;
    this.current = new ReaderSnapshot(this.readerIds++, []);
  }

  getMapping(): IndexMapping {
    return this.mapping;
  }

  setMapping(m: IndexMapping): void {
    this.mapping = m;
  }

  setPrimaryTerm(term: number): void {
    this.primaryTerm = term;
  }

  /** The term new operations get (the highest seen, after a replay). */
  get currentPrimaryTerm(): number {
    return this.primaryTerm;
  }

  /** Highest seq_no assigned so far (-1 before the first op). */
  get maxSeqNo(): number {
    return this.nextSeqNo - 1;
  }

  /** `keepOps`: the outcome carries the batch's operations (for the copy's replicas). */
  write(ops: readonly ShardWriteOp[], keepOps = false): ShardWriteOutcome {
    const plan = planWrites(ops, {
      ident: this.ident,
      mapping: this.mapping,
      primaryTerm: this.primaryTerm,
      nextSeqNo: this.nextSeqNo,
      lookup: (id) => this.state(id),
    });
    if (plan.mappingUpdate) return { kind: 'needs_mapping', update: plan.mappingUpdate };
    // The translog first: if it cannot take the batch, nothing of it is applied.
    const logged = plan.effects.map(translogOpOf);
    this.store?.translog.append(logged);
    for (const e of plan.effects) {
      this.apply(e);
      if (e.kind === 'index') this.stats.indexTotal++;
      else this.stats.deleteTotal++;
    }
    this.nextSeqNo = plan.nextSeqNo;
    return keepOps
      ? { kind: 'applied', results: plan.results, ops: logged }
      : { kind: 'applied', results: plan.results };
  }

  /**
   * Recovery: applies translog operations above the commit's local checkpoint as they were
   * recorded (seq_no, version and term kept; no version checks). Returns the mapping updates
   * that documents needed, which the mapping on disk should already hold.
   */
  replay(ops: readonly TranslogOp[], localCheckpoint: number): Record<string, unknown>[] {
    const updates: Record<string, unknown>[] = [];
    for (const op of ops) {
      if (op.seqNo <= localCheckpoint) continue;
      const meta = { seqNo: op.seqNo, version: op.version, primaryTerm: op.primaryTerm };
      if (op.kind === 'delete') {
        this.apply({ kind: 'delete', id: op.id, meta });
      } else {
        let parsed = this.mapping.parseDocument(op.id, op.source, op.routing);
        if (parsed.dynamicUpdate) {
          updates.push(parsed.dynamicUpdate);
          this.mapping = this.mapping.merge(parsed.dynamicUpdate);
          parsed = this.mapping.parseDocument(op.id, op.source, op.routing);
        }
        this.apply({ kind: 'index', doc: parsed.doc, meta });
      }
      if (op.seqNo >= this.nextSeqNo) this.nextSeqNo = op.seqNo + 1;
      if (op.primaryTerm > this.primaryTerm) this.primaryTerm = op.primaryTerm;
    }
    return updates;
  }

  /**
   * A replica applies what its primary did (Elasticsearch's replica-side indexing): each
   * operation keeps its seq_no, version and term, and one older than what the copy already
   * holds for that id (a document or a delete tombstone) is skipped, so replicated writes and
   * peer-recovery batches may arrive in any order and more than once. Applied operations go to
   * the translog first. Returns the mapping updates the documents needed, and how many applied.
   */
  applyReplicated(ops: readonly TranslogOp[]): {
    mappingUpdates: Record<string, unknown>[];
    applied: number;
  } {
    const fresh = ops.filter((op) => {
      const had = this.state(op.id);
      return had === undefined || had.seqNo < op.seqNo;
    });
    if (fresh.length > 0) this.store?.translog.append(fresh);
    const mappingUpdates = this.replay(fresh, -1);
    for (const op of ops) if (op.seqNo >= this.nextSeqNo) this.nextSeqNo = op.seqNo + 1;
    for (const op of fresh) {
      if (op.kind === 'index') this.stats.indexTotal++;
      else this.stats.deleteTotal++;
    }
    return { mappingUpdates, applied: fresh.length };
  }

  /** Installs the segments of a commit (recovery, before any write). */
  restore(entries: readonly StoreEntry[], maxSeqNo: number): void {
    for (const e of entries) e.segment.incRef();
    this.entries = [...entries];
    this.nextSeqNo = Math.max(this.nextSeqNo, maxSeqNo + 1);
    this.changedSinceRefresh = true;
    this.refresh();
  }

  /** Docs buffered since the last refresh (recovery refreshes as it goes to bound memory). */
  get bufferedDocs(): number {
    return this.buffer.length;
  }

  private apply(e: WriteEffect): void {
    const id = e.kind === 'index' ? e.doc.id : e.id;
    const loc = this.locate(id);
    if (loc?.kind === 'buffer') {
      this.buffer[loc.slot]!.live = false;
      this.bufferById.delete(id);
    } else if (loc?.kind === 'segment') {
      loc.entry.liveDocs = loc.entry.liveDocs.delete(loc.doc);
    } else if (loc?.kind === 'tombstone') {
      this.tombstones.delete(id);
    }
    if (e.kind === 'index') {
      this.bufferById.set(id, this.buffer.length);
      this.buffer.push({ doc: e.doc, meta: e.meta, live: true });
    } else {
      this.tombstones.set(id, { ...e.meta, at: this.now() });
    }
    this.changedSinceRefresh = true;
  }

  /** Where the current state of `id` lives: buffer, tombstone, or a live segment doc. */
  private locate(id: string): Location | undefined {
    const slot = this.bufferById.get(id);
    if (slot !== undefined) return { kind: 'buffer', slot };
    const t = this.tombstones.get(id);
    if (t) return { kind: 'tombstone', tombstone: t };
    // Newest segments first: recently written ids are the likeliest to be looked up again.
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i]!;
      const doc = entry.segment.docOfId(id);
      if (doc >= 0 && entry.liveDocs.isLive(doc)) return { kind: 'segment', entry, doc };
    }
    return undefined;
  }

  private state(id: string): DocState | undefined {
    const loc = this.locate(id);
    if (!loc) return undefined;
    if (loc.kind === 'buffer') {
      const b = this.buffer[loc.slot]!;
      return { exists: true, ...b.meta, source: keptSource(b.doc), routing: b.doc.routing };
    }
    if (loc.kind === 'tombstone') {
      const t = loc.tombstone;
      return { exists: false, version: t.version, seqNo: t.seqNo, primaryTerm: t.primaryTerm };
    }
    return segmentDocState(loc.entry.segment, loc.doc);
  }

  /** Realtime by default: sees un-refreshed writes, as Elasticsearch's GET does. */
  get(id: string, opts: { realtime?: boolean } = {}): GetResult {
    let s: DocState | undefined;
    let ignored: string[] | undefined;
    if (opts.realtime ?? true) {
      s = this.state(id);
      const loc = s?.exists ? this.locate(id) : undefined;
      if (loc?.kind === 'buffer') ignored = ignoredOfDoc(this.buffer[loc.slot]!.doc);
      else if (loc?.kind === 'segment') ignored = ignoredOfDoc({ segment: loc.entry.segment, doc: loc.doc });
    } else {
      const segs = this.current.segments;
      for (let i = segs.length - 1; i >= 0 && !s; i--) {
        const rs = segs[i]!;
        const doc = rs.segment.docOfId(id);
        if (doc >= 0 && rs.liveDocs.isLive(doc)) {
          s = segmentDocState(rs.segment, doc);
          ignored = ignoredOfDoc({ segment: rs.segment, doc });
        }
      }
    }
    if (!s?.exists) return { found: false, id };
    const r: GetResult = {
      found: true,
      id,
      version: s.version,
      seqNo: s.seqNo,
      primaryTerm: s.primaryTerm,
      // A copy: the result may be transferred to another thread, which must not detach the
      // segment's shared source buffer.
      source: s.source?.slice(),
    };
    if (s.routing !== undefined) r.routing = s.routing;
    if (ignored) r.ignored = ignored;
    return r;
  }

  /** Turns the buffer into a segment and publishes a new reader; false when nothing changed. */
  refresh(): boolean {
    if (!this.changedSinceRefresh) return false;
    const started = performance.now();
    const live = this.buffer.filter((b) => b.live);
    if (live.length > 0) {
      const builder = new SegmentBuilder();
      for (const b of live) builder.addDocument(b.doc, b.meta);
      const segment = this.newSegment(builder.buildData(this.segmentName()));
      segment.incRef();
      this.entries.push({ segment, liveDocs: LiveDocs.allLive(segment.maxDoc) });
    }
    this.buffer = [];
    this.bufferById = new Map();
    this.dropFullyDeleted();
    this.pruneTombstones();
    this.publish();
    this.changedSinceRefresh = false;
    this.stats.refreshTotal++;
    this.stats.refreshTimeMs += performance.now() - started;
    return true;
  }

  private segmentName(): string {
    return this.store?.nextSegmentName() ?? '';
  }

  /** A built segment: written to its file and read back from there, or kept in memory. */
  private newSegment(data: SegmentData): Segment {
    if (this.store) return this.store.writeSegment(data);
    return new Segment(data.stored, new Map(data.fields), data.name || undefined);
  }

  /**
   * Flush: refresh, then commit every segment and live docs so the translog up to here can
   * go. False when the last commit already holds everything (Elasticsearch skips such a
   * flush too).
   */
  flush(force = false): boolean {
    const store = this.store;
    if (!store) return false;
    this.refresh();
    if (!force && store.holds(this.entries, this.maxSeqNo)) return false;
    const started = performance.now();
    store.commit(this.entries, {
      localCheckpoint: this.maxSeqNo,
      maxSeqNo: this.maxSeqNo,
      primaryTerm: this.primaryTerm,
    });
    this.stats.flushTotal++;
    this.stats.flushTimeMs += performance.now() - started;
    return true;
  }

  /** A counted handle on the latest published reader; release it when done. */
  acquireReader(): ShardReader {
    return this.current.acquire();
  }

  /** Bytes the current segments keep in memory whatever the section cache holds. */
  residentBytes(): number {
    let n = 0;
    for (const e of this.entries) n += e.segment.residentBytes;
    return n;
  }

  docsStats(): ShardDocsStats {
    let count = 0;
    let deleted = 0;
    let size = 0;
    for (const s of this.current.segments) {
      count += s.liveDocs.numLive;
      deleted += s.liveDocs.numDeleted;
      size += s.segment.sizeInBytes;
    }
    return { count, deleted, segments: this.current.segments.length, sizeInBytes: size };
  }

  /**
   * `_forcemerge`: refreshes, then merges segments (dropping deleted docs) until at most
   * `maxSegments` remain, and publishes a reader on the result. Readers holding the old
   * segments keep them until released.
   */
  forceMerge(maxSegments = 1): boolean {
    this.refresh();
    const chosen = forceMergeChoice(this.entries, maxSegments);
    if (chosen) this.mergeEntries(chosen);
    return chosen !== undefined;
  }

  /** `_forcemerge?only_expunge_deletes=true`: rewrites the segments that have deleted docs. */
  expungeDeletes(): boolean {
    this.refresh();
    const chosen = expungeChoice(this.entries);
    if (chosen) this.mergeEntries(chosen);
    return chosen !== undefined;
  }

  /**
   * The background merge trigger, for the owner to call after a refresh: when there are many
   * segments, the small ones are merged into one (a simplified tiered policy).
   */
  maybeMerge(): boolean {
    const pick = pickMerge(this.entries.map((e) => e.liveDocs.numLive));
    if (!pick) return false;
    this.mergeEntries(pick.map((i) => this.entries[i]!));
    return true;
  }

  private mergeEntries(chosen: SegmentEntry[]): void {
    const started = performance.now();
    const set = new Set(chosen);
    const inOrder = this.entries.filter((e) => set.has(e));
    const merged = this.newSegment(mergeSegmentData(inOrder, this.segmentName()));
    merged.incRef();
    this.stats.recordMerge(inOrder, merged, performance.now() - started);
    const entry =
      merged.maxDoc > 0 ? { segment: merged, liveDocs: LiveDocs.allLive(merged.maxDoc) } : undefined;
    this.entries = replaceMerged(this.entries, set, entry);
    for (const e of inOrder) e.segment.decRef();
    if (merged.maxDoc === 0) merged.decRef();
    this.publish();
  }

  private publish(): void {
    const old = this.current;
    this.current = new ReaderSnapshot(this.readerIds++, this.entries);
    old.decRef();
  }

  private dropFullyDeleted(): void {
    const keep: SegmentEntry[] = [];
    for (const e of this.entries) {
      if (e.liveDocs.numLive === 0) e.segment.decRef();
      else keep.push(e);
    }
    this.entries = keep;
  }

  private pruneTombstones(): void {
    const horizon = this.now() - this.gcDeletesMillis;
    for (const [id, t] of this.tombstones) if (t.at < horizon) this.tombstones.delete(id);
  }

  /** Releases the engine's own references (closing the shard). Open readers stay usable. */
  close(): void {
    this.current.decRef();
    for (const e of this.entries) e.segment.decRef();
    this.entries = [];
    this.current = new ReaderSnapshot(this.readerIds++, []);
    this.store?.close();
  }
}
