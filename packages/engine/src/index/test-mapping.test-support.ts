/**
 * A small IndexMapping for engine tests, independent of `mapping/`: declared leaf fields (with
 * multi-fields), a standard-analysed `text`, `T`/`F` booleans, ISO or epoch dates, and
 * `dynamic: true` for unknown fields (strings become keyword, numbers long/double).
 */
import { mapperParsing } from '@shoal/protocol';
import { getAnalyzer } from '../analysis/index.ts';
import type { IndexableField, IndexMapping, ParsedDocument, ResolvedField } from '../contract.ts';

export interface FieldDef {
  type: ResolvedField['type'] | 'object';
  analyzer?: string;
  searchAnalyzer?: string;
  format?: string;
  fields?: Record<string, FieldDef>;
}

const decoder = new TextDecoder();

export function testMapping(props: Record<string, FieldDef>, dynamic = true): IndexMapping {
  const leaves = new Map<string, ResolvedField>();
  const objects = new Set<string>();
  const add = (path: string, def: FieldDef) => {
    if (def.type === 'object') {
      objects.add(path);
      return;
    }
    const f: ResolvedField = {
      path,
      type: def.type,
      index: true,
      docValues: def.type !== 'text',
    };
    if (def.analyzer) f.analyzer = def.analyzer;
    if (def.searchAnalyzer) f.searchAnalyzer = def.searchAnalyzer;
    if (def.type === 'date' || def.type === 'date_nanos') f.format = def.format ?? 'strict_date_optional_time||epoch_millis';
    leaves.set(path, f);
    for (const [sub, sd] of Object.entries(def.fields ?? {})) add(`${path}.${sub}`, sd);
  };
  for (const [p, d] of Object.entries(props)) {
    add(p, d);
    const parts = p.split('.');
    for (let i = 1; i < parts.length; i++) objects.add(parts.slice(0, i).join('.'));
  }

  const mapping: IndexMapping = {
    toJSON: () => ({ properties: Object.fromEntries(Object.entries(props)) }),
    merge(update) {
      const more = (update.properties ?? {}) as Record<string, FieldDef>;
      return testMapping({ ...props, ...more }, dynamic);
    },
    field: (path) => leaves.get(path),
    fieldsMatching(pattern) {
      const re = new RegExp(`^${pattern.split('*').map(escape).join('.*')}$`);
      return [...leaves.values()].filter((f) => re.test(f.path));
    },
    isObject: (path) => objects.has(path),
    parseDocument(id, source, routing) {
      let json: unknown;
      try {
        json = JSON.parse(decoder.decode(source));
      } catch {
        throw mapperParsing('failed to parse');
      }
      const fields: IndexableField[] = [];
      const update: Record<string, FieldDef> = {};
      const visit = (path: string, v: unknown) => {
        if (v === null) return;
        if (Array.isArray(v)) {
          for (const x of v) visit(path, x);
          return;
        }
        if (typeof v === 'object') {
          for (const [k, x] of Object.entries(v as object)) visit(path ? `${path}.${k}` : k, x);
          return;
        }
        const f = leaves.get(path);
        if (!f) {
          if (dynamic && !objects.has(path)) {
            update[path] = {
              type: typeof v === 'string' ? 'keyword' : typeof v === 'boolean' ? 'boolean' : Number.isInteger(v) ? 'long' : 'double',
            };
          }
          return;
        }
        const emit = (lf: ResolvedField) => fields.push(leafValue(lf, v));
        emit(f);
        for (const sub of leaves.values()) if (sub.path.startsWith(`${path}.`) && !sub.path.slice(path.length + 1).includes('.')) {
          if (!objects.has(path)) emit(sub);
        }
      };
      visit('', json);
      const doc: ParsedDocument = { id, source, fields };
      if (routing !== undefined) doc.routing = routing;
      if (Object.keys(update).length > 0) return { doc, dynamicUpdate: { properties: update } };
      return { doc };
    },
  };
  return mapping;
}

function escape(s: string): string {
  return s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

function leafValue(f: ResolvedField, v: unknown): IndexableField {
  const out: IndexableField = { path: f.path, type: f.type };
  switch (f.type) {
    case 'text': {
      const analyzer = getAnalyzer(f.analyzer ?? 'standard')!;
      out.tokens = analyzer.analyze(String(v)).map((t) => ({ term: t.term, position: t.position }));
      break;
    }
    case 'keyword':
    case 'ip':
      out.terms = [String(v)];
      break;
    case 'boolean':
      out.terms = [v === true || v === 'true' ? 'T' : 'F'];
      break;
    case 'date':
      out.numbers = [typeof v === 'number' ? v : Date.parse(String(v))];
      break;
    case 'date_nanos': {
      if (typeof v === 'number') {
        out.numbers = [BigInt(v) * 1_000_000n];
        break;
      }
      const s = String(v);
      const m = /\.(\d+)/.exec(s);
      const frac = (m?.[1] ?? '').padEnd(9, '0').slice(0, 9);
      const ms = Date.parse(s.replace(/\.\d+/, ''));
      out.numbers = [BigInt(ms) * 1_000_000n + BigInt(frac)];
      break;
    }
    case 'long':
      out.numbers = [typeof v === 'string' ? BigInt(v) : (v as number)];
      break;
    case 'geo_point':
      break;
    default:
      out.numbers = [Number(v)];
  }
  return out;
}
