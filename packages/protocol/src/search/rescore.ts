/**
 * The search body's `rescore`: one rescorer object or an array of them, applied in order.
 * RescorerBuilder.parseFromXContent reads `window_size` and the rescorer by name; the only
 * rescorer of Elasticsearch's default distribution is `query` (QueryRescorerBuilder, an
 * ObjectParser of `rescore_query`, `query_weight`, `rescore_query_weight` and `score_mode`).
 */
import { illegalArgument } from '../errors/catalogue.ts';
import type { QueryNode } from '../query/ast.ts';
import { namedObjectNotFound, parsingError } from '../query/local-errors.ts';
import {
  assertSupports,
  here,
  isObject,
  isValue,
  type ParseCtx,
  parseField,
  tokenOf,
  unknownField,
  VT,
} from '../query/parse-context.ts';
import { parseInnerQuery } from '../query/parse-query.ts';
import { floatValue, intValue, text } from '../query/xcontent-values.ts';

export type RescoreScoreMode = 'total' | 'multiply' | 'avg' | 'max' | 'min';

/** A query rescorer (QueryRescorer.QueryRescoreContext). */
export interface RescoreSpec {
  /** How many of a shard's top hits are rescored; RescorerBuilder.DEFAULT_WINDOW_SIZE is 10. */
  windowSize: number;
  query: QueryNode;
  queryWeight: number;
  rescoreQueryWeight: number;
  scoreMode: RescoreScoreMode;
}

const QUERY_RESCORER_FIELDS = ['rescore_query', 'query_weight', 'rescore_query_weight', 'score_mode'];
const SCORE_MODES: readonly RescoreScoreMode[] = ['avg', 'max', 'min', 'total', 'multiply'];

/** RescorerBuilder.parseFromXContent over the value at `ctx.path`. */
export function readRescorer(ctx: ParseCtx, v: unknown): RescoreSpec {
  if (!isObject(v)) {
    throw parsingError(`unexpected token [${tokenOf(v)}] after [rescore]`, here(ctx, 'value'));
  }
  let windowSize: number | undefined;
  let rescorer: Omit<RescoreSpec, 'windowSize'> | undefined;
  for (const key of Object.keys(v)) {
    const value = v[key];
    if (isValue(value)) {
      if (key !== 'window_size')
        throw parsingError(`rescore doesn't support [${key}]`, here(ctx, 'value', key));
      windowSize = intValue(ctx, value, key);
    } else if (isObject(value)) {
      if (key !== 'query') {
        const loc = here(ctx, 'key', key);
        throw namedObjectNotFound(key, loc);
      }
      ctx.path.push(key);
      rescorer = readQueryRescorer(ctx, value);
      ctx.path.pop();
    } else {
      throw parsingError(`unexpected token [${tokenOf(value)}] after [${key}]`, here(ctx, 'value', key));
    }
  }
  if (rescorer === undefined) throw parsingError('missing rescore type', here(ctx, 'end'));
  return { windowSize: windowSize ?? 10, ...rescorer };
}

function readQueryRescorer(ctx: ParseCtx, body: Record<string, unknown>): Omit<RescoreSpec, 'windowSize'> {
  let query: QueryNode | undefined;
  let queryWeight = 1;
  let rescoreQueryWeight = 1;
  let scoreMode: RescoreScoreMode = 'total';
  for (const key of Object.keys(body)) {
    const v = body[key];
    switch (key) {
      case 'rescore_query':
        assertSupports(ctx, 'query', key, v, VT.OBJECT);
        query = parseField(ctx, 'query', key, () => parseInnerQuery(ctx, v));
        break;
      case 'query_weight':
        assertSupports(ctx, 'query', key, v, VT.FLOAT);
        queryWeight = parseField(ctx, 'query', key, () => floatValue(ctx, v));
        break;
      case 'rescore_query_weight':
        assertSupports(ctx, 'query', key, v, VT.FLOAT);
        rescoreQueryWeight = parseField(ctx, 'query', key, () => floatValue(ctx, v));
        break;
      case 'score_mode':
        assertSupports(ctx, 'query', key, v, VT.STRING);
        scoreMode = parseField(ctx, 'query', key, () => {
          const s = text(ctx, v);
          const mode = SCORE_MODES.find((m) => m === s.toLowerCase());
          if (mode === undefined) throw illegalArgument(`illegal score_mode [${s}]`);
          return mode;
        });
        break;
      default:
        throw unknownField(ctx, 'query', key, QUERY_RESCORER_FIELDS);
    }
  }
  if (query === undefined) {
    here(ctx, 'end');
    throw illegalArgument('rescore_query cannot be null');
  }
  return { query, queryWeight, rescoreQueryWeight, scoreMode };
}
