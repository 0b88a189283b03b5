/**
 * What a segment keeps of a document's `_source`, as the mapping's `_source` section says
 * (SourceFieldMapper): everything by default, nothing when `enabled: false` (or
 * `mode: disabled`), or the document filtered by `includes`/`excludes`. The translog keeps the
 * document as it was sent, so a replay re-parses every field; only the stored copy is cut.
 */
import { applySourceFilter, parseJson, type SourceFilter, stringifyJson } from '@shoal/protocol';
import type { SourceConfig } from './nodes.ts';

const NONE = new Uint8Array(0);
const encoder = new TextEncoder();

export type SourceKeeper = (source: Uint8Array) => Uint8Array;

/** undefined when the whole `_source` is kept as sent. */
export function sourceKeeper(cfg: SourceConfig | undefined): SourceKeeper | undefined {
  if (!cfg) return undefined;
  if (cfg.enabled === false || cfg.mode === 'disabled') return () => NONE;
  const includes = cfg.includes ?? [];
  const excludes = cfg.excludes ?? [];
  if (includes.length === 0 && excludes.length === 0) return undefined;
  const filter: SourceFilter = { enabled: true, includes, excludes };
  return (source) => {
    const kept = applySourceFilter(parseJson(source, '_source'), filter);
    return encoder.encode(stringifyJson(kept));
  };
}
