/**
 * The geo_point aggregations on one shard: geo_bounds (GeoBoundsAggregator), geo_centroid
 * (GeoCentroidAggregator) and geo_distance (GeoDistanceRangeAggregatorFactory's DistanceSource
 * under a RangeAggregator). They read a doc's points as its doc values hold them — Lucene's 32-bit
 * encoding, decoded (GeoEncodingUtils) — and a doc without a point takes the `missing` point when
 * one is given (GeoPoint.resetFromString of the value, not encoded).
 */
import {
  type AggPartial,
  type GeoBoundsSpec,
  type GeoCentroidSpec,
  type GeoDistanceSpec,
  type GeoGridSpec,
  parseGeoPointValue,
  type RangeBucket,
} from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { arcDistance, decodeLatitude, decodeLongitude, planeDistance } from '../search/geo-math.ts';
import { type EncodedGeo, encodedGeo } from '../search/geo-queries.ts';
import { type AggCollector, BucketDoubles } from './collector.ts';
import { docCountsOf } from './doc-counts.ts';
import { type AggEnv, type FieldSource, resolveSource } from './field-source.ts';

export const GEO_KINDS: ReadonlySet<FieldSource['kind']> = new Set(['geo']);

export type Point = { lat: number; lon: number };

/** The field's source and the `missing` point, if any. */
export function geoSource(
  spec: GeoBoundsSpec | GeoCentroidSpec | GeoDistanceSpec | GeoGridSpec,
  env: AggEnv,
): { src: FieldSource; missing: Point | null } {
  const src = resolveSource(spec.source, spec.type, GEO_KINDS, env);
  const m = spec.source.missing;
  const missing = m === undefined || m === null ? null : parseGeoPointValue(String(m));
  return { src, missing };
}

/**
 * Calls `fn` with each point of the doc, or the missing point; returns how many points it gave.
 * Points come decoded from their encoding, in doc-value order.
 */
export function eachPoint(
  g: EncodedGeo | null,
  missing: Point | null,
  doc: number,
  fn: (lat: number, lon: number) => void,
): number {
  if (g !== null) {
    const s = g.starts[doc]!;
    const e = g.starts[doc + 1]!;
    if (s < e) {
      for (let i = s; i < e; i++) fn(decodeLatitude(g.lat[i]!), decodeLongitude(g.lon[i]!));
      return e - s;
    }
  }
  if (missing === null) return 0;
  fn(missing.lat, missing.lon);
  return 1;
}

/** GeoBoundsAggregator: per bucket the latitude extremes and each hemisphere's longitude extremes. */
export class GeoBoundsCollector implements AggCollector {
  private readonly src: FieldSource;
  private readonly missing: Point | null;
  private readonly tops = new BucketDoubles(Number.NEGATIVE_INFINITY);
  private readonly bottoms = new BucketDoubles(Number.POSITIVE_INFINITY);
  private readonly posLefts = new BucketDoubles(Number.POSITIVE_INFINITY);
  private readonly posRights = new BucketDoubles(Number.NEGATIVE_INFINITY);
  private readonly negLefts = new BucketDoubles(Number.POSITIVE_INFINITY);
  private readonly negRights = new BucketDoubles(Number.NEGATIVE_INFINITY);
  private geo: EncodedGeo | null = null;
  private owner = 0;
  private readonly add = (lat: number, lon: number): void => {
    const o = this.owner;
    if (lat > this.tops.get(o)) this.tops.set(o, lat);
    if (lat < this.bottoms.get(o)) this.bottoms.set(o, lat);
    if (lon >= 0) {
      if (lon < this.posLefts.get(o)) this.posLefts.set(o, lon);
      if (lon > this.posRights.get(o)) this.posRights.set(o, lon);
    } else {
      if (lon < this.negLefts.get(o)) this.negLefts.set(o, lon);
      if (lon > this.negRights.get(o)) this.negRights.set(o, lon);
    }
  };

  constructor(spec: GeoBoundsSpec, env: AggEnv) {
    ({ src: this.src, missing: this.missing } = geoSource(spec, env));
  }

  setSegment(rs: ReaderSegment): void {
    this.geo = this.src.kind === 'unmapped' ? null : encodedGeo(rs, this.src.path);
  }

  collect(doc: number, owner: number): void {
    this.owner = owner;
    eachPoint(this.geo, this.missing, doc, this.add);
  }

  build(owner: number): AggPartial {
    return {
      t: 'geo_bounds',
      top: this.tops.get(owner),
      bottom: this.bottoms.get(owner),
      posLeft: this.posLefts.get(owner),
      posRight: this.posRights.get(owner),
      negLeft: this.negLefts.get(owner),
      negRight: this.negRights.get(owner),
    };
  }
}

/**
 * GeoCentroidAggregator: per bucket the count of points and their latitudes and longitudes
 * summed as CompensatedSum.add does; the shard's centroid is each sum over the count.
 */
export class GeoCentroidCollector implements AggCollector {
  private readonly src: FieldSource;
  private readonly missing: Point | null;
  private readonly counts = new BucketDoubles();
  private readonly latSums = new BucketDoubles();
  private readonly latDeltas = new BucketDoubles();
  private readonly lonSums = new BucketDoubles();
  private readonly lonDeltas = new BucketDoubles();
  private geo: EncodedGeo | null = null;
  private latSum = 0;
  private latDelta = 0;
  private lonSum = 0;
  private lonDelta = 0;
  private readonly add = (lat: number, lon: number): void => {
    // CompensatedSum.add(value) on finite values: the correction travels with the sum.
    let corrected = lat + this.latDelta;
    let updated = this.latSum + corrected;
    this.latDelta = corrected - (updated - this.latSum);
    this.latSum = updated;
    corrected = lon + this.lonDelta;
    updated = this.lonSum + corrected;
    this.lonDelta = corrected - (updated - this.lonSum);
    this.lonSum = updated;
  };

  constructor(spec: GeoCentroidSpec, env: AggEnv) {
    ({ src: this.src, missing: this.missing } = geoSource(spec, env));
  }

  setSegment(rs: ReaderSegment): void {
    this.geo = this.src.kind === 'unmapped' ? null : encodedGeo(rs, this.src.path);
  }

  collect(doc: number, owner: number): void {
    this.latSum = this.latSums.get(owner);
    this.latDelta = this.latDeltas.get(owner);
    this.lonSum = this.lonSums.get(owner);
    this.lonDelta = this.lonDeltas.get(owner);
    const n = eachPoint(this.geo, this.missing, doc, this.add);
    if (n === 0) return;
    this.counts.add(owner, n);
    this.latSums.set(owner, this.latSum);
    this.latDeltas.set(owner, this.latDelta);
    this.lonSums.set(owner, this.lonSum);
    this.lonDeltas.set(owner, this.lonDelta);
  }

  build(owner: number): AggPartial {
    const count = this.counts.get(owner);
    if (count === 0) return { t: 'geo_centroid', lat: Number.NaN, lon: Number.NaN, count: 0 };
    return {
      t: 'geo_centroid',
      lat: this.latSums.get(owner) / count,
      lon: this.lonSums.get(owner) / count,
      count,
    };
  }
}

/**
 * geo_distance: a range aggregation over each point's distance from the origin — GeoDistance
 * ARC (SloppyMath's haversine) or PLANE from the origin to the point, in meters, converted to the
 * unit (DistanceUnit.convert: × 1 / unit). A doc counts once in every range one of its distances
 * falls in (`from` inclusive, `to` exclusive). The buckets keep the request's order, as
 * GeoDistanceAggregationBuilder passes its ranges unsorted. Bucket ordinals are
 * `owner * ranges + range`.
 */
export class GeoDistanceCollector implements AggCollector {
  private readonly src: FieldSource;
  private readonly missing: Point | null;
  private readonly froms: Float64Array;
  private readonly tos: Float64Array;
  private readonly counts = new BucketDoubles();
  /** Per range, the collect call that last counted in it: a doc counts once per range. */
  private readonly lastCall: Int32Array;
  private call = 0;
  private geo: EncodedGeo | null = null;
  private doc = 0;
  private owner = 0;
  /** The segment's `_doc_count` weights, null when it has none. */
  private docCounts: Float64Array | null = null;
  private readonly distance: (lat1: number, lon1: number, lat2: number, lon2: number) => number;
  private readonly add = (lat: number, lon: number): void => {
    const { origin, unitMeters } = this.spec;
    const meters = this.distance(origin.lat, origin.lon, lat, lon);
    const value = unitMeters === 1 ? meters : meters / unitMeters;
    const n = this.froms.length;
    for (let r = 0; r < n; r++) {
      if (value < this.froms[r]! || value >= this.tos[r]!) continue;
      if (this.lastCall[r] === this.call) continue;
      this.lastCall[r] = this.call;
      const bucket = this.owner * n + r;
      this.counts.add(bucket, this.docCounts === null ? 1 : this.docCounts[this.doc]!);
      for (const s of this.subs) s.collect(this.doc, bucket);
    }
  };

  constructor(
    private readonly spec: GeoDistanceSpec,
    env: AggEnv,
    private readonly subs: readonly AggCollector[],
  ) {
    ({ src: this.src, missing: this.missing } = geoSource(spec, env));
    this.froms = Float64Array.from(spec.ranges, (r) => r.from);
    this.tos = Float64Array.from(spec.ranges, (r) => r.to);
    this.lastCall = new Int32Array(spec.ranges.length);
    this.distance = spec.distanceType === 'plane' ? planeDistance : arcDistance;
  }

  setSegment(rs: ReaderSegment): void {
    for (const s of this.subs) s.setSegment(rs);
    this.docCounts = docCountsOf(rs);
    this.geo = this.src.kind === 'unmapped' ? null : encodedGeo(rs, this.src.path);
  }

  collect(doc: number, owner: number): void {
    if (++this.call === 0x7fffffff) {
      this.call = 1;
      this.lastCall.fill(0);
    }
    this.doc = doc;
    this.owner = owner;
    eachPoint(this.geo, this.missing, doc, this.add);
  }

  build(owner: number): AggPartial {
    const n = this.spec.ranges.length;
    const buckets: RangeBucket[] = this.spec.ranges.map((r, i) => {
      const bucket = owner < 0 ? -1 : owner * n + i;
      return {
        key: r.key,
        from: r.from,
        to: r.to,
        docCount: this.counts.get(bucket),
        aggs: this.subs.map((s) => s.build(bucket)),
      };
    });
    const out: AggPartial = { t: 'range', buckets, fmt: this.src.fmt };
    return this.src.kind === 'unmapped' ? { ...out, unmapped: true } : out;
  }
}
