/**
 * The body of `POST /{index}/_update/{id}` and of a bulk `update` line, read as
 * UpdateRequest.PARSER (an ObjectParser named `UpdateRequest`) reads it: known fields with their
 * value types, anything else an x_content_parse_exception positioned on the unknown field.
 */
import { illegalArgument } from '../errors/catalogue.ts';
import { xContentParseError } from '../query/local-errors.ts';
import {
  assertSupports,
  here,
  isObject,
  newCtx,
  type ParseCtx,
  parseField,
  type Token,
  tokenOf,
  unknownField,
  VT,
} from '../query/parse-context.ts';
import { booleanValue } from '../query/xcontent-values.ts';
import { parseScriptSpec, type ScriptSpec } from '../script/script-spec.ts';
import { checkIfPrimaryTerm, checkIfSeqNo } from './doc-write.ts';

const PARSER = 'UpdateRequest';
const FIELDS = [
  'script',
  'scripted_upsert',
  'upsert',
  'doc',
  'doc_as_upsert',
  'detect_noop',
  '_source',
  'if_seq_no',
  'if_primary_term',
];

const OBJECT_OR_STRING = new Set<Token>(['START_OBJECT', 'VALUE_STRING']);
const OBJECT_ARRAY_BOOLEAN_OR_STRING = new Set<Token>([
  'START_OBJECT',
  'START_ARRAY',
  'VALUE_BOOLEAN',
  'VALUE_STRING',
]);
const LONG = new Set<Token>(['VALUE_NUMBER', 'VALUE_STRING']);

export interface UpdateBody {
  doc?: Record<string, unknown>;
  upsert?: Record<string, unknown>;
  /** The script, a stored one resolved to its source when a lookup was given. */
  script?: ScriptSpec;
  scriptedUpsert?: boolean;
  docAsUpsert?: boolean;
  detectNoop?: boolean;
  /** `_source` as given (boolean, string, array or object), for the source filter. */
  source?: unknown;
  ifSeqNo?: number;
  ifPrimaryTerm?: number;
}

/** XContentParser.longValue() on a number or numeric string. */
function longValue(ctx: ParseCtx, v: unknown): number {
  const n = typeof v === 'string' ? Number(v.trim()) : Number(v);
  if (typeof v === 'string' && (v.trim() === '' || !Number.isFinite(n))) {
    here(ctx, 'value');
    throw illegalArgument(`For input string: "${v}"`);
  }
  return Math.trunc(n);
}

export function parseUpdateBody(
  body: unknown,
  storedScript?: (id: string) => { source: string; lang: string } | undefined,
): UpdateBody {
  const ctx = newCtx(body);
  if (storedScript) ctx.storedScript = storedScript;
  if (!isObject(body)) {
    throw xContentParseError(
      `[${PARSER}] Expected START_OBJECT but was: ${tokenOf(body)}`,
      here(ctx, 'value'),
    );
  }
  const out: UpdateBody = {};
  for (const [key, v] of Object.entries(body)) {
    switch (key) {
      case 'script':
        assertSupports(ctx, PARSER, key, v, OBJECT_OR_STRING);
        out.script = parseScriptSpec(ctx, v);
        break;
      case 'scripted_upsert':
        assertSupports(ctx, PARSER, key, v, VT.BOOLEAN);
        out.scriptedUpsert = parseField(ctx, PARSER, key, () => booleanValue(ctx, v));
        break;
      case 'upsert':
        assertSupports(ctx, PARSER, key, v, VT.OBJECT);
        out.upsert = v as Record<string, unknown>;
        break;
      case 'doc':
        assertSupports(ctx, PARSER, key, v, VT.OBJECT);
        out.doc = v as Record<string, unknown>;
        break;
      case 'doc_as_upsert':
        assertSupports(ctx, PARSER, key, v, VT.BOOLEAN);
        out.docAsUpsert = parseField(ctx, PARSER, key, () => booleanValue(ctx, v));
        break;
      case 'detect_noop':
        assertSupports(ctx, PARSER, key, v, VT.BOOLEAN);
        out.detectNoop = parseField(ctx, PARSER, key, () => booleanValue(ctx, v));
        break;
      case '_source':
        assertSupports(ctx, PARSER, key, v, OBJECT_ARRAY_BOOLEAN_OR_STRING);
        out.source = v;
        break;
      case 'if_seq_no':
        assertSupports(ctx, PARSER, key, v, LONG);
        out.ifSeqNo = parseField(ctx, PARSER, key, () => checkIfSeqNo(longValue(ctx, v)));
        break;
      case 'if_primary_term':
        assertSupports(ctx, PARSER, key, v, LONG);
        out.ifPrimaryTerm = parseField(ctx, PARSER, key, () => checkIfPrimaryTerm(longValue(ctx, v)));
        break;
      default:
        throw unknownField(ctx, PARSER, key, FIELDS);
    }
  }
  return out;
}
