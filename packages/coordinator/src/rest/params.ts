/** URL-parameter readers with Elasticsearch's errors. */
import { illegalArgument, parseBooleanParam } from '@shoal/protocol';

export function boolParam(query: Record<string, string>, name: string, dflt: boolean): boolean {
  const v = query[name];
  return v === undefined ? dflt : parseBooleanParam(v, name);
}

export function intParam(query: Record<string, string>, name: string): number | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isInteger(n)) {
    throw illegalArgument(`Failed to parse int parameter [${name}] with value [${v}]`);
  }
  return n;
}

export function versionTypeParam(
  query: Record<string, string>,
): 'internal' | 'external' | 'external_gte' | undefined {
  const v = query.version_type;
  if (v === undefined) return undefined;
  if (v === 'internal' || v === 'external' || v === 'external_gte') return v;
  throw illegalArgument(`No version type match [${v}]`);
}
