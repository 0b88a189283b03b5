/** `bool` compiled per reader: required, optional, excluded and filter clauses, materialised or doc at a time. */
import type { ReaderSegment } from '../index/shard-reader.ts';
import { ConjunctionScorer, ReqExclScorer, ReqOptScorer } from './conjunction.ts';
import {
  acquireBits,
  andInto,
  andNotInto,
  markAll,
  markDocs,
  orInto,
  releaseBits,
  wordsFor,
} from './doc-bits.ts';
import {
  type DocMatches,
  intersect,
  type Matches,
  materialise,
  NO_MATCHES,
  subtract,
  union,
} from './matches.ts';
import { DisjunctionScorer } from './max-score.ts';
import { AllDocsScorer, ConstantScorer, type Scorer } from './scorer.ts';
import { ConstantWeight, type DocCheck, type Weight } from './weights.ts';

const f = Math.fround;

/**
 * Lucene's BooleanQuery: required clauses (must, filter) intersect, should clauses add their
 * scores (and must reach `minShouldMatch` when it is above 0), must_not clauses subtract.
 * Only must and should clauses score. A `minShouldMatch` above the number of should clauses —
 * also with none at all, as `{"must": …, "minimum_should_match": 1}` builds — matches nothing
 * (BooleanQuery.rewrite: "SHOULD clause count less than minimumNumberShouldMatch").
 */
export class BoolWeight implements Weight {
  constructor(
    readonly must: Weight[],
    readonly filter: Weight[],
    readonly should: Weight[],
    readonly mustNot: Weight[],
    readonly minShouldMatch: number,
  ) {}

  /** More should clauses are needed than there are. */
  private unsatisfiable(): boolean {
    return this.minShouldMatch > this.should.length;
  }

  scorer(rs: ReaderSegment, needsScores: boolean): Scorer | null {
    if (this.unsatisfiable()) return null;
    const req: Scorer[] = [];
    const scoring: Scorer[] = [];
    for (const w of this.must) {
      const s = w.scorer(rs, needsScores);
      if (!s) return null;
      req.push(s);
      if (needsScores) scoring.push(s);
    }
    for (const w of this.filter) {
      const s = w.scorer(rs, false);
      if (!s) return null;
      req.push(s);
    }
    const msm = this.minShouldMatch;
    // The should side: required (at least `need` of them) or only adding to the score.
    let opt: Scorer | null = null;
    let optRequired = false;
    if (this.should.length > 0 && (msm > 0 || req.length === 0 || needsScores)) {
      const need = req.length > 0 ? msm : Math.max(1, msm);
      const subs: Scorer[] = [];
      for (const w of this.should) {
        const s = w.scorer(rs, needsScores);
        if (s) subs.push(s);
      }
      if (subs.length < need) return null;
      if (subs.length > 0) {
        // Alone, the disjunction's sum is the bool's score and is rounded there.
        opt =
          subs.length === 1 && need <= 1
            ? subs[0]!
            : new DisjunctionScorer(subs, Math.max(1, need), req.length === 0);
        optRequired = need > 0;
      }
    }
    let positive: Scorer;
    if (req.length === 0) positive = opt ?? new AllDocsScorer(rs.segment.maxDoc, 0);
    else if (!opt) positive = conjunction(req, scoring, needsScores, true);
    else if (optRequired) {
      req.push(opt);
      if (needsScores) scoring.push(opt);
      positive = conjunction(req, scoring, needsScores, true);
    } else positive = new ReqOptScorer(conjunction(req, scoring, needsScores, false), opt, true);
    if (this.mustNot.length > 0) {
      const excl: Scorer[] = [];
      for (const w of this.mustNot) {
        const s = w.scorer(rs, false);
        if (s instanceof AllDocsScorer) return null;
        if (s) excl.push(s);
      }
      if (excl.length > 0)
        positive = new ReqExclScorer(
          positive,
          excl.length === 1 ? excl[0]! : new DisjunctionScorer(excl, 1, false),
        );
    }
    return positive;
  }

  count(rs: ReaderSegment, excluded: Uint32Array | null, passing: number): number {
    if (this.unsatisfiable()) return 0;
    const only = this.soleClause();
    return only ? only.count(rs, excluded, passing) : -1;
  }

  minCount(rs: ReaderSegment, excluded: Uint32Array | null, passing: number): number {
    if (this.mustNot.length > 0 || this.unsatisfiable()) return 0;
    const required = this.must.length + this.filter.length;
    // Any clause of a pure disjunction, or the lone required clause, matches a subset.
    if (required === 0 && this.minShouldMatch <= 1) {
      let best = 0;
      for (const w of this.should) best = Math.max(best, w.minCount(rs, excluded, passing));
      return best;
    }
    if (required === 1 && this.minShouldMatch === 0) {
      return (this.must[0] ?? this.filter[0]!).minCount(rs, excluded, passing);
    }
    return 0;
  }

  markDocs(rs: ReaderSegment, bits: Uint32Array): void {
    if (this.unsatisfiable()) return;
    const maxDoc = rs.segment.maxDoc;
    const words = wordsFor(maxDoc);
    const required = this.must.length + this.filter.length;
    const msm = this.minShouldMatch;
    const useShould = this.should.length > 0 && (msm > 0 || required === 0);
    const need = required > 0 ? msm : Math.max(1, msm);
    if (useShould && need > 1) {
      // Per-doc clause counts: the materialised union has them.
      const m = this.matches(rs, false);
      if (m.kind === 'all') markAll(bits, maxDoc);
      else markDocs(m.docs, bits);
      return;
    }
    // The bool's own docs in `acc` (AND / OR / AND NOT with `tmp`), then added to `bits`.
    const acc = acquireBits(words);
    const tmp = acquireBits(words);
    let first = true;
    const and = (w: Weight) => {
      if (first) {
        w.markDocs(rs, acc);
        first = false;
        return;
      }
      w.markDocs(rs, tmp);
      andInto(acc, tmp, words);
      tmp.fill(0, 0, words);
    };
    // Doc-values checks come last and only test the docs the other clauses left.
    const verified: ConstantWeight[] = [];
    for (const w of [...this.must, ...this.filter]) {
      if (w instanceof ConstantWeight && w.verifies(rs)) verified.push(w);
      else and(w);
    }
    if (!first) for (const w of verified) w.retainDocs(rs, acc, words);
    else for (const w of verified) and(w);
    if (useShould) {
      const target = first ? acc : tmp;
      for (const w of this.should) w.markDocs(rs, target);
      if (!first) {
        andInto(acc, tmp, words);
        tmp.fill(0, 0, words);
      }
      first = false;
    }
    if (first) markAll(acc, maxDoc);
    if (this.mustNot.length > 0) {
      for (const w of this.mustNot) w.markDocs(rs, tmp);
      andNotInto(acc, tmp, words);
    }
    orInto(bits, acc, words);
    releaseBits(tmp, words);
    releaseBits(acc, words);
  }

  /** Required and excluded clauses that all have checks (no should clause): their checks combined. */
  checker(rs: ReaderSegment): DocCheck | undefined {
    if (this.should.length > 0 || this.unsatisfiable()) return undefined;
    const req: DocCheck[] = [];
    for (const w of [...this.must, ...this.filter]) {
      const c = w.checker?.(rs);
      if (c === undefined) return undefined;
      req.push(c);
    }
    const not: DocCheck[] = [];
    for (const w of this.mustNot) {
      const c = w.checker?.(rs);
      if (c === undefined) return undefined;
      not.push(c);
    }
    if (req.length === 1 && not.length === 0) return req[0]!;
    return (d) => {
      for (const c of req) if (!c(d)) return false;
      for (const c of not) if (c(d)) return false;
      return true;
    };
  }

  /** The one clause whose docs are the bool's docs, if the bool is only that. */
  private soleClause(): Weight | undefined {
    if (this.mustNot.length > 0 || this.unsatisfiable()) return undefined;
    const required = this.must.length + this.filter.length;
    if (required === 1 && (this.should.length === 0 || this.minShouldMatch === 0))
      return this.must[0] ?? this.filter[0];
    if (required === 0 && this.should.length === 1 && this.minShouldMatch <= 1) return this.should[0];
    return undefined;
  }

  matches(rs: ReaderSegment, needsScores: boolean): Matches {
    if (this.unsatisfiable()) return NO_MATCHES;
    const maxDoc = rs.segment.maxDoc;
    let base: Matches | undefined;
    const required: { w: Weight; scores: boolean }[] = [
      ...this.must.map((w) => ({ w, scores: needsScores })),
      ...this.filter.map((w) => ({ w, scores: false })),
    ];
    for (const r of required) {
      const m = r.w.matches(rs, r.scores);
      const scored: Matches = m.kind === 'all' && !r.scores ? { kind: 'all', score: 0 } : m;
      base = base ? intersect(base, scored, needsScores) : scored;
      if (base.kind === 'docs' && base.docs.length === 0) return NO_MATCHES;
    }
    const msm = this.minShouldMatch;
    if (this.should.length > 0 && (msm > 0 || !base || needsScores)) {
      const parts = this.should.map((w) => materialise(w.matches(rs, needsScores), maxDoc, needsScores));
      const need = base ? msm : Math.max(1, msm);
      const u = union(parts, maxDoc, needsScores, need > 1);
      let opt: DocMatches = { kind: 'docs', docs: u.docs, scores: u.scores };
      if (need > 1) opt = filterCounts(u.docs, u.scores, u.counts!, need);
      if (!base) base = opt;
      else if (need > 0) base = intersect(base, opt, needsScores);
      else if (needsScores) base = addOptional(materialise(base, maxDoc, true), opt);
    }
    if (!base) base = { kind: 'all', score: 0 };
    if (this.mustNot.length > 0) {
      const excluded = this.mustNot.map((w) => w.matches(rs, false));
      if (excluded.some((m) => m.kind === 'all')) return NO_MATCHES;
      const ex = union(excluded as DocMatches[], maxDoc, false, false);
      base = subtract(materialise(base, maxDoc, needsScores), { kind: 'docs', docs: ex.docs, scores: null });
    }
    if (needsScores) {
      if (base.kind === 'all') return { kind: 'all', score: f(base.score) };
      const s = base.scores;
      if (s) for (let i = 0; i < s.length; i++) s[i] = f(s[i]!);
    }
    return base;
  }
}

function filterCounts(
  docs: Int32Array,
  scores: Float64Array | null,
  counts: Int32Array,
  need: number,
): DocMatches {
  const out = new Int32Array(docs.length);
  const outScores = scores ? new Float64Array(docs.length) : null;
  let n = 0;
  for (let i = 0; i < docs.length; i++) {
    if (counts[i]! < need) continue;
    out[n] = docs[i]!;
    if (outScores) outScores[n] = scores![i]!;
    n++;
  }
  return { kind: 'docs', docs: out.subarray(0, n), scores: outScores ? outScores.subarray(0, n) : null };
}

/** Adds optional clause scores to the required docs that they also match (scores copied). */
function addOptional(base: DocMatches, opt: DocMatches): DocMatches {
  const scores = base.scores ? Float64Array.from(base.scores) : new Float64Array(base.docs.length);
  const od = opt.docs;
  let j = 0;
  for (let i = 0; i < base.docs.length && j < od.length; i++) {
    const doc = base.docs[i]!;
    while (j < od.length && od[j]! < doc) j++;
    if (j < od.length && od[j] === doc) scores[i]! += opt.scores?.[j] ?? 0;
  }
  return { kind: 'docs', docs: base.docs, scores };
}

/** Required clauses as one scorer; `scoring` are those whose scores add up. */
function conjunction(req: Scorer[], scoring: Scorer[], needsScores: boolean, round: boolean): Scorer {
  if (req.length === 1) {
    // A lone filter scores 0; a lone scoring clause's score is already a float.
    if (needsScores && scoring.length === 0) return new ConstantScorer(req[0]!, 0);
    return req[0]!;
  }
  return new ConjunctionScorer(req, scoring, round);
}
