/**
 * Append-only typed-array buffers used while a segment is being built (refresh and merge).
 * They double their capacity, so appending is amortised O(1) and the final `toArray()`
 * copies exactly `length` elements into a right-sized array that the segment keeps.
 */
export class IntBuffer {
  private data: Int32Array;
  length = 0;

  constructor(capacity = 64) {
    this.data = new Int32Array(Math.max(capacity, 4));
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
    const next = new Int32Array(this.data.length * 2);
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
    this.data = new Float64Array(Math.max(capacity, 4));
  }

  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
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
    this.data = new BigInt64Array(Math.max(capacity, 4));
  }

  push(v: bigint): void {
    if (this.length === this.data.length) {
      const next = new BigInt64Array(this.data.length * 2);
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
    this.data = new Uint8Array(Math.max(capacity, 16));
  }

  append(bytes: Uint8Array): void {
    const need = this.length + bytes.length;
    if (need > this.data.length) {
      let cap = this.data.length * 2;
      while (cap < need) cap *= 2;
      const next = new Uint8Array(cap);
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
