/**
 * The search body's `highlight` object, read as Elasticsearch's HighlightBuilder reads it: the
 * options of AbstractHighlighterBuilder at the top level and on each field (`fields` as an
 * object, or as an array of one-key objects), `tags_schema` and `encoder`, the pre/post tags
 * checks. Options a field leaves out fall back to the top level, then to the defaults
 * (HighlightBuilder.defaultOptions): the shard merges them (resolveHighlightField).
 */
import { illegalArgument, notImplemented } from '../errors/catalogue.ts';
import type { QueryNode } from '../query/ast.ts';
import { parsingError, xContentParseError } from '../query/local-errors.ts';
import { here, type ParseCtx } from '../query/parse-context.ts';
import { parseInnerQuery } from '../query/parse-query.ts';
import { booleanValue, intValue, text } from '../query/xcontent-values.ts';
import { type DeclaredField, readDeclared, TOKENS } from './aggs/object-parser.ts';

/** The options shared by the top level and each field; absent means "not set here". */
export interface HighlightOptions {
  preTags?: string[];
  postTags?: string[];
  fragmentSize?: number;
  numberOfFragments?: number;
  encoder?: 'default' | 'html';
  noMatchSize?: number;
  scoreOrdered?: boolean;
  requireFieldMatch?: boolean;
  boundaryScanner?: 'sentence' | 'word';
  maxAnalyzedOffset?: number;
  highlightQuery?: QueryNode;
}

export interface HighlightFieldSpec {
  /** A field name or a `*` pattern. */
  name: string;
  options: HighlightOptions;
}

export interface HighlightSpec {
  global: HighlightOptions;
  fields: HighlightFieldSpec[];
}

/** The options of one field with every default filled in (SearchHighlightContext.FieldOptions). */
export interface ResolvedHighlightOptions {
  preTag: string;
  postTag: string;
  fragmentSize: number;
  numberOfFragments: number;
  encoder: 'default' | 'html';
  noMatchSize: number;
  scoreOrdered: boolean;
  requireFieldMatch: boolean;
  boundaryScanner: 'sentence' | 'word';
  maxAnalyzedOffset?: number;
  highlightQuery?: QueryNode;
}

const STYLED_PRE_TAGS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => `<em class="hlt${n}">`);

/** A field's options over the top level's over HighlightBuilder's defaults. */
export function resolveHighlightField(
  spec: HighlightSpec,
  field: HighlightFieldSpec,
): ResolvedHighlightOptions {
  const o = { ...spec.global, ...definedOnly(field.options) };
  const r: ResolvedHighlightOptions = {
    preTag: o.preTags?.[0] ?? '<em>',
    postTag: o.postTags?.[0] ?? '</em>',
    fragmentSize: o.fragmentSize ?? 100,
    numberOfFragments: o.numberOfFragments ?? 5,
    encoder: o.encoder ?? 'default',
    noMatchSize: o.noMatchSize ?? 0,
    scoreOrdered: o.scoreOrdered ?? false,
    requireFieldMatch: o.requireFieldMatch ?? true,
    boundaryScanner: o.boundaryScanner ?? 'sentence',
  };
  if (o.maxAnalyzedOffset !== undefined) r.maxAnalyzedOffset = o.maxAnalyzedOffset;
  if (o.highlightQuery !== undefined) r.highlightQuery = o.highlightQuery;
  return r;
}

function definedOnly(o: HighlightOptions): HighlightOptions {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as HighlightOptions;
}

function stringArray(ctx: ParseCtx, v: unknown): string[] {
  if (typeof v === 'string') return [v];
  return (v as unknown[]).map((x, i) => text(ctx, x, i));
}

/** The declared fields of AbstractHighlighterBuilder.setupParser, reading into `o`. */
function commonFields(ctx: ParseCtx, o: HighlightOptions): Record<string, DeclaredField> {
  const int = (v: unknown) => intValue(ctx, v);
  return {
    pre_tags: { tokens: TOKENS.STRING_ARRAY, read: (v) => (o.preTags = stringArray(ctx, v)) },
    post_tags: { tokens: TOKENS.STRING_ARRAY, read: (v) => (o.postTags = stringArray(ctx, v)) },
    order: {
      tokens: TOKENS.STRING,
      // HighlightBuilder.Order.fromString: `score`, anything else is NONE.
      read: (v) => (o.scoreOrdered = text(ctx, v).toLowerCase() === 'score'),
    },
    highlight_filter: { tokens: TOKENS.BOOLEAN, read: (v) => booleanValue(ctx, v) },
    fragment_size: { tokens: TOKENS.NUMBER, read: (v) => (o.fragmentSize = int(v)) },
    number_of_fragments: { tokens: TOKENS.NUMBER, read: (v) => (o.numberOfFragments = int(v)) },
    encoder: {
      tokens: TOKENS.STRING,
      // SearchHighlightContext: `html` selects the HTML encoder, any other name the default one.
      read: (v) => (o.encoder = text(ctx, v) === 'html' ? 'html' : 'default'),
    },
    tags_schema: {
      tokens: TOKENS.STRING,
      read: (v) => {
        const schema = text(ctx, v);
        if (schema === 'default') {
          o.preTags = ['<em>'];
          o.postTags = ['</em>'];
        } else if (schema === 'styled') {
          o.preTags = STYLED_PRE_TAGS;
          o.postTags = ['</em>'];
        } else throw illegalArgument(`Unknown tag schema [${schema}]`);
      },
    },
    require_field_match: {
      tokens: TOKENS.BOOLEAN,
      read: (v) => (o.requireFieldMatch = booleanValue(ctx, v)),
    },
    boundary_scanner: {
      tokens: TOKENS.STRING,
      read: (v) => {
        const name = text(ctx, v).toLowerCase();
        if (name === 'sentence' || name === 'word') o.boundaryScanner = name;
        else if (name === 'chars') {
          throw notImplemented('the [chars] boundary_scanner (of the fvh highlighter)');
        } else throw illegalArgument(`Invalid boundary scanner type: ${text(ctx, v)}`);
      },
    },
    // Options of the fvh and plain highlighters: the unified highlighter does not read them.
    boundary_max_scan: { tokens: TOKENS.NUMBER, read: (v) => int(v) },
    boundary_chars: { tokens: TOKENS.STRING, read: (v) => text(ctx, v) },
    boundary_scanner_locale: { tokens: TOKENS.STRING, read: (v) => readLocale(ctx, v) },
    type: {
      tokens: TOKENS.STRING,
      read: (v) => {
        const type = text(ctx, v);
        if (type === 'unified') return;
        if (type === 'fvh')
          throw notImplemented('the fvh highlighter (it needs term vectors with positions and offsets)');
        if (type === 'plain') throw notImplemented('the plain highlighter (type [plain])');
        throw notImplemented(`the highlighter type [${type}]`);
      },
    },
    fragmenter: {
      tokens: TOKENS.STRING,
      read: (v) => {
        const f = text(ctx, v);
        // Only the plain highlighter reads it (and refuses other names there).
        if (f !== 'simple' && f !== 'span') throw notImplemented(`the fragmenter [${f}]`);
      },
    },
    no_match_size: { tokens: TOKENS.NUMBER, read: (v) => (o.noMatchSize = int(v)) },
    phrase_limit: { tokens: TOKENS.NUMBER, read: (v) => int(v) },
    max_analyzed_offset: {
      tokens: TOKENS.NUMBER,
      read: (v) => {
        const n = int(v);
        if (n <= 0) throw illegalArgument('[max_analyzed_offset] must be a positive integer');
        o.maxAnalyzedOffset = n;
      },
    },
    options: { tokens: TOKENS.OBJECT, read: () => {} },
    force_source: { tokens: TOKENS.BOOLEAN, read: (v) => booleanValue(ctx, v) },
    highlight_query: {
      tokens: TOKENS.OBJECT,
      read: (v) => (o.highlightQuery = parseInnerQuery(ctx, v as Record<string, unknown>)),
    },
  };
}

function readLocale(ctx: ParseCtx, v: unknown): void {
  const tag = text(ctx, v);
  // Sentence and word breaks are those of Locale.ROOT; other locales' rules are not modelled.
  if (tag !== '' && !/^en([-_].*)?$/i.test(tag) && tag.toLowerCase() !== 'root') {
    throw notImplemented(`boundary_scanner_locale [${tag}]`);
  }
}

/** The pre/post tags checks setupParser makes once the object is read. */
function checkTags(ctx: ParseCtx, o: HighlightOptions): void {
  if (o.preTags !== undefined && o.postTags === undefined) {
    throw parsingError('pre_tags are set but post_tags are not set', here(ctx, 'end'));
  }
  if (
    o.preTags !== undefined &&
    o.postTags !== undefined &&
    (o.preTags.length === 0 || o.postTags.length === 0)
  ) {
    throw parsingError('pre_tags or post_tags must not be empty', here(ctx, 'end'));
  }
}

function readField(ctx: ParseCtx, name: string, body: unknown): HighlightFieldSpec {
  const options: HighlightOptions = {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw xContentParseError(
      `[highlight_field] ${name} doesn't support values of type: VALUE`,
      here(ctx, 'value'),
    );
  }
  const fields = commonFields(ctx, options);
  fields.fragment_offset = { tokens: TOKENS.NUMBER, read: (v) => intValue(ctx, v) };
  fields.matched_fields = {
    tokens: TOKENS.STRING_ARRAY,
    read: () => {
      throw notImplemented('matched_fields');
    },
  };
  readDeclared(ctx, 'highlight_field', body as Record<string, unknown>, fields);
  checkTags(ctx, options);
  return { name, options };
}

/** ObjectParser.declareNamedObjects: an object of named objects, or an array of one-key objects. */
function readFields(ctx: ParseCtx, v: unknown): HighlightFieldSpec[] {
  const out: HighlightFieldSpec[] = [];
  if (Array.isArray(v)) {
    v.forEach((entry, i) => {
      ctx.path.push(i);
      if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
        throw xContentParseError(
          '[highlight] fields must be an object or an array of objects, each with one named field',
          here(ctx, 'value'),
        );
      }
      const keys = Object.keys(entry);
      if (keys.length !== 1) {
        throw xContentParseError(
          `[highlight] fields can be a single object with any number of fields or an array where each entry is an object with a single field`,
          here(ctx, 'value'),
        );
      }
      ctx.path.push(keys[0]!);
      out.push(readField(ctx, keys[0]!, (entry as Record<string, unknown>)[keys[0]!]));
      ctx.path.pop();
      ctx.path.pop();
    });
    return out;
  }
  for (const [name, body] of Object.entries(v as Record<string, unknown>)) {
    ctx.path.push(name);
    out.push(readField(ctx, name, body));
    ctx.path.pop();
  }
  return out;
}

/** Reads the `highlight` object at `ctx.path`. */
export function readHighlight(ctx: ParseCtx, body: Record<string, unknown>): HighlightSpec {
  const global: HighlightOptions = {};
  let fields: HighlightFieldSpec[] = [];
  const declared = commonFields(ctx, global);
  declared.fields = { tokens: TOKENS.OBJECT_ARRAY, read: (v) => (fields = readFields(ctx, v)) };
  readDeclared(ctx, 'highlight', body, declared);
  checkTags(ctx, global);
  return { global, fields };
}
