/**
 * A shard's translog: every acknowledged write batch, in order, until a commit covers it.
 *
 * Files are generations (`translog-<gen>.tlog`), each a header (magic, format version,
 * generation, the translog's uuid, CRC-32C) followed by frames: `u32 payload length | u32
 * CRC-32C of the payload | payload` (one write batch, see translog-ops.ts). A batch is one
 * frame, so it replays whole or not at all. Appends are synced before the write is
 * acknowledged (`index.translog.durability: request`; `syncSoon` lets the batches that arrive
 * together share one fdatasync) or on a timer (`async`).
 *
 * A flush rolls to a new generation; the commit then names it as the first one recovery needs,
 * and older generations are deleted. On open, a frame that is cut short or fails its checksum
 * at the end of the newest generation is a torn write that was never acknowledged: it is
 * truncated away with a warning. Corruption anywhere else (an older generation, or a bad frame
 * followed by a good one) means acknowledged operations are damaged, and opening fails.
 */
import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { CorruptionError, checksum } from './checksum.ts';
import { fsyncDir } from './files.ts';
import { decodeOps, encodeOps, type TranslogOp } from './translog-ops.ts';

const MAGIC = 0x4c544853; // "SHTL"
const FORMAT = 1;
const FRAME_HEADER = 8;
/** Larger than any write batch the coordinator sends; a bigger length field is garbage. */
const MAX_FRAME = 1 << 30;

export interface TranslogStats {
  generation: number;
  /** Operations and bytes in the generations that are kept (not yet covered by a commit). */
  operations: number;
  sizeInBytes: number;
}

export type TranslogWarn = (msg: string, fields: Record<string, unknown>) => void;

const fileOf = (dir: string, gen: number) => join(dir, `translog-${gen}.tlog`);

function header(gen: number, uuid: string): Uint8Array {
  const id = new TextEncoder().encode(uuid);
  const out = new Uint8Array(14 + id.length + 4);
  const v = new DataView(out.buffer);
  v.setUint32(0, MAGIC, true);
  v.setUint32(4, FORMAT, true);
  v.setUint32(8, gen, true);
  v.setUint16(12, id.length, true);
  out.set(id, 14);
  v.setUint32(14 + id.length, checksum(out.subarray(0, 14 + id.length)), true);
  return out;
}

function readAt(fd: number, length: number, position: number): Uint8Array {
  const buf = new Uint8Array(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got === length ? buf : buf.subarray(0, got);
}

/** Generations present in `dir`, ascending. */
export function translogGenerations(dir: string): number[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .map((n) => /^translog-(\d+)\.tlog$/.exec(n)?.[1])
    .filter((g): g is string => g !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

interface FrameScan {
  /** Offset just after the last good frame. */
  end: number;
  /** Why scanning stopped early, when it did. */
  bad?: string;
  /** A good frame follows the bad one: corruption in the middle, not a torn tail. */
  goodAfterBad: boolean;
  operations: number;
}

export class Translog {
  private fd: number;
  private position: number;
  private gen: number;
  /** Per kept generation: operations and bytes (for stats and the flush threshold). */
  private readonly kept = new Map<number, { operations: number; size: number }>();
  private pendingSync: Promise<void> | undefined;
  private unsynced = false;

  private constructor(
    readonly dir: string,
    readonly uuid: string,
    gen: number,
    fd: number,
    position: number,
  ) {
    this.gen = gen;
    this.fd = fd;
    this.position = position;
  }

  /** A new, empty translog (a new shard): generation 1. */
  static create(dir: string, uuid: string): Translog {
    for (const g of translogGenerations(dir)) rmSync(fileOf(dir, g), { force: true });
    const t = new Translog(dir, uuid, 1, -1, 0);
    t.startGeneration(1);
    return t;
  }

  /**
   * Opens the translog for recovery: streams every operation of generations >= `minGeneration`
   * to `onOps`, frame by frame, truncates a torn tail, and continues appending after it.
   */
  static open(
    dir: string,
    uuid: string,
    minGeneration: number,
    onOps: (ops: TranslogOp[]) => void,
    warn: TranslogWarn,
  ): Translog {
    const gens = translogGenerations(dir).filter((g) => g >= minGeneration);
    if (gens[0] !== minGeneration) {
      throw new CorruptionError(
        fileOf(dir, minGeneration),
        `translog generation [${minGeneration}] that the last commit needs is missing`,
      );
    }
    const t = new Translog(dir, uuid, minGeneration, -1, 0);
    for (let i = 0; i < gens.length; i++) {
      const gen = gens[i]!;
      if (i > 0 && gen !== gens[i - 1]! + 1) {
        throw new CorruptionError(fileOf(dir, gen), `translog generation [${gens[i - 1]! + 1}] is missing`);
      }
      const last = i === gens.length - 1;
      const path = fileOf(dir, gen);
      const fd = openSync(path, 'r+');
      const size = fstatSync(fd).size;
      const hdr = header(gen, uuid);
      const start = readAt(fd, hdr.length, 0);
      if (start.length < hdr.length && last && sameBytes(start, hdr.subarray(0, start.length))) {
        // The newest generation was being created when the node stopped: start it again.
        closeSync(fd);
        t.startGeneration(gen);
        continue;
      }
      if (!sameBytes(start, hdr)) {
        closeSync(fd);
        throw new CorruptionError(path, `translog header is corrupt or belongs to another translog`);
      }
      const scan = scanFrames(fd, hdr.length, size, onOps);
      if (scan.bad && (!last || scan.goodAfterBad)) {
        closeSync(fd);
        throw new CorruptionError(path, `translog is corrupt at offset [${scan.end}]: ${scan.bad}`);
      }
      if (scan.bad || scan.end < size) {
        warn('translog has a torn or corrupt tail; truncating it (those writes were never acknowledged)', {
          file: path,
          offset: scan.end,
          droppedBytes: size - scan.end,
          reason: scan.bad ?? 'trailing bytes',
        });
        ftruncateSync(fd, scan.end);
        fdatasyncSync(fd);
      }
      t.kept.set(gen, { operations: scan.operations, size: scan.end });
      if (last) {
        t.gen = gen;
        t.fd = fd;
        t.position = scan.end;
      } else {
        closeSync(fd);
      }
    }
    return t;
  }

  get generation(): number {
    return this.gen;
  }

  /** Appends one batch as one frame. Not durable until `sync`. */
  append(ops: readonly TranslogOp[]): void {
    if (ops.length === 0) return;
    const frame = encodeOps(ops, FRAME_HEADER);
    const payload = frame.subarray(FRAME_HEADER);
    const v = new DataView(frame.buffer);
    v.setUint32(0, payload.length, true);
    v.setUint32(4, checksum(payload), true);
    let off = 0;
    while (off < frame.length) off += writeSync(this.fd, frame, off, frame.length - off, this.position + off);
    this.position += frame.length;
    const k = this.kept.get(this.gen)!;
    k.operations += ops.length;
    k.size = this.position;
    this.unsynced = true;
  }

  /** fdatasync the current generation: everything appended so far is durable. */
  sync(): void {
    if (!this.unsynced) return;
    this.unsynced = false;
    fdatasyncSync(this.fd);
  }

  /**
   * Group commit: resolves once a sync that started after this call has finished. Batches
   * appended in the same turn of the event loop share the one fdatasync.
   */
  syncSoon(): Promise<void> {
    this.pendingSync ??= new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        this.pendingSync = undefined;
        try {
          this.sync();
          resolve();
        } catch (e) {
          reject(e);
        }
      });
    });
    return this.pendingSync;
  }

  /** Syncs and starts a new generation (at flush); returns its number. */
  roll(): number {
    this.sync();
    closeSync(this.fd);
    this.startGeneration(this.gen + 1);
    return this.gen;
  }

  /** Deletes the generations below `gen` (a durable commit covers them). */
  trimBelow(gen: number): void {
    let removed = false;
    for (const g of translogGenerations(this.dir)) {
      if (g >= gen) continue;
      rmSync(fileOf(this.dir, g), { force: true });
      this.kept.delete(g);
      removed = true;
    }
    if (removed) fsyncDir(this.dir);
  }

  stats(): TranslogStats {
    let operations = 0;
    let sizeInBytes = 0;
    for (const k of this.kept.values()) {
      operations += k.operations;
      sizeInBytes += k.size;
    }
    return { generation: this.gen, operations, sizeInBytes };
  }

  close(): void {
    if (this.fd < 0) return;
    try {
      this.sync();
    } finally {
      closeSync(this.fd);
      this.fd = -1;
    }
  }

  private startGeneration(gen: number): void {
    const path = fileOf(this.dir, gen);
    const fd = openSync(path, 'w+');
    const hdr = header(gen, this.uuid);
    writeSync(fd, hdr, 0, hdr.length, 0);
    fdatasyncSync(fd);
    fsyncDir(this.dir);
    this.fd = fd;
    this.gen = gen;
    this.position = hdr.length;
    this.kept.set(gen, { operations: 0, size: hdr.length });
    this.unsynced = false;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Reads and checks one frame at `pos`; the ops, or why it is bad. */
function readFrame(
  fd: number,
  pos: number,
  size: number,
): { ops: TranslogOp[]; next: number } | { bad: string; next?: number } {
  if (size - pos < FRAME_HEADER) return { bad: 'frame header cut short' };
  const h = readAt(fd, FRAME_HEADER, pos);
  const v = new DataView(h.buffer, h.byteOffset, h.byteLength);
  const len = v.getUint32(0, true);
  const crc = v.getUint32(4, true);
  if (len < 4 || len > MAX_FRAME) return { bad: `implausible frame length [${len}]` };
  const next = pos + FRAME_HEADER + len;
  if (next > size) return { bad: 'frame cut short' };
  const payload = readAt(fd, len, pos + FRAME_HEADER);
  if (checksum(payload) !== crc) return { bad: 'checksum mismatch', next };
  try {
    return { ops: decodeOps(payload), next };
  } catch (e) {
    return { bad: `malformed frame: ${(e as Error).message}`, next };
  }
}

function scanFrames(fd: number, start: number, size: number, onOps: (ops: TranslogOp[]) => void): FrameScan {
  let pos = start;
  let operations = 0;
  while (pos < size) {
    const r = readFrame(fd, pos, size);
    if ('bad' in r) {
      const after = r.next !== undefined && r.next < size ? readFrame(fd, r.next, size) : undefined;
      return { end: pos, bad: r.bad, goodAfterBad: after !== undefined && 'ops' in after, operations };
    }
    onOps(r.ops);
    operations += r.ops.length;
    pos = r.next;
  }
  return { end: pos, goodAfterBad: false, operations };
}
