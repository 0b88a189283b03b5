export { FALSE_TERM, TRUE_TERM } from './boolean-value.ts';
export type { MappedField } from './compiled.ts';
export { type GeoPoint, parseGeoPoint } from './geo-value.ts';
export {
  createIndexMapping,
  type IndexMappingOptions,
  restoreIndexMapping,
  ShoalIndexMapping,
  validateMappingJson,
} from './index-mapping.ts';
export { normalizeIp } from './ip-value.ts';
export { parseJsonExact, parseJsonSource } from './json-text.ts';
export { isMappingSetting, type MappingSettings, mappingSettings } from './mapping-settings.ts';
export { type NumericType, parseNumber } from './number-values.ts';
