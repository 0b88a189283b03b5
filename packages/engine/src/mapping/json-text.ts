/**
 * Reading `_source` text. The fast path is JSON.parse; a document with a run of 16+ digits goes
 * through the exact parser here, which keeps integers beyond 2^53 as bigint. The same scanner
 * finds a value's position for error locations (`[1:15] failed to parse field …`) and a
 * number's literal text (`1.0` is a float for dynamic mapping even though JSON.parse gives 1).
 */

export class JsonSyntaxError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

const BIG_DIGIT_RUN = /\d{16}/;

function isWs(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

function describe(text: string, i: number): string {
  if (i >= text.length) return 'Unexpected end-of-input';
  const ch = text[i]!;
  return `Unexpected character ('${ch}' (code ${ch.charCodeAt(0)}))`;
}

class Scanner {
  i = 0;
  constructor(readonly text: string) {}

  ws(): void {
    const t = this.text;
    while (this.i < t.length && isWs(t.charCodeAt(this.i))) this.i++;
  }

  fail(expected: string): never {
    throw new JsonSyntaxError(this.i, `${describe(this.text, this.i)}: ${expected}`);
  }

  stringEnd(): number {
    const t = this.text;
    let j = this.i + 1;
    while (j < t.length) {
      const c = t.charCodeAt(j);
      if (c === 34) return j + 1;
      if (c === 92) j += 2;
      else j++;
    }
    this.i = t.length;
    return this.fail('expected close marker for String');
  }

  readString(): string {
    const start = this.i;
    const end = this.stringEnd();
    this.i = end;
    const raw = this.text.slice(start + 1, end - 1);
    if (!raw.includes('\\')) return raw;
    try {
      return JSON.parse(this.text.slice(start, end)) as string;
    } catch {
      this.i = start;
      return this.fail('invalid escape in String');
    }
  }

  numberEnd(): number {
    const t = this.text;
    let j = this.i;
    if (t.charCodeAt(j) === 45) j++;
    const digits = j;
    while (j < t.length) {
      const c = t.charCodeAt(j);
      if ((c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45) j++;
      else break;
    }
    if (j === digits) this.fail('expected a value');
    return j;
  }

  /** Skips one value, returning its start offset. */
  skipValue(): number {
    this.ws();
    const start = this.i;
    const c = this.text.charCodeAt(this.i);
    if (c === 34) this.i = this.stringEnd();
    else if (c === 123 || c === 91) {
      const close = c === 123 ? 125 : 93;
      this.i++;
      this.ws();
      if (this.text.charCodeAt(this.i) === close) {
        this.i++;
        return start;
      }
      for (;;) {
        if (c === 123) {
          this.ws();
          if (this.text.charCodeAt(this.i) !== 34)
            this.fail('was expecting double-quote to start field name');
          this.i = this.stringEnd();
          this.ws();
          if (this.text.charCodeAt(this.i) !== 58)
            this.fail('was expecting a colon to separate field name and value');
          this.i++;
        }
        this.skipValue();
        this.ws();
        const d = this.text.charCodeAt(this.i);
        if (d === 44) {
          this.i++;
          continue;
        }
        if (d === close) {
          this.i++;
          return start;
        }
        this.fail(`was expecting comma to separate ${c === 123 ? 'Object' : 'Array'} entries`);
      }
    } else if (this.text.startsWith('true', this.i)) this.i += 4;
    else if (this.text.startsWith('false', this.i)) this.i += 5;
    else if (this.text.startsWith('null', this.i)) this.i += 4;
    else this.i = this.numberEnd();
    return start;
  }

  parseValue(): unknown {
    this.ws();
    const t = this.text;
    const c = t.charCodeAt(this.i);
    if (c === 34) return this.readString();
    if (c === 123) {
      this.i++;
      const obj: Record<string, unknown> = {};
      this.ws();
      if (t.charCodeAt(this.i) === 125) {
        this.i++;
        return obj;
      }
      for (;;) {
        this.ws();
        if (t.charCodeAt(this.i) !== 34) this.fail('was expecting double-quote to start field name');
        const key = this.readString();
        this.ws();
        if (t.charCodeAt(this.i) !== 58) this.fail('was expecting a colon to separate field name and value');
        this.i++;
        const v = this.parseValue();
        if (key === '__proto__')
          Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
        else obj[key] = v;
        this.ws();
        const d = t.charCodeAt(this.i);
        if (d === 44) {
          this.i++;
          continue;
        }
        if (d === 125) {
          this.i++;
          return obj;
        }
        this.fail('was expecting comma to separate Object entries');
      }
    }
    if (c === 91) {
      this.i++;
      const arr: unknown[] = [];
      this.ws();
      if (t.charCodeAt(this.i) === 93) {
        this.i++;
        return arr;
      }
      for (;;) {
        arr.push(this.parseValue());
        this.ws();
        const d = t.charCodeAt(this.i);
        if (d === 44) {
          this.i++;
          continue;
        }
        if (d === 93) {
          this.i++;
          return arr;
        }
        this.fail('was expecting comma to separate Array entries');
      }
    }
    if (t.startsWith('true', this.i)) {
      this.i += 4;
      return true;
    }
    if (t.startsWith('false', this.i)) {
      this.i += 5;
      return false;
    }
    if (t.startsWith('null', this.i)) {
      this.i += 4;
      return null;
    }
    const start = this.i;
    const end = this.numberEnd();
    const lit = t.slice(start, end);
    if (!/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(lit)) this.fail('expected a valid number');
    this.i = end;
    const n = Number(lit);
    if (!Number.isSafeInteger(n) && /^-?\d+$/.test(lit)) return BigInt(lit);
    return n;
  }
}

/** Parses a whole document, exactly (bigint for integers beyond 2^53). */
export function parseJsonExact(text: string): unknown {
  const s = new Scanner(text);
  const v = s.parseValue();
  s.ws();
  if (s.i < text.length) s.fail('expected end of content');
  return v;
}

/** JSON.parse, or the exact parser when the text has a run of 16+ digits. */
export function parseJsonSource(text: string): unknown {
  if (BIG_DIGIT_RUN.test(text)) return parseJsonExact(text);
  try {
    return JSON.parse(text);
  } catch {
    // Re-parse to report where and why, in Jackson's words.
    return parseJsonExact(text);
  }
}

/** Start offset of the value at `path` (object keys and array indexes), or -1. */
export function locateValue(text: string, path: readonly (string | number)[]): number {
  const s = new Scanner(text);
  try {
    s.ws();
    for (const seg of path) {
      const c = text.charCodeAt(s.i);
      if (typeof seg === 'number') {
        if (c !== 91) return -1;
        s.i++;
        for (let k = 0; ; k++) {
          s.ws();
          if (k === seg) break;
          s.skipValue();
          s.ws();
          if (text.charCodeAt(s.i) !== 44) return -1;
          s.i++;
        }
      } else {
        if (c !== 123) return -1;
        s.i++;
        let found = -1;
        s.ws();
        if (text.charCodeAt(s.i) === 125) return -1;
        for (;;) {
          s.ws();
          const key = s.readString();
          s.ws();
          s.i++;
          s.ws();
          // The last duplicate wins, as with JSON.parse.
          if (key === seg) found = s.i;
          s.skipValue();
          s.ws();
          if (text.charCodeAt(s.i) !== 44) break;
          s.i++;
        }
        if (found < 0) return -1;
        s.i = found;
      }
    }
    s.ws();
    return s.i;
  } catch {
    return -1;
  }
}

/** The literal text of the number at `path`, or undefined. */
export function numberLiteralAt(text: string, path: readonly (string | number)[]): string | undefined {
  const at = locateValue(text, path);
  if (at < 0) return undefined;
  const s = new Scanner(text);
  s.i = at;
  try {
    return text.slice(at, s.numberEnd());
  } catch {
    return undefined;
  }
}

/** `line:column` (1-based; columns count UTF-8 bytes like Jackson does on byte input). */
export function lineCol(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return `${line}:${Buffer.byteLength(text.slice(lineStart, offset)) + 1}`;
}
