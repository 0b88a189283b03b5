/**
 * A shard copy's folder: `index/` (segment files, live-docs files, commit points) and
 * `translog/`. The store writes each new segment as soon as it is built (unsynced, as Lucene
 * writes a flushed segment before any commit), and a commit makes a set of them durable:
 * fsync the segment and live-docs files, fsync the folder, roll the translog, write the commit
 * point atomically, then release the previous commit's files and translog generations.
 *
 * Opening a shard loads its newest commit, deletes whatever the commit does not name (segments
 * written after it, temp files), and verifies every segment file against its checksum before
 * anything is searchable.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FileBacking } from '../index/file-backing.ts';
import { LiveDocs } from '../index/live-docs.ts';
import { Segment } from '../index/segment.ts';
import { CorruptionError } from './checksum.ts';
import {
  type CommitPoint,
  type CommittedSegment,
  commitFileName,
  commitGenerations,
  readCommit,
  writeCommit,
} from './commit-point.ts';
import { FileDeleter } from './file-deleter.ts';
import { fsyncDir, readFileOrUndefined, writeFileAtomic } from './files.ts';
import { readLiveDocs, writeLiveDocs } from './live-docs-file.ts';
import { type SegmentData, type SegmentDirectory, writeSegmentFile } from './segment-codec.ts';
import { SegmentFile } from './segment-file.ts';
import { Translog, type TranslogWarn } from './translog.ts';
import type { TranslogOp } from './translog-ops.ts';

export interface StoreEntry {
  segment: Segment;
  liveDocs: LiveDocs;
}

export interface SeqNoState {
  localCheckpoint: number;
  maxSeqNo: number;
  primaryTerm: number;
}

/** The primary term the copy last started under (see recordPrimaryTerm). */
const PRIMARY_TERM_FILE = 'primary_term';
const segmentFile = (name: string) => `${name}.seg`;

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export class ShardStore {
  readonly indexDir: string;
  readonly translogDir: string;
  private translogLog: Translog | undefined;
  private readonly deleter: FileDeleter;
  private last: CommitPoint;
  /** Segment and live-docs files written since the last commit, not yet fsynced. */
  private readonly unsynced = new Set<string>();
  private nextGen: number;

  private constructor(
    readonly path: string,
    commit: CommitPoint,
  ) {
    this.indexDir = join(path, 'index');
    this.translogDir = join(path, 'translog');
    this.deleter = new FileDeleter(this.indexDir);
    this.last = commit;
    this.nextGen = commit.nextSegmentGen;
    for (const f of filesOf(commit)) this.deleter.incRef(f);
  }

  /** Whether `path` holds a shard (a commit point). */
  static exists(path: string): boolean {
    try {
      return commitGenerations(join(path, 'index')).length > 0;
    } catch {
      return false;
    }
  }

  /** A new, empty shard: folders, an empty translog and a first commit naming it. */
  static create(path: string, primaryTerm: number): ShardStore {
    rmSync(path, { recursive: true, force: true });
    mkdirSync(join(path, 'index'), { recursive: true });
    mkdirSync(join(path, 'translog'), { recursive: true });
    const commit: CommitPoint = {
      generation: 1,
      segments: [],
      localCheckpoint: -1,
      maxSeqNo: -1,
      primaryTerm,
      translogUuid: randomUUID(),
      translogGeneration: 1,
      nextSegmentGen: 0,
    };
    const store = new ShardStore(path, commit);
    store.translogLog = Translog.create(store.translogDir, commit.translogUuid);
    writeCommit(store.indexDir, commit);
    fsyncDir(path);
    return store;
  }

  /**
   * Opens an existing shard at its newest commit: its segments (checksums verified) with their
   * live docs. The translog is opened next, by `replayTranslog`.
   */
  static open(path: string): { store: ShardStore; commit: CommitPoint; entries: StoreEntry[] } {
    const indexDir = join(path, 'index');
    const gens = commitGenerations(indexDir);
    const gen = gens[gens.length - 1];
    if (gen === undefined) throw new CorruptionError(indexDir, 'no commit point found');
    const commit = readCommit(indexDir, gen);
    const store = new ShardStore(path, commit);
    const keep = new Set([...filesOf(commit), commitFileName(gen)]);
    for (const f of readdirSync(indexDir)) if (!keep.has(f)) rmSync(join(indexDir, f), { force: true });
    const entries: StoreEntry[] = [];
    try {
      for (const cs of commit.segments) {
        const segment = store.openSegment(cs.name, { length: cs.length, crc: cs.crc });
        entries.push({ segment, liveDocs: store.liveDocsOf(cs) });
      }
    } catch (e) {
      for (const e2 of entries) e2.segment.file?.close();
      throw e;
    }
    return { store, commit, entries };
  }

  /** The primary term this copy last started under (0 before its first restart). */
  recordedPrimaryTerm(): number {
    const raw = readFileOrUndefined(join(this.path, PRIMARY_TERM_FILE));
    const term = raw === undefined ? 0 : Number(raw.toString('utf8').trim());
    return Number.isSafeInteger(term) && term > 0 ? term : 0;
  }

  /**
   * Records the primary term the copy starts under, before it takes any write: the next start
   * goes above it even when no operation of this term reached the translog or a commit.
   */
  recordPrimaryTerm(term: number): void {
    writeFileAtomic(join(this.path, PRIMARY_TERM_FILE), new TextEncoder().encode(`${term}\n`));
  }

  get translog(): Translog {
    if (!this.translogLog) throw new Error('translog is not open');
    return this.translogLog;
  }

  get lastCommit(): CommitPoint {
    return this.last;
  }

  /** Streams the translog's operations above the commit to `onOps`, then keeps it open for appends. */
  replayTranslog(onOps: (ops: TranslogOp[]) => void, warn: TranslogWarn): void {
    this.translogLog = Translog.open(
      this.translogDir,
      this.last.translogUuid,
      this.last.translogGeneration,
      onOps,
      warn,
    );
  }

  nextSegmentName(): string {
    return `_${(this.nextGen++).toString(36)}`;
  }

  /** Writes a segment built in memory to its file and returns it backed by that file. */
  writeSegment(data: SegmentData): Segment {
    const file = segmentFile(data.name);
    writeSegmentFile(join(this.indexDir, file), data);
    this.unsynced.add(file);
    return this.openSegment(data.name);
  }

  private openSegment(name: string, expected?: { length: number; crc: number }): Segment {
    const file = segmentFile(name);
    const sf = new SegmentFile(join(this.indexDir, file));
    try {
      if (expected) sf.verify(expected);
    } catch (e) {
      sf.close();
      throw e;
    }
    const segment = new Segment(new FileBacking(sf, sf.directory as SegmentDirectory), name);
    this.deleter.incRef(file);
    segment.onClose(() => {
      this.unsynced.delete(file);
      this.deleter.decRef(file);
    });
    return segment;
  }

  private liveDocsOf(cs: CommittedSegment): LiveDocs {
    if (!cs.delFile || cs.delCount === 0) return LiveDocs.allLive(cs.maxDoc);
    return LiveDocs.fromDeleted(
      cs.maxDoc,
      readLiveDocs(this.indexDir, cs.delFile, cs.maxDoc, cs.delCrc ?? 0),
    );
  }

  /** Whether the last commit already holds exactly these segments, deletes and ops. */
  holds(entries: readonly StoreEntry[], maxSeqNo: number): boolean {
    const last = this.last;
    return (
      last.maxSeqNo === maxSeqNo &&
      last.segments.length === entries.length &&
      entries.every(
        (e, i) =>
          last.segments[i]!.name === e.segment.name && last.segments[i]!.delCount === e.liveDocs.numDeleted,
      )
    );
  }

  /** Makes `entries` and every translog op up to `seq.localCheckpoint` durable as a new commit. */
  commit(entries: readonly StoreEntry[], seq: SeqNoState): CommitPoint {
    const previous = new Map(this.last.segments.map((s) => [s.name, s]));
    const segments: CommittedSegment[] = entries.map(({ segment, liveDocs }) => {
      const file = segment.file;
      if (!file) throw new Error(`segment ${segment.name} has no file`);
      const cs: CommittedSegment = {
        name: segment.name,
        file: segmentFile(segment.name),
        length: file.length,
        crc: file.crc,
        maxDoc: segment.maxDoc,
        delCount: liveDocs.numDeleted,
      };
      const prev = previous.get(segment.name);
      if (liveDocs.numDeleted > 0) {
        if (prev?.delFile && prev.delCount === liveDocs.numDeleted) {
          cs.delFile = prev.delFile;
          cs.delCrc = prev.delCrc;
        } else {
          const w = writeLiveDocs(this.indexDir, segment.name, liveDocs.deletedBits!, liveDocs.numDeleted);
          this.unsynced.add(w.file);
          cs.delFile = w.file;
          cs.delCrc = w.crc;
        }
      }
      return cs;
    });
    const next: CommitPoint = {
      generation: this.last.generation + 1,
      segments,
      localCheckpoint: seq.localCheckpoint,
      maxSeqNo: seq.maxSeqNo,
      primaryTerm: seq.primaryTerm,
      translogUuid: this.last.translogUuid,
      translogGeneration: 0,
      nextSegmentGen: this.nextGen,
    };
    const files = filesOf(next);
    for (const f of files) {
      if (!this.unsynced.has(f)) continue;
      fsyncPath(join(this.indexDir, f));
      this.unsynced.delete(f);
    }
    fsyncDir(this.indexDir);
    // Every op so far is in the segments: later ops go to a new generation, the one recovery
    // will start from once this commit is durable.
    next.translogGeneration = this.translog.roll();
    writeCommit(this.indexDir, next);
    const old = this.last;
    this.last = next;
    for (const f of files) this.deleter.incRef(f);
    for (const f of filesOf(old)) this.deleter.decRef(f);
    rmSync(join(this.indexDir, commitFileName(old.generation)), { force: true });
    this.translog.trimBelow(next.translogGeneration);
    return next;
  }

  /** Bytes of the files in `index/` (segments pinned by readers included) and in `translog/`. */
  sizes(): { store: number; translog: number } {
    const sum = (dir: string) => {
      let n = 0;
      for (const f of readdirSync(dir)) {
        try {
          n += statSync(join(dir, f)).size;
        } catch {
          // deleted meanwhile
        }
      }
      return n;
    };
    return { store: sum(this.indexDir), translog: sum(this.translogDir) };
  }

  close(): void {
    this.translogLog?.close();
  }
}

function filesOf(commit: CommitPoint): string[] {
  const out: string[] = [];
  for (const s of commit.segments) {
    out.push(s.file);
    if (s.delFile) out.push(s.delFile);
  }
  return out;
}
