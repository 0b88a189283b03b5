/**
 * The Painless lexer: numbers (with Java's `L`, `F`, `D` suffixes, hex and octal-free decimal
 * forms), strings in single or double quotes with backslash escapes, identifiers, keywords and
 * operators. Every token keeps its offset in the source for `script_exception` positions.
 */
import { ScriptCompileError } from './script-error.ts';

export type TokenKind = 'num' | 'str' | 'id' | 'op' | 'eof';

export interface Token {
  kind: TokenKind;
  /** The operator or identifier text, the string's value, or the number's source text. */
  text: string;
  offset: number;
  /** Numbers: the value and whether Java types it integral (int/long) or floating. */
  num?: number;
  integral?: boolean;
}

/** Longest first, so `>>=` is not read as `>` `>=`. */
const OPERATORS = [
  '>>>=',
  '===',
  '!==',
  '>>>',
  '<<=',
  '>>=',
  '?.',
  '?:',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '<<',
  '>>',
  '->',
  '::',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>',
  '=',
  '!',
  '~',
  '&',
  '|',
  '^',
  '?',
  ':',
  '.',
  ',',
  ';',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
];

function isIdStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c === '$';
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      if (end < 0) throw new ScriptCompileError('unterminated comment', i);
      i = end + 2;
      continue;
    }
    const start = i;
    if (isDigit(c) || (c === '.' && isDigit(src[i + 1] ?? ''))) {
      out.push(readNumber(src, i));
      i = start + out[out.length - 1]!.text.length;
      continue;
    }
    if (isIdStart(c)) {
      while (i < n && (isIdStart(src[i]!) || isDigit(src[i]!))) i++;
      out.push({ kind: 'id', text: src.slice(start, i), offset: start });
      continue;
    }
    if (c === '"' || c === "'") {
      const { value, end } = readString(src, i);
      out.push({ kind: 'str', text: value, offset: start });
      i = end;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op === undefined) throw new ScriptCompileError(`unexpected character [${c}].`, i);
    out.push({ kind: 'op', text: op, offset: start });
    i += op.length;
  }
  out.push({ kind: 'eof', text: '<EOF>', offset: n });
  return out;
}

function readNumber(src: string, start: number): Token {
  let i = start;
  if (src[i] === '0' && (src[i + 1] === 'x' || src[i + 1] === 'X')) {
    i += 2;
    while (i < src.length && /[0-9a-fA-F]/.test(src[i]!)) i++;
    const digits = src.slice(start + 2, i);
    const integral = true;
    if (src[i] === 'L' || src[i] === 'l') i++;
    if (digits.length === 0)
      throw new ScriptCompileError(`invalid hex constant [${src.slice(start, i)}].`, start);
    return {
      kind: 'num',
      text: src.slice(start, i),
      offset: start,
      num: Number.parseInt(digits, 16),
      integral,
    };
  }
  while (i < src.length && isDigit(src[i]!)) i++;
  let integral = true;
  if (src[i] === '.' && isDigit(src[i + 1] ?? '')) {
    integral = false;
    i++;
    while (i < src.length && isDigit(src[i]!)) i++;
  }
  if (src[i] === 'e' || src[i] === 'E') {
    const save = i;
    i++;
    if (src[i] === '+' || src[i] === '-') i++;
    if (!isDigit(src[i] ?? '')) i = save;
    else {
      integral = false;
      while (i < src.length && isDigit(src[i]!)) i++;
    }
  }
  const body = src.slice(start, i);
  const suffix = src[i];
  if (suffix === 'L' || suffix === 'l') {
    if (!integral) throw new ScriptCompileError(`invalid long constant [${body}${suffix}].`, start);
    i++;
  } else if (suffix === 'f' || suffix === 'F' || suffix === 'd' || suffix === 'D') {
    integral = false;
    i++;
  }
  const value = Number(body);
  if (integral && !(suffix === 'L' || suffix === 'l') && (value > 2147483647 || value < -2147483648)) {
    throw new ScriptCompileError(
      `Invalid int constant [${body}]. If you want a long constant then change it to [${body}L].`,
      start,
    );
  }
  return { kind: 'num', text: src.slice(start, i), offset: start, num: value, integral };
}

function readString(src: string, start: number): { value: string; end: number } {
  const quote = src[start]!;
  let i = start + 1;
  let value = '';
  while (i < src.length) {
    const c = src[i]!;
    if (c === quote) return { value, end: i + 1 };
    if (c === '\\') {
      const e = src[i + 1];
      if (e === quote || e === '\\') value += e;
      else if (e === 'n') value += '\n';
      else if (e === 't') value += '\t';
      else if (e === 'r') value += '\r';
      else throw new ScriptCompileError(`unexpected escape [\\${e ?? ''}] in string.`, i);
      i += 2;
      continue;
    }
    value += c;
    i++;
  }
  throw new ScriptCompileError('unterminated string', start);
}
