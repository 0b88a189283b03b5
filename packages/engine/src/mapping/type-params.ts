/** Every leaf type a mapping may declare, with its parameters: the stored types and the special ones. */
import { BASE_LEAF_TYPES, BASE_PARAMS, type LeafType, type ParamSpec } from './params.ts';
import { SPECIAL_PARAMS, SPECIAL_TYPE_NAMES } from './special-types.ts';

export const LEAF_TYPES: ReadonlySet<string> = new Set<LeafType>([...BASE_LEAF_TYPES, ...SPECIAL_TYPE_NAMES]);

export const PARAMS: Readonly<Record<LeafType, ParamSpec[]>> = { ...BASE_PARAMS, ...SPECIAL_PARAMS };
