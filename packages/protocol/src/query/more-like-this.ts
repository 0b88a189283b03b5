/**
 * `more_like_this` (MoreLikeThisQueryBuilder.fromXContent): `like` and `unlike` as texts or
 * items (`_index`/`_id` of a stored document, or an artificial `doc`), the fields, and the term
 * selection parameters with Elasticsearch's defaults. Items naming a stored document are
 * fetched by the coordinator before the search (their source becomes the item's `doc`).
 */
import { notImplemented, parseException } from '../errors/catalogue.ts';
import type { QueryNode } from './ast.ts';
import { parsingError } from './local-errors.ts';
import { here, isObject, isValue, type ParseCtx, tokenOf } from './parse-context.ts';
import { booleanValue, floatValue, intValue, text } from './xcontent-values.ts';

export interface MltItem {
  index?: string;
  id?: string;
  routing?: string;
  /** The document's source: given (an artificial document) or fetched for `_id`. */
  doc?: Record<string, unknown>;
  /** Whether `doc` was fetched for `_id` (the coordinator sets it). */
  fetched?: true;
  fields?: string[];
}

export interface MoreLikeThisQuery {
  type: 'more_like_this';
  /** Absent: the index's default fields. */
  fields?: string[];
  likeTexts: string[];
  likeItems: MltItem[];
  unlikeTexts: string[];
  unlikeItems: MltItem[];
  maxQueryTerms: number;
  minTermFreq: number;
  minDocFreq: number;
  maxDocFreq: number;
  minWordLength: number;
  maxWordLength: number;
  stopWords: string[];
  analyzer?: string;
  minimumShouldMatch: string;
  boostTerms: number;
  include: boolean;
  failOnUnsupportedField: boolean;
  boost: number;
}

const INT_MAX = 2147483647;

export function parseMoreLikeThis(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  const node: MoreLikeThisQuery = {
    type: 'more_like_this',
    likeTexts: [],
    likeItems: [],
    unlikeTexts: [],
    unlikeItems: [],
    maxQueryTerms: 25,
    minTermFreq: 2,
    minDocFreq: 5,
    maxDocFreq: INT_MAX,
    minWordLength: 0,
    maxWordLength: 0,
    stopWords: [],
    minimumShouldMatch: '30%',
    boostTerms: 0,
    include: false,
    failOnUnsupportedField: true,
    boost: 1,
  };
  const unsupported = (key: string) =>
    parsingError(`[mlt] query does not support [${key}]`, here(ctx, 'value', key));
  for (const key of Object.keys(body)) {
    const v = body[key];
    switch (key) {
      case 'like':
      case 'unlike': {
        const texts = key === 'like' ? node.likeTexts : node.unlikeTexts;
        const items = key === 'like' ? node.likeItems : node.unlikeItems;
        ctx.path.push(key);
        if (Array.isArray(v)) {
          v.forEach((x, i) => {
            likeValue(ctx, x, i, texts, items);
          });
        } else likeValue(ctx, v, undefined, texts, items);
        ctx.path.pop();
        break;
      }
      case 'fields':
      case 'stop_words': {
        if (!Array.isArray(v)) throw unsupported(key);
        ctx.path.push(key);
        const list = v.map((x, i) => text(ctx, x, i));
        ctx.path.pop();
        if (key === 'fields') node.fields = list;
        else node.stopWords = list;
        break;
      }
      case 'max_query_terms':
        node.maxQueryTerms = intValue(ctx, v, key);
        break;
      case 'min_term_freq':
        node.minTermFreq = intValue(ctx, v, key);
        break;
      case 'min_doc_freq':
        node.minDocFreq = intValue(ctx, v, key);
        break;
      case 'max_doc_freq':
        node.maxDocFreq = intValue(ctx, v, key);
        break;
      case 'min_word_length':
        node.minWordLength = intValue(ctx, v, key);
        break;
      case 'max_word_length':
        node.maxWordLength = intValue(ctx, v, key);
        break;
      case 'analyzer':
        node.analyzer = text(ctx, v, key);
        break;
      case 'minimum_should_match':
        node.minimumShouldMatch = text(ctx, v, key);
        break;
      case 'boost_terms':
        node.boostTerms = floatValue(ctx, v, key);
        break;
      case 'include':
        node.include = booleanValue(ctx, v, key);
        break;
      case 'fail_on_unsupported_field':
        node.failOnUnsupportedField = booleanValue(ctx, v, key);
        break;
      case 'boost':
        node.boost = floatValue(ctx, v, key);
        break;
      case '_name':
        text(ctx, v, key);
        break;
      default:
        throw unsupported(key);
    }
  }
  if (node.likeTexts.length === 0 && node.likeItems.length === 0) {
    throw parsingError("more_like_this requires 'like' to be specified", here(ctx, 'end'));
  }
  if (node.fields !== undefined && node.fields.length === 0) {
    throw parsingError("more_like_this requires 'fields' to be non-empty", here(ctx, 'end'));
  }
  return node;
}

function likeValue(
  ctx: ParseCtx,
  v: unknown,
  i: number | undefined,
  texts: string[],
  items: MltItem[],
): void {
  if (typeof v === 'string') texts.push(v);
  else if (isObject(v)) {
    if (i !== undefined) ctx.path.push(i);
    items.push(parseItem(ctx, v));
    if (i !== undefined) ctx.path.pop();
  } else if (isValue(v)) texts.push(String(v));
  else throw parsingError(`[mlt] query does not support [${tokenOf(v)}]`, here(ctx, 'value', i));
}

const ITEM_ERROR = 'failed to parse More Like This item.';

/** MoreLikeThisQueryBuilder.Item.parse. */
function parseItem(ctx: ParseCtx, body: Record<string, unknown>): MltItem {
  const item: MltItem = {};
  for (const key of Object.keys(body)) {
    const v = body[key];
    switch (key) {
      case '_index':
        item.index = text(ctx, v, key);
        break;
      case '_id':
        item.id = text(ctx, v, key);
        break;
      case 'routing':
        item.routing = text(ctx, v, key);
        break;
      case 'doc':
        if (!isObject(v)) throw parseException(`${ITEM_ERROR} doc must be an object`);
        item.doc = v;
        break;
      case 'fields':
        if (!Array.isArray(v)) throw parseException(`${ITEM_ERROR} fields must be an array`);
        ctx.path.push(key);
        item.fields = v.map((x, i) => text(ctx, x, i));
        ctx.path.pop();
        break;
      case 'per_field_analyzer':
        here(ctx, 'value', key);
        throw notImplemented('[per_field_analyzer] in more_like_this items');
      case 'version':
      case 'version_type':
        break;
      default:
        throw parseException(`${ITEM_ERROR} unknown field [${key}]`);
    }
  }
  if (item.id !== undefined && item.doc !== undefined) {
    throw parseException(`${ITEM_ERROR} either [id] or [doc] can be specified, but not both!`);
  }
  if (item.id === undefined && item.doc === undefined) {
    throw parseException(`${ITEM_ERROR} neither [id] nor [doc] is specified!`);
  }
  return item;
}
