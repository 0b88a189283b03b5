/**
 * The shard request cache (Elasticsearch's IndicesRequestCache), one per worker thread: the
 * query results of searches that return no hits (`size: 0`: totals and aggregations), keyed
 * by the shard, the reader they ran on and the request. A refresh publishes a new reader, so
 * the entries of older readers can never be asked for again; they are dropped as soon as the
 * shard is seen on a newer reader, and with the shard, its mapping changing, or a clear-cache
 * request. Least recently used entries go first once the cache holds more than its byte
 * bound (ES: `indices.requests.cache.size`, 1% of the heap).
 */
import { getHeapStatistics, serialize } from 'node:v8';
import type { ShardKey } from './tasks.ts';

export interface RequestCacheStats {
  memorySizeInBytes: number;
  evictions: number;
  hitCount: number;
  missCount: number;
}

interface Entry<T> {
  shard: ShardKey;
  value: T;
  bytes: number;
}

/** 1% of this thread's heap limit, as Elasticsearch sizes it against the node's heap. */
export function defaultRequestCacheBytes(): number {
  return Math.floor(getHeapStatistics().heap_size_limit / 100);
}

/** What a cached value costs, as its serialized size (what the thread would clone to answer it). */
export function serializedBytes(value: unknown): number {
  return serialize(value).byteLength;
}

export class RequestCache<T> {
  /** Insertion order is recency order: a hit moves its entry to the end. */
  private readonly entries = new Map<string, Entry<T>>();
  /** The newest reader each shard was seen on; entries of older readers are gone. */
  private readonly readers = new Map<ShardKey, number>();
  private readonly stats = new Map<ShardKey, RequestCacheStats>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number = defaultRequestCacheBytes(),
    private readonly sizeOf: (value: T) => number = serializedBytes,
  ) {}

  /** The cached result of `request` on the shard's reader `readerId`, counting a hit or a miss. */
  get(shard: ShardKey, readerId: number, request: string): T | undefined {
    this.onReader(shard, readerId);
    const key = entryKey(shard, readerId, request);
    const entry = this.entries.get(key);
    const stats = this.statsOf(shard);
    if (!entry) {
      stats.missCount++;
      return undefined;
    }
    stats.hitCount++;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value`, unless a newer reader of the shard was seen meanwhile or it alone exceeds the bound. */
  put(shard: ShardKey, readerId: number, request: string, value: T): void {
    if ((this.readers.get(shard) ?? -1) > readerId) return;
    this.onReader(shard, readerId);
    const bytes = this.sizeOf(value) + request.length * 2;
    if (bytes > this.maxBytes) return;
    const key = entryKey(shard, readerId, request);
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    this.entries.set(key, { shard, value, bytes });
    this.bytes += bytes;
    this.statsOf(shard).memorySizeInBytes += bytes;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(k, e);
      this.statsOf(e.shard).evictions++;
    }
  }

  /** Drops every entry of the shard (its mapping changed, it closed, or a clear-cache request). */
  clear(shard: ShardKey): void {
    for (const [k, e] of this.entries) if (e.shard === shard) this.remove(k, e);
  }

  /** The shard is gone from this thread: its entries and its counters. */
  forget(shard: ShardKey): void {
    this.clear(shard);
    this.readers.delete(shard);
    this.stats.delete(shard);
  }

  statsOf(shard: ShardKey): RequestCacheStats {
    let s = this.stats.get(shard);
    if (!s) {
      s = { memorySizeInBytes: 0, evictions: 0, hitCount: 0, missCount: 0 };
      this.stats.set(shard, s);
    }
    return s;
  }

  get sizeInBytes(): number {
    return this.bytes;
  }

  private onReader(shard: ShardKey, readerId: number): void {
    const seen = this.readers.get(shard);
    if (seen === readerId) return;
    if (seen !== undefined && seen < readerId) this.clear(shard);
    if (seen === undefined || seen < readerId) this.readers.set(shard, readerId);
  }

  private remove(key: string, e: Entry<T>): void {
    this.entries.delete(key);
    this.bytes -= e.bytes;
    this.statsOf(e.shard).memorySizeInBytes -= e.bytes;
  }
}

function entryKey(shard: ShardKey, readerId: number, request: string): string {
  return `${shard}\u0000${readerId}\u0000${request}`;
}

/**
 * A shard request as a cache key: its JSON (Elasticsearch keys on the request's bytes too, so
 * the same search written in another key order is another entry). Big integers are written
 * with a suffix of their own, never confused with a number.
 */
export function requestCacheKey(req: unknown): string {
  return JSON.stringify(req, bigintAware);
}

function bigintAware(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? `${value}n` : value;
}
