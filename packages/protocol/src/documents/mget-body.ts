/**
 * The body of `_mget`, read as MultiGetRequest.add / parseDocuments / parseIds read it: `docs`
 * and `ids` arrays only, each `docs` item with Elasticsearch's known keys, and
 * MultiGetRequest.validate's messages for what is missing.
 */
import {
  actionRequestValidation,
  illegalArgument,
  parseException,
  parsingException,
} from '../errors/catalogue.ts';
import { here, isObject, isValue, newCtx, type ParseCtx, tokenOf } from '../query/parse-context.ts';
import { scalarText } from '../query/xcontent-values.ts';

export interface MgetItem {
  index?: string;
  id: string;
  routing?: string;
  /** `_source` as given in the item (boolean, string, array or object); undefined: the URL's. */
  source?: unknown;
}

function parseSourceObject(source: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(source)) {
    if (k !== 'includes' && k !== 'include' && k !== 'excludes' && k !== 'exclude') {
      throw parseException(`source definition may not contain [${k}]`);
    }
    if (Array.isArray(v) || isValue(v)) continue;
    throw parseException('unexpected token while parsing source settings');
  }
}

/**
 * Returns the documents to get, or throws: parsing_exception for a malformed body,
 * parse_exception for an unknown key in a `docs` item, action_request_validation_exception for
 * no documents or a missing `_index`/`_id`.
 */
export function parseMgetBody(body: unknown, defaultIndex: string | undefined): MgetItem[] {
  const ctx = newCtx(body);
  if (!isObject(body)) {
    throw parsingException(
      `unexpected token [${tokenOf(body)}], expected [START_OBJECT]`,
      here(ctx, 'value'),
    );
  }
  const items: { index?: string; id?: string; routing?: string; source?: unknown }[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (!Array.isArray(value)) {
      throw parsingException(
        `unexpected token [${tokenOf(value)}], expected [FIELD_NAME] or [START_ARRAY]`,
        here(ctx, 'value', key),
      );
    }
    if (key === 'docs') {
      value.forEach((doc, i) => {
        if (!isObject(doc)) throw illegalArgument('docs array element should include an object');
        ctx.path.push('docs', i);
        items.push(parseDoc(ctx, doc, defaultIndex));
        ctx.path.length = 0;
      });
    } else if (key === 'ids') {
      for (const id of value) {
        if (!isValue(id)) throw illegalArgument('ids array element should only contain ids');
        items.push({ index: defaultIndex, id: scalarText(id) });
      }
    } else {
      throw parsingException(
        `unknown key [${key}] for a START_ARRAY, expected [docs] or [ids]`,
        here(ctx, 'value', key),
      );
    }
  }
  const problems: string[] = [];
  items.forEach((d, i) => {
    if (d.index === undefined) problems.push(`index is missing for doc ${i}`);
    if (d.id === undefined) problems.push(`id is missing for doc ${i}`);
  });
  if (items.length === 0) problems.push('no documents to get');
  if (problems.length > 0) throw actionRequestValidation(problems);
  return items as MgetItem[];
}

function parseDoc(
  ctx: ParseCtx,
  doc: Record<string, unknown>,
  defaultIndex: string | undefined,
): { index?: string; id?: string; routing?: string; source?: unknown } {
  const out: { index?: string; id?: string; routing?: string; source?: unknown } = { index: defaultIndex };
  for (const [k, v] of Object.entries(doc)) {
    // A null value is skipped, as the Java loop only acts on values, arrays and objects.
    if (v === null) continue;
    if (k === 'fields') {
      throw parsingException(
        'Unsupported field [fields] used, expected [stored_fields] instead',
        here(ctx, 'value', k),
      );
    }
    if (isValue(v)) {
      switch (k) {
        case '_index':
          out.index = scalarText(v);
          break;
        case '_id':
          out.id = scalarText(v);
          break;
        case 'routing':
          out.routing = scalarText(v);
          break;
        case 'stored_fields':
        case 'version':
        case 'version_type':
          break;
        case '_source':
          if (typeof v !== 'boolean' && typeof v !== 'string') {
            throw parseException(`illegal type for _source: [${tokenOf(v)}]`);
          }
          out.source = v;
          break;
        default:
          throw parseException(`failed to parse multi get request. unknown field [${k}]`);
      }
    } else if (k === '_source') {
      if (isObject(v)) parseSourceObject(v);
      out.source = v;
    } else if (k !== 'stored_fields' || !Array.isArray(v)) {
      throw parseException(`failed to parse multi get request. unknown field [${k}]`);
    }
  }
  return out;
}
