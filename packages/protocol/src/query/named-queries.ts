/**
 * Named queries (`_name` on any query): the name is kept on the parsed node, and a search
 * collects its named nodes so the fetch phase can tell each hit which of them it matches
 * (`matched_queries`).
 */
import type { QueryNode } from './ast.ts';

/** The key the parser sets on a node whose query had a `_name`. */
export interface Named {
  queryName?: string;
}

export function queryNameOf(node: QueryNode): string | undefined {
  return (node as Named).queryName;
}

/** `_name` of a query body: at its top (`bool`, `ids`…) or in its one field's object (`term`…). */
export function bodyQueryName(body: Record<string, unknown>): string | undefined {
  if (typeof body._name === 'string') return body._name;
  for (const v of Object.values(body)) {
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
      const name = (v as Record<string, unknown>)._name;
      if (typeof name === 'string') return name;
    }
  }
  return undefined;
}

export interface NamedQuery {
  name: string;
  query: QueryNode;
}

/** Every named node of a query tree, outermost first. */
export function namedQueries(root: QueryNode | undefined): NamedQuery[] {
  const out: NamedQuery[] = [];
  const seen = new Set<unknown>();
  const walk = (v: unknown) => {
    if (typeof v !== 'object' || v === null || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    const name = (v as Named).queryName;
    if (typeof name === 'string' && typeof (v as { type?: unknown }).type === 'string')
      out.push({ name, query: v as QueryNode });
    for (const x of Object.values(v)) walk(x);
  };
  walk(root);
  return out;
}
