/**
 * A composite `geotile_grid` source (GeoTileValuesSource): each point's map tile at the
 * source's zoom, as a key packed x * 2^29 + y (a number while exact, else a bigint), so keys
 * order as Elasticsearch's long-encoded tiles do (by column, then row); `bounds` leave out the
 * tiles they do not reach. The key prints `zoom/x/y` (the `geotile` value format).
 */
import {
  type CompositeSourceSpec,
  type CompositeValue,
  illegalArgument,
  type JsonScalar,
} from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { type EncodedGeo, encodedGeo } from '../search/geo-queries.ts';
import { type AggEnv, type FieldSource, resolveSource } from './field-source.ts';
import { eachPoint, GEO_KINDS } from './geo-collectors.ts';
import { tilePredicate, xTile, yTile } from './geo-grid-cells.ts';

const SAFE_COLUMNS = 2 ** 24;

export function packTile(x: number, y: number): number | bigint {
  return x < SAFE_COLUMNS ? x * 2 ** 29 + y : (BigInt(x) << 29n) | BigInt(y);
}

export class GeotileSource {
  readonly src: FieldSource;
  private readonly tiles: number;
  private readonly valid: ((x: number, y: number) => boolean) | undefined;
  private geo: EncodedGeo | null = null;
  private out: CompositeValue[] = [];
  private readonly add = (lat: number, lon: number): void => {
    const x = xTile(lon, this.tiles);
    const y = yTile(lat, this.tiles);
    if (this.valid !== undefined && !this.valid(x, y)) return;
    const k = packTile(x, y);
    if (!this.out.includes(k)) this.out.push(k);
  };

  constructor(
    private readonly spec: CompositeSourceSpec,
    env: AggEnv,
  ) {
    this.src = resolveSource(spec.source, 'geotile_grid', GEO_KINDS, env);
    const zoom = spec.precision ?? 7;
    this.tiles = 2 ** zoom;
    this.valid = spec.bounds === undefined ? undefined : tilePredicate(zoom, spec.bounds);
  }

  get zoom(): number {
    return this.spec.precision ?? 7;
  }

  setSegment(rs: ReaderSegment): void {
    this.geo = this.src.kind === 'unmapped' ? null : encodedGeo(rs, this.src.path);
  }

  /** The doc's distinct tiles into `out`, ascending. */
  values(doc: number, out: CompositeValue[]): void {
    this.out = out;
    eachPoint(this.geo, null, doc, this.add);
    if (out.length > 1) out.sort((a, b) => (a! < b! ? -1 : a! > b! ? 1 : 0));
  }

  /** An `after` value (`zoom/x/y`) as a key. */
  afterValue(v: JsonScalar): CompositeValue {
    const m = typeof v === 'string' ? /^(\d+)\/(\d+)\/(\d+)$/.exec(v) : null;
    if (!m) throw illegalArgument(`Invalid geotile_grid hash string of ${String(v)}`);
    const [z, x, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (z !== this.zoom || x >= this.tiles || y >= this.tiles) {
      throw illegalArgument(`Invalid geotile_grid hash string of ${v}`);
    }
    return packTile(x, y);
  }
}
