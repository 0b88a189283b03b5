/**
 * The iteration order of a java.util.HashMap built by `put`s and `putAll`s, which is the order
 * Elasticsearch writes a hit's `fields` in (SearchHit.documentFields is a HashMap). Buckets are
 * `(h ^ h >>> 16) & (capacity - 1)` of String.hashCode, insertion order within a bucket; a
 * resize splits each bucket keeping that order.
 */
import { javaStringHash } from '@shoal/protocol';

function tableSizeFor(n: number): number {
  let c = 1;
  while (c < n) c *= 2;
  return Math.max(c, 1);
}

export class JavaHashMap<V> {
  private capacity = 0;
  private threshold = 0;
  private readonly entries = new Map<string, { value: V; hash: number; seq: number }>();
  private seq = 0;

  /** `new HashMap<>()`: the table is made (16) at the first put. */
  put(key: string, value: V): void {
    const e = this.entries.get(key);
    if (e) {
      e.value = value;
      return;
    }
    if (this.capacity === 0) this.resize();
    const h = javaStringHash(key);
    this.entries.set(key, { value, hash: h ^ (h >>> 16), seq: this.seq++ });
    if (this.entries.size > this.threshold) this.resize();
  }

  /** HashMap.putMapEntries: presizes an empty table for the incoming entries. */
  putAll(other: JavaHashMap<V>): void {
    const s = other.entries.size;
    if (s === 0) return;
    if (this.capacity === 0) {
      const t = Math.floor(s / 0.75 + 1);
      const pre = tableSizeFor(t);
      if (pre > this.threshold) this.threshold = pre;
    } else if (s > this.threshold) this.resize();
    for (const [k, v] of other.iterate()) this.put(k, v);
  }

  private resize(): void {
    if (this.capacity === 0) {
      this.capacity = this.threshold > 0 ? this.threshold : 16;
    } else this.capacity *= 2;
    this.threshold = Math.floor(this.capacity * 0.75);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Entries in bucket order, insertion order within a bucket. */
  iterate(): [string, V][] {
    const mask = this.capacity - 1;
    return [...this.entries]
      .sort((a, b) => (a[1].hash & mask) - (b[1].hash & mask) || a[1].seq - b[1].seq)
      .map(([k, e]) => [k, e.value]);
  }
}
