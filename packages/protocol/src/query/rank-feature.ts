/**
 * `rank_feature` (RankFeatureQueryBuilder): a `rank_feature` field, or one feature of a
 * `rank_features` field (`field.feature`), scored by one function — `saturation` (the default,
 * its pivot optional), `log` (`scaling_factor`), `sigmoid` (`pivot`, `exponent`) or `linear`.
 * The function's bounds are Lucene's (FeatureField) and are checked when the shard builds the
 * query.
 */
import { illegalArgument } from '../errors/catalogue.ts';
import type { QueryNode } from './ast.ts';
import { xContentParseError } from './local-errors.ts';
import {
  assertSupports,
  here,
  isObject,
  type ParseCtx,
  parseField,
  unknownField,
  VT,
} from './parse-context.ts';
import { floatValue, text } from './xcontent-values.ts';

export type RankFeatureFunction =
  | { kind: 'saturation'; pivot?: number }
  | { kind: 'log'; scalingFactor: number }
  | { kind: 'sigmoid'; pivot: number; exponent: number }
  | { kind: 'linear' };

export interface RankFeatureQuery {
  type: 'rank_feature';
  field: string;
  fn: RankFeatureFunction;
  boost: number;
}

const NAME = 'rank_feature';
const FUNCTIONS = ['log', 'saturation', 'sigmoid', 'linear'];
const FIELDS = ['field', ...FUNCTIONS, 'boost', '_name'];
const FUNCTION_FIELDS: Record<string, string[]> = {
  saturation: ['pivot'],
  log: ['scaling_factor'],
  sigmoid: ['pivot', 'exponent'],
  linear: [],
};

export function parseRankFeature(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  let field: string | undefined;
  let boost = 1;
  const fns: RankFeatureFunction[] = [];
  const seen: string[] = [];
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (key === 'field') {
      assertSupports(ctx, NAME, key, v, VT.STRING);
      field = text(ctx, v, key);
    } else if (key === 'boost') {
      assertSupports(ctx, NAME, key, v, VT.FLOAT);
      boost = floatValue(ctx, v, key);
    } else if (key === '_name') {
      assertSupports(ctx, NAME, key, v, VT.STRING);
    } else if (FUNCTIONS.includes(key)) {
      assertSupports(ctx, NAME, key, v, VT.OBJECT);
      seen.push(key);
      fns.push(parseField(ctx, NAME, key, () => parseFunction(ctx, key, v as Record<string, unknown>)));
    } else {
      throw unknownField(ctx, NAME, key, FIELDS);
    }
  }
  if (seen.length > 1) {
    throw xContentParseError(
      `[${NAME}] The following fields are not allowed together: [${seen.join(', ')}]`,
      here(ctx, 'end'),
    );
  }
  if (field === undefined) {
    here(ctx, 'end');
    throw illegalArgument('Required [field]');
  }
  return { type: 'rank_feature', field, fn: fns[0] ?? { kind: 'saturation' }, boost };
}

function parseFunction(ctx: ParseCtx, name: string, body: Record<string, unknown>): RankFeatureFunction {
  if (!isObject(body)) throw illegalArgument(`[${name}] expected an object`);
  const allowed = FUNCTION_FIELDS[name]!;
  const got: Record<string, number> = {};
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) throw unknownField(ctx, name, key, allowed);
    assertSupports(ctx, name, key, body[key], VT.FLOAT);
    got[key] = floatValue(ctx, body[key], key);
  }
  const required = (keys: string[]) => {
    const missing = keys.filter((k) => got[k] === undefined);
    if (missing.length > 0) {
      here(ctx, 'end');
      throw illegalArgument(`Required [${missing.join(', ')}]`);
    }
  };
  switch (name) {
    case 'saturation':
      return got.pivot === undefined ? { kind: 'saturation' } : { kind: 'saturation', pivot: got.pivot };
    case 'log':
      required(['scaling_factor']);
      return { kind: 'log', scalingFactor: got.scaling_factor! };
    case 'sigmoid':
      required(['pivot', 'exponent']);
      return { kind: 'sigmoid', pivot: got.pivot!, exponent: got.exponent! };
    default:
      return { kind: 'linear' };
  }
}
