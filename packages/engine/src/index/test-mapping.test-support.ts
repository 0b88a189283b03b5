/**
 * Mappings for engine tests, built with the real `createIndexMapping` from dotted field
 * definitions (multi-fields, analyzers, date formats).
 */
import type { IndexMapping, ResolvedField } from '../contract.ts';
import { createIndexMapping } from '../mapping/index.ts';

export interface FieldDef {
  type: ResolvedField['type'] | 'object';
  analyzer?: string;
  searchAnalyzer?: string;
  format?: string;
  fields?: Record<string, FieldDef>;
  /** Any other mapping parameters, as they are sent. */
  params?: Record<string, unknown>;
}

/** Dotted field definitions as a `mappings` body. */
export function mappingJson(props: Record<string, FieldDef>, dynamic = true): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  const leaf = (def: FieldDef): Record<string, unknown> => {
    const out: Record<string, unknown> = { type: def.type, ...def.params };
    if (def.analyzer) out.analyzer = def.analyzer;
    if (def.searchAnalyzer) out.search_analyzer = def.searchAnalyzer;
    if (def.format) out.format = def.format;
    if (def.fields) out.fields = Object.fromEntries(Object.entries(def.fields).map(([k, v]) => [k, leaf(v)]));
    return out;
  };
  for (const [path, def] of Object.entries(props)) {
    const parts = path.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) {
      node[part] ??= { properties: {} };
      node = (node[part] as { properties: Record<string, unknown> }).properties;
    }
    node[parts[parts.length - 1]!] = def.type === 'object' ? { properties: {} } : leaf(def);
  }
  return { dynamic, properties: root };
}

export function testMapping(props: Record<string, FieldDef>, dynamic = true): IndexMapping {
  return createIndexMapping(mappingJson(props, dynamic), { indexName: 'idx' });
}
