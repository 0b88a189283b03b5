/**
 * `intervals` on one shard (IntervalQueryBuilder / IntervalsSourceProvider.getSource and
 * Elasticsearch's IntervalBuilder): the rule tree becomes a Lucene interval source
 * (interval-iterators.ts), and each doc with intervals scores as Lucene's IntervalQuery does —
 * a saturation of the sum over its intervals of 1 / (width - minExtent + 1), pivot 1.
 */
import {
  type IntervalRule,
  type IntervalsQuery,
  illegalArgument,
  queryShardException,
  ShoalError,
} from '@shoal/protocol';
import type { ResolvedField } from '../contract.ts';
import type { Postings } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { compareTerms } from '../index/term-order.ts';
import type { CompileEnv } from './compile-env.ts';
import { failedToCreateQuery } from './field-values.ts';
import { analyseGroups, NONE, searchAnalyzer } from './full-text.ts';
import { editDistance, fuzzyEdits } from './fuzzy.ts';
import {
  block,
  FilteredSource,
  type IntervalSource,
  maxGaps,
  NO_INTERVALS,
  NO_MORE,
  OrderedSource,
  or,
  TermsSource,
  UnorderedSource,
} from './interval-iterators.ts';
import { compileRegExp } from './regexp-automaton.ts';
import { DocScoreList, ScoredDocsWeight } from './scored-docs-weight.ts';
import { wildcardRegExp } from './segment-scans.ts';
import { lowercases } from './term-level.ts';
import type { Weight } from './weights.ts';

const f = Math.fround;
/** The most terms a multi-term rule expands to in one segment (IndexSearcher's max clause count). */
const MAX_EXPANSIONS = 1024;

export function intervalsQuery(env: CompileEnv, node: IntervalsQuery, boost: number): Weight {
  const field = env.mapping.field(node.field);
  if (!field) return NONE;
  let source: IntervalSource;
  try {
    source = buildSource(env, node.rule, field);
  } catch (e) {
    throw e instanceof ShoalError && e.type !== 'query_shard_exception' ? failedToCreateQuery(env, e) : e;
  }
  const minExtent = source.minExtent;
  return new ScoredDocsWeight((rs: ReaderSegment) => {
    const out = new DocScoreList();
    let docs: Int32Array;
    try {
      docs = source.docs(rs);
    } catch (e) {
      throw queryShardException(`failed to create query: ${(e as Error).message}`, env.index, env.indexUuid);
    }
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i]!;
      const it = source.iterator(rs, doc);
      if (it.next() === NO_MORE) continue;
      let freq = 0;
      do {
        freq = f(freq + f(1 / Math.max(it.end - it.start + 1 - minExtent + 1, 1)));
      } while (it.next() !== NO_MORE);
      out.push(doc, f(boost * f(1 - f(1 / f(1 + freq)))));
    }
    return out.done();
  });
}

/** MappedFieldType.termIntervals and friends: text fields only. */
function intervalField(env: CompileEnv, name: string): ResolvedField {
  const field = env.mapping.field(name);
  if (!field) throw illegalArgument(`Cannot create intervals over field [${name}] with no positions indexed`);
  if (field.type !== 'text') {
    throw illegalArgument(
      `Can only use interval queries on text fields - not on [${field.path}] which is of type [${field.mappedType ?? field.type}]`,
    );
  }
  return field;
}

/** IntervalsSourceProvider.getSource: the rule's source over `field` (or its `use_field`). */
function buildSource(env: CompileEnv, rule: IntervalRule, queryField: ResolvedField): IntervalSource {
  const field =
    rule.useField !== undefined ? intervalField(env, rule.useField) : intervalField(env, queryField.path);
  let source: IntervalSource;
  switch (rule.kind) {
    case 'match': {
      const analyzer = searchAnalyzer(env, field, rule.analyzer);
      const groups = analyseGroups(analyzer, rule.query);
      const sources = groups.map((g) => or(g.terms.map((t) => termSource(field.path, t))));
      source = combine(sources, rule.maxGaps, rule.ordered);
      break;
    }
    case 'all_of':
      source = combine(
        rule.intervals.map((r) => buildSource(env, r, queryField)),
        rule.maxGaps,
        rule.ordered,
      );
      break;
    case 'any_of':
      source = or(rule.intervals.map((r) => buildSource(env, r, queryField)));
      break;
    case 'prefix': {
      const prefix = normalize(field, rule.prefix, rule.analyzer);
      source = multiTerm(field.path, `${prefix}*`, (p) => {
        const out: string[] = [];
        for (const t of p.terms) if (t.startsWith(prefix)) out.push(t);
        return out;
      });
      break;
    }
    case 'wildcard': {
      const pattern = normalize(field, rule.pattern, rule.analyzer);
      const { re } = wildcardRegExp(pattern, false);
      source = multiTerm(field.path, pattern, (p) => p.terms.filter((t) => re.test(t)));
      break;
    }
    case 'regexp': {
      const pattern = normalize(field, rule.pattern, rule.analyzer);
      const rx = compileRegExp(pattern, 0xff, false);
      source = multiTerm(field.path, pattern, (p) => p.terms.filter((t) => rx.matches(t)));
      break;
    }
    case 'fuzzy': {
      const term = normalize(field, rule.term, rule.analyzer);
      const target = [...term];
      const edits = fuzzyEdits(rule.fuzziness, term);
      const prefix = target.slice(0, rule.prefixLength).join('');
      source = multiTerm(field.path, `${term}~${edits}`, (p) =>
        p.terms.filter((t) => {
          if (!t.startsWith(prefix)) return false;
          const cps = [...t];
          if (Math.abs(cps.length - target.length) > edits) return false;
          return editDistance(cps, target, edits, rule.transpositions) <= edits;
        }),
      );
      break;
    }
    case 'range': {
      const lo = rule.gte ?? rule.gt;
      const hi = rule.lte ?? rule.lt;
      const loN = lo === undefined ? undefined : normalize(field, lo, rule.analyzer);
      const hiN = hi === undefined ? undefined : normalize(field, hi, rule.analyzer);
      source = multiTerm(
        field.path,
        `${rule.gte !== undefined ? '[' : '{'}${loN}-${hiN}${rule.lte !== undefined ? ']' : '}'}`,
        (p) =>
          p.terms.filter((t) => {
            if (loN !== undefined) {
              const c = compareTerms(t, loN);
              if (c < 0 || (c === 0 && rule.gte === undefined)) return false;
            }
            if (hiN !== undefined) {
              const c = compareTerms(t, hiN);
              if (c > 0 || (c === 0 && rule.lte === undefined)) return false;
            }
            return true;
          }),
      );
      break;
    }
  }
  if (rule.filter) {
    const reference = buildSource(env, rule.filter.rule, queryField);
    source = new FilteredSource(source, reference, rule.filter.kind);
  }
  return source;
}

function termSource(field: string, term: string): IntervalSource {
  return new TermsSource(field, () => [term], term);
}

/** A multi-term source: Lucene refuses one that expands to too many terms in a segment. */
function multiTerm(field: string, pattern: string, expand: (p: Postings) => string[]): IntervalSource {
  return new TermsSource(
    field,
    (p) => {
      const terms = expand(p);
      if (terms.length > MAX_EXPANSIONS) {
        throw new Error(`Automaton [${pattern}] expanded to too many terms (limit ${MAX_EXPANSIONS})`);
      }
      return terms;
    },
    pattern,
  );
}

/** Analyzer.normalize of a pattern: the built-in analyzers lowercase. */
function normalize(field: ResolvedField, text: string, analyzer: string | undefined): string {
  return lowercases(analyzer ?? field.searchAnalyzer ?? field.analyzer) ? text.toLowerCase() : text;
}

/** IntervalBuilder.combineSources: a phrase for ordered with no gaps, else ordered or unordered with max_gaps. */
function combine(sources: IntervalSource[], gaps: number, ordered: boolean): IntervalSource {
  if (sources.length === 0) return NO_INTERVALS;
  if (sources.length === 1) return sources[0]!;
  if (gaps === 0 && ordered) return block(sources);
  const inner = ordered ? new OrderedSource(sources) : unordered(sources);
  return gaps === -1 ? inner : maxGaps(inner, gaps);
}

/**
 * UnorderedIntervalsSource.build: a source given more than once must match that many times
 * (RepeatingIntervalsSource: its copies in order), not once for every copy.
 */
function unordered(sources: IntervalSource[]): IntervalSource {
  const groups = new Map<string, IntervalSource[]>();
  const out: (IntervalSource | string)[] = [];
  for (const s of sources) {
    const key = s instanceof TermsSource ? `${s.field}\u0000${s.key}` : undefined;
    if (key === undefined) {
      out.push(s);
      continue;
    }
    const g = groups.get(key);
    if (g) g.push(s);
    else {
      groups.set(key, [s]);
      out.push(key);
    }
  }
  const subs = out.map((x) => {
    if (typeof x !== 'string') return x;
    const g = groups.get(x)!;
    return g.length === 1 ? g[0]! : new OrderedSource(g);
  });
  return subs.length === 1 ? subs[0]! : new UnorderedSource(subs);
}
