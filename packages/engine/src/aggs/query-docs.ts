/**
 * The docs a query's aggregations visit: every doc the query's weight matches in a segment,
 * minus the docs the search's filter excludes (deleted, or outside the slice). It is a pass of
 * its own beside hit collection, so the query phase's fast paths, which skip docs that cannot
 * make the page, stay as they are.
 */
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { DocFilter } from '../search/doc-filter.ts';
import type { Matches } from '../search/matches.ts';
import type { Weight } from '../search/weights.ts';
import type { AggDocs } from './aggregate-shard.ts';

const NONE = new Int32Array(0);

export class QueryDocs implements AggDocs {
  constructor(
    private readonly weight: Weight,
    private readonly filter: DocFilter,
  ) {}

  docs(rs: ReaderSegment): Int32Array | null {
    if (this.filter.empty) return NONE;
    const m = this.weight.matches(rs, false);
    return m.kind === 'all' ? null : m.docs;
  }

  excluded(rs: ReaderSegment): Uint32Array | null {
    return this.filter.excluded(rs);
  }

  scored(rs: ReaderSegment): Matches {
    return this.weight.matches(rs, true);
  }
}
