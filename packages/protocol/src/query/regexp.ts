/**
 * The `regexp` query, as Elasticsearch 8's RegexpQueryBuilder.fromXContent: `{"f": "pattern"}` or
 * `{"f": {"value": …, "flags": …, "flags_value": …, "case_insensitive": …,
 * "max_determinized_states": …, "rewrite": …, "boost": …, "_name": …}}`, one field only, then the
 * constructor's checks. The pattern itself is Lucene's RegExp syntax, parsed on the shard.
 */
import { illegalArgument } from '../errors/catalogue.ts';
import type { QueryNode } from './ast.ts';
import { parsingError } from './local-errors.ts';
import { here, isObject, type ParseCtx } from './parse-context.ts';
import { checkSingleField, ctorError } from './term-level.ts';
import { booleanValue, floatValue, intValue, text, textOrNull } from './xcontent-values.ts';

type RegexpNode = Extract<QueryNode, { type: 'regexp' }>;

/**
 * Lucene 9's RegExp syntax flags, as RegexpFlag names them. ALL is Lucene's 0xff, which also
 * enables the named automata (`<name>`) that RegexpFlag does not name.
 */
export const REGEXP_FLAGS = {
  INTERSECTION: 0x01,
  COMPLEMENT: 0x02,
  EMPTY: 0x04,
  ANYSTRING: 0x08,
  INTERVAL: 0x20,
  NONE: 0,
  ALL: 0xff,
} as const;

/**
 * RegexpFlag.resolveValue: names separated by `|`, any case; empty or absent means ALL, NONE adds
 * nothing, ALL wins outright.
 */
export function resolveRegexpFlags(flags: string | null): number {
  if (flags === null || flags.length === 0) return REGEXP_FLAGS.ALL;
  let value = REGEXP_FLAGS.NONE as number;
  for (const name of flags.split('|')) {
    if (name.length === 0) continue;
    const upper = name.toUpperCase();
    if (!Object.hasOwn(REGEXP_FLAGS, upper)) throw illegalArgument(`Unknown regexp flag [${name}]`);
    if (upper === 'ALL') return REGEXP_FLAGS.ALL;
    value |= REGEXP_FLAGS[upper as keyof typeof REGEXP_FLAGS];
  }
  return value;
}

export function parseRegexp(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  let field: string | undefined;
  let value: string | null = null;
  const node: RegexpNode = {
    type: 'regexp',
    field: '',
    value: '',
    flags: REGEXP_FLAGS.ALL,
    caseInsensitive: false,
    // Operations.DEFAULT_DETERMINIZE_WORK_LIMIT.
    maxDeterminizedStates: 10000,
    boost: 1,
  };
  for (const key of Object.keys(body)) {
    const v = body[key];
    checkSingleField(ctx, 'regexp', field, key);
    field = key;
    if (!isObject(v)) {
      value = textOrNull(ctx, v, key);
      continue;
    }
    ctx.path.push(key);
    for (const ik of Object.keys(v)) {
      const iv = v[ik];
      switch (ik) {
        case 'value':
          value = textOrNull(ctx, iv, ik);
          break;
        case 'boost':
          node.boost = floatValue(ctx, iv, ik);
          break;
        case 'rewrite': {
          const rewrite = textOrNull(ctx, iv, ik);
          if (rewrite === null) delete node.rewrite;
          else node.rewrite = rewrite;
          break;
        }
        case 'flags': {
          const flags = textOrNull(ctx, iv, ik);
          here(ctx, 'value', ik);
          node.flags = resolveRegexpFlags(flags);
          break;
        }
        case 'max_determinized_states':
          node.maxDeterminizedStates = intValue(ctx, iv, ik);
          break;
        case 'flags_value':
          node.flags = intValue(ctx, iv, ik);
          break;
        case 'case_insensitive':
          node.caseInsensitive = booleanValue(ctx, iv, ik);
          break;
        case '_name':
          text(ctx, iv, ik);
          break;
        default:
          throw parsingError(`[regexp] query does not support [${ik}]`, here(ctx, 'value', ik));
      }
    }
    ctx.path.pop();
  }
  if (!field) throw ctorError(ctx, 'field name is null or empty');
  if (value === null) throw ctorError(ctx, 'value cannot be null');
  node.field = field;
  node.value = value;
  return node;
}
