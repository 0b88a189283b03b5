import { daysFromCivil, isoDayOfWeek } from './calendar.ts';
import {
  badPattern,
  DAYS_FULL,
  DAYS_SHORT,
  fractionItem,
  type Item,
  literalItem,
  MIN_WIDTH,
  MONTHS_FULL,
  MONTHS_SHORT,
  type NumField,
  numItem,
  type OffsetStyle,
  offsetItem,
  optionalItem,
  type ParseStep,
  type PrintStep,
  sequence,
  textItem,
  zoneIdItem,
} from './pattern-items.ts';

export interface CompiledPattern {
  parse: ParseStep;
  print: PrintStep;
  /** Whether the pattern has any date field (time-only patterns print no date). */
  hasOffset: boolean;
}

export interface PatternOptions {
  /** Named non-strict formats accept fewer digits than the pattern shows (`2020-1-5`). */
  lenient?: boolean;
  /** Named formats accept 1..9 fraction digits where the pattern shows `SSS`. */
  variableFraction?: boolean;
}

/** Compiles a Java-style pattern. Throws illegal_argument_exception for unknown letters. */
export function compilePattern(pattern: string, opts: PatternOptions = {}): CompiledPattern {
  const lenient = opts.lenient === true;
  let hasOffset = false;
  let i = 0;
  const parseSeq = (depth: number): Item[] => {
    const items: Item[] = [];
    while (i < pattern.length) {
      const ch = pattern[i]!;
      if (ch === '[') {
        i++;
        items.push(optionalItem(sequence(parseSeq(depth + 1))));
        continue;
      }
      if (ch === ']') {
        if (depth === 0) badPattern(pattern, 'Pattern invalid as it contains ] without previous [');
        i++;
        return items;
      }
      if (ch === "'") {
        let j = i + 1;
        let lit = '';
        for (;;) {
          if (j >= pattern.length)
            badPattern(pattern, `Pattern ends with an incomplete string literal: ${pattern}`);
          if (pattern[j] === "'") {
            if (pattern[j + 1] === "'") {
              lit += "'";
              j += 2;
              continue;
            }
            break;
          }
          lit += pattern[j];
          j++;
        }
        i = j + 1;
        items.push(literalItem(lit.length === 0 ? "'" : lit));
        continue;
      }
      if (!/[A-Za-z]/.test(ch)) {
        if (ch === '{' || ch === '}' || ch === '#')
          badPattern(pattern, `Pattern includes reserved character: '${ch}'`);
        items.push(literalItem(ch));
        i++;
        continue;
      }
      let count = 1;
      while (pattern[i + count] === ch) count++;
      i += count;
      const item = letterItem(ch, count, lenient, opts.variableFraction === true, pattern);
      if (item.kind === 'offset' || item.kind === 'zoneId') hasOffset = true;
      items.push(item);
    }
    if (depth > 0) badPattern(pattern, 'Pattern invalid as it contains [ without matching ]');
    return items;
  };
  const seq = sequence(parseSeq(0));
  return { parse: seq.parse, print: seq.print, hasOffset };
}

function num(field: NumField, count: number, maxDefault: number, lenient: boolean): Item {
  // java.time: one letter = 1..N digits, two or more letters = exactly that many.
  const min = lenient ? 1 : count;
  const max = count === 1 || lenient ? Math.max(maxDefault, count) : count;
  const item = numItem(field, min, max, count);
  MIN_WIDTH.set(item, count);
  return item;
}

function letterItem(
  ch: string,
  count: number,
  lenient: boolean,
  variableFraction: boolean,
  pattern: string,
): Item {
  switch (ch) {
    case 'y':
    case 'u':
    case 'Y': {
      if (count === 2) {
        const item = numItem('yy', 2, 2, 2);
        MIN_WIDTH.set(item, 2);
        return item;
      }
      const item = numItem('year', lenient ? 1 : count, 9, count);
      MIN_WIDTH.set(item, count);
      return item;
    }
    case 'M':
    case 'L':
      if (count === 3)
        return textItem(
          MONTHS_SHORT,
          (f, idx) => (f.month = idx + 1),
          (l) => l.month - 1,
        );
      if (count >= 4)
        return textItem(
          MONTHS_FULL,
          (f, idx) => (f.month = idx + 1),
          (l) => l.month - 1,
        );
      return num('month', count, 2, lenient);
    case 'd':
      return num('day', count, 2, lenient);
    case 'D':
      return num('dayOfYear', count, 3, lenient);
    case 'H':
      return num('hour', count, 2, lenient);
    case 'h':
      return num('hour12', count, 2, lenient);
    case 'k':
      return num('hourK', count, 2, lenient);
    case 'K':
      return num('hour0_11', count, 2, lenient);
    case 'm':
      return num('minute', count, 2, lenient);
    case 's':
      return num('second', count, 2, lenient);
    case 'S':
      return variableFraction ? fractionItem(1, 9, count) : fractionItem(count, count, count);
    case 'n':
      return fractionItem(1, 9, 9);
    case 'a':
      return textItem(
        ['AM', 'PM'],
        (f, idx) => (f.amPm = idx),
        (l) => (l.hour >= 12 ? 1 : 0),
      );
    case 'E':
      return textItem(
        count >= 4 ? DAYS_FULL : DAYS_SHORT,
        () => {},
        (l) => isoDayOfWeek(daysFromCivil(l.year, l.month, l.day)) - 1,
      );
    case 'Z':
      if (count <= 3) return offsetItem('+HHMM', '+0000');
      return offsetItem('+HH:MM:ss', 'Z');
    case 'X': {
      const styles: OffsetStyle[] = ['+HHmm', '+HHMM', '+HH:MM', '+HHMMss', '+HH:MM:ss'];
      return offsetItem(styles[Math.min(count, 5) - 1]!, 'Z');
    }
    case 'x': {
      const styles: OffsetStyle[] = ['+HHmm', '+HHMM', '+HH:MM', '+HHMMss', '+HH:MM:ss'];
      const zeros = ['+00', '+0000', '+00:00', '+0000', '+00:00'];
      return offsetItem(styles[Math.min(count, 5) - 1]!, zeros[Math.min(count, 5) - 1]!);
    }
    case 'V':
    case 'z':
    case 'O':
      return zoneIdItem();
    default:
      return badPattern(pattern, `Unknown pattern letter: ${ch}`);
  }
}
