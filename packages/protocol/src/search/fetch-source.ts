/**
 * `_source` in a request (FetchSourceContext): `true`/`false`, a pattern, an array of patterns,
 * or `{"includes": …, "excludes": …}` in the body; `_source`, `_source_includes` and
 * `_source_excludes` in the URL.
 */
import { parsingError } from '../query/local-errors.ts';
import { here, isObject, type ParseCtx, tokenOf } from '../query/parse-context.ts';
import { booleanValue, text } from '../query/xcontent-values.ts';
import { splitByComma } from './parse-sort.ts';
import type { SourceFilter } from './search-request.ts';
import type { Params } from './url-params.ts';

/** The deprecated singular names still accepted by the `includes`/`excludes` ParseFields. */
const DEPRECATED = { include: 'includes', exclude: 'excludes' } as const;

/**
 * FetchSourceContext.fromXContent for the value at `ctx.path`. Deprecated `include`/`exclude`
 * names are accepted with a deprecation warning pushed on `warnings`.
 */
export function readFetchSource(ctx: ParseCtx, v: unknown, warnings: string[]): SourceFilter {
  if (typeof v === 'boolean') return { enabled: booleanValue(ctx, v), includes: [], excludes: [] };
  if (typeof v === 'string') return { enabled: true, includes: [v], excludes: [] };
  if (Array.isArray(v)) return { enabled: true, includes: v.map((x, i) => text(ctx, x, i)), excludes: [] };
  if (!isObject(v)) {
    throw parsingError(
      `Expected one of [VALUE_BOOLEAN, VALUE_STRING, START_ARRAY, START_OBJECT] but found [${tokenOf(v)}]`,
      here(ctx, 'value'),
    );
  }
  let includes: string[] = [];
  let excludes: string[] = [];
  for (const key of Object.keys(v)) {
    const value = v[key];
    const name = key === 'include' || key === 'exclude' ? DEPRECATED[key] : key;
    if (name !== 'includes' && name !== 'excludes') {
      throw parsingError(`Unknown key for a ${tokenOf(value)} in [${key}].`, here(ctx, 'value', key));
    }
    if (name !== key) warnings.push(`Deprecated field [${key}] used, expected [${name}] instead`);
    let list: string[];
    if (typeof value === 'string') list = [value];
    else if (Array.isArray(value)) {
      list = [];
      ctx.path.push(key);
      for (let i = 0; i < value.length; i++) {
        const e = value[i];
        if (typeof e !== 'string') {
          throw parsingError(`Unknown key for a ${tokenOf(e)} in [${key}].`, here(ctx, 'value', i));
        }
        list.push(e);
      }
      ctx.path.pop();
    } else {
      throw parsingError(`Unknown key for a ${tokenOf(value)} in [${key}].`, here(ctx, 'value', key));
    }
    if (name === 'includes') includes = list;
    else excludes = list;
  }
  return { enabled: true, includes, excludes };
}

/**
 * FetchSourceContext.parseFromRestRequest: undefined when none of the three parameters is given,
 * otherwise a context that replaces the body's.
 */
export function fetchSourceFromParams(params: Params): SourceFilter | undefined {
  const source = params._source;
  const sIncludes = params._source_includes;
  const sExcludes = params._source_excludes;
  if (source === undefined && sIncludes === undefined && sExcludes === undefined) return undefined;
  let enabled: boolean | undefined;
  let includes: string[] = [];
  if (source !== undefined) {
    if (source === 'true') enabled = true;
    else if (source === 'false') enabled = false;
    else includes = splitByComma(source);
  }
  if (sIncludes !== undefined) includes = splitByComma(sIncludes);
  const excludes = sExcludes !== undefined ? splitByComma(sExcludes) : [];
  return { enabled: enabled ?? true, includes, excludes };
}
