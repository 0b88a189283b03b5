/**
 * Explanations of the rescoring queries: `function_score` as Elasticsearch's
 * FunctionScoreQuery, its ScoreFunctions and CombineFunction word them, and `boosting` as
 * Lucene's FunctionScoreQuery.boostByQuery. The value at the top is the weight's own score.
 */
import { javaDouble, javaFloat, longHash, type QueryNode } from '@shoal/protocol';
import { decayParams } from './decay-functions.ts';
import { javaMap, queryString, scriptText } from './explain-text.ts';
import {
  type ExplainEnv,
  type Explained,
  type Explanation,
  ex,
  match,
  matchesDoc,
  noMatch,
  scoreOf,
  unexplained,
} from './explanation.ts';
import type { BoostingWeight, FunctionScoreWeight } from './function-score.ts';

const f = Math.fround;

type FunctionScoreNode = Extract<QueryNode, { type: 'function_score' }>;
type ScoreFunctionSpec = FunctionScoreNode['functions'][number];

/** FunctionScoreQuery.CustomBoostFactorWeight#explain. */
export function explainFunctionScore(w: FunctionScoreWeight, x: ExplainEnv): Explained {
  const node = x.sources.get(w);
  if (node?.type !== 'function_score') return unexplained(w, x);
  const inner = x.explain(w.inner);
  if (!inner.matched) return inner;
  const { functions, scoreMode, boostMode, maxBoost, minScore } = w.opts;
  let expl = inner.e;
  if (functions.length > 0) {
    const sub = inner.e.value;
    const single = functions.length === 1 && functions[0]!.filter === null;
    const explained: Explanation[] = [];
    const values: number[] = [];
    const weights: number[] = [];
    functions.forEach(({ filter, fn }, i) => {
      if (filter && !matchesDoc(filter, x)) return;
      const value = fn.leaf(x.rs)(x.d, sub);
      const fe = functionExplanation(node.functions[i]!, value, sub, inner.e, x);
      values.push(value);
      weights.push(fn.weight);
      explained.push(
        filter
          ? ex(fe.value, 'function score, product of:', [
              ex(1, `match filter: ${queryString(filter, x)}`),
              fe,
            ])
          : fe,
      );
    });
    let factor: Explanation;
    if (explained.length === 0) factor = ex(1, 'No function matched');
    else if (single && explained.length === 1) factor = explained[0]!;
    else {
      factor = ex(
        f(computeScore(scoreMode, values, weights)),
        `function score, score mode [${scoreMode}]`,
        explained,
      );
    }
    expl = combineExplanation(boostMode, inner.e, factor, maxBoost);
  }
  const score = scoreOf(w, x);
  if (minScore !== undefined && (score === null || minScore > expl.value)) {
    return noMatch(
      `Score value is too low, expected at least ${javaFloat(minScore)} but got ${javaFloat(expl.value)}`,
      [expl],
    );
  }
  if (score === null) return unexplained(w, x);
  return match(score, expl.description, expl.details);
}

/** FunctionFactorScorer.computeScore over the functions whose filters match. */
function computeScore(mode: FunctionScoreNode['scoreMode'], values: number[], weights: number[]): number {
  switch (mode) {
    case 'first':
      return values[0] ?? 1;
    case 'max':
      return values.length === 0 ? 1 : Math.max(...values);
    case 'min':
      return values.length === 0 ? 1 : Math.min(...values);
    case 'multiply':
      return values.reduce((a, b) => a * b, 1);
    case 'sum':
    case 'avg': {
      const total = values.reduce((a, b) => a + b, 0);
      const weightSum = weights.reduce((a, b) => a + b, 0);
      if (weightSum === 0) return 1;
      return mode === 'avg' ? total / weightSum : total;
    }
  }
}

/** CombineFunction#explain: the query's score and the functions' factor, capped by max_boost. */
function combineExplanation(
  mode: FunctionScoreNode['boostMode'],
  query: Explanation,
  fn: Explanation,
  maxBoost: number,
): Explanation {
  const capped = f(Math.min(fn.value, f(maxBoost)));
  const minExpl = ex(capped, 'min of:', [fn, ex(maxBoost, 'maxBoost')]);
  const q = query.value;
  switch (mode) {
    case 'multiply':
      return ex(f(q * capped), 'function score, product of:', [query, minExpl]);
    case 'replace':
      return minExpl;
    case 'sum':
      return ex(f(capped + q), 'sum of', [query, minExpl]);
    case 'avg':
      return ex(f((capped + q) / 2), 'avg of', [query, minExpl]);
    case 'min':
      return ex(Math.min(capped, q), 'min of', [query, minExpl]);
    case 'max':
      return ex(Math.max(capped, q), 'max of:', [query, minExpl]);
  }
}

/** A function's explainScore, wrapped by WeightFactorFunction when it has a weight. */
function functionExplanation(
  spec: ScoreFunctionSpec,
  value: number,
  sub: number,
  subExpl: Explanation,
  x: ExplainEnv,
): Explanation {
  const weight = spec.weight;
  // The function's own value, before the weight multiplies it.
  const own = weight === undefined ? value : spec.fn.kind === 'weight' ? 1 : value / weight;
  const body = bodyExplanation(spec, own, sub, subExpl, x);
  if (weight === undefined) return body;
  return ex(f(body.value * f(weight)), 'product of:', [body, ex(weight, 'weight')]);
}

function bodyExplanation(
  spec: ScoreFunctionSpec,
  value: number,
  sub: number,
  subExpl: Explanation,
  x: ExplainEnv,
): Explanation {
  const fn = spec.fn;
  switch (fn.kind) {
    case 'weight':
      return ex(1, 'constant score 1.0 - no function provided');
    case 'field_value_factor': {
      const missing = fn.missing === undefined ? '' : `?:${javaDouble(fn.missing)}`;
      return ex(
        f(value),
        `field value function: ${fn.modifier}(doc['${fn.field}'].value${missing} * factor=${javaFloat(fn.factor)})`,
      );
    }
    case 'random_score': {
      const seed = fn.seed ?? longHash(BigInt(x.env.nowMillis));
      const field = fn.seed === undefined ? 'null' : (fn.field ?? '_seq_no');
      return ex(f(value), `random score function (seed: ${seed}, field: ${field})`);
    }
    case 'script':
      return ex(
        f(value),
        `script score function, computed with script:"${scriptText(fn.script)}" and parameters: \n${javaMap(fn.script.params)}`,
        [ex(sub, '_score: ', [subExpl])],
      );
    case 'decay':
      return ex(f(value), `Function for field ${fn.field}:`, decayDetail(fn, value, x));
  }
}

/** DecayFunction#explainFunction over getDistanceString, for numeric and date fields. */
function decayDetail(
  fn: Extract<ScoreFunctionSpec['fn'], { kind: 'decay' }>,
  value: number,
  x: ExplainEnv,
): Explanation[] {
  const p = decayParams(fn, x.env);
  const field = x.env.mapping.field(fn.field);
  if (!p || !field) return [];
  const n = x.rs.segment.field(field.path)?.numeric;
  const parts: string[] = [];
  if (n) {
    for (let i = n.starts[x.d]!; i < n.starts[x.d + 1]!; i++) {
      parts.push(
        `Math.max(Math.abs(${javaDouble(Number(n.values[i]!))}(=doc value) - ${javaDouble(p.origin)}(=origin))) - ${javaDouble(p.offset)}(=offset), 0)`,
      );
    }
  }
  const distance = `${fn.multiValueMode.toUpperCase()}[${parts.length > 0 ? parts.join(', ') : '0.0'}]`;
  const scale = javaDouble(-1 * p.scale);
  switch (fn.curve) {
    case 'gauss':
      return [ex(f(value), `exp(-0.5*pow(${distance},2.0)/${scale})`)];
    case 'exp':
      return [ex(f(value), `exp(- ${distance} * ${scale})`)];
    case 'linear':
      return [ex(f(value), `max(0.0, ((${javaDouble(p.scale)} - ${distance})/${javaDouble(p.scale)})`)];
  }
}

/**
 * Lucene's FunctionScoreQuery.boostByQuery: the positive query's explanation, times the
 * negative boost when the negative query matches, times the query's boost.
 */
export function explainBoosting(w: BoostingWeight, x: ExplainEnv): Explained {
  const positive = x.explain(w.positive);
  if (!positive.matched) return positive;
  let expl = positive.e;
  if (matchesDoc(w.negative, x)) {
    expl = ex(expl.value * w.negativeBoost, 'product of:', [
      expl,
      ex(w.negativeBoost, `Matched boosting query ${queryString(w.negative, x)}`),
    ]);
  }
  const score = scoreOf(w, x);
  if (score === null) return unexplained(w, x);
  if (w.boost !== 1) return match(score, 'product of:', [ex(w.boost, 'boost'), expl]);
  return match(score, expl.description, expl.details);
}
