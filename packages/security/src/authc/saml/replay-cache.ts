/**
 * The assertions a realm has already turned into tokens, by their (signed) ID, kept for as long
 * as the assertion would still be accepted: a Response posted a second time — the same
 * assertion replayed, in an IdP-initiated sign-in where no request id guards it — is refused.
 * The IDs are kept in this node's memory.
 */

/** How long an assertion that states no NotOnOrAfter is remembered. */
const DEFAULT_RETENTION_MS = 24 * 3600_000;

export class ReplayCache {
  private readonly seen = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** Records `id` until `until`; false when it is already recorded (a replay). */
  claim(id: string, until: number | undefined): boolean {
    const now = this.now();
    for (const [k, expiry] of this.seen) if (expiry <= now) this.seen.delete(k);
    if (this.seen.has(id)) return false;
    this.seen.set(id, until ?? now + DEFAULT_RETENTION_MS);
    return true;
  }
}
