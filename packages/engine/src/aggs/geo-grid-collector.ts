/**
 * geohash_grid and geotile_grid on one shard (GeoGridAggregator over GeoHashCellIdSource /
 * GeoTileCellIdSource): each point of a doc — decoded from its doc values, or the `missing`
 * point — is put in its cell; a doc counts once in each distinct cell it has a point in, and
 * its sub-aggregations are collected there. The shard returns its `shard_size` fullest cells
 * per owning bucket, in BucketPriorityQueue's order.
 */
import { type AggPartial, compareGridBuckets, type GeoGridBucket, type GeoGridSpec } from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { type EncodedGeo, encodedGeo } from '../search/geo-queries.ts';
import { type AggCollector, BucketDoubles, BucketOrds } from './collector.ts';
import { docCountsOf } from './doc-counts.ts';
import type { AggEnv, FieldSource } from './field-source.ts';
import { eachPoint, geoSource, type Point } from './geo-collectors.ts';
import { type CellOf, geohashCells, geotileCells } from './geo-grid-cells.ts';

export class GeoGridCollector implements AggCollector {
  private readonly src: FieldSource;
  private readonly missing: Point | null;
  private readonly cellOf: CellOf;
  private readonly ords = new BucketOrds<string>();
  private readonly counts = new BucketDoubles();
  private readonly compare: ReturnType<typeof compareGridBuckets>;
  private geo: EncodedGeo | null = null;
  /** The segment's `_doc_count` weights, null when it has none. */
  private docCounts: Float64Array | null = null;
  /** The distinct cells of the doc being collected. */
  private readonly docCells: string[] = [];
  private readonly addPoint = (lat: number, lon: number): void => {
    const cell = this.cellOf(lat, lon);
    if (cell !== null && !this.docCells.includes(cell)) this.docCells.push(cell);
  };

  constructor(
    private readonly spec: GeoGridSpec,
    env: AggEnv,
    private readonly subs: readonly AggCollector[],
  ) {
    ({ src: this.src, missing: this.missing } = geoSource(spec, env));
    this.cellOf =
      spec.type === 'geohash_grid'
        ? geohashCells(spec.precision, spec.bounds)
        : geotileCells(spec.precision, spec.bounds);
    this.compare = compareGridBuckets(spec.type);
  }

  setSegment(rs: ReaderSegment): void {
    for (const s of this.subs) s.setSegment(rs);
    this.docCounts = docCountsOf(rs);
    this.geo = this.src.kind === 'unmapped' ? null : encodedGeo(rs, this.src.path);
  }

  collect(doc: number, owner: number): void {
    this.docCells.length = 0;
    eachPoint(this.geo, this.missing, doc, this.addPoint);
    for (const cell of this.docCells) {
      const ord = this.ords.ord(owner, cell);
      this.counts.add(ord, this.docCounts === null ? 1 : this.docCounts[doc]!);
      for (const s of this.subs) s.collect(doc, ord);
    }
  }

  build(owner: number): AggPartial {
    const cells = this.ords.ordsOf(owner).map((ord) => ({
      ord,
      key: this.ords.key(ord),
      docCount: this.counts.get(ord),
    }));
    cells.sort(this.compare);
    const buckets: GeoGridBucket[] = cells.slice(0, this.spec.shardSize).map((c) => ({
      key: c.key,
      docCount: c.docCount,
      aggs: this.subs.map((s) => s.build(c.ord)),
    }));
    return { t: 'geo_grid', buckets };
  }
}
