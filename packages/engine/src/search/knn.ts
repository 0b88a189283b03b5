/**
 * The `knn` query on one shard, exact: every live document with a vector that matches the
 * filter is compared with the query vector, and the shard's `k` most similar are the matches,
 * each scoring its similarity as Elasticsearch turns it into a score (VectorSimilarity):
 * l2_norm 1/(1+d²), cosine (1+cos)/2, dot_product (1+dot)/2 (bytes: 0.5+dot/(dims·2¹⁵)),
 * max_inner_product dot+1 when positive, else 1/(1-dot). Elasticsearch finds them through an
 * HNSW graph, approximately; the exact neighbours are what that approximates. A `similarity`
 * threshold keeps docs at least that similar in the raw measure (for l2_norm: at most that
 * distance). `knn_score_docs` is the second phase of a top-level knn search: the global
 * neighbours the coordinator found, by `_id`, with their scores.
 */
import { illegalArgument, type KnnQuery, type QueryNode } from '@shoal/protocol';
import type { VectorFieldSpec } from '../contract.ts';
import type { Segment } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { decodeVectorInto } from '../mapping/dense-vector.ts';
import type { CompileEnv } from './compile-env.ts';
import { acquireBits, markDocs, releaseBits, wordsFor } from './doc-bits.ts';
import { failedToCreateQuery } from './field-values.ts';
import { NONE } from './full-text.ts';
import { countPassing, type DocMatches, docs } from './matches.ts';
import { DocListScorer, type Scorer } from './scorer.ts';
import type { Weight } from './weights.ts';

const f = Math.fround;

/** A segment's vectors of one field: one row of `dims` per distinct vector, and each doc's row (-1: none). */
interface SegmentVectors {
  rows: Float32Array;
  rowOf: Int32Array;
}

function segmentVectors(segment: Segment, path: string, spec: VectorFieldSpec): SegmentVectors | undefined {
  const ss = segment.field(path)?.sortedSet;
  if (!ss) return undefined;
  return segment.cached(`dense-vector:${path}`, () => {
    const rows = new Float32Array(ss.terms.length * spec.dims);
    for (let t = 0; t < ss.terms.length; t++)
      decodeVectorInto(ss.terms[t]!, spec.elementType, rows, t * spec.dims);
    const rowOf = new Int32Array(segment.maxDoc).fill(-1);
    for (let d = 0; d < segment.maxDoc; d++) {
      if (ss.starts[d]! < ss.starts[d + 1]!) rowOf[d] = ss.ords[ss.starts[d]!]!;
    }
    return { rows, rowOf };
  });
}

/** Raw similarity → score, and whether a raw value passes a `similarity` threshold. */
function scorer(spec: VectorFieldSpec, query: Float32Array) {
  const dims = spec.dims;
  let qNorm = 0;
  for (let i = 0; i < dims; i++) qNorm += query[i]! * query[i]!;
  qNorm = Math.sqrt(qNorm);
  switch (spec.similarity) {
    case 'l2_norm':
      return {
        raw(rows: Float32Array, at: number): number {
          let s = 0;
          for (let i = 0; i < dims; i++) {
            const d = rows[at + i]! - query[i]!;
            s += d * d;
          }
          return Math.sqrt(s);
        },
        score: (distance: number) => 1 / (1 + distance * distance),
        passes: (distance: number, threshold: number) => distance <= threshold,
      };
    case 'cosine':
      return {
        raw(rows: Float32Array, at: number): number {
          let dot = 0;
          let n = 0;
          for (let i = 0; i < dims; i++) {
            const x = rows[at + i]!;
            dot += x * query[i]!;
            n += x * x;
          }
          return n === 0 ? 0 : dot / (Math.sqrt(n) * qNorm);
        },
        score: (cos: number) => (1 + cos) / 2,
        passes: (cos: number, threshold: number) => cos >= threshold,
      };
    case 'dot_product':
      return {
        raw: (rows: Float32Array, at: number) => dot(rows, at, query, dims),
        score:
          spec.elementType === 'byte'
            ? (d: number) => 0.5 + d / (dims * 2 ** 15)
            : (d: number) => (1 + d) / 2,
        passes: (d: number, threshold: number) => d >= threshold,
      };
    case 'max_inner_product':
      return {
        raw: (rows: Float32Array, at: number) => dot(rows, at, query, dims),
        score: (d: number) => (d < 0 ? 1 / (1 - d) : d + 1),
        passes: (d: number, threshold: number) => d >= threshold,
      };
  }
}

function dot(rows: Float32Array, at: number, query: Float32Array, dims: number): number {
  let s = 0;
  for (let i = 0; i < dims; i++) s += rows[at + i]! * query[i]!;
  return s;
}

/** The query vector after the field's checks (KnnVectorQueryBuilder / DenseVectorFieldType). */
function queryVector(env: CompileEnv, spec: VectorFieldSpec, node: KnnQuery): Float32Array {
  const v = node.vector;
  if (v.length !== spec.dims) {
    throw failedToCreateQuery(
      env,
      illegalArgument(
        `The query vector has a different number of dimensions [${v.length}] than the document vectors [${spec.dims}].`,
      ),
    );
  }
  if (spec.elementType === 'byte') {
    for (let i = 0; i < v.length; i++) {
      const x = v[i]!;
      if (!Number.isInteger(x) || x < -128 || x > 127) {
        throw failedToCreateQuery(
          env,
          illegalArgument(
            `element_type [byte] vectors only support integers between [-128, 127] but found [${x}] at dim [${i}]; Preview of invalid vector: [${v.slice(0, 10).join(', ')}]`,
          ),
        );
      }
    }
  }
  if (spec.similarity === 'cosine' && v.every((x) => x === 0)) {
    throw failedToCreateQuery(
      env,
      illegalArgument(
        `The [cosine] similarity does not support vectors with zero magnitude. Preview of invalid vector: [${v.slice(0, 10).join(', ')}]`,
      ),
    );
  }
  return Float32Array.from(v);
}

interface Candidate {
  score: number;
  segment: number;
  doc: number;
}

/** Whether a ranks before b: higher score, then the earlier doc (Lucene's tie order). */
function before(a: Candidate, b: Candidate): boolean {
  if (a.score !== b.score) return a.score > b.score;
  return a.segment !== b.segment ? a.segment < b.segment : a.doc < b.doc;
}

export function knnQuery(
  env: CompileEnv,
  node: KnnQuery,
  boost: number,
  /** The shard's `k` when the query names none: the search's size. */
  defaultK: number,
  compileFilter: (q: QueryNode) => Weight,
): Weight {
  const field = env.mapping.field(node.field);
  if (!field) {
    throw failedToCreateQuery(env, illegalArgument(`field [${node.field}] does not exist in the mapping`));
  }
  const spec = field.vector;
  if (!spec) {
    throw failedToCreateQuery(
      env,
      illegalArgument('[knn] queries are only supported on [dense_vector] fields'),
    );
  }
  const query = queryVector(env, spec, node);
  const k = node.k ?? defaultK;
  if (k <= 0) return NONE;
  const filter =
    node.filter.length === 0
      ? undefined
      : compileFilter({ type: 'bool', must: [], should: [], mustNot: [], filter: node.filter, boost: 1 });
  const sim = scorer(spec, query);
  // A bounded min-heap of the best k (its root is the worst kept).
  const heap: Candidate[] = [];
  const segments = env.reader.segments;
  for (let si = 0; si < segments.length; si++) {
    const rs = segments[si]!;
    const vectors = segmentVectors(rs.segment, field.path, spec);
    if (!vectors) continue;
    let bits: Uint32Array | undefined;
    const words = wordsFor(rs.segment.maxDoc);
    if (filter) {
      bits = acquireBits(words);
      filter.markDocs(rs, bits);
    }
    const { rows, rowOf } = vectors;
    const live = rs.liveDocs;
    for (let d = 0; d < rowOf.length; d++) {
      const row = rowOf[d]!;
      if (row < 0) continue;
      if (bits && (bits[d >>> 5]! & (1 << (d & 31))) === 0) continue;
      if (!live.isLive(d)) continue;
      const raw = sim.raw(rows, row * spec.dims);
      if (node.similarity !== undefined && !sim.passes(raw, node.similarity)) continue;
      const c: Candidate = { score: f(sim.score(raw)), segment: si, doc: d };
      if (heap.length < k) push(heap, c);
      else if (before(c, heap[0]!)) replaceTop(heap, c);
    }
    if (bits) releaseBits(bits, words);
  }
  return new ScoredDocsWeight(byReaderSegment(heap, segments.length, boost));
}

/** The second phase of a top-level knn search on this shard: the listed docs of this index. */
export function knnScoreDocsQuery(
  env: CompileEnv,
  node: Extract<QueryNode, { type: 'knn_score_docs' }>,
  boost: number,
): Weight {
  const wanted = new Map<string, number>();
  for (const d of node.docs) if (d.index === env.index) wanted.set(d.id, d.score);
  if (wanted.size === 0) return NONE;
  const found: Candidate[] = [];
  const segments = env.reader.segments;
  for (let si = 0; si < segments.length; si++) {
    const rs = segments[si]!;
    for (const [id, score] of wanted) {
      const d = rs.segment.docOfId(id);
      if (d >= 0 && rs.liveDocs.isLive(d)) found.push({ score, segment: si, doc: d });
    }
  }
  return new ScoredDocsWeight(byReaderSegment(found, segments.length, boost));
}

function byReaderSegment(found: Candidate[], segments: number, boost: number): DocMatches[] {
  const per: Candidate[][] = Array.from({ length: segments }, () => []);
  for (const c of found) per[c.segment]!.push(c);
  return per.map((list) => {
    list.sort((a, b) => a.doc - b.doc);
    const ds = new Int32Array(list.length);
    const scores = new Float64Array(list.length);
    for (let i = 0; i < list.length; i++) {
      ds[i] = list[i]!.doc;
      scores[i] = f(list[i]!.score * boost);
    }
    return docs(ds, scores);
  });
}

function push(heap: Candidate[], c: Candidate): void {
  heap.push(c);
  let i = heap.length - 1;
  while (i > 0) {
    const p = (i - 1) >>> 1;
    if (!before(heap[p]!, heap[i]!)) break;
    [heap[p], heap[i]] = [heap[i]!, heap[p]!];
    i = p;
  }
}

function replaceTop(heap: Candidate[], c: Candidate): void {
  heap[0] = c;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let worst = i;
    if (l < heap.length && before(heap[worst]!, heap[l]!)) worst = l;
    if (r < heap.length && before(heap[worst]!, heap[r]!)) worst = r;
    if (worst === i) return;
    [heap[worst], heap[i]] = [heap[i]!, heap[worst]!];
    i = worst;
  }
}

/** Fixed docs and scores per segment of the reader the query was compiled for (by segment ord). */
class ScoredDocsWeight implements Weight {
  constructor(private readonly bySegment: DocMatches[]) {}

  private of(rs: ReaderSegment): DocMatches {
    return this.bySegment[rs.ord]!;
  }
  matches(rs: ReaderSegment, needsScores: boolean): DocMatches {
    const m = this.of(rs);
    return needsScores ? m : docs(m.docs);
  }
  scorer(rs: ReaderSegment): Scorer | null {
    const m = this.of(rs);
    return m.docs.length === 0 ? null : new DocListScorer(m.docs, m.scores, 0);
  }
  count(rs: ReaderSegment, excluded: Uint32Array | null): number {
    return countPassing(this.of(rs).docs, excluded);
  }
  minCount(rs: ReaderSegment, excluded: Uint32Array | null): number {
    return countPassing(this.of(rs).docs, excluded);
  }
  markDocs(rs: ReaderSegment, bits: Uint32Array): void {
    markDocs(this.of(rs).docs, bits);
  }
}
