/**
 * Which docs of one segment are live, as a bitset. Copy-on-write: once a reader has taken a
 * snapshot (`freeze()`), the instance never changes again; a later delete returns a fresh copy
 * that becomes the engine's current version and is published by the next refresh. So a reader
 * behind a PIT or a scroll sees exactly the deletes that existed when it was opened.
 */
export class LiveDocs {
  readonly maxDoc: number;
  /** One bit per doc, set = deleted. Null while nothing is deleted (the common case). */
  private deleted: Uint32Array | null;
  private deletedCount: number;
  private frozen = false;

  private constructor(maxDoc: number, deleted: Uint32Array | null, deletedCount: number) {
    this.maxDoc = maxDoc;
    this.deleted = deleted;
    this.deletedCount = deletedCount;
  }

  static allLive(maxDoc: number): LiveDocs {
    return new LiveDocs(maxDoc, null, 0);
  }

  /** Live docs read back from a commit: `deleted` has one bit per doc, set = deleted. */
  static fromDeleted(maxDoc: number, deleted: Uint32Array): LiveDocs {
    let count = 0;
    for (let i = 0; i < deleted.length; i++) {
      let v = deleted[i]!;
      while (v !== 0) {
        v &= v - 1;
        count++;
      }
    }
    return new LiveDocs(maxDoc, count > 0 ? deleted : null, count);
  }

  isLive(doc: number): boolean {
    const d = this.deleted;
    return d === null || (d[doc >>> 5]! & (1 << (doc & 31))) === 0;
  }

  /** The deleted-docs bitset for tight loops; null when every doc is live. */
  get deletedBits(): Uint32Array | null {
    return this.deleted;
  }

  get numDeleted(): number {
    return this.deletedCount;
  }

  get numLive(): number {
    return this.maxDoc - this.deletedCount;
  }

  get isFrozen(): boolean {
    return this.frozen;
  }

  /** Mark this version immutable: a reader snapshot now refers to it. */
  freeze(): this {
    this.frozen = true;
    return this;
  }

  /**
   * Mark `doc` deleted. Returns the version to keep using: `this` when it is still private to
   * the engine, otherwise a copy (the frozen snapshot is left untouched).
   */
  delete(doc: number): LiveDocs {
    if (!this.isLive(doc)) return this;
    const target = this.frozen ? this.copy() : this;
    target.deleted ??= new Uint32Array((target.maxDoc + 31) >>> 5);
    target.deleted[doc >>> 5]! |= 1 << (doc & 31);
    target.deletedCount++;
    return target;
  }

  private copy(): LiveDocs {
    return new LiveDocs(this.maxDoc, this.deleted ? this.deleted.slice() : null, this.deletedCount);
  }
}
