/**
 * The errors Elasticsearch's ObjectParser gives for a body it cannot read, placed where the
 * field is in the body as the parser reports them.
 */
import { xContentParse } from '@shoal/protocol';
import type { SecurityRequest } from './route.ts';

function positionOf(req: SecurityRequest, field: string): { line: number; col: number } {
  const text = req.body?.toString('utf8') ?? '';
  const at = Math.max(0, text.indexOf(`"${field}"`));
  const before = text.slice(0, at);
  return { line: before.split('\n').length, col: at - before.lastIndexOf('\n') };
}

/** `[parser] unknown field [field]` for the first key not in `known`. */
export function checkFields(
  req: SecurityRequest,
  parser: string,
  body: Record<string, unknown>,
  known: readonly string[],
): void {
  for (const k of Object.keys(body)) {
    if (!known.includes(k)) {
      const { line, col } = positionOf(req, k);
      throw xContentParse(line, col, `[${parser}] unknown field [${k}]`);
    }
  }
}

/** A string field (absent or null: undefined); any other type is ObjectParser's failure. */
export function stringField(
  req: SecurityRequest,
  parser: string,
  body: Record<string, unknown>,
  field: string,
): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  const { line, col } = positionOf(req, field);
  throw xContentParse(line, col, `[${parser}] failed to parse field [${field}]`);
}
