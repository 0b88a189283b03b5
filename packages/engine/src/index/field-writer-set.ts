/** The field writers of one segment under construction, by path. */
import { GeoFieldWriter, NumericFieldWriter, TermFieldWriter } from './field-writers.ts';
import type { LeafType } from './segment.ts';

export class FieldWriters {
  readonly termWriters = new Map<string, TermFieldWriter>();
  readonly numericWriters = new Map<string, NumericFieldWriter>();
  readonly geoWriters = new Map<string, GeoFieldWriter>();

  terms(path: string, type: LeafType): TermFieldWriter {
    let w = this.termWriters.get(path);
    if (!w) {
      w = new TermFieldWriter(type);
      this.termWriters.set(path, w);
    }
    return w;
  }

  numeric(path: string, type: LeafType): NumericFieldWriter {
    let w = this.numericWriters.get(path);
    if (!w) {
      w = new NumericFieldWriter(type);
      this.numericWriters.set(path, w);
    }
    return w;
  }

  geo(path: string): GeoFieldWriter {
    let w = this.geoWriters.get(path);
    if (!w) {
      w = new GeoFieldWriter();
      this.geoWriters.set(path, w);
    }
    return w;
  }
}
