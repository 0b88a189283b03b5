/** JSON values as Elasticsearch's parsers name them in their errors (`START_ARRAY`, `VALUE_NULL`). */

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The parser token a value starts with. */
export function typeName(v: unknown): string {
  if (v === null) return 'VALUE_NULL';
  if (Array.isArray(v)) return 'START_ARRAY';
  if (typeof v === 'object') return 'START_OBJECT';
  if (typeof v === 'string') return 'VALUE_STRING';
  if (typeof v === 'boolean') return 'VALUE_BOOLEAN';
  return 'VALUE_NUMBER';
}
