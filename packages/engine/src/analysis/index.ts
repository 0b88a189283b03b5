export {
  keywordAnalyzer,
  simpleAnalyzer,
  standardAnalyzer,
  stopAnalyzer,
  whitespaceAnalyzer,
} from './analyzers.ts';
export { analyzerNames, getAnalyzer, hasAnalyzer } from './registry.ts';
export { ENGLISH_STOP_WORDS } from './stop-words.ts';
