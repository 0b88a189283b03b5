/**
 * The hot part of file-backed segments: decoded sections (a field's postings, its doc values,
 * the per-doc seq_no/version columns…) kept in a cache with a byte budget per worker thread,
 * evicting by CLOCK (second chance): a use only marks its entry, and the eviction passes over
 * marked entries once, clearing their mark, before it drops an unmarked one. It keeps what
 * least-recently-used keeps without reordering anything on a hit (a search touches dozens of
 * sections). What is not hot lives only in the segment files, i.e. in the OS page
 * cache, not on the JS heap nor in the process's RSS; a miss costs one positioned read into a
 * fresh ArrayBuffer that typed arrays view without copying.
 *
 * The budget is `SHOAL_SEGMENT_CACHE_BYTES` (default 64 MiB per shard worker thread). Entries
 * of a segment are dropped when the segment closes (its last reader released it).
 */

interface Entry {
  /** undefined once the entry left the cache (evicted, its segment closed, or cleared). */
  value: unknown;
  bytes: number;
  owner: number;
  key: string;
  /** Used since the eviction last passed over it. */
  used: boolean;
}

interface Loaded<T> {
  value: T;
  bytes: number;
}

const DEFAULT_BUDGET = 64 * 1024 * 1024;

export class SectionCache {
  /** owner (segment) → section key → entry: no key string is built on a lookup. */
  private readonly byOwner = new Map<number, Map<string, Entry>>();
  /** Every entry, in the order the eviction passes over them (a Set keeps insertion order). */
  private readonly lru = new Set<Entry>();
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
    this.evict(undefined);
  }

  get<T>(owner: number, key: string, load: () => Loaded<T>): T {
    return this.entry(owner, key, load).value as T;
  }

  /** The cached entry of a section, loaded on a miss. */
  entry<T>(owner: number, key: string, load: () => Loaded<T>): Entry {
    const hit = this.byOwner.get(owner)?.get(key);
    if (hit) {
      this.touch(hit);
      return hit;
    }
    this.misses++;
    const loaded = load();
    const entry: Entry = { value: loaded.value, bytes: loaded.bytes, owner, key, used: false };
    let sections = this.byOwner.get(owner);
    if (!sections) {
      sections = new Map();
      this.byOwner.set(owner, sections);
    }
    sections.set(key, entry);
    this.lru.add(entry);
    this.used += loaded.bytes;
    this.evict(entry);
    return entry;
  }

  /** A use of a cached entry: a hit, which keeps it from going cold. */
  touch(hit: Entry): void {
    this.hits++;
    hit.used = true;
  }

  /** Forget every section of one segment (it closed). */
  dropOwner(owner: number): void {
    const sections = this.byOwner.get(owner);
    if (!sections) return;
    for (const e of sections.values()) {
      this.lru.delete(e);
      this.used -= e.bytes;
      e.value = undefined;
    }
    this.byOwner.delete(owner);
  }

  clear(): void {
    for (const e of this.lru) e.value = undefined;
    this.byOwner.clear();
    this.lru.clear();
    this.used = 0;
  }

  /** Drops entries until the budget holds; `loaded` (the entry just loaded) always stays. */
  private evict(loaded: Entry | undefined): void {
    while (this.used > this.budget && this.lru.size > 1) {
      const e = this.lru.values().next().value as Entry;
      this.lru.delete(e);
      if (e.used || e === loaded) {
        // A second chance: to the back of the line, unmarked.
        e.used = false;
        this.lru.add(e);
        continue;
      }
      const sections = this.byOwner.get(e.owner);
      sections?.delete(e.key);
      if (sections?.size === 0) this.byOwner.delete(e.owner);
      this.used -= e.bytes;
      e.value = undefined;
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

/**
 * One section of one segment, named once: its uses skip the cache's maps (and the hashing of
 * its key) while its entry stays cached, and count as hits all the same. The entry it keeps
 * holds no value once it left the cache, so keeping it holds no memory.
 */
export class Section<T> {
  private cached: Entry | undefined;

  constructor(
    private readonly owner: number,
    private readonly key: string,
    private readonly load: () => Loaded<T>,
    private readonly cache: SectionCache = sectionCache,
  ) {}

  get value(): T {
    const e = this.cached;
    if (e !== undefined && e.value !== undefined) {
      this.cache.touch(e);
      return e.value as T;
    }
    const fresh = this.cache.entry(this.owner, this.key, this.load);
    this.cached = fresh;
    return fresh.value as T;
  }
}
