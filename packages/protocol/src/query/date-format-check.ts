/**
 * RangeQueryBuilder.format compiles the `format` of a range query while the request is parsed
 * (DateFormatter.forPattern), so a format that cannot be compiled fails the whole request with
 * a 400, whatever the field. The date-format compiler belongs to @shoal/engine, which depends on
 * this package; it registers its check here when it loads. Every process that parses search
 * requests (a coordinator node) loads the engine.
 */
let check: ((format: string) => void) | undefined;

export function registerDateFormatCheck(fn: (format: string) => void): void {
  check = fn;
}

/** Throws the compiler's illegal_argument_exception for a format it cannot compile. */
export function checkDateFormat(format: string): void {
  check?.(format);
}
