/**
 * The queries that rescore another: `boosting` (BoostingQueryBuilder.fromXContent) and
 * `function_score` (FunctionScoreQueryBuilder.fromXContent), both hand-written token loops in
 * Elasticsearch 8, hence `parsing_exception`s. The score functions' bodies are in
 * score-functions.ts.
 */
import { illegalArgument } from '../errors/catalogue.ts';
import type { QueryNode, ScoreFunctionBody, ScoreFunctionSpec } from './ast.ts';
import { parsingError } from './local-errors.ts';
import { here, isObject, isValue, type ParseCtx, tokenOf } from './parse-context.ts';
import type { InnerParser } from './parse-query.ts';
import { enumValue, parseScoreFunction } from './score-functions.ts';
import { floatValue, text } from './xcontent-values.ts';

type FunctionScoreNode = Extract<QueryNode, { type: 'function_score' }>;

/** BoostingQueryBuilder.fromXContent: positive, negative and a non-negative negative_boost. */
export function parseBoosting(body: Record<string, unknown>, ctx: ParseCtx, inner: InnerParser): QueryNode {
  let positive: QueryNode | undefined;
  let negative: QueryNode | undefined;
  let negativeBoost = -1;
  let boost = 1;
  const unsupported = (key: string) =>
    parsingError(`[boosting] query does not support [${key}]`, here(ctx, 'value', key));
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (isObject(v)) {
      if (key !== 'positive' && key !== 'negative') throw unsupported(key);
      ctx.path.push(key);
      const q = inner(ctx, v);
      ctx.path.pop();
      if (key === 'positive') positive = q;
      else negative = q;
    } else if (isValue(v)) {
      if (key === 'negative_boost') negativeBoost = floatValue(ctx, v, key);
      else if (key === 'boost') boost = floatValue(ctx, v, key);
      else if (key === '_name') text(ctx, v, key);
      else throw unsupported(key);
    }
    // null (and, here, arrays) are tokens the loop has no branch for.
  }
  if (positive === undefined) {
    throw parsingError("[boosting] query requires 'positive' query to be set'", here(ctx, 'end'));
  }
  if (negative === undefined) {
    throw parsingError("[boosting] query requires 'negative' query to be set'", here(ctx, 'end'));
  }
  if (negativeBoost < 0) {
    throw parsingError(
      "[boosting] query requires 'negative_boost' to be set to be a positive value'",
      here(ctx, 'end'),
    );
  }
  return { type: 'boosting', positive, negative, negativeBoost, boost };
}

const SCORE_MODES = ['multiply', 'sum', 'avg', 'first', 'max', 'min'] as const;
const BOOST_MODES = ['multiply', 'replace', 'sum', 'avg', 'max', 'min'] as const;

const MISPLACED = 'you can either define [functions] array or a single function, not both. ';

/** FunctionScoreQueryBuilder.fromXContent. */
export function parseFunctionScore(
  body: Record<string, unknown>,
  ctx: ParseCtx,
  inner: InnerParser,
): QueryNode {
  const node: FunctionScoreNode = {
    type: 'function_score',
    query: { type: 'match_all', boost: 1 },
    functions: [],
    scoreMode: 'multiply',
    boostMode: 'multiply',
    // FunctionScoreQuery.DEFAULT_MAX_BOOST: Float.MAX_VALUE.
    maxBoost: 3.4028234663852886e38,
    boost: 1,
  };
  let single: string | undefined;
  let arrayFound = false;
  const misplaced = (what: string, key: string) =>
    parsingError(`failed to parse [function_score] query. [${MISPLACED}${what}]`, here(ctx, 'value', key));
  const alreadySingle = (key: string) =>
    parsingError(
      `failed to parse [function_score] query. already found function [${single}], now encountering [${key}]. use [functions] array if you want to define several functions.`,
      here(ctx, 'value', key),
    );
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (isObject(v)) {
      if (key === 'query') {
        ctx.path.push(key);
        node.query = inner(ctx, v);
        ctx.path.pop();
        continue;
      }
      if (single !== undefined) throw alreadySingle(key);
      if (arrayFound) throw misplaced(`already found [functions] array, now encountering [${key}].`, key);
      single = key;
      ctx.path.push(key);
      node.functions.push({ fn: parseScoreFunction(key, v, ctx) });
      ctx.path.pop();
    } else if (Array.isArray(v)) {
      if (key !== 'functions') {
        throw parsingError(
          `failed to parse [function_score] query. array [${key}] is not supported`,
          here(ctx, 'value', key),
        );
      }
      if (single !== undefined)
        throw misplaced(`already found [${single}], now encountering [functions].`, key);
      arrayFound = true;
      ctx.path.push(key);
      v.forEach((entry, i) => {
        ctx.path.push(i);
        node.functions.push(parseFunctionEntry(entry, ctx, inner));
        ctx.path.pop();
      });
      ctx.path.pop();
    } else if (isValue(v)) {
      switch (key) {
        case 'score_mode':
          node.scoreMode = enumValue(
            SCORE_MODES,
            text(ctx, v, key),
            'org.elasticsearch.common.lucene.search.function.FunctionScoreQuery.ScoreMode',
          );
          break;
        case 'boost_mode':
          node.boostMode = enumValue(
            BOOST_MODES,
            text(ctx, v, key),
            'org.elasticsearch.common.lucene.search.function.CombineFunction',
          );
          break;
        case 'max_boost':
          node.maxBoost = floatValue(ctx, v, key);
          break;
        case 'boost':
          node.boost = floatValue(ctx, v, key);
          break;
        case '_name':
          text(ctx, v, key);
          break;
        case 'min_score':
          node.minScore = floatValue(ctx, v, key);
          break;
        default: {
          if (single !== undefined) throw alreadySingle(key);
          if (arrayFound) throw misplaced(`already found [functions] array, now encountering [${key}].`, key);
          if (key !== 'weight') {
            throw parsingError(
              `failed to parse [function_score] query. field [${key}] is not supported`,
              here(ctx, 'value', key),
            );
          }
          node.functions.push({
            weight: checkWeight(ctx, floatValue(ctx, v, key), key),
            fn: { kind: 'weight' },
          });
          single = key;
        }
      }
    }
  }
  return node;
}

/** One object of the `functions` array: an optional filter, one function, an optional weight. */
function parseFunctionEntry(entry: unknown, ctx: ParseCtx, inner: InnerParser): ScoreFunctionSpec {
  if (!isObject(entry)) {
    // Elasticsearch passes its arguments in the wrong order here; the text is as it prints it.
    throw parsingError(
      `failed to parse [START_OBJECT]. malformed query, expected a [${tokenOf(entry)}] while parsing functions but got a [function_score] instead`,
      here(ctx, 'value'),
    );
  }
  let filter: QueryNode | undefined;
  let fn: { name: string; body: ScoreFunctionBody } | undefined;
  let weight: number | undefined;
  for (const key of Object.keys(entry)) {
    const v = entry[key];
    if (isObject(v)) {
      ctx.path.push(key);
      if (key === 'filter') {
        filter = inner(ctx, v);
      } else {
        if (fn !== undefined) {
          ctx.path.pop();
          throw parsingError(
            `failed to parse function_score functions. already found [${fn.name}], now encountering [${key}].`,
            here(ctx, 'value', key),
          );
        }
        fn = { name: key, body: parseScoreFunction(key, v, ctx) };
      }
      ctx.path.pop();
    } else if (isValue(v)) {
      if (key !== 'weight') {
        throw parsingError(
          `failed to parse [function_score] query. field [${key}] is not supported`,
          here(ctx, 'value', key),
        );
      }
      weight = floatValue(ctx, v, key);
    }
  }
  if (fn === undefined && weight === undefined) {
    throw parsingError(
      'failed to parse [function_score] query. an entry in functions list is missing a function.',
      here(ctx, 'end'),
    );
  }
  const spec: ScoreFunctionSpec = { fn: fn?.body ?? { kind: 'weight' } };
  if (weight !== undefined) spec.weight = checkWeight(ctx, weight);
  // A match_all filter is no filter (FunctionScoreQueryBuilder.doToQuery checks the name).
  if (filter !== undefined && filter.type !== 'match_all') spec.filter = filter;
  return spec;
}

/** ScoreFunctionBuilder.setWeight. */
function checkWeight(ctx: ParseCtx, weight: number, key?: string): number {
  if (weight < 0 || Object.is(weight, -0)) {
    if (key !== undefined) here(ctx, 'value', key);
    throw illegalArgument('[weight] cannot be negative for a filtering function');
  }
  return weight;
}
