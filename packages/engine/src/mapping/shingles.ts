/**
 * search_as_you_type (SearchAsYouTypeFieldMapper): the field is text, and its hidden
 * sub-fields index shingles of its tokens — `._2gram` … `._{max_shingle_size}gram` the
 * shingles of exactly that many tokens, `._index_prefix` the edge n-grams (1 to 20 characters)
 * of the max-size shingle starting at each position (shorter at the end), so that prefix
 * queries on the last words of a query find their matches.
 */
import type { Token } from '../contract.ts';
import type { FieldNode } from './nodes.ts';

export type ShingleSpec = { kind: 'gram'; size: number } | { kind: 'prefix'; max: number };

const PREFIX_MAX_CHARS = 20;

/** The hidden sub-fields of a search_as_you_type field, as the nodes their fields are built from. */
export function searchAsYouTypeFields(node: FieldNode): [FieldNode, ShingleSpec][] {
  const max = (node.params.max_shingle_size as number | undefined) ?? 3;
  const sub = (name: string): FieldNode => ({
    kind: 'field',
    name,
    path: `${node.path}.${name}`,
    type: 'search_as_you_type',
    params: node.params,
    fields: new Map(),
    copyTo: [],
  });
  const out: [FieldNode, ShingleSpec][] = [];
  for (let n = 2; n <= max; n++) out.push([sub(`_${n}gram`), { kind: 'gram', size: n }]);
  out.push([sub('_index_prefix'), { kind: 'prefix', max }]);
  return out;
}

function joined(tokens: readonly Token[], from: number, to: number): Token {
  let term = tokens[from]!.term;
  for (let i = from + 1; i < to; i++) term += ` ${tokens[i]!.term}`;
  return {
    term,
    position: tokens[from]!.position,
    startOffset: tokens[from]!.startOffset,
    endOffset: tokens[to - 1]!.endOffset,
  };
}

export function shingleTokens(tokens: readonly Token[], spec: ShingleSpec): Token[] {
  const out: Token[] = [];
  if (spec.kind === 'gram') {
    for (let i = 0; i + spec.size <= tokens.length; i++) out.push(joined(tokens, i, i + spec.size));
    return out;
  }
  for (let i = 0; i < tokens.length; i++) {
    const shingle = joined(tokens, i, Math.min(i + spec.max, tokens.length));
    const chars = [...shingle.term];
    for (let n = 1; n <= Math.min(PREFIX_MAX_CHARS, chars.length); n++) {
      out.push({ ...shingle, term: chars.slice(0, n).join('') });
    }
  }
  return out;
}
