/**
 * Java's Strings.format1Decimals / TimeValue.formatDecimal(value, 1): the shortest decimal text
 * of the double, cut (not rounded) after the first fraction digit, `.0` dropped. Working on the
 * text rather than on `value * 10` avoids binary artefacts (2.3 * 10 = 22.999…).
 */
export function formatOneDecimal(value: number): string {
  const text = String(value);
  const exp = text.search(/e/i);
  const mantissa = exp === -1 ? text : text.slice(0, exp);
  const exponent = exp === -1 ? '' : `E${text.slice(exp + 1).replace('+', '')}`;
  const dot = mantissa.indexOf('.');
  if (dot === -1) return mantissa + exponent;
  const first = mantissa.charAt(dot + 1);
  if (first === '0' || first === '') return mantissa.slice(0, dot) + exponent;
  return mantissa.slice(0, dot + 2) + exponent;
}
