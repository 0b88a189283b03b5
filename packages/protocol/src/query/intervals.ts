/**
 * `intervals` (IntervalQueryBuilder, IntervalsSourceProvider): one field, one rule — `match`,
 * `prefix`, `wildcard`, `fuzzy`, `regexp`, `range`, `all_of` or `any_of` — each with an
 * optional `filter` (containing, contained_by, not_containing, not_contained_by, overlapping,
 * not_overlapping, before, after; a `script` filter is refused with a 501).
 */
import { illegalArgument, notImplemented } from '../errors/catalogue.ts';
import type { QueryNode } from './ast.ts';
import { parsingError } from './local-errors.ts';
import {
  assertSupports,
  here,
  isObject,
  type ParseCtx,
  parseField,
  tokenOf,
  unknownField,
  VT,
} from './parse-context.ts';
import { booleanValue, floatValue, intValue, text } from './xcontent-values.ts';

export type IntervalFilterKind =
  | 'containing'
  | 'contained_by'
  | 'not_containing'
  | 'not_contained_by'
  | 'overlapping'
  | 'not_overlapping'
  | 'before'
  | 'after';

export interface IntervalFilter {
  kind: IntervalFilterKind;
  rule: IntervalRule;
}

interface RuleBase {
  filter?: IntervalFilter;
  useField?: string;
}

export type IntervalRule =
  | (RuleBase & { kind: 'match'; query: string; maxGaps: number; ordered: boolean; analyzer?: string })
  | (RuleBase & { kind: 'prefix'; prefix: string; analyzer?: string })
  | (RuleBase & { kind: 'wildcard'; pattern: string; analyzer?: string })
  | (RuleBase & { kind: 'regexp'; pattern: string; analyzer?: string })
  | (RuleBase & {
      kind: 'fuzzy';
      term: string;
      fuzziness: string;
      prefixLength: number;
      transpositions: boolean;
      analyzer?: string;
    })
  | (RuleBase & {
      kind: 'range';
      gt?: string;
      gte?: string;
      lt?: string;
      lte?: string;
      analyzer?: string;
    })
  | (RuleBase & { kind: 'all_of'; intervals: IntervalRule[]; maxGaps: number; ordered: boolean })
  | (RuleBase & { kind: 'any_of'; intervals: IntervalRule[] });

export interface IntervalsQuery {
  type: 'intervals';
  field: string;
  rule: IntervalRule;
  boost: number;
}

const RULES = ['match', 'any_of', 'all_of', 'prefix', 'wildcard', 'fuzzy', 'regexp', 'range'];
const FILTERS: IntervalFilterKind[] = [
  'containing',
  'contained_by',
  'not_containing',
  'not_contained_by',
  'overlapping',
  'not_overlapping',
  'before',
  'after',
];
const RULE_FIELDS: Record<string, string[]> = {
  match: ['query', 'max_gaps', 'ordered', 'analyzer', 'filter', 'use_field'],
  prefix: ['prefix', 'analyzer', 'use_field'],
  wildcard: ['pattern', 'analyzer', 'use_field'],
  regexp: ['pattern', 'analyzer', 'use_field'],
  fuzzy: ['term', 'fuzziness', 'prefix_length', 'transpositions', 'analyzer', 'use_field'],
  range: ['gt', 'gte', 'lt', 'lte', 'analyzer', 'use_field'],
  all_of: ['intervals', 'max_gaps', 'ordered', 'filter'],
  any_of: ['intervals', 'filter'],
};

export function parseIntervals(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  const keys = Object.keys(body);
  const field = keys[0];
  if (field === undefined) throw parsingError('Expected [FIELD_NAME] but got [END_OBJECT]', here(ctx, 'end'));
  const inner = body[field];
  if (!isObject(inner)) {
    throw parsingError(`Expected [START_OBJECT] but got [${tokenOf(inner)}]`, here(ctx, 'value', field));
  }
  ctx.path.push(field);
  let rule: IntervalRule | undefined;
  let boost = 1;
  for (const key of Object.keys(inner)) {
    const v = inner[key];
    if (key === 'boost') boost = floatValue(ctx, v, key);
    else if (key === '_name') text(ctx, v, key);
    else {
      if (rule !== undefined) {
        throw parsingError(
          `Only one interval rule can be specified, found [${ruleName(rule)}] and [${key}]`,
          here(ctx, 'key', key),
        );
      }
      rule = parseRule(ctx, key, v);
    }
  }
  if (rule === undefined) {
    const loc = here(ctx, 'end');
    ctx.path.pop();
    throw parsingError('Missing intervals from interval query definition', loc);
  }
  ctx.path.pop();
  if (keys.length > 1) {
    throw parsingError(`Expected [END_OBJECT] but got [FIELD_NAME]`, here(ctx, 'key', keys[1]!));
  }
  return { type: 'intervals', field, rule, boost };
}

function ruleName(rule: IntervalRule): string {
  return rule.kind;
}

/** IntervalsSourceProvider.fromXContent: the rule named `name`, whose body is `v`. */
function parseRule(ctx: ParseCtx, name: string, v: unknown): IntervalRule {
  if (!RULES.includes(name)) {
    throw parsingError(
      `Unknown interval type [${name}], expecting one of [match, any_of, all_of, prefix, wildcard, fuzzy, regexp, range]`,
      here(ctx, 'key', name),
    );
  }
  if (!isObject(v)) {
    throw parsingError(`Expected [START_OBJECT] but got [${tokenOf(v)}]`, here(ctx, 'value', name));
  }
  ctx.path.push(name);
  const allowed = RULE_FIELDS[name]!;
  const got: Record<string, unknown> = {};
  for (const key of Object.keys(v)) {
    if (!allowed.includes(key)) throw unknownField(ctx, name, key, allowed);
    got[key] = v[key];
  }
  const str = (key: string): string | undefined => {
    if (got[key] === undefined) return undefined;
    assertSupports(ctx, name, key, got[key], VT.STRING);
    return text(ctx, got[key], key);
  };
  const required = (key: string): string => {
    const s = str(key);
    if (s === undefined) {
      here(ctx, 'end');
      throw illegalArgument(`Required [${key}]`);
    }
    return s;
  };
  const base: RuleBase = {};
  const useField = str('use_field');
  if (useField !== undefined) base.useField = useField;
  if (got.filter !== undefined) {
    assertSupports(ctx, name, 'filter', got.filter, VT.OBJECT);
    if ('script' in (got.filter as Record<string, unknown>)) {
      here(ctx, 'value', 'filter');
      throw notImplemented('the [script] filter of interval rules');
    }
    base.filter = parseField(ctx, name, 'filter', () =>
      parseFilter(ctx, got.filter as Record<string, unknown>),
    );
  }
  const analyzer = str('analyzer');
  const withAnalyzer = analyzer === undefined ? {} : { analyzer };
  const maxGaps = () => (got.max_gaps === undefined ? -1 : intValue(ctx, got.max_gaps, 'max_gaps'));
  const ordered = () => (got.ordered === undefined ? false : booleanValue(ctx, got.ordered, 'ordered'));
  let rule: IntervalRule;
  switch (name) {
    case 'match':
      rule = {
        ...base,
        kind: 'match',
        query: required('query'),
        maxGaps: maxGaps(),
        ordered: ordered(),
        ...withAnalyzer,
      };
      break;
    case 'prefix':
      rule = { ...base, kind: 'prefix', prefix: required('prefix'), ...withAnalyzer };
      break;
    case 'wildcard':
      rule = { ...base, kind: 'wildcard', pattern: required('pattern'), ...withAnalyzer };
      break;
    case 'regexp':
      rule = { ...base, kind: 'regexp', pattern: required('pattern'), ...withAnalyzer };
      break;
    case 'fuzzy':
      rule = {
        ...base,
        kind: 'fuzzy',
        term: required('term'),
        fuzziness: got.fuzziness === undefined ? 'AUTO' : text(ctx, got.fuzziness, 'fuzziness'),
        prefixLength: got.prefix_length === undefined ? 0 : intValue(ctx, got.prefix_length, 'prefix_length'),
        transpositions:
          got.transpositions === undefined ? true : booleanValue(ctx, got.transpositions, 'transpositions'),
        ...withAnalyzer,
      };
      break;
    case 'range': {
      const r: Extract<IntervalRule, { kind: 'range' }> = { ...base, kind: 'range', ...withAnalyzer };
      for (const k of ['gt', 'gte', 'lt', 'lte'] as const) {
        const s = str(k);
        if (s !== undefined) r[k] = s;
      }
      if (r.gt === undefined && r.gte === undefined) {
        here(ctx, 'end');
        throw illegalArgument('Either [gte] or [gt], one of them must be provided');
      }
      if (r.lt === undefined && r.lte === undefined) {
        here(ctx, 'end');
        throw illegalArgument('Either [lte] or [lt], one of them must be provided');
      }
      rule = r;
      break;
    }
    default: {
      const list = got.intervals;
      if (list === undefined) {
        here(ctx, 'end');
        throw illegalArgument('Required [intervals]');
      }
      assertSupports(ctx, name, 'intervals', list, new Set(['START_ARRAY']));
      const intervals = parseField(ctx, name, 'intervals', () =>
        (list as unknown[]).map((item, i) => {
          if (!isObject(item)) {
            throw parsingError(`Expected [START_OBJECT] but got [${tokenOf(item)}]`, here(ctx, 'value', i));
          }
          const ks = Object.keys(item);
          if (ks.length !== 1) {
            throw parsingError(
              ks.length === 0
                ? 'Missing intervals from interval query definition'
                : `Only one interval rule can be specified, found [${ks[0]}] and [${ks[1]}]`,
              here(ctx, 'value', i),
            );
          }
          ctx.path.push(i);
          const r = parseRule(ctx, ks[0]!, item[ks[0]!]);
          ctx.path.pop();
          return r;
        }),
      );
      rule =
        name === 'all_of'
          ? { ...base, kind: 'all_of', intervals, maxGaps: maxGaps(), ordered: ordered() }
          : { ...base, kind: 'any_of', intervals };
    }
  }
  ctx.path.pop();
  return rule;
}

/** IntervalFilter.fromXContent: one filter type holding one rule. */
function parseFilter(ctx: ParseCtx, body: Record<string, unknown>): IntervalFilter {
  const keys = Object.keys(body);
  const kind = keys[0];
  if (kind === undefined) throw parsingError('Expected [FIELD_NAME] but got [END_OBJECT]', here(ctx, 'end'));
  if (!FILTERS.includes(kind as IntervalFilterKind)) {
    throw parsingError(`Unknown filter type [${kind}]`, here(ctx, 'key', kind));
  }
  const v = body[kind];
  if (!isObject(v))
    throw parsingError(`Expected [START_OBJECT] but got [${tokenOf(v)}]`, here(ctx, 'value', kind));
  const ruleKeys = Object.keys(v);
  if (ruleKeys.length !== 1) {
    throw parsingError(
      ruleKeys.length === 0
        ? 'Missing intervals from interval query definition'
        : `Only one interval rule can be specified, found [${ruleKeys[0]}] and [${ruleKeys[1]}]`,
      here(ctx, 'value', kind),
    );
  }
  ctx.path.push(kind);
  const rule = parseRule(ctx, ruleKeys[0]!, v[ruleKeys[0]!]);
  ctx.path.pop();
  if (keys.length > 1) {
    throw parsingError(`Expected [END_OBJECT] but got [FIELD_NAME]`, here(ctx, 'key', keys[1]!));
  }
  return { kind: kind as IntervalFilterKind, rule };
}
