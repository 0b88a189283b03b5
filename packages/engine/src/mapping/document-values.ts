/**
 * Document parsing, leaf values: a mapped field's value (or null) turned into the terms,
 * tokens, numbers and points the index takes, with Elasticsearch's errors for values the
 * field cannot hold. The walk over the document and dynamic mapping are in document-parser.ts.
 */
import { illegalArgument, isShoalError, type ShoalError } from '@shoal/protocol';
import type { IndexableField } from '../contract.ts';
import { parseDateValue } from '../dates/index.ts';
import { FALSE_TERM, parseBooleanValue, TRUE_TERM } from './boolean-value.ts';
import type { CField, CObject, IndexSettingsView } from './compiled.ts';
import type { DynamicTemplate } from './dynamic-templates.ts';
import { documentParsingAt } from './errors.ts';
import { parseGeoPoint } from './geo-value.ts';
import { normalizeIp } from './ip-value.ts';
import { javaToString } from './java-text.ts';
import { lineCol, locateValue } from './json-text.ts';
import { type NumericType, parseNumber, scaledFloat } from './number-values.ts';
import { shingleTokens } from './shingles.ts';
import { indexSpecialValue } from './special-values.ts';

/** Everything document parsing needs from the mapping. */
export interface DocumentParserMapping {
  root: CObject;
  fields: ReadonlyMap<string, CField>;
  /** The mapping's dynamic templates, in order. */
  templates: readonly DynamicTemplate[];
  /** constant_keyword fields, whose value every document gets. */
  constantFields: readonly CField[];
  fieldCount: number;
  totalFieldsLimit: number;
  depthLimit: number;
  nestedObjectsLimit: number;
  dateDetection: boolean;
  numericDetection: boolean;
  dynamicDateFormats: readonly string[];
  settings: IndexSettingsView;
  /** The names of the mapping's runtime fields (`dynamic: runtime` adds no field twice). */
  runtimeNames: ReadonlySet<string>;
}

/** The state of one document parse. */
export interface Ctx {
  m: DocumentParserMapping;
  text: string;
  id: string;
  seq: number;
  fields: IndexableField[];
  path: (string | number)[];
  depth: number;
  overlay: Map<string, CField | CObject> | undefined;
  /** Objects parsed under nested mappings so far (index.mapping.nested_objects.limit). */
  nestedObjects: number;
  update: Record<string, unknown> | undefined;
  updateNodes: Map<string, Record<string, unknown>> | undefined;
  newFields: number;
  /** Fields a value of which was left out (ignore_malformed, ignore_above): `_ignored`. */
  ignored?: Set<string>;
  /** constant_keyword fields without a `value` yet, and the first value a document gave them. */
  constants?: Map<CField, string>;
  /** The request's `dynamic_templates` (field path → template name). */
  namedTemplates?: Record<string, string>;
  /** flattened fields' keyed sub-fields (`labels.env`) of this document, by path. */
  keyed?: Map<string, IndexableField>;
}

export function location(ctx: Ctx): string | null {
  const at = locateValue(ctx.text, ctx.path.slice(0, ctx.depth));
  return at < 0 ? null : lineCol(ctx.text, at);
}

/** A value of `f` was left out: the document lists the field in `_ignored`. */
export function markIgnored(f: CField, ctx: Ctx): void {
  if (!ctx.ignored) ctx.ignored = new Set();
  ctx.ignored.add(f.path);
}

export function slot(f: CField, ctx: Ctx): IndexableField {
  if (f.seq !== ctx.seq) {
    f.seq = ctx.seq;
    f.slot = { path: f.path, type: f.stored };
    f.lastPos = -1;
    f.values = 0;
    ctx.fields.push(f.slot);
  }
  return f.slot!;
}

export function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value);
  throw illegalArgument(`Can't get text on a ${Array.isArray(value) ? 'START_ARRAY' : 'START_OBJECT'}`);
}

export function addTerm(f: CField, term: string, ctx: Ctx): void {
  const s = slot(f, ctx);
  if (s.terms) s.terms.push(term);
  else s.terms = [term];
}

export function addNumber(f: CField, n: number | bigint, ctx: Ctx): void {
  const s = slot(f, ctx);
  if (s.numbers) s.numbers.push(n);
  else s.numbers = [n];
}

/** A scaled_float's value as it is kept; any other number as it is. */
function scaled(n: number | bigint, factor: number | undefined): number | bigint {
  return factor === undefined ? n : scaledFloat(Number(n), factor);
}

/** Indexes one non-null value into `f` (not its multi-fields). Throws the cause on bad input. */
function indexValue(f: CField, value: unknown, ctx: Ctx): void {
  if (f.type !== f.stored && f.type !== 'match_only_text' && f.type !== 'search_as_you_type') {
    indexSpecialValue(f, value, ctx);
    return;
  }
  switch (f.stored) {
    case 'text': {
      const s = text(value);
      const slotField = slot(f, ctx);
      if (f.values++ > 0) f.lastPos += f.gap;
      const analyzed = f.analyzer!.analyze(s);
      const tokens = f.shingles === undefined ? analyzed : shingleTokens(analyzed, f.shingles);
      if (tokens.length === 0) return;
      const base = f.lastPos + 1;
      let out = slotField.tokens;
      if (!out) {
        out = [];
        slotField.tokens = out;
      }
      for (const t of tokens) {
        t.position += base;
        out.push(t);
      }
      f.lastPos = tokens[tokens.length - 1]!.position;
      return;
    }
    case 'keyword': {
      const s = text(value);
      if (s.length > f.ignoreAbove) {
        markIgnored(f, ctx);
        return;
      }
      addTerm(f, f.lowercase ? s.toLowerCase() : s, ctx);
      return;
    }
    case 'long':
    case 'integer':
    case 'short':
    case 'byte':
    case 'double':
    case 'float':
    case 'half_float':
    case 'scaled_float': {
      const n = parseNumber(f.stored as NumericType, value, f.coerce);
      const factor = f.resolved.scalingFactor;
      if (n === null) {
        if (f.nullValue !== undefined) addNumber(f, scaled(f.nullValue as number | bigint, factor), ctx);
        return;
      }
      addNumber(f, scaled(n, factor), ctx);
      return;
    }
    case 'boolean':
      addTerm(f, parseBooleanValue(value) ? TRUE_TERM : FALSE_TERM, ctx);
      return;
    case 'date':
    case 'date_nanos':
      addNumber(f, parseDateValue(text(value), f.format, f.stored === 'date' ? 'millis' : 'nanos'), ctx);
      return;
    case 'ip':
      addTerm(f, normalizeIp(text(value)), ctx);
      return;
    case 'geo_point': {
      const p = parseGeoPoint(value, f.path, f.ignoreZ);
      const s = slot(f, ctx);
      if (s.geo) s.geo.push(p);
      else s.geo = [p];
      return;
    }
  }
}

/** DocumentParser: a document may not hold a value for a field alias. */
function aliasWrite(f: CField, ctx: Ctx): ShoalError {
  return documentParsingAt(location(ctx), `Cannot write to a field alias [${f.path}].`);
}

function fieldError(f: CField, value: unknown, cause: ShoalError, ctx: Ctx): ShoalError {
  return documentParsingAt(
    location(ctx),
    `failed to parse field [${f.path}] of type [${f.type}] in document with id '${ctx.id}'. ` +
      `Preview of field's value: '${javaToString(value)}'`,
    cause,
  );
}

export function parseValue(f: CField, value: unknown, ctx: Ctx, copy: boolean): void {
  if (f.type === 'alias') throw aliasWrite(f, ctx);
  if (f.emits) {
    try {
      indexValue(f, value, ctx);
    } catch (e) {
      if (!isShoalError(e)) throw e;
      const scalar = typeof value !== 'object' || value === null;
      if (!(f.ignoreMalformed && scalar)) throw fieldError(f, value, e, ctx);
      markIgnored(f, ctx);
    }
  }
  for (const m of f.multi) parseValue(m, value, ctx, false);
  if (copy && f.copyTo.length > 0) {
    for (const target of f.copyTo) {
      const t = ctx.m.fields.get(target) ?? (ctx.overlay?.get(target) as CField | undefined);
      if (t && t.kind === 'field') parseValue(t, value, ctx, false);
    }
  }
}

export function parseNull(f: CField, ctx: Ctx): void {
  if (f.type === 'alias') throw aliasWrite(f, ctx);
  if (f.type === 'token_count' && f.nullValue !== undefined && f.emits) {
    // A token_count's null_value is the count itself.
    addNumber(f, f.nullValue as number, ctx);
    return;
  }
  if (f.nullValue !== undefined && f.emits) {
    try {
      indexValue(f, f.nullValue, ctx);
    } catch (e) {
      if (!isShoalError(e)) throw e;
      throw fieldError(f, null, e, ctx);
    }
  }
  for (const m of f.multi) parseNull(m, ctx);
}

// ------------------------------------------------------------------ walking
