import { registerDateFormatCheck } from '@shoal/protocol';
import { dateFormatter } from './formatter.ts';

export { type DateMathOptions, resolveDateMath } from './date-math.ts';
export { dateText, formatDate, parseDateValue } from './date-value.ts';
export { DEFAULT_DYNAMIC_DATE_FORMATS, detectDateFormat, isDateString } from './detect.ts';
export { type DateFormatter, dateFormatter } from './formatter.ts';
export { isJavaDouble, isJavaLong, javaDoubleToString, javaParseDouble } from './java-numbers.ts';
export type { DateResolution } from './resolution.ts';
export { resolveZone, type Zone } from './time-zone.ts';

/** The default `format` of a `date` field. */
export const DEFAULT_DATE_FORMAT = 'strict_date_optional_time||epoch_millis';
/** The default `format` of a `date_nanos` field. */
export const DEFAULT_DATE_NANOS_FORMAT = 'strict_date_optional_time_nanos||epoch_millis';

/** Throws illegal_argument_exception (`Invalid format: [x]: …`) when a format cannot be compiled. */
export function validateDateFormat(format: string): void {
  dateFormatter(format);
}

// Range queries check their `format` while the request is parsed.
registerDateFormatCheck(validateDateFormat);
