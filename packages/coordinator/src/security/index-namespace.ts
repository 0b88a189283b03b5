/**
 * The node's index names as security needs them to authorize an index expression: which names
 * the expression gives literally, and which names (indices and aliases) its wildcards reach,
 * expanded exactly as the node's own resolver does for this request.
 */

import { simpleMatch } from '@shoal/protocol';
import type { IndexNamespace } from '@shoal/security';
import type { IndicesService } from '../state/indices-service.ts';
import {
  indicesOptionsFrom,
  type ReachedNames,
  resolveIndices,
  SEARCH_INDICES_OPTIONS,
} from '../state/resolve-indices.ts';

export class NodeIndexNamespace implements IndexNamespace {
  constructor(private readonly indices: IndicesService) {}

  expand(expression: string, query: Record<string, string>): { literal: string[]; matched: string[] } {
    const opts = {
      ...indicesOptionsFrom(query, SEARCH_INDICES_OPTIONS),
      ignoreUnavailable: true,
      allowNoIndices: true,
    };
    const all = this.indices.all();
    const literal: string[] = [];
    const matched = new Set<string>();
    let sawWildcard = false;
    for (const raw of expression.split(',')) {
      const part = raw.trim();
      if (part === '') continue;
      if (part.startsWith('-') && sawWildcard) {
        const excluded = part.slice(1);
        for (const n of [...matched]) if (simpleMatch(excluded, n)) matched.delete(n);
        continue;
      }
      if (part === '_all' || part.includes('*')) {
        sawWildcard = true;
        const reached: ReachedNames = {};
        const found = resolveIndices(part, all, opts, reached);
        if (reached.aliases) {
          for (const n of reached.aliases) matched.add(n);
          for (const n of reached.indices ?? []) matched.add(n);
        } else {
          for (const m of found) matched.add(m.name);
        }
        continue;
      }
      literal.push(part);
    }
    return { literal, matched: [...matched] };
  }

  exists(name: string): boolean {
    if (this.indices.get(name)) return true;
    for (const meta of this.indices.all().values()) if (meta.aliases.has(name)) return true;
    return false;
  }
}
