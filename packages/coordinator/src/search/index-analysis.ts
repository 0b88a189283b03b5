/**
 * The analysis components an index defines in its settings (`index.analysis.analyzer.<name>`,
 * `.tokenizer.<name>`, `.filter.<name>`, `.char_filter.<name>`, `.normalizer.<name>`), read
 * back from the flat settings as one settings object per component, for `_analyze` on the index.
 */
import type { ComponentKind } from '@shoal/engine';
import type { IndexMetadata } from '../state/index-metadata.ts';

export type ComponentSettings = Record<string, unknown>;

export interface IndexAnalysis {
  analyzers: Map<string, ComponentSettings>;
  normalizers: Map<string, ComponentSettings>;
  lookup(kind: ComponentKind, name: string): ComponentSettings | undefined;
}

const KINDS = ['analyzer', 'normalizer', 'tokenizer', 'filter', 'char_filter'] as const;

export function indexAnalysis(meta: IndexMetadata | undefined): IndexAnalysis {
  const byKind = new Map<string, Map<string, ComponentSettings>>(KINDS.map((k) => [k, new Map()]));
  for (const [key, value] of Object.entries(meta?.settings ?? {})) {
    if (!key.startsWith('index.analysis.')) continue;
    const parts = key.slice('index.analysis.'.length).split('.');
    const group = byKind.get(parts[0]!);
    if (!group || parts.length < 3) continue;
    const name = parts[1]!;
    const setting = parts.slice(2).join('.');
    const component = group.get(name) ?? {};
    component[setting] = value;
    group.set(name, component);
  }
  const kindKey: Record<ComponentKind, string> = {
    tokenizer: 'tokenizer',
    'token filter': 'filter',
    char_filter: 'char_filter',
  };
  return {
    analyzers: byKind.get('analyzer')!,
    normalizers: byKind.get('normalizer')!,
    lookup: (kind, name) => byKind.get(kindKey[kind])!.get(name),
  };
}
