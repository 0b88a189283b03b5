/**
 * Painless's vector functions for script_score (ScoreScriptUtils): `cosineSimilarity`,
 * `dotProduct`, `l1norm`, `l2norm` and `hamming` of a query vector (a list of numbers) and a
 * dense_vector field of the current document (its name, or `doc['field']`), and the field's
 * `vectorValue` and `magnitude`. The raw measure, as Elasticsearch gives it: a script adds its
 * own offset (`cosineSimilarity(...) + 1.0`) to keep scores positive.
 */
import { ScriptRuntimeError } from './script-error.ts';
import { DocField, type DocLookup } from './values.ts';

type Measure = (query: number[], doc: number[]) => number;

function dot(q: number[], d: number[]): number {
  let s = 0;
  for (let i = 0; i < q.length; i++) s += q[i]! * d[i]!;
  return s;
}

function norm(v: number[]): number {
  return Math.sqrt(dot(v, v));
}

export const VECTOR_FUNCTIONS: Readonly<Record<string, Measure>> = {
  cosineSimilarity: (q, d) => dot(q, d) / (norm(q) * norm(d)),
  dotProduct: dot,
  l1norm: (q, d) => {
    let s = 0;
    for (let i = 0; i < q.length; i++) s += Math.abs(q[i]! - d[i]!);
    return s;
  },
  l2norm: (q, d) => {
    let s = 0;
    for (let i = 0; i < q.length; i++) s += (q[i]! - d[i]!) ** 2;
    return Math.sqrt(s);
  },
  hamming: (q, d) => {
    let bits = 0;
    for (let i = 0; i < q.length; i++) {
      let x = (q[i]! ^ d[i]!) & 0xff;
      while (x) {
        bits += x & 1;
        x >>>= 1;
      }
    }
    return bits;
  },
};

/** `fn(queryVector, field)` on the current document. */
export function vectorFunction(
  name: string,
  lookup: DocLookup | undefined,
  query: unknown,
  field: unknown,
): number {
  const measure = VECTOR_FUNCTIONS[name]!;
  const values = field instanceof DocField ? field : docField(lookup, field);
  if (values.kind !== 'dense_vector') {
    throw new ScriptRuntimeError(
      'illegal_argument_exception',
      `field [${values.field}] is not a dense_vector field`,
    );
  }
  const doc = vectorOf(values);
  const q = queryVector(query);
  if (q.length !== doc.length) {
    throw new ScriptRuntimeError(
      'illegal_argument_exception',
      `The query vector has a different number of dimensions [${q.length}] than the document vectors [${doc.length}].`,
    );
  }
  return measure(q, doc);
}

function docField(lookup: DocLookup | undefined, field: unknown): DocField {
  if (!lookup) throw new ScriptRuntimeError('illegal_argument_exception', 'cannot resolve symbol [doc]');
  if (typeof field !== 'string') {
    throw new ScriptRuntimeError(
      'class_cast_exception',
      'the field of a vector function must be a field name',
    );
  }
  return lookup.get(field);
}

/** The document's vector (DenseVectorScriptDocValues.getVectorValue). */
export function vectorOf(d: DocField): number[] {
  if (d.values.length === 0) {
    throw new ScriptRuntimeError(
      'illegal_argument_exception',
      "A document doesn't have a value for a vector field!",
    );
  }
  return d.values[0] as number[];
}

/** The length of the document's vector. */
export function magnitudeOf(d: DocField): number {
  return norm(vectorOf(d));
}

function queryVector(v: unknown): number[] {
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'number')) {
    throw new ScriptRuntimeError('illegal_argument_exception', 'the query vector must be a list of numbers');
  }
  return v as number[];
}
