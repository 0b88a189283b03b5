/**
 * The `_geo_distance` sort key: GeoDistanceSortBuilder.build. Its values are doubles, the
 * distance (in `unit`) from the sort points to the doc's points on their Lucene encoding, one
 * per (doc point × sort point) reduced by the sort mode; a doc without a point sorts with
 * +Infinity in either order (FieldData.replaceMissing). The key then travels and merges as any
 * double field sort does.
 */
import {
  illegalArgument,
  javaDouble,
  parseException,
  type SortMode,
  type SortSpec,
  type SortValue,
} from '@shoal/protocol';
import type { IndexMapping } from '../contract.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { ShardContext } from './field-values.ts';
import {
  arcDistance,
  decodeLatitude,
  decodeLongitude,
  isValidLatitude,
  isValidLongitude,
  normalizePoint,
  planeDistance,
} from './geo-math.ts';
import { encodedGeo } from './geo-queries.ts';
import type { ValueReader } from './sort-doc-values.ts';
import { type FieldSort, TEXT_FIELDDATA } from './sort-keys.ts';

type FieldSpec = Extract<SortSpec, { kind: 'field' }>;
type GeoOptions = NonNullable<FieldSpec['geoDistance']>;

/** How a geo distance key computes its values. */
export interface GeoSortPlan {
  points: { lat: number; lon: number }[];
  /** 1 for meters: values are then the meters themselves (DistanceUnit.convert). */
  unitMeters: number;
  plane: boolean;
}

export function resolveGeoDistanceSort(
  spec: FieldSpec,
  opts: GeoOptions,
  mapping: IndexMapping,
  ctx: ShardContext,
): FieldSort {
  const points = opts.points.map((p) => ({ lat: p.lat, lon: p.lon }));
  // localPoints: COERCE counts as ignoring malformed points, then normalises them.
  if (opts.validation === 'STRICT') {
    for (const p of points) {
      if (!isValidLatitude(p.lat)) {
        throw parseException(
          `illegal latitude value [${javaDouble(p.lat)}] for [GeoDistanceSort] for field [${spec.field}].`,
        );
      }
      if (!isValidLongitude(p.lon)) {
        throw parseException(
          `illegal longitude value [${javaDouble(p.lon)}] for [GeoDistanceSort] for field [${spec.field}].`,
        );
      }
    }
  }
  if (opts.validation === 'COERCE') for (const p of points) normalizePoint(p);
  const reverse = spec.order === 'desc';
  const mode: SortMode = spec.mode ?? (reverse ? 'max' : 'min');
  const field = mapping.field(spec.field);
  let unmapped = false;
  if (!field) {
    if (!opts.ignoreUnmapped) {
      throw illegalArgument(`failed to find mapper for [${spec.field}] for geo distance based sort`);
    }
    unmapped = true;
  } else if (field.type === 'text') {
    throw illegalArgument(
      `Fielddata is disabled on [${spec.field}] in [${ctx.index}]. ${TEXT_FIELDDATA.replace('%s', spec.field)}`,
    );
  } else if (field.type !== 'geo_point') {
    throw illegalArgument(
      `unable to apply geo distance sort to field [${spec.field}] of type [${field.type}]`,
    );
  } else if (!field.docValues) {
    throw illegalArgument(
      `Can't load fielddata on [${spec.field}] because fielddata is unsupported on fields of type [geo_point]. Use doc values instead.`,
    );
  }
  // build(): one point, MIN, meters, ascending goes to Lucene's LatLonDocValuesField.newDistanceSort,
  // which measures the haversine whatever distance_type says.
  const lucene = mode === 'min' && opts.unitMeters === 1 && !reverse && points.length === 1;
  const geo: GeoSortPlan = {
    points,
    unitMeters: opts.unitMeters,
    plane: opts.distanceType === 'plane' && !lucene,
  };
  return {
    path: field?.path ?? spec.field,
    type: 'geo_point',
    unmapped,
    source: 'geo',
    mode,
    longSemantics: false,
    conversion: 'none',
    kind: 'double',
    missing: Number.POSITIVE_INFINITY,
    display: undefined,
    target: { name: spec.field, kind: 'double' },
    geo,
  };
}

/** The sort value of each doc of the segment: the mode over its distances, or +Infinity. */
export function geoDistanceReader(fs: FieldSort, rs: ReaderSegment): ValueReader {
  const plan = fs.geo!;
  const g = fs.unmapped ? null : encodedGeo(rs, fs.path);
  const missing: SortValue = fs.missing;
  if (!g) return () => missing;
  const { starts, lat, lon } = g;
  const points = plan.points;
  const distance = plan.plane ? planeDistance : arcDistance;
  const unit = plan.unitMeters;
  const mode = fs.mode;
  const measure = (p: { lat: number; lon: number }, j: number) => {
    const d = distance(p.lat, p.lon, decodeLatitude(lat[j]!), decodeLongitude(lon[j]!));
    return unit === 1 ? d : d / unit;
  };
  if (points.length === 1) {
    const p = points[0]!;
    return (doc) => {
      const s = starts[doc]!;
      const e = starts[doc + 1]!;
      if (s === e) return missing;
      if (e - s === 1) return measure(p, s);
      const values: number[] = [];
      for (let j = s; j < e; j++) values.push(measure(p, j));
      return pick(values, mode);
    };
  }
  return (doc) => {
    const s = starts[doc]!;
    const e = starts[doc + 1]!;
    if (s === e) return missing;
    const values: number[] = [];
    for (let j = s; j < e; j++) for (const p of points) values.push(measure(p, j));
    return pick(values, mode);
  };
}

/** MultiValueMode over the sorted distances (GeoUtils.distanceValues sorts them). */
function pick(values: number[], mode: SortMode): number {
  values.sort((a, b) => a - b);
  const n = values.length;
  switch (mode) {
    case 'min':
      return values[0]!;
    case 'max':
      return values[n - 1]!;
    case 'avg':
    case 'sum': {
      let t = 0;
      for (let i = 0; i < n; i++) t += values[i]!;
      return mode === 'sum' ? t : t / n;
    }
    case 'median': {
      const mid = n >> 1;
      return n % 2 === 0 ? (values[mid - 1]! + values[mid]!) / 2 : values[mid]!;
    }
  }
}
