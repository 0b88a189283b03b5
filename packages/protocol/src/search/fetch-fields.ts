/**
 * The body and URL forms of `fields`, `docvalue_fields` (FieldAndFormat) and `stored_fields`
 * (StoredFieldsContext), as SearchSourceBuilder and RestSearchAction read them.
 */
import { illegalArgument } from '../errors/catalogue.ts';
import { parsingError, xContentParseError } from '../query/local-errors.ts';
import { here, isObject, isValue, type ParseCtx, tokenOf, unknownField } from '../query/parse-context.ts';
import { booleanValue, scalarText } from '../query/xcontent-values.ts';
import { splitByComma } from './parse-sort.ts';
import type { Params } from './url-params.ts';

/** One entry of `fields` or `docvalue_fields`. */
export interface FieldAndFormat {
  field: string;
  format?: string;
  includeUnmapped?: boolean;
}

/** `stored_fields`: `_none_` (fetch false) or a list of names (possibly empty). */
export interface StoredFieldsSpec {
  fetch: boolean;
  names: string[];
}

const NONE = '_none_';
const PARSER = 'fetch_field_and_format';

/** FieldAndFormat.fromXContent for each element of an array (a value is the field name). */
export function readFieldAndFormats(ctx: ParseCtx, list: unknown[]): FieldAndFormat[] {
  const out: FieldAndFormat[] = [];
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (isValue(v)) out.push({ field: scalarText(v) });
    else if (isObject(v)) {
      ctx.path.push(i);
      out.push(readFieldAndFormat(ctx, v));
      ctx.path.pop();
    } else {
      throw parsingError(`[${PARSER}] Expected START_OBJECT but was: ${tokenOf(v)}`, here(ctx, 'value', i));
    }
  }
  return out;
}

function readFieldAndFormat(ctx: ParseCtx, body: Record<string, unknown>): FieldAndFormat {
  let field: string | undefined;
  const out: Partial<FieldAndFormat> = {};
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (key === 'field' || key === 'format') {
      if (!isValue(v) && v !== null) {
        throw xContentParseError(
          `[${PARSER}] ${key} doesn't support values of type: ${tokenOf(v)}`,
          here(ctx, 'value', key),
        );
      }
      if (key === 'field') field = v === null ? undefined : scalarText(v);
      else if (v !== null) out.format = scalarText(v);
    } else if (key === 'include_unmapped') {
      out.includeUnmapped = booleanValue(ctx, v, key);
    } else {
      throw unknownField(ctx, PARSER, key, ['field', 'format', 'include_unmapped']);
    }
  }
  if (field === undefined) {
    throw xContentParseError(`Required [field]`, here(ctx, 'end'));
  }
  const r: FieldAndFormat = { field };
  if (out.format !== undefined) r.format = out.format;
  if (out.includeUnmapped !== undefined) r.includeUnmapped = out.includeUnmapped;
  return r;
}

/** StoredFieldsContext.fromList. */
export function storedFieldsFromList(names: string[]): StoredFieldsSpec {
  if (names.length === 1 && names[0] === NONE) return { fetch: false, names: [] };
  if (names.includes(NONE)) throw illegalArgument('cannot combine _none_ with other fields');
  return { fetch: true, names };
}

/** StoredFieldsContext.fromXContent: a string or an array of strings. */
export function readStoredFields(ctx: ParseCtx, v: unknown): StoredFieldsSpec {
  if (typeof v === 'string') return storedFieldsFromList([v]);
  if (Array.isArray(v)) {
    return storedFieldsFromList(
      v.map((x, i) => {
        if (!isValue(x)) {
          throw parsingError(`Unknown key for a ${tokenOf(x)} in [stored_fields].`, here(ctx, 'value', i));
        }
        return scalarText(x);
      }),
    );
  }
  throw parsingError(
    `Expected [VALUE_STRING] or [START_ARRAY] in [stored_fields] but found [${tokenOf(v)}]`,
    here(ctx, 'value'),
  );
}

/** RestSearchAction: `stored_fields` and `docvalue_fields` URL parameters (comma-separated). */
export function fetchFieldParams(params: Params): {
  storedFields?: StoredFieldsSpec;
  docValueFields?: FieldAndFormat[];
} {
  const out: { storedFields?: StoredFieldsSpec; docValueFields?: FieldAndFormat[] } = {};
  const stored = params.stored_fields;
  if (stored !== undefined) out.storedFields = storedFieldsFromList(splitByComma(stored));
  const dv = params.docvalue_fields;
  if (dv !== undefined && dv.trim().length > 0) {
    out.docValueFields = splitByComma(dv).map((field) => ({ field }));
  }
  return out;
}
