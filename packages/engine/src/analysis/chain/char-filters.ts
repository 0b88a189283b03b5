/**
 * The char filters a request may name or define inline in `_analyze`: `html_strip`, `mapping`
 * and `pattern_replace`. Each rewrites the text and keeps, for every offset of its output, the
 * offset of the input it came from (Lucene's BaseCharFilter offset corrections), so that
 * tokens report offsets into the original text.
 */
import { illegalArgument } from '@shoal/protocol';
import { type ComponentSettings, javaRegExp, listSetting, stringSetting } from './chain-token.ts';

export interface Filtered {
  text: string;
  /** The input offset of each output offset (length text.length + 1). */
  offsets: Int32Array;
}

export type CharFilter = (text: string) => Filtered;

/** Filters a normalizer may use (NormalizingCharFilterFactory). */
export const NORMALIZING_CHAR_FILTERS = new Set(['mapping', 'pattern_replace']);

/** One replacement of input [from, to) by `by`. */
interface Edit {
  from: number;
  to: number;
  by: string;
}

/** Applies ordered, non-overlapping edits, mapping output offsets back to input offsets. */
export function applyEdits(text: string, edits: Edit[]): Filtered {
  let out = '';
  const offsets: number[] = [];
  let at = 0;
  for (const e of edits) {
    for (let i = at; i < e.from; i++) offsets.push(i);
    out += text.slice(at, e.from);
    // Output chars of a replacement map to the input chars in order, the extra ones to its end.
    for (let k = 0; k < e.by.length; k++) offsets.push(Math.min(e.from + k, e.to));
    out += e.by;
    at = e.to;
  }
  for (let i = at; i < text.length; i++) offsets.push(i);
  out += text.slice(at);
  offsets.push(text.length);
  return { text: out, offsets: Int32Array.from(offsets) };
}

/** The type's char filter with its settings; undefined for a type Shoal does not know. */
export function buildCharFilter(type: string, s: ComponentSettings): CharFilter | undefined {
  switch (type) {
    case 'html_strip':
      return htmlStrip(new Set((listSetting(s, 'escaped_tags') ?? []).map((t) => t.toLowerCase())));
    case 'mapping':
      return mappingFilter(s);
    case 'pattern_replace': {
      if (s.pattern === undefined)
        throw illegalArgument('pattern is missing for [pattern_replace] char filter');
      const re = javaRegExp(stringSetting(s, 'pattern', ''), s.flags as string | undefined, true);
      const replacement = stringSetting(s, 'replacement', '');
      return (text) => {
        const edits: Edit[] = [];
        for (const m of text.matchAll(re)) {
          // Java's `$1` group references read as JavaScript's.
          const by = m[0].replace(new RegExp(re.source, re.flags.replace('g', '')), replacement);
          edits.push({ from: m.index, to: m.index + m[0].length, by });
        }
        return applyEdits(text, edits);
      };
    }
    default:
      return undefined;
  }
}

/** MappingCharFilter: `a => b` rules, the longest match first, `\uXXXX` and `\n` escapes read. */
function mappingFilter(s: ComponentSettings): CharFilter {
  const rules = listSetting({ mappings: Array.isArray(s.mappings) ? s.mappings : [] }, 'mappings');
  if (!rules || rules.length === 0) {
    if (s.mappings_path !== undefined)
      throw illegalArgument('mappings_path is not supported by Shoal: give [mappings]');
    throw illegalArgument('mapping requires either `mappings` or `mappings_path` to be configured');
  }
  const map = new Map<string, string>();
  for (const rule of rules) {
    const m = /^(.*?)\s*=>\s*(.*)$/s.exec(rule);
    if (!m || m[1]!.length === 0) throw illegalArgument(`Invalid Mapping Rule : [${rule}]`);
    map.set(unescapeRule(m[1]!), unescapeRule(m[2]!));
  }
  const keys = [...map.keys()].sort((a, b) => b.length - a.length);
  return (text) => {
    const edits: Edit[] = [];
    for (let i = 0; i < text.length; ) {
      const key = keys.find((k) => text.startsWith(k, i));
      if (key === undefined) {
        i++;
        continue;
      }
      edits.push({ from: i, to: i + key.length, by: map.get(key)! });
      i += key.length;
    }
    return applyEdits(text, edits);
  };
}

function unescapeRule(s: string): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, c: string) => {
    if (c.length === 5) return String.fromCharCode(Number.parseInt(c.slice(1), 16));
    return ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' } as Record<string, string>)[c] ?? c;
  });
}

/** The tags HTMLStripCharFilter turns into a line break (block-level elements). */
const BLOCK = new Set(
  'address article aside blockquote body br center dd dir div dl dt fieldset footer form h1 h2 h3 h4 h5 h6 head header hr html isindex li menu nav noframes noscript ol p pre section table tbody td tfoot th thead title tr ul'.split(
    ' ',
  ),
);

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '\u00a9',
  reg: '\u00ae',
};

/**
 * HTMLStripCharFilter: comments, `script` and `style` elements removed, block-level tags made a
 * line break, other tags removed, character entities decoded; `escaped_tags` left as they are.
 */
function htmlStrip(escaped: Set<string>): CharFilter {
  const token =
    /<!--[\s\S]*?-->|<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>|<\/?([A-Za-z][\w:-]*)(?:\s[^<>]*)?\/?>|&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z]+);/g;
  return (text) => {
    const edits: Edit[] = [];
    for (const m of text.matchAll(token)) {
      const from = m.index;
      const to = from + m[0].length;
      if (m[0].startsWith('<!--') || m[1] !== undefined) {
        edits.push({ from, to, by: '' });
      } else if (m[2] !== undefined) {
        const name = m[2].toLowerCase();
        if (escaped.has(name)) continue;
        edits.push({ from, to, by: BLOCK.has(name) ? '\n' : '' });
      } else {
        const ent = m[3]!;
        let ch: string | undefined;
        if (ent.startsWith('#x') || ent.startsWith('#X'))
          ch = String.fromCodePoint(Number.parseInt(ent.slice(2), 16));
        else if (ent.startsWith('#')) ch = String.fromCodePoint(Number.parseInt(ent.slice(1), 10));
        else ch = ENTITIES[ent.toLowerCase()];
        if (ch !== undefined) edits.push({ from, to, by: ch });
      }
    }
    return applyEdits(text, edits);
  };
}
