/**
 * Append-only typed-array buffers used while a segment is being built (refresh and merge).
 * They double their capacity, so appending is amortised O(1) and the final `toArray()`
 * copies exactly `length` elements into a right-sized array that the segment keeps.
 *
 * A buffer that outgrows its first capacity jumps straight to GROWN_BYTES: glibc serves
 * requests that large with their own mmap, returned to the OS when freed, while the
 * 2 KiB … 32 KiB steps of plain doubling would be carved out of malloc's arenas, where every
 * refresh and merge leaves freed holes that the process keeps. Pages of the larger buffer that
 * are never written are never resident.
 */
const GROWN_BYTES = 128 * 1024;

/**
 * The first capacity: a buffer sized past a few KiB up front (a build that knows its token
 * count) takes its own mapping too.
 */
function initial(capacity: number, min: number, bytesPerElement: number): number {
  const cap = Math.max(capacity, min);
  return cap * bytesPerElement > 4096 ? Math.max(cap, GROWN_BYTES / bytesPerElement) : cap;
}

/** The capacity after growing from `capacity` to hold at least `need` elements. */
function grown(capacity: number, need: number, bytesPerElement: number): number {
  let cap = Math.max(capacity * 2, GROWN_BYTES / bytesPerElement);
  while (cap < need) cap *= 2;
  return cap;
}
export class IntBuffer {
  private data: Int32Array;
  length = 0;

  constructor(capacity = 64) {
    this.data = new Int32Array(initial(capacity, 4, 4));
  }

  push(v: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = v;
  }

  get(i: number): number {
    return this.data[i]!;
  }

  set(i: number, v: number): void {
    this.data[i] = v;
  }

  private grow(): void {
    const next = new Int32Array(grown(this.data.length, this.length + 1, 4));
    next.set(this.data);
    this.data = next;
  }

  toArray(): Int32Array {
    return this.data.slice(0, this.length);
  }

  /** A view on the filled part: valid until the next push. */
  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}

export class FloatBuffer {
  private data: Float64Array;
  length = 0;

  constructor(capacity = 64) {
    this.data = new Float64Array(initial(capacity, 4, 8));
  }

  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(grown(this.data.length, this.length + 1, 8));
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }

  get(i: number): number {
    return this.data[i]!;
  }

  toArray(): Float64Array {
    return this.data.slice(0, this.length);
  }
}

export class BigBuffer {
  private data: BigInt64Array;
  length = 0;

  constructor(capacity = 64) {
    this.data = new BigInt64Array(initial(capacity, 4, 8));
  }

  push(v: bigint): void {
    if (this.length === this.data.length) {
      const next = new BigInt64Array(grown(this.data.length, this.length + 1, 8));
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }

  get(i: number): bigint {
    return this.data[i]!;
  }

  toArray(): BigInt64Array {
    return this.data.slice(0, this.length);
  }
}

/** Raw bytes (stored `_source`), appended without copying through intermediate strings. */
export class ByteBuffer {
  private data: Uint8Array;
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Uint8Array(initial(capacity, 16, 1));
  }

  append(bytes: Uint8Array): void {
    const need = this.length + bytes.length;
    if (need > this.data.length) {
      const next = new Uint8Array(grown(this.data.length, need, 1));
      next.set(this.data.subarray(0, this.length));
      this.data = next;
    }
    this.data.set(bytes, this.length);
    this.length = need;
  }

  toArray(): Uint8Array {
    return this.data.slice(0, this.length);
  }
}
