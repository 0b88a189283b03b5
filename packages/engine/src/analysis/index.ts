export {
  keywordAnalyzer,
  simpleAnalyzer,
  standardAnalyzer,
  stopAnalyzer,
  whitespaceAnalyzer,
} from './analyzers.ts';
export type { ChainToken } from './chain/chain-token.ts';
export {
  buildChain,
  type Chain,
  type ChainRun,
  type ChainSpec,
  type Component,
  type ComponentKind,
} from './chain/custom-chain.ts';
export { standardType } from './chain/tokenizers.ts';
export { analyzerNames, getAnalyzer, hasAnalyzer } from './registry.ts';
export { ENGLISH_STOP_WORDS } from './stop-words.ts';
