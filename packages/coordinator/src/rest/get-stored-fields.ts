/**
 * GET's `stored_fields` parameter (ShardGetService): the named fields mapped with `store: true`
 * come back under `fields`, and `_source` only when the list names it or a `_source*`
 * parameter asks for it.
 */
import { storedFieldsOf, storedFieldValues } from '@shoal/engine';
import { RawJson } from '@shoal/protocol';
import type { NodeServices } from '../services.ts';

export interface StoredFieldsAsk {
  names: string[];
  /** Whether `_source` is still returned. */
  withSource: boolean;
}

export function storedFieldsAsk(query: Record<string, string>): StoredFieldsAsk | undefined {
  const raw = query.stored_fields;
  if (raw === undefined) return undefined;
  const names = raw
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n.length > 0);
  const sourceParams =
    query._source !== undefined ||
    query._source_includes !== undefined ||
    query._source_excludes !== undefined;
  return { names, withSource: names.length === 0 || names.includes('_source') || sourceParams };
}

/** The `fields` object of one got document, or undefined when no stored field has a value. */
export function storedFieldsJson(
  s: NodeServices,
  index: string,
  ask: StoredFieldsAsk,
  source: Uint8Array | undefined,
): Record<string, unknown> | undefined {
  const meta = s.indices.get(index);
  if (!meta) return undefined;
  const values = storedFieldValues(storedFieldsOf(meta.mapping, ask.names), source);
  if (values.size === 0) return undefined;
  const out: Record<string, unknown> = {};
  for (const [path, list] of values) out[path] = new RawJson(`[${list.join(',')}]`);
  return out;
}
