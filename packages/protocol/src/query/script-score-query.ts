/**
 * The `script_score` query (ScriptScoreQueryBuilder): the docs of `query`, each scoring what
 * `script` returns for it (`_score` there is the inner query's), times `boost`; `min_score`
 * drops docs scoring below it. Shoal runs it as the function_score it equals: one script
 * function that replaces the score.
 */

import { parseScriptSpec, type ScriptSpec } from '../script/script-spec.ts';
import type { QueryNode } from './ast.ts';
import { parsingError } from './local-errors.ts';
import { here, type ParseCtx } from './parse-context.ts';
import type { InnerParser } from './parse-query.ts';
import { floatValue } from './xcontent-values.ts';

export function parseScriptScoreQuery(
  body: Record<string, unknown>,
  ctx: ParseCtx,
  inner: InnerParser,
): QueryNode {
  let query: QueryNode | undefined;
  let script: ScriptSpec | undefined;
  let minScore: number | undefined;
  let boost = 1;
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (key === '_name') continue;
    if (!['query', 'script', 'min_score', 'boost'].includes(key)) {
      throw parsingError(`[script_score] query does not support [${key}]`, here(ctx, 'key', key));
    }
    ctx.path.push(key);
    if (key === 'query') query = inner(ctx, v);
    else if (key === 'script') script = parseScriptSpec(ctx, v);
    else if (key === 'min_score') minScore = floatValue(ctx, v);
    else boost = floatValue(ctx, v);
    ctx.path.pop();
  }
  if (query === undefined) throw parsingError("[script_score] requires 'query' field", here(ctx, 'end'));
  if (script === undefined) throw parsingError("[script_score] requires 'script' field", here(ctx, 'end'));
  const node: QueryNode = {
    type: 'function_score',
    query,
    functions: [{ fn: { kind: 'script', script } }],
    scoreMode: 'multiply',
    boostMode: 'replace',
    // Float.MAX_VALUE: no cap.
    maxBoost: 3.4028234663852886e38,
    boost,
  };
  if (minScore !== undefined) node.minScore = minScore;
  return node;
}
