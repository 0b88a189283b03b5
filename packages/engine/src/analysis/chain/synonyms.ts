/**
 * The `synonym` token filter (Lucene's SynonymFilter over Solr-format rules): `a, b, c` makes
 * the words equivalent (each matched phrase keeps its words and adds the others, or with
 * `expand: false` maps to the first), `a, b => c` replaces. Rules are analysed with the chain
 * before the filter; matching is greedy, longest phrase first. Added words are typed `SYNONYM`,
 * stacked on the matched words' positions, and a word that stands for several spans them with
 * its position length.
 */
import { illegalArgument } from '@shoal/protocol';
import { boolSetting, type ChainToken, type ComponentSettings, listSetting } from './chain-token.ts';

/** The terms the chain before the filter makes of a rule's text. */
export type TermAnalyzer = (text: string) => string[];

interface Rule {
  outputs: string[][];
  keepOriginal: boolean;
}

export function synonymFilter(
  s: ComponentSettings,
  analyze: TermAnalyzer,
): (tokens: ChainToken[]) => ChainToken[] {
  if (s.synonyms_path !== undefined)
    throw illegalArgument('synonyms_path is not supported by Shoal: give [synonyms]');
  if (s.synonyms_set !== undefined)
    throw illegalArgument('synonyms_set is not supported by Shoal: give [synonyms]');
  const lines = listSetting({ synonyms: Array.isArray(s.synonyms) ? s.synonyms : [] }, 'synonyms') ?? [];
  const expand = boolSetting(s, 'expand', true);
  const lenient = boolSetting(s, 'lenient', false);
  const rules = new Map<string, Rule>();
  const add = (input: string[], output: string[], keepOriginal: boolean) => {
    if (input.length === 0 || output.length === 0) return;
    const key = input.join('\u0000');
    const r = rules.get(key) ?? { outputs: [], keepOriginal: false };
    if (!r.outputs.some((o) => o.join('\u0000') === output.join('\u0000'))) r.outputs.push(output);
    r.keepOriginal ||= keepOriginal;
    rules.set(key, r);
  };
  for (const raw of lines) {
    const line = raw.trim();
    if (line.length === 0 || line.startsWith('#')) continue;
    try {
      const parts = line.split('=>');
      if (parts.length > 2)
        throw illegalArgument(`more than one explicit mapping specified on the same line`);
      const phrases = (text: string) =>
        text
          .split(',')
          .map((p) => analyze(p.trim()))
          .filter((p) => p.length > 0);
      if (parts.length === 2) {
        const outputs = phrases(parts[1]!);
        for (const input of phrases(parts[0]!)) for (const o of outputs) add(input, o, false);
      } else {
        const all = phrases(line);
        if (expand) {
          for (const a of all) for (const b of all) if (a !== b) add(a, b, true);
        } else {
          for (const a of all) add(a, all[0]!, false);
        }
      }
    } catch (e) {
      if (!lenient) throw illegalArgument(`failed to build synonyms: ${(e as Error).message}`);
    }
  }
  const maxLen = Math.max(0, ...[...rules.keys()].map((k) => k.split('\u0000').length));
  return (tokens) => {
    const out: ChainToken[] = [];
    let i = 0;
    while (i < tokens.length) {
      let matched: { len: number; rule: Rule } | undefined;
      for (let len = Math.min(maxLen, tokens.length - i); len >= 1; len--) {
        const key = tokens
          .slice(i, i + len)
          .map((t) => t.term)
          .join('\u0000');
        const rule = rules.get(key);
        if (rule) {
          matched = { len, rule };
          break;
        }
      }
      if (!matched) {
        out.push(tokens[i]!);
        i++;
        continue;
      }
      const input = tokens.slice(i, i + matched.len);
      const start = input[0]!;
      const end = input[input.length - 1]!;
      const stacked: ChainToken[][] = input.map((t) => (matched.rule.keepOriginal ? [t] : []));
      const extra: ChainToken[] = [];
      for (const words of matched.rule.outputs) {
        words.forEach((w, k) => {
          const lastWord = k === words.length - 1;
          const at = Math.min(k, input.length - 1);
          const tok: ChainToken = {
            term: w,
            position: k < input.length ? input[k]!.position : end.position + (k - input.length + 1),
            startOffset: start.startOffset,
            endOffset: end.endOffset,
            type: 'SYNONYM',
            positionLength: lastWord && k < input.length ? input.length - k : 1,
          };
          if (k < input.length) stacked[at]!.push(tok);
          else extra.push(tok);
        });
      }
      for (const group of stacked) out.push(...group);
      out.push(...extra);
      i += matched.len;
    }
    return out;
  };
}
