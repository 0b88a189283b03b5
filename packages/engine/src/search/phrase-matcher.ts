/**
 * Phrase frequency within one document, as Lucene's phrase matchers compute it:
 * - slop 0 (ExactPhraseMatcher): the number of start positions where every term sits at its
 *   offset;
 * - slop > 0 (SloppyPhraseMatcher): every minimal window whose match length (span of the
 *   offset-adjusted positions) is <= slop adds 1 / (1 + matchLength), in float.
 * Phrases that repeat a term use the same sloppy walk, with a simplified rule for repeats
 * (see `collides`): a rare case where the frequency may differ slightly from Lucene's.
 */
const f = Math.fround;

export function phraseFreq(
  positions: readonly Int32Array[],
  offsets: readonly number[],
  slop: number,
): number {
  for (const p of positions) if (p.length === 0) return 0;
  if (positions.length === 1) return positions[0]!.length;
  return slop === 0 ? exactFreq(positions, offsets) : sloppyFreq(positions, offsets, slop);
}

function exactFreq(positions: readonly Int32Array[], offsets: readonly number[]): number {
  const n = positions.length;
  const cursors = new Int32Array(n);
  const first = positions[0]!;
  let freq = 0;
  outer: for (let i = 0; i < first.length; i++) {
    const start = first[i]! - offsets[0]!;
    for (let t = 1; t < n; t++) {
      const list = positions[t]!;
      const want = start + offsets[t]!;
      let c = cursors[t]!;
      while (c < list.length && list[c]! < want) c++;
      cursors[t] = c;
      if (c === list.length) break outer;
      if (list[c] !== want) continue outer;
    }
    freq++;
  }
  return freq;
}

interface PhrasePos {
  list: Int32Array;
  idx: number;
  offset: number;
  ord: number;
  position: number;
}

function lessThan(a: PhrasePos, b: PhrasePos): boolean {
  if (a.position !== b.position) return a.position < b.position;
  if (a.offset !== b.offset) return a.offset < b.offset;
  return a.ord < b.ord;
}

function sloppyFreq(positions: readonly Int32Array[], offsets: readonly number[], slop: number): number {
  const pps: PhrasePos[] = positions.map((list, ord) => ({
    list,
    idx: 0,
    offset: offsets[ord]!,
    ord,
    position: list[0]! - offsets[ord]!,
  }));
  let end = -Infinity;
  for (const pp of pps) if (pp.position > end) end = pp.position;
  // A small binary heap ordered by (position, offset, ord), like Lucene's PhraseQueue.
  const heap: PhrasePos[] = [];
  const push = (pp: PhrasePos) => {
    heap.push(pp);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!lessThan(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  };
  const pop = (): PhrasePos => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && lessThan(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && lessThan(heap[r]!, heap[m]!)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    }
    return top;
  };
  for (const pp of pps) push(pp);
  const advance = (pp: PhrasePos): boolean => {
    if (pp.idx + 1 >= pp.list.length) return false;
    pp.idx++;
    pp.position = pp.list[pp.idx]! - pp.offset;
    if (pp.position > end) end = pp.position;
    return true;
  };
  // A term repeated in the phrase must use distinct occurrences in the doc: a window where two
  // of its positions sit on the same occurrence does not count (Lucene advances such
  // "repeating" positions instead; this simpler rule only drops the false match).
  const repeats: [PhrasePos, PhrasePos][] = [];
  for (let i = 0; i < pps.length; i++) {
    for (let j = i + 1; j < pps.length; j++) {
      const a = pps[i]!.list;
      const b = pps[j]!.list;
      if (a.buffer === b.buffer && a.byteOffset === b.byteOffset && a.length === b.length)
        repeats.push([pps[i]!, pps[j]!]);
    }
  }
  const collides = () => repeats.some(([a, b]) => a.idx === b.idx);
  let freq = 0;
  let pp = pop();
  let matchLength = end - pp.position;
  let next = heap[0]!.position;
  while (advance(pp)) {
    if (pp.position > next) {
      push(pp);
      if (matchLength <= slop && !collides()) freq = f(freq + f(1 / f(1 + matchLength)));
      pp = pop();
      next = heap[0]!.position;
      matchLength = end - pp.position;
    } else {
      const ml2 = end - pp.position;
      if (ml2 < matchLength) matchLength = ml2;
    }
  }
  if (matchLength <= slop && !collides()) freq = f(freq + f(1 / f(1 + matchLength)));
  return freq;
}
