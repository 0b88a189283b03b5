/**
 * A JSON syntax error at a position, turned into Elasticsearch's 400 body errors with
 * Jackson's line and column: columns count UTF-8 bytes, 1-based, and point just after the
 * offending character (Jackson's current location).
 */
import { malformedJson, truncatedJson } from '../errors/catalogue.ts';
import { JACKSON_SOURCE } from '../errors/catalogue-rest.ts';
import type { ShoalError } from '../errors/shoal-error.ts';

export class JsonSyntaxError extends Error {
  constructor(
    /** Jackson's text without its location. */
    readonly jacksonText: string,
    /** UTF-16 index just after the offending character. */
    readonly after: number,
    readonly endOfInput: boolean,
    /** A line break inside a string does not start a line for Jackson (it counts rows between tokens). */
    readonly lastCharInString = false,
  ) {
    super(jacksonText);
  }

  toShoalError(text: string): ShoalError {
    const { line, col } = JsonSyntaxError.location(text, this.after, this.lastCharInString);
    return this.endOfInput
      ? truncatedJson(line, col, this.jacksonText)
      : malformedJson(line, col, this.jacksonText);
  }

  /** For errors located in bytes rather than in decoded text (invalid UTF-8). */
  toShoalErrorAt(line: number, col: number): ShoalError {
    return this.endOfInput
      ? truncatedJson(line, col, this.jacksonText)
      : malformedJson(line, col, this.jacksonText);
  }

  /** Jackson's line (\n, \r\n and \r each end one) and 1-based UTF-8 column of the position `after`. */
  static location(text: string, after: number, lastCharInString = false): { line: number; col: number } {
    let line = 1;
    let lineStart = 0;
    const end = lastCharInString ? after - 1 : after;
    for (let k = 0; k < end && k < text.length; k++) {
      const c = text.charCodeAt(k);
      if (c === 0x0a || (c === 0x0d && text.charCodeAt(k + 1) !== 0x0a)) {
        line++;
        lineStart = k + 1;
      }
    }
    return { line, col: Buffer.byteLength(text.slice(lineStart, after), 'utf8') + 1 };
  }

  /** `[Source: …; line: L, column: C]` for a token that starts at `index` (Jackson's token location). */
  static sourceAt(text: string, index: number): string {
    const { line, col } = JsonSyntaxError.location(text, index);
    return `[Source: ${JACKSON_SOURCE}; line: ${line}, column: ${col}]`;
  }
}
