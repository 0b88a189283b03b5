/**
 * Elasticsearch's `minimum_should_match` (Queries.calculateMinShouldMatch): an integer (`3`),
 * a negative integer (`-2`: all but two), a percentage (`75%`, `-25%`, rounded down in
 * float arithmetic), or conditional specs `3<90%` / `2<-25% 9<-3` that apply when the number
 * of optional clauses is above the bound.
 */
import { illegalArgument } from '@shoal/protocol';

export function minimumShouldMatch(optionalClauses: number, spec: string | undefined): number {
  if (spec === undefined) return 0;
  return calculate(optionalClauses, spec.trim());
}

function calculate(count: number, spec: string): number {
  let result = count;
  if (spec.includes('<')) {
    const normalised = spec.replace(/\s*<\s*/g, '<');
    for (const part of normalised.split(/\s+/)) {
      const [bound, rest] = part.split('<');
      const upper = parseInteger(bound ?? '', spec);
      if (count <= upper) return result;
      result = calculate(count, rest ?? '');
    }
    return result;
  }
  if (spec.includes('%')) {
    const percent = parseInteger(spec.slice(0, -1), spec);
    const calc = Math.fround(Math.fround(result * percent) * Math.fround(1 / 100));
    result = calc < 0 ? result + Math.trunc(calc) : Math.trunc(calc);
  } else {
    const calc = parseInteger(spec, spec);
    result = calc < 0 ? result + calc : calc;
  }
  return Math.max(result, 0);
}

function parseInteger(text: string, spec: string): number {
  if (!/^[+-]?\d+$/.test(text.trim())) {
    throw illegalArgument(`Invalid minimum_should_match value [${spec}]: For input string: "${text}"`);
  }
  return Number.parseInt(text.trim(), 10);
}
