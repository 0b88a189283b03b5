/**
 * Analyzer lookup by the name a mapping uses. `default` is the index default analyzer, which is
 * `standard` until custom analysis settings exist.
 */
import type { Analyzer } from '../contract.ts';
import {
  keywordAnalyzer,
  simpleAnalyzer,
  standardAnalyzer,
  stopAnalyzer,
  whitespaceAnalyzer,
} from './analyzers.ts';

const BUILTIN: ReadonlyMap<string, Analyzer> = new Map<string, Analyzer>([
  ['default', standardAnalyzer],
  ['standard', standardAnalyzer],
  ['simple', simpleAnalyzer],
  ['whitespace', whitespaceAnalyzer],
  ['keyword', keywordAnalyzer],
  ['stop', stopAnalyzer],
]);

/** The analyzer named `name`, or undefined when it is not configured. */
export function getAnalyzer(name: string): Analyzer | undefined {
  return BUILTIN.get(name);
}

export function hasAnalyzer(name: string): boolean {
  return BUILTIN.has(name);
}

/** Names a mapping may use for `analyzer` / `search_analyzer`. */
export function analyzerNames(): string[] {
  return [...BUILTIN.keys()];
}
