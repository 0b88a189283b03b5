/**
 * The deprecation log: every deprecated item a request uses is answered with a `Warning`
 * header (the HTTP layer writes them, one per distinct message) and written here, to a pino
 * child logger of its own name (`deprecation`), as Elasticsearch writes its deprecation log.
 * Like Elasticsearch's RateLimitingFilter, a message is logged once per message and
 * `X-Opaque-Id`, remembering the last 128 such pairs; the headers are never throttled.
 * Node settings read at start-up have no request to answer, so they are only logged.
 */
import type { Logger } from 'pino';

const REMEMBERED = 128;

export class DeprecationLog {
  readonly logger: Logger;
  private readonly seen = new Map<string, true>();

  constructor(parent: Logger) {
    this.logger = parent.child({ name: 'deprecation' });
  }

  /** Logs the messages not logged lately for this opaque id. */
  record(messages: Iterable<string>, opaqueId?: string): void {
    for (const message of new Set(messages)) {
      const key = `${opaqueId ?? ''}\u0000${message}`;
      if (this.seen.has(key)) {
        // Refresh its place: the least recently seen pair is the one forgotten.
        this.seen.delete(key);
        this.seen.set(key, true);
        continue;
      }
      this.seen.set(key, true);
      if (this.seen.size > REMEMBERED) this.seen.delete(this.seen.keys().next().value as string);
      this.logger.warn(opaqueId === undefined ? {} : { 'x-opaque-id': opaqueId }, message);
    }
  }
}
