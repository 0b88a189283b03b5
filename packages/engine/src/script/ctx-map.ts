/**
 * The `ctx` of a script that writes documents (Elasticsearch's CtxMap with its Metadata): a
 * map of `_source`, `op` and the document's metadata (`_index`, `_id`, `_version`,
 * `_routing`, `_now`, `_type`). Which keys a script may change, and to what, depends on where
 * it runs: an update may only change `op` (index, noop or delete); a scripted upsert `op`
 * (create or noop); update-by-query `op` too; reindex also `_index`, `_id`, `_version` and
 * `_routing`. Anything else is refused as Elasticsearch refuses it, inside the script (so it
 * surfaces as a `script_exception` with the position of the write).
 */
import { ScriptRuntimeError } from './script-error.ts';
import { javaClassOf } from './values.ts';

export type CtxKind = 'update' | 'upsert' | 'update_by_query' | 'reindex';

/** The document a write script sees, with its metadata. */
export interface CtxInit {
  index: string;
  id: string | null;
  version?: number | null;
  routing?: string | null;
  now: number;
  source: Record<string, unknown>;
}

const OPS: Record<CtxKind, readonly string[]> = {
  update: ['delete', 'index', 'noop'],
  upsert: ['create', 'noop'],
  update_by_query: ['delete', 'index', 'noop'],
  reindex: ['delete', 'index', 'noop'],
};

const WRITABLE: Record<CtxKind, ReadonlySet<string>> = {
  update: new Set(['op', '_source']),
  upsert: new Set(['op', '_source']),
  update_by_query: new Set(['op', '_source']),
  reindex: new Set(['op', '_source', '_index', '_id', '_version', '_routing']),
};

function illegal(reason: string): never {
  throw new ScriptRuntimeError('illegal_argument_exception', reason);
}

export class CtxMap extends Map<unknown, unknown> {
  private readonly keysAllowed: ReadonlySet<string>;

  constructor(
    readonly kind: CtxKind,
    init: CtxInit,
  ) {
    super();
    const entries: [string, unknown][] = [
      ['_index', init.index],
      ['_id', init.id],
      ['_now', init.now],
      ['op', kind === 'upsert' ? 'create' : 'index'],
      ['_source', init.source],
    ];
    if (kind !== 'upsert') {
      entries.push(['_version', init.version ?? null], ['_routing', init.routing ?? null]);
      if (kind === 'update') entries.push(['_type', '_doc']);
    }
    for (const [k, v] of entries) super.set(k, v);
    this.keysAllowed = new Set(entries.map(([k]) => k));
  }

  override set(key: unknown, value: unknown): this {
    if (typeof key !== 'string' || !this.keysAllowed.has(key)) {
      illegal(`Cannot put key [${String(key)}] with value [${String(value)}] into ctx`);
    }
    if (!WRITABLE[this.kind].has(key)) illegal(`${key} cannot be updated`);
    if (key === 'op') {
      const allowed = OPS[this.kind];
      const op = value === 'none' ? 'noop' : value;
      if (typeof op !== 'string' || !allowed.includes(op)) {
        illegal(`[op] must be one of ${allowed.join(', ')}, not [${String(value)}]`);
      }
      return super.set(key, op);
    }
    if (key === '_source' && (value === null || typeof value !== 'object' || Array.isArray(value))) {
      illegal(`[_source] must be a map, not [${javaClassOf(value)}]`);
    }
    if (key === '_version' && value !== null && (typeof value !== 'number' || !Number.isInteger(value))) {
      illegal(
        `_version may only be set to an int or a long but was [${String(value)}] with type [${javaClassOf(value)}]`,
      );
    }
    if ((key === '_index' || key === '_routing') && value !== null && typeof value !== 'string') {
      illegal(`${key} must be a String but was [${String(value)}] with type [${javaClassOf(value)}]`);
    }
    if (key === '_id' && value !== null && typeof value !== 'string') {
      illegal(`_id must be a String but was [${String(value)}] with type [${javaClassOf(value)}]`);
    }
    return super.set(key, value);
  }

  override delete(key: unknown): boolean {
    if (typeof key === 'string' && this.keysAllowed.has(key)) illegal(`${key} cannot be removed`);
    return false;
  }

  override clear(): void {
    illegal('ctx cannot be cleared');
  }

  get op(): string {
    return super.get('op') as string;
  }

  get source(): Record<string, unknown> | Map<unknown, unknown> {
    return super.get('_source') as Record<string, unknown> | Map<unknown, unknown>;
  }

  /** A metadata value as the script left it. */
  meta(key: '_index' | '_id' | '_version' | '_routing'): unknown {
    return super.get(key);
  }
}
