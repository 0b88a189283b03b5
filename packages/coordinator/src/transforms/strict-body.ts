/**
 * Strict reading of a transform body, as Elasticsearch's ObjectParser reads it: an unknown
 * field is a 400 `x_content_parse_exception` `[<line>:<col>] [<parser>] unknown field [<f>]`.
 * The body is already parsed; the position is found again in its text (the first place the
 * quoted name appears), which is where the parser would have stopped for a name used once.
 */
import { illegalArgument, xContentParse } from '@shoal/protocol';

export class BodyReader {
  constructor(private readonly text: string) {}

  static of(body: Buffer | undefined): BodyReader {
    return new BodyReader(body === undefined ? '' : body.toString('utf8'));
  }

  /** The line and column (1-based) where `"name"` first appears in the body, else 1:1. */
  locate(name: string): { line: number; col: number } {
    const at = this.text.indexOf(JSON.stringify(name));
    if (at < 0) return { line: 1, col: 1 };
    const before = this.text.slice(0, at);
    const line = before.split('\n').length;
    return { line, col: at - before.lastIndexOf('\n') };
  }

  known(parser: string, obj: Record<string, unknown>, keys: readonly string[]): void {
    for (const k of Object.keys(obj)) {
      if (!keys.includes(k)) {
        const at = this.locate(k);
        throw xContentParse(at.line, at.col, `[${parser}] unknown field [${k}]`);
      }
    }
  }
}

export function objectAt(parser: string, v: unknown): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw illegalArgument(`[${parser}] must be an object`);
  return v as Record<string, unknown>;
}
