/**
 * `pinned` (PinnedQueryBuilder, x-pack search-business-rules): documents named by `ids` or by
 * `docs` (`_index` and `_id`) promoted, in the order given, above the hits of the `organic`
 * query. At most 100 pins, no duplicates; `ids` and `docs` exclusive. The builder's
 * IllegalArgumentExceptions reach the client as `parsing_exception`s at the end of the body.
 */
import type { ShoalError } from '../errors/shoal-error.ts';
import type { QueryNode } from './ast.ts';
import { parsingError } from './local-errors.ts';
import {
  assertSupports,
  here,
  isObject,
  type ParseCtx,
  parseField,
  unknownField,
  VT,
} from './parse-context.ts';
import type { InnerParser } from './parse-query.ts';
import { floatValue, text } from './xcontent-values.ts';

export interface PinnedDoc {
  /** Absent: the doc of that id in whichever index is searched. */
  index?: string;
  id: string;
}

export interface PinnedQuery {
  type: 'pinned';
  organic: QueryNode;
  /** The pins in order, highest first (`ids` become docs without an index). */
  docs: PinnedDoc[];
  boost: number;
}

const NAME = 'pinned';
const FIELDS = ['organic', 'ids', 'docs', 'boost', '_name'];
const DOC_FIELDS = ['_index', '_id'];
export const MAX_NUM_PINNED_HITS = 100;

export function parsePinned(body: Record<string, unknown>, ctx: ParseCtx, inner: InnerParser): QueryNode {
  let organic: QueryNode | undefined;
  let ids: string[] | undefined;
  let docs: PinnedDoc[] | undefined;
  let boost = 1;
  for (const key of Object.keys(body)) {
    const v = body[key];
    switch (key) {
      case 'organic':
        assertSupports(ctx, NAME, key, v, VT.OBJECT);
        organic = parseField(ctx, NAME, key, () => inner(ctx, v));
        break;
      case 'ids': {
        assertSupports(ctx, NAME, key, v, VT.STRING_ARRAY);
        const arr = Array.isArray(v) ? v : [v];
        ids = parseField(ctx, NAME, key, () => arr.map((x, i) => text(ctx, x, i)));
        break;
      }
      case 'docs':
        assertSupports(ctx, NAME, key, v, new Set(['START_ARRAY']));
        docs = parseField(ctx, NAME, key, () => (v as unknown[]).map((d, i) => pinnedDoc(ctx, d, i)));
        break;
      case 'boost':
        assertSupports(ctx, NAME, key, v, VT.FLOAT);
        boost = floatValue(ctx, v, key);
        break;
      case '_name':
        assertSupports(ctx, NAME, key, v, VT.STRING);
        break;
      default:
        throw unknownField(ctx, NAME, key, FIELDS);
    }
  }
  const fail = (reason: string): ShoalError => parsingError(reason, here(ctx, 'end'));
  if (organic === undefined) throw fail('Required [organic]');
  if (ids === undefined && docs === undefined) throw fail(`[${NAME}] ids and docs cannot both be null`);
  if (ids !== undefined && docs !== undefined) throw fail(`[${NAME}] ids and docs cannot both be used`);
  if (ids !== undefined) {
    if (ids.length > MAX_NUM_PINNED_HITS)
      throw fail(`[${NAME}] Max of ${MAX_NUM_PINNED_HITS} ids exceeded: ${ids.length} provided.`);
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id)) throw fail(`[${NAME}] duplicate id found in list: ${id}`);
      seen.add(id);
    }
    docs = ids.map((id) => ({ id }));
  } else {
    if (docs!.length > MAX_NUM_PINNED_HITS)
      throw fail(`[${NAME}] Max of ${MAX_NUM_PINNED_HITS} docs exceeded: ${docs!.length} provided.`);
    const seen = new Set<string>();
    for (const d of docs!) {
      const key = `${d.index ?? ''}\u0000${d.id}`;
      if (seen.has(key)) throw fail(`[${NAME}] duplicate doc found in list: ${docText(d)}`);
      seen.add(key);
    }
  }
  return { type: 'pinned', organic, docs: docs!, boost };
}

/** SpecifiedDocument's toString, as the duplicate error shows it. */
function docText(d: PinnedDoc): string {
  return `{_index=${d.index ?? 'null'}, _id=${d.id}}`;
}

function pinnedDoc(ctx: ParseCtx, v: unknown, i: number): PinnedDoc {
  if (!isObject(v)) throw parsingError('[docs] expected an object', here(ctx, 'value', i));
  ctx.path.push(i);
  const out: Partial<PinnedDoc> = {};
  for (const key of Object.keys(v)) {
    if (!DOC_FIELDS.includes(key)) throw unknownField(ctx, 'docs', key, DOC_FIELDS);
    assertSupports(ctx, 'docs', key, v[key], VT.STRING);
    if (key === '_index') out.index = text(ctx, v[key], key);
    else out.id = text(ctx, v[key], key);
  }
  if (out.id === undefined) {
    here(ctx, 'end');
    ctx.path.pop();
    throw parsingError('Required [_id]', here(ctx, 'end'));
  }
  ctx.path.pop();
  return out as PinnedDoc;
}
