/**
 * One segment's file (`<name>.seg`): every array of the segment, each 8-byte aligned so a
 * read lands in an ArrayBuffer that typed arrays view in place, then a JSON directory saying
 * where each array is, then a footer: `dirOffset f64 | dirLength u32 | CRC-32C u32 | magic`.
 * The CRC covers every byte before it, as Lucene's CodecUtil footer does, and is verified when
 * a shard opens its last commit; the commit point also records each file's length and CRC.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { CorruptionError, checksum } from './checksum.ts';
import { writeFully } from './files.ts';

const MAGIC = 0x47534853; // "SHSG"
const FOOTER = 20;
const HEADER = 8;

export type ArrayKind = 'u8' | 'i32' | 'u32' | 'f64' | 'i64';

/** Where one array lives in the file: byte offset and element count. */
export interface ArrayRef {
  off: number;
  len: number;
  kind: ArrayKind;
}

/** A string list: UTF-8 bytes back to back, and n+1 offsets into them. */
export interface StringsRef {
  bytes: ArrayRef;
  offsets: ArrayRef;
}

export type TypedArray = Uint8Array | Int32Array | Uint32Array | Float64Array | BigInt64Array;

const CTORS = {
  u8: Uint8Array,
  i32: Int32Array,
  u32: Uint32Array,
  f64: Float64Array,
  i64: BigInt64Array,
} as const;

function kindOf(a: TypedArray): ArrayKind {
  if (a instanceof Uint8Array) return 'u8';
  if (a instanceof Int32Array) return 'i32';
  if (a instanceof Uint32Array) return 'u32';
  if (a instanceof Float64Array) return 'f64';
  return 'i64';
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Packs strings as UTF-8 bytes and offsets. Each string is measured and then written straight
 * into the one output array: encoding them one by one would allocate a native buffer (and its
 * bookkeeping) per string, hundreds of thousands of small malloc blocks alive at once for a
 * merged segment's ids, which fragment the allocator's arenas and stay in the process's RSS.
 */
export function packStrings(list: readonly string[]): { bytes: Uint8Array; offsets: Uint32Array } {
  const offsets = new Uint32Array(list.length + 1);
  let n = 0;
  for (let i = 0; i < list.length; i++) {
    n += Buffer.byteLength(list[i]!, 'utf8');
    offsets[i + 1] = n;
  }
  const bytes = new Uint8Array(n);
  const out = Buffer.from(bytes.buffer, bytes.byteOffset, n);
  for (let i = 0; i < list.length; i++) out.write(list[i]!, offsets[i]!, 'utf8');
  return { bytes, offsets };
}

export function unpackStrings(bytes: Uint8Array, offsets: Uint32Array): string[] {
  const out: string[] = new Array(offsets.length - 1);
  for (let i = 0; i < out.length; i++) out[i] = decoder.decode(bytes.subarray(offsets[i]!, offsets[i + 1]!));
  return out;
}

/** Lays arrays out in a file as they are added, then writes them and the directory. */
export class SegmentFileWriter {
  private readonly chunks: Uint8Array[] = [];
  private size = HEADER;

  array(a: TypedArray): ArrayRef {
    const pad = (8 - (this.size % 8)) % 8;
    if (pad > 0) {
      this.chunks.push(new Uint8Array(pad));
      this.size += pad;
    }
    const ref: ArrayRef = { off: this.size, len: a.length, kind: kindOf(a) };
    this.chunks.push(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    this.size += a.byteLength;
    return ref;
  }

  strings(list: readonly string[]): StringsRef {
    const p = packStrings(list);
    return { bytes: this.array(p.bytes), offsets: this.array(p.offsets) };
  }

  /** Writes the file through `fd`; returns its length and CRC. Not synced (flush does that). */
  write(fd: number, directory: unknown): { length: number; crc: number } {
    const head = new Uint8Array(HEADER);
    new DataView(head.buffer).setUint32(0, MAGIC, true);
    new DataView(head.buffer).setUint32(4, 1, true);
    const dir = encoder.encode(JSON.stringify(directory));
    const footer = new Uint8Array(FOOTER);
    const fv = new DataView(footer.buffer);
    fv.setFloat64(0, this.size, true);
    fv.setUint32(8, dir.length, true);
    let crc = 0;
    const all = [head, ...this.chunks, dir];
    for (const c of all) crc = checksum(c, crc);
    crc = checksum(footer.subarray(0, 12), crc);
    fv.setUint32(12, crc, true);
    fv.setUint32(16, MAGIC, true);
    // Coalesce small chunks into larger writes: one syscall per chunk would dominate small segments.
    let batch: Uint8Array[] = [];
    let batchSize = 0;
    const drain = () => {
      if (batch.length === 1) writeFully(fd, batch[0]!);
      else if (batch.length > 1) writeFully(fd, Buffer.concat(batch, batchSize));
      batch = [];
      batchSize = 0;
    };
    for (const c of [...all, footer]) {
      if (c.length >= 1 << 20) {
        drain();
        writeFully(fd, c);
        continue;
      }
      batch.push(c);
      batchSize += c.length;
      if (batchSize >= 1 << 20) drain();
    }
    drain();
    return { length: this.size + dir.length + FOOTER, crc };
  }
}

/** Positioned reads of one open segment file. */
export class SegmentFile {
  readonly length: number;
  readonly crc: number;
  readonly directory: unknown;
  private fd: number;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'r');
    try {
      this.length = fstatSync(this.fd).size;
      if (this.length < HEADER + FOOTER) throw new CorruptionError(path, 'segment file is too short');
      const footer = this.bytes(this.length - FOOTER, FOOTER);
      const fv = new DataView(footer.buffer, footer.byteOffset, FOOTER);
      if (fv.getUint32(16, true) !== MAGIC) throw new CorruptionError(path, 'segment footer magic mismatch');
      const dirOff = fv.getFloat64(0, true);
      const dirLen = fv.getUint32(8, true);
      this.crc = fv.getUint32(12, true);
      if (dirOff + dirLen + FOOTER !== this.length) {
        throw new CorruptionError(path, 'segment directory does not fit the file');
      }
      try {
        this.directory = JSON.parse(decoder.decode(this.bytes(dirOff, dirLen)));
      } catch {
        throw new CorruptionError(path, 'segment directory is not readable');
      }
    } catch (e) {
      closeSync(this.fd);
      throw e;
    }
  }

  /** Reads the whole file and checks it against its footer CRC (and the commit's, if given). */
  verify(expected?: { length: number; crc: number }): void {
    if (expected && (expected.length !== this.length || expected.crc !== this.crc)) {
      throw new CorruptionError(
        this.path,
        `segment file does not match the commit (length ${this.length} vs ${expected.length}, checksum ${this.crc} vs ${expected.crc})`,
      );
    }
    const chunk = 4 << 20;
    let crc = 0;
    const end = this.length - 8;
    for (let pos = 0; pos < end; pos += chunk)
      crc = checksum(this.bytes(pos, Math.min(chunk, end - pos)), crc);
    if (crc !== this.crc) {
      throw new CorruptionError(
        this.path,
        `checksum failed (hardware problem?) : expected=${this.crc.toString(16)} actual=${crc.toString(16)}`,
      );
    }
  }

  bytes(off: number, len: number): Uint8Array {
    return this.readInto(new Uint8Array(len), off);
  }

  /** Fills `buf` with the file's bytes from `off` on; returns it. */
  readInto(buf: Uint8Array, off: number): Uint8Array {
    const len = buf.length;
    let got = 0;
    while (got < len) {
      const n = readSync(this.fd, buf, got, len - got, off + got);
      if (n === 0) throw new CorruptionError(this.path, `unexpected end of file at ${off + got}`);
      got += n;
    }
    return buf;
  }

  array<K extends ArrayKind>(ref: ArrayRef & { kind: K }): InstanceType<(typeof CTORS)[K]> {
    const Ctor = CTORS[ref.kind];
    const bytes = this.bytes(ref.off, ref.len * Ctor.BYTES_PER_ELEMENT);
    return new Ctor(bytes.buffer as ArrayBuffer, 0, ref.len) as InstanceType<(typeof CTORS)[K]>;
  }

  strings(ref: StringsRef): string[] {
    return unpackStrings(this.array(ref.bytes) as Uint8Array, this.array(ref.offsets) as Uint32Array);
  }

  close(): void {
    if (this.fd < 0) return;
    closeSync(this.fd);
    this.fd = -1;
  }
}

/**
 * The array `ref` as a view into `file`, a buffer holding the segment file from its first byte
 * (arrays are 8-byte aligned in the file, so the view needs no copy).
 */
export function arrayIn(file: Uint8Array, ref: ArrayRef): TypedArray {
  return new CTORS[ref.kind](file.buffer as ArrayBuffer, file.byteOffset + ref.off, ref.len);
}

export function stringsIn(file: Uint8Array, ref: StringsRef): string[] {
  return unpackStrings(arrayIn(file, ref.bytes) as Uint8Array, arrayIn(file, ref.offsets) as Uint32Array);
}

export function byteLengthOf(ref: ArrayRef): number {
  return ref.len * CTORS[ref.kind].BYTES_PER_ELEMENT;
}
