/**
 * The hot part of file-backed segments: decoded sections (a field's postings, its doc values,
 * the per-doc seq_no/version columns…) kept in a least-recently-used cache with a byte budget
 * per worker thread. What is not hot lives only in the segment files, i.e. in the OS page
 * cache, not on the JS heap nor in the process's RSS; a miss costs one positioned read into a
 * fresh ArrayBuffer that typed arrays view without copying.
 *
 * The budget is `SHOAL_SEGMENT_CACHE_BYTES` (default 64 MiB per shard worker thread). Entries
 * of a segment are dropped when the segment closes (its last reader released it).
 */

interface Entry {
  value: unknown;
  bytes: number;
  owner: number;
}

const DEFAULT_BUDGET = 64 * 1024 * 1024;

export class SectionCache {
  private readonly entries = new Map<string, Entry>();
  private used = 0;
  hits = 0;
  misses = 0;
  evictions = 0;

  constructor(private budget: number) {}

  get sizeInBytes(): number {
    return this.used;
  }

  get budgetBytes(): number {
    return this.budget;
  }

  setBudget(bytes: number): void {
    this.budget = bytes;
    this.evict();
  }

  get<T>(owner: number, key: string, load: () => { value: T; bytes: number }): T {
    const k = `${owner}:${key}`;
    const hit = this.entries.get(k);
    if (hit) {
      this.hits++;
      // Map order is insertion order: re-inserting marks the entry most recently used.
      this.entries.delete(k);
      this.entries.set(k, hit);
      return hit.value as T;
    }
    this.misses++;
    const loaded = load();
    this.entries.set(k, { value: loaded.value, bytes: loaded.bytes, owner });
    this.used += loaded.bytes;
    this.evict();
    return loaded.value;
  }

  /** Forget every section of one segment (it closed). */
  dropOwner(owner: number): void {
    for (const [k, e] of this.entries) {
      if (e.owner !== owner) continue;
      this.entries.delete(k);
      this.used -= e.bytes;
    }
  }

  clear(): void {
    this.entries.clear();
    this.used = 0;
  }

  private evict(): void {
    // The entry just loaded always stays: the caller is about to use it.
    while (this.used > this.budget && this.entries.size > 1) {
      const [k, e] = this.entries.entries().next().value as [string, Entry];
      this.entries.delete(k);
      this.used -= e.bytes;
      this.evictions++;
    }
  }
}

function budgetFromEnv(): number {
  const v = Number(process.env.SHOAL_SEGMENT_CACHE_BYTES);
  return Number.isFinite(v) && v >= 0 ? v : DEFAULT_BUDGET;
}

/** The cache of this thread (each shard worker thread has its own module instance). */
export const sectionCache = new SectionCache(budgetFromEnv());
