/**
 * `rank_feature` (RankFeatureQueryBuilder over Lucene's FeatureField queries): a doc with the
 * feature scores a function of its value — saturation `f / (f + pivot)`, log
 * `ln(scaling_factor + f)`, sigmoid `f^a / (f^a + pivot^a)` or linear `f` — times the boost.
 * The value is read as FeatureField keeps it: in a term frequency holding the float's top 17
 * bits, so scores use that truncated value; saturation without a pivot takes the shard's
 * average of the feature (FeatureField.computePivotFeatureValue).
 */
import { illegalArgument, type RankFeatureQuery, ShoalError } from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { CompileEnv } from './compile-env.ts';
import { failedToCreateQuery } from './field-values.ts';
import { NONE } from './full-text.ts';
import { NO_MATCHES } from './matches.ts';
import { DocScoreList, ScoredDocsWeight } from './scored-docs-weight.ts';
import type { Weight } from './weights.ts';

const f = Math.fround;
const view = new DataView(new ArrayBuffer(4));

/** FeatureField's term frequency for a value: the float's bits without the low 15. */
export function featureFreq(value: number): number {
  view.setFloat32(0, value);
  return view.getInt32(0) >>> 15;
}

/** FeatureField.decodeFeatureValue: the float a term frequency stands for. */
export function decodeFeature(freq: number): number {
  view.setInt32(0, Math.trunc(freq) << 15);
  return view.getFloat32(0);
}

/** The value as the index keeps it (its top 17 bits). */
function stored(value: number): number {
  return decodeFeature(featureFreq(value));
}

/** Where the feature's values are: the field (a rank_feature) or `parent.feature` (rank_features). */
function locate(env: CompileEnv, name: string): { path: string; positive: boolean } | undefined {
  const field = env.mapping.field(name);
  if (field) {
    if (field.mappedType === 'rank_feature')
      return { path: field.path, positive: field.positiveScoreImpact !== false };
    throw illegalArgument(
      `[rank_feature] query only works on [rank_feature] fields and features of [rank_features] fields, not [${field.mappedType ?? field.type}]`,
    );
  }
  const dot = name.lastIndexOf('.');
  if (dot < 0) return undefined;
  const parent = env.mapping.field(name.slice(0, dot));
  if (parent?.mappedType !== 'rank_features') return undefined;
  return { path: name, positive: parent.positiveScoreImpact !== false };
}

export function rankFeatureQuery(env: CompileEnv, node: RankFeatureQuery, boost: number): Weight {
  let at: ReturnType<typeof locate>;
  try {
    at = locate(env, node.field);
  } catch (e) {
    throw e instanceof ShoalError ? failedToCreateQuery(env, e) : e;
  }
  if (!at) return NONE;
  const { path } = at;
  const score = scoreFunction(env, node, at.positive, path, boost);
  return new ScoredDocsWeight((rs: ReaderSegment) => {
    const n = rs.segment.field(path)?.numeric;
    if (!n) return NO_MATCHES;
    const out = new DocScoreList();
    for (let doc = 0; doc < rs.segment.maxDoc; doc++) {
      const s = n.starts[doc]!;
      if (s === n.starts[doc + 1]!) continue;
      out.push(doc, score(stored(Number(n.values[s]!))));
    }
    return out.done();
  });
}

function scoreFunction(
  env: CompileEnv,
  node: RankFeatureQuery,
  positive: boolean,
  path: string,
  boost: number,
): (value: number) => number {
  const fn = node.fn;
  const fail = (reason: string) => failedToCreateQuery(env, illegalArgument(reason));
  switch (fn.kind) {
    case 'saturation': {
      const pivot = fn.pivot ?? averageFeature(env, path);
      if (!(pivot > 0) || !Number.isFinite(pivot)) throw fail(`pivot must be > 0, got: ${pivot}`);
      // Lucene writes f / (f + k) as 1 - k / (f + k), so that it never decreases with f.
      return (v) => f(boost * f(1 - f(pivot / f(v + pivot))));
    }
    case 'log': {
      if (!positive) {
        throw fail(
          'Cannot use the [log] function with a field that has a negative score impact as it would trigger negative scores',
        );
      }
      const sf = fn.scalingFactor;
      if (!(sf >= 1) || !Number.isFinite(sf)) throw fail(`scalingFactor must be >= 1, got: ${sf}`);
      return (v) => f(boost * Math.log(f(sf + v)));
    }
    case 'sigmoid': {
      const { pivot, exponent } = fn;
      if (!(pivot > 0) || !Number.isFinite(pivot)) throw fail(`pivot must be > 0, got: ${pivot}`);
      if (!(exponent > 0) || !Number.isFinite(exponent)) throw fail(`exp must be > 0, got: ${exponent}`);
      const kPa = pivot ** exponent;
      return (v) => f(boost * (1 - kPa / (v ** exponent + kPa)));
    }
    case 'linear':
      return (v) => f(boost * v);
  }
}

/**
 * FeatureField.computePivotFeatureValue: the value of the average term frequency of the
 * feature over the shard's docs that have it (1 when none does).
 */
function averageFeature(env: CompileEnv, path: string): number {
  let total = 0;
  let docs = 0;
  for (const rs of env.reader.segments) {
    const n = rs.segment.field(path)?.numeric;
    if (!n) continue;
    for (let doc = 0; doc < rs.segment.maxDoc; doc++) {
      const s = n.starts[doc]!;
      if (s === n.starts[doc + 1]!) continue;
      total += featureFreq(Number(n.values[s]!));
      docs++;
    }
  }
  if (docs === 0) return 1;
  return decodeFeature(f(total / docs));
}
