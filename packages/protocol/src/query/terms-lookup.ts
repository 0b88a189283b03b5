/**
 * The document lookup of a `terms` query (TermsLookup): `{"terms": {"f": {"index", "id",
 * "path", "routing"}}}`. The coordinator fetches the named document before the search runs and
 * replaces the node with a plain `terms` query on the values found at `path` (none when the
 * document does not exist), as TermsQueryBuilder.doRewrite does.
 */
import { illegalArgument } from '../errors/catalogue.ts';
import type { QueryNode } from './ast.ts';
import { assertSupports, here, type ParseCtx, unknownField, VT } from './parse-context.ts';
import { text } from './xcontent-values.ts';

export interface TermsLookup {
  index: string;
  id: string;
  path: string;
  routing?: string;
}

export interface TermsLookupQuery {
  type: 'terms_lookup';
  field: string;
  lookup: TermsLookup;
  boost: number;
}

const NAME = 'terms_lookup';
const FIELDS = ['index', 'id', 'path', 'routing'];

/** TermsLookup's ConstructingObjectParser over the object at `ctx.path` + `key`. */
export function parseTermsLookup(ctx: ParseCtx, key: string, body: Record<string, unknown>): TermsLookup {
  ctx.path.push(key);
  const got: Partial<TermsLookup> = {};
  for (const k of Object.keys(body)) {
    const v = body[k];
    if (!FIELDS.includes(k)) throw unknownField(ctx, NAME, k, FIELDS);
    assertSupports(ctx, NAME, k, v, VT.STRING);
    got[k as keyof TermsLookup] = text(ctx, v, k);
  }
  const missing = ['index', 'id', 'path'].filter((k) => got[k as keyof TermsLookup] === undefined);
  if (missing.length > 0) {
    here(ctx, 'end');
    ctx.path.pop();
    throw illegalArgument(`Required [${missing.join(', ')}]`);
  }
  ctx.path.pop();
  return got as TermsLookup;
}

/** The values at a dotted `path` of a document's source (XContentMapValues.extractRawValues). */
export function extractRawValues(source: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  const walk = (v: unknown, parts: string[]): void => {
    if (Array.isArray(v)) {
      for (const x of v) walk(x, parts);
      return;
    }
    if (parts.length === 0) {
      if (v !== null && v !== undefined) out.push(v);
      return;
    }
    if (typeof v !== 'object' || v === null) return;
    const obj = v as Record<string, unknown>;
    // A key may itself hold dots (`{"a.b": …}`): try every split of the remaining path.
    for (let i = parts.length; i >= 1; i--) {
      const k = parts.slice(0, i).join('.');
      if (k in obj) walk(obj[k], parts.slice(i));
    }
  };
  walk(source, path.split('.'));
  return out;
}

/** The plain `terms` query a lookup becomes once its document's values are known. */
export function termsFromLookup(node: TermsLookupQuery, values: unknown[]): QueryNode {
  const scalars = values.filter(
    (v): v is string | number | boolean | bigint =>
      typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint',
  );
  const named = (node as { queryName?: string }).queryName;
  const out: QueryNode = { type: 'terms', field: node.field, values: scalars, boost: node.boost };
  return named === undefined ? out : ({ ...out, queryName: named } as QueryNode);
}
