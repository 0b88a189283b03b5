/** What each aggregation type's body parser gets, and what it returns. */
import type { ParseCtx } from '../../query/parse-context.ts';
import type { AggSpec } from './spec.ts';

export interface BodyContext {
  /** `ctx.path` ends with the aggregation type (`[..., "aggs", "by_tag", "terms"]`). */
  readonly ctx: ParseCtx;
  /** The aggregation's name. */
  readonly name: string;
  /** Deprecation warnings for the response's `Warning` headers. */
  readonly warnings: string[];
}

type WithoutTreeFields<T> = T extends AggSpec ? Omit<T, 'name' | 'meta' | 'aggs'> : never;

/** A spec before its name, `meta` and sub-aggregations are attached. */
export type SpecDraft = WithoutTreeFields<AggSpec>;

export type BodyParser = (b: BodyContext, body: Record<string, unknown>) => SpecDraft;

/** The draft of one aggregation type, writable while it is built. */
export type DraftOf<K extends SpecDraft['type']> = {
  -readonly [P in keyof Extract<SpecDraft, { type: K }>]: Extract<SpecDraft, { type: K }>[P];
};

export type Mutable<T> = { -readonly [P in keyof T]: T[P] };
