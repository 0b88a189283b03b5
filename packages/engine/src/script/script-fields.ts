/**
 * `script_fields` in the fetch phase (ScriptFieldsPhase): per hit, each script's result as the
 * field's values — a list gives its elements, null gives none, anything else one value — with
 * `params._source` holding the hit's source. A failing script fails the fetch unless its
 * `ignore_failure` is set, which leaves the field out of that hit.
 */
import { parseJson, type ScriptField, stringifyJson } from '@shoal/protocol';
import type { IndexMapping } from '../contract.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { SegmentDocLookup } from './doc-lookup.ts';
import { javaString } from './members.ts';
import { type CompiledScript, compileSpec } from './script.ts';
import { DateValue, DocField, GeoPointValue, InstantValue } from './values.ts';

export class ScriptFieldsFetcher {
  private readonly scripts: { field: ScriptField; compiled: CompiledScript; wantsSource: boolean }[];
  private readonly lookup: SegmentDocLookup;
  private segment: ReaderSegment | null = null;

  constructor(fields: readonly ScriptField[], mapping: IndexMapping, index: string) {
    this.scripts = fields.map((field) => {
      const compiled = compileSpec(field.script);
      return { field, compiled, wantsSource: compiled.source.includes('_source') };
    });
    this.lookup = new SegmentDocLookup(mapping, index);
  }

  values(rs: ReaderSegment, doc: number, source: () => Uint8Array): [string, string[]][] {
    if (rs !== this.segment) {
      this.segment = rs;
      this.lookup.setSegment(rs);
    }
    this.lookup.setDoc(doc);
    const out: [string, string[]][] = [];
    let parsedSource: unknown;
    for (const { field, compiled, wantsSource } of this.scripts) {
      let params: Record<string, unknown> = field.script.params;
      if (wantsSource) {
        parsedSource ??= parseJson(source(), '_source');
        params = { ...params, _source: parsedSource };
      }
      let result: unknown;
      try {
        result = compiled.run({ doc: this.lookup, params });
      } catch (e) {
        if (field.ignoreFailure) continue;
        throw e;
      }
      const list =
        result === null || result === undefined
          ? []
          : Array.isArray(result)
            ? result
            : result instanceof DocField
              ? [...result.values]
              : [result];
      out.push([field.name, list.map(valueJson)]);
    }
    return out;
  }
}

/** A script value as XContent writes it. */
function valueJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof GeoPointValue) return `{"lat":${stringifyJson(v.lat)},"lon":${stringifyJson(v.lon)}}`;
  if (v instanceof DateValue || v instanceof InstantValue)
    return stringifyJson(new Date(v.millis).toISOString());
  if (v instanceof DocField) return `[${v.values.map(valueJson).join(',')}]`;
  if (v instanceof Map)
    return `{${[...v].map(([k, x]) => `${stringifyJson(javaString(k))}:${valueJson(x)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map(valueJson).join(',')}]`;
  return stringifyJson(v);
}
