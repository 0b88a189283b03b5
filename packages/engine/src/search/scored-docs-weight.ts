/**
 * A weight whose matches are computed whole per segment (docs with their scores), for queries
 * that score each doc from its values rather than from postings (distance_feature,
 * rank_feature, intervals): computed once per segment and searched, counted and scored from
 * that list.
 */
import type { Segment } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { markDocs } from './doc-bits.ts';
import { countPassing, type DocMatches } from './matches.ts';
import { DocListScorer, type Scorer } from './scorer.ts';
import { type DocCheck, docsCheck, type Weight } from './weights.ts';

export class ScoredDocsWeight implements Weight {
  private readonly bySegment = new Map<Segment, DocMatches>();

  /** `compute` returns the segment's matching docs in increasing order, each with its score. */
  constructor(private readonly compute: (rs: ReaderSegment) => DocMatches) {}

  private of(rs: ReaderSegment): DocMatches {
    let m = this.bySegment.get(rs.segment);
    if (!m) {
      m = this.compute(rs);
      this.bySegment.set(rs.segment, m);
    }
    return m;
  }
  matches(rs: ReaderSegment, needsScores: boolean): DocMatches {
    const m = this.of(rs);
    return needsScores ? m : { kind: 'docs', docs: m.docs, scores: null };
  }
  scorer(rs: ReaderSegment): Scorer | null {
    const m = this.of(rs);
    return m.docs.length === 0 ? null : new DocListScorer(m.docs, m.scores, 0);
  }
  count(rs: ReaderSegment, excluded: Uint32Array | null, _passing: number): number {
    return countPassing(this.of(rs).docs, excluded);
  }
  minCount(rs: ReaderSegment, excluded: Uint32Array | null): number {
    return countPassing(this.of(rs).docs, excluded);
  }
  markDocs(rs: ReaderSegment, bits: Uint32Array): void {
    markDocs(this.of(rs).docs, bits);
  }
  checker(rs: ReaderSegment): DocCheck {
    return docsCheck(this.of(rs).docs);
  }
}

/** Docs and scores grown one doc at a time, in increasing doc order. */
export class DocScoreList {
  private docs = new Int32Array(16);
  private scores = new Float64Array(16);
  private n = 0;

  push(doc: number, score: number): void {
    if (this.n === this.docs.length) {
      const d = new Int32Array(this.n * 2);
      d.set(this.docs);
      this.docs = d;
      const s = new Float64Array(this.n * 2);
      s.set(this.scores);
      this.scores = s;
    }
    this.docs[this.n] = doc;
    this.scores[this.n++] = score;
  }

  done(): DocMatches {
    return { kind: 'docs', docs: this.docs.subarray(0, this.n), scores: this.scores.subarray(0, this.n) };
  }
}
