/**
 * Where a token sits in a request body, as Elasticsearch reports it (`"line":1,"col":17`, or the
 * `[1:17]` prefix of an `x_content_parse_exception`). Bodies reach the parsers already decoded, so
 * the position is computed on the body's compact serialisation: the one-line, space-free JSON that
 * the official clients send. Only error paths call this, so it may walk and measure freely.
 */
export interface Loc {
  line: number;
  col: number;
}

export type PathSeg = string | number;

/** `key`: the field name's opening quote; `value`: the value's first char; `end`: its last char. */
export type At = 'key' | 'value' | 'end';

export function locate(root: unknown, path: readonly PathSeg[], at: At): Loc {
  let offset = 0;
  let node: unknown = root;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i]!;
    if (Array.isArray(node) && typeof seg === 'number') {
      offset += 1;
      for (let j = 0; j < seg && j < node.length; j++) offset += compactLength(node[j]) + 1;
      node = node[seg];
    } else if (isPlainObject(node) && typeof seg === 'string') {
      offset += 1;
      for (const k of Object.keys(node)) {
        if (k === seg) break;
        offset += compactLength(k) + 1 + compactLength(node[k]) + 1;
      }
      if (i === path.length - 1 && at === 'key') return { line: 1, col: offset + 1 };
      offset += compactLength(seg) + 1;
      node = node[seg];
    } else {
      break;
    }
  }
  if (at === 'end') offset += Math.max(compactLength(node) - 1, 0);
  return { line: 1, col: offset + 1 };
}

/** Length of `JSON.stringify(v)`, with bigints written as their digits. */
export function compactLength(v: unknown): number {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v).length;
    case 'number':
      return Number.isFinite(v) ? JSON.stringify(v).length : 4;
    case 'bigint':
      return v.toString().length;
    case 'boolean':
      return v ? 4 : 5;
    default:
      break;
  }
  if (Array.isArray(v)) {
    let n = 2 + Math.max(v.length - 1, 0);
    for (const x of v) n += compactLength(x);
    return n;
  }
  if (isPlainObject(v)) {
    const keys = Object.keys(v);
    let n = 2 + Math.max(keys.length - 1, 0);
    for (const k of keys) n += compactLength(k) + 1 + compactLength(v[k]);
    return n;
  }
  return 4;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
