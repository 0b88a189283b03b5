/**
 * `pinned` (PinnedQueryBuilder.doToQuery): a dis_max of the pinned docs — each a constant score
 * just above every organic score, the first pin highest — and of the organic query, whose
 * scores are capped (CappedScoreQuery) below the pins' range: the float exponent's top value
 * is kept for the pins, so a pin always outranks every organic hit and keeps its order.
 */
import type { PinnedQuery, QueryNode } from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { CompileEnv } from './compile-env.ts';
import { DisMaxWeight } from './dis-max-weight.ts';
import { type Matches, materialise } from './matches.ts';
import { ScoredDocsWeight } from './scored-docs-weight.ts';
import { escapeRegExp } from './segment-scans.ts';
import { idsQuery } from './term-level.ts';
import type { Weight } from './weights.ts';

type Compile = (node: QueryNode, env: CompileEnv, parentBoost: number, filter: boolean) => Weight;

const f = Math.fround;
const view = new DataView(new ArrayBuffer(4));

function floatOfBits(bits: number): number {
  view.setInt32(0, bits);
  return view.getFloat32(0);
}

/** Float.intBitsToFloat(0xfe << 23) - 1, in float: 2^127. */
export const MAX_ORGANIC_SCORE = f(floatOfBits(0xfe << 23) - 1);
/** NumericUtils.floatToSortableInt(MAX_ORGANIC_SCORE) + 1: a positive float's bits. */
const MIN_PIN_BITS = 0x7f000000 + 1;

/** The score of each of `n` pins, first pin highest (sortableIntToFloat of descending ints). */
export function pinScores(n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(floatOfBits(MIN_PIN_BITS + n - i));
  return out;
}

export function pinnedQuery(
  node: PinnedQuery,
  env: CompileEnv,
  boost: number,
  filter: boolean,
  compile: Compile,
): Weight {
  const organic = new CappedScoreWeight(compile(node.organic, env, boost, filter), MAX_ORGANIC_SCORE);
  if (node.docs.length === 0) return organic;
  const scores = pinScores(node.docs.length);
  const pins: Weight[] = [];
  node.docs.forEach((d, i) => {
    if (d.index === undefined || indexMatches(d.index, env.index))
      pins.push(idsQuery([d.id], f(scores[i]! * boost)));
  });
  return new DisMaxWeight([new DisMaxWeight(pins, 0), organic], 0);
}

/** SearchExecutionContext.indexMatches: the index's name, or a pattern with `*`. */
function indexMatches(pattern: string, index: string): boolean {
  if (!pattern.includes('*')) return pattern === index;
  return new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`).test(index);
}

/** CappedScoreQuery: the inner query's docs, each scoring at most `cap`. */
export class CappedScoreWeight extends ScoredDocsWeight {
  constructor(
    private readonly inner: Weight,
    cap: number,
  ) {
    super((rs: ReaderSegment) => {
      const m: Matches = inner.matches(rs, true);
      const d = materialise(m, rs.segment.maxDoc, true);
      const scores = new Float64Array(d.docs.length);
      for (let i = 0; i < scores.length; i++) scores[i] = Math.min(d.scores ? d.scores[i]! : 0, cap);
      return { kind: 'docs', docs: d.docs, scores };
    });
  }
  override count(rs: ReaderSegment, excluded: Uint32Array | null, passing: number): number {
    return this.inner.count(rs, excluded, passing);
  }
  override markDocs(rs: ReaderSegment, bits: Uint32Array): void {
    this.inner.markDocs(rs, bits);
  }
}
