export * from './analysis/index.ts';
export type * from './contract.ts';
export * from './dates/index.ts';
export * from './mapping/index.ts';
