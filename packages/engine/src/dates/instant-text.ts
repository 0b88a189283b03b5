/** java.time's Instant.toString (ISO_INSTANT): seconds always, fraction in groups of 3 digits. */
import { localFromEpoch } from './calendar.ts';

function pad(n: number, w: number): string {
  return String(n).padStart(w, '0');
}

export function instantToString(millis: number, nanoOfMilli: number): string {
  const l = localFromEpoch(millis, nanoOfMilli, 0);
  const year = l.year > 9999 ? `+${l.year}` : l.year < 0 ? `-${pad(-l.year, 4)}` : pad(l.year, 4);
  let frac = '';
  if (l.nano !== 0) {
    if (l.nano % 1_000_000 === 0) frac = `.${pad(l.nano / 1_000_000, 3)}`;
    else if (l.nano % 1000 === 0) frac = `.${pad(l.nano / 1000, 6)}`;
    else frac = `.${pad(l.nano, 9)}`;
  }
  return `${year}-${pad(l.month, 2)}-${pad(l.day, 2)}T${pad(l.hour, 2)}:${pad(l.minute, 2)}:${pad(l.second, 2)}${frac}Z`;
}
