import { isShoalError, type ShoalError } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DATE_FORMAT,
  DEFAULT_DATE_NANOS_FORMAT,
  detectDateFormat,
  formatDate,
  isDateString,
  parseDateValue,
  resolveDateMath,
  validateDateFormat,
} from './index.ts';

const ms = (iso: string) => Date.parse(iso);

function thrown(fn: () => unknown): ShoalError {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return e;
    throw e;
  }
  throw new Error('expected an error');
}

describe('parseDateValue with the default format', () => {
  it('parses strict_date_optional_time variants', () => {
    expect(parseDateValue('2015-01-01', DEFAULT_DATE_FORMAT, 'millis')).toBe(ms('2015-01-01T00:00:00Z'));
    expect(parseDateValue('2015', DEFAULT_DATE_FORMAT, 'millis')).toBe(ms('2015-01-01T00:00:00Z'));
    expect(parseDateValue('2015-03', DEFAULT_DATE_FORMAT, 'millis')).toBe(ms('2015-03-01T00:00:00Z'));
    expect(parseDateValue('2015-01-01T12:10:30Z', DEFAULT_DATE_FORMAT, 'millis')).toBe(
      ms('2015-01-01T12:10:30Z'),
    );
    expect(parseDateValue('2015-01-01T12:10:30.123+01:00', DEFAULT_DATE_FORMAT, 'millis')).toBe(
      ms('2015-01-01T11:10:30.123Z'),
    );
    expect(parseDateValue('2015-01-01T12:10', DEFAULT_DATE_FORMAT, 'millis')).toBe(
      ms('2015-01-01T12:10:00Z'),
    );
    expect(parseDateValue('2015-01-01T12', DEFAULT_DATE_FORMAT, 'millis')).toBe(ms('2015-01-01T12:00:00Z'));
    expect(parseDateValue('2015-01-01T12:10:30.123456789-0530', DEFAULT_DATE_FORMAT, 'millis')).toBe(
      ms('2015-01-01T17:40:30.123Z'),
    );
  });

  it('falls back to epoch_millis, for strings and numbers', () => {
    expect(parseDateValue('1420070400001', DEFAULT_DATE_FORMAT, 'millis')).toBe(1420070400001);
    expect(parseDateValue(1420070400001, DEFAULT_DATE_FORMAT, 'millis')).toBe(1420070400001);
    expect(parseDateValue(-1000, DEFAULT_DATE_FORMAT, 'millis')).toBe(-1000);
  });

  it('rejects what the strict format rejects, with Elasticsearch texts', () => {
    const e = thrown(() => parseDateValue('2015-1-1', DEFAULT_DATE_FORMAT, 'millis'));
    expect(e.type).toBe('illegal_argument_exception');
    expect(e.reason).toBe(
      'failed to parse date field [2015-1-1] with format [strict_date_optional_time||epoch_millis]',
    );
    expect(e.causedBy?.type).toBe('date_time_parse_exception');
    expect(e.causedBy?.reason).toBe('Failed to parse with all enclosed parsers');
    const single = thrown(() => parseDateValue('2015-02-30', 'strict_date_optional_time', 'millis'));
    expect(single.causedBy?.reason).toBe("Text '2015-02-30' could not be parsed: Invalid date 'FEBRUARY 30'");
    const month = thrown(() => parseDateValue('2015-13-01', 'yyyy-MM-dd', 'millis'));
    expect(month.causedBy?.reason).toBe(
      "Text '2015-13-01' could not be parsed: Invalid value for MonthOfYear (valid values 1 - 12): 13",
    );
    const idx = thrown(() => parseDateValue('abc', 'yyyy-MM-dd', 'millis'));
    expect(idx.causedBy?.reason).toBe("Text 'abc' could not be parsed at index 0");
  });

  it('accepts lenient digits with date_optional_time', () => {
    expect(parseDateValue('2015-1-5T1:2:3', 'date_optional_time', 'millis')).toBe(ms('2015-01-05T01:02:03Z'));
  });
});

describe('nanosecond resolution', () => {
  it('keeps nanos as bigint', () => {
    expect(parseDateValue('2015-01-01T12:10:30.123456789Z', DEFAULT_DATE_NANOS_FORMAT, 'nanos')).toBe(
      1420114230123456789n,
    );
    expect(parseDateValue('1420114230123.456789', DEFAULT_DATE_NANOS_FORMAT, 'nanos')).toBe(
      1420114230123456789n,
    );
  });

  it('refuses dates outside 1970..2262', () => {
    expect(
      thrown(() => parseDateValue('1969-12-31T23:59:59Z', DEFAULT_DATE_NANOS_FORMAT, 'nanos')).reason,
    ).toBe(
      'date[1969-12-31T23:59:59Z] is before the epoch in 1970 and cannot be stored in nanosecond resolution',
    );
    expect(thrown(() => parseDateValue('2262-04-12', DEFAULT_DATE_NANOS_FORMAT, 'nanos')).reason).toBe(
      'date[2262-04-12T00:00:00Z] is after 2262-04-11T23:47:16.854775807 and cannot be stored in nanosecond resolution',
    );
  });
});

describe('named and Java-style formats', () => {
  it('parses built-in names', () => {
    expect(parseDateValue('20150101', 'basic_date', 'millis')).toBe(ms('2015-01-01T00:00:00Z'));
    expect(parseDateValue('20150101T121030.000Z', 'basic_date_time', 'millis')).toBe(
      ms('2015-01-01T12:10:30Z'),
    );
    expect(parseDateValue('2015-01-01', 'date', 'millis')).toBe(ms('2015-01-01T00:00:00Z'));
    expect(parseDateValue('2015-01-01', 'strict_date', 'millis')).toBe(ms('2015-01-01T00:00:00Z'));
    expect(parseDateValue('2015-01-01T12:10:30.5+02:00', 'date_time', 'millis')).toBe(
      ms('2015-01-01T10:10:30.5Z'),
    );
    expect(parseDateValue('1420070400', 'epoch_second', 'millis')).toBe(1420070400000);
    expect(parseDateValue('1420070400.5', 'epoch_second', 'millis')).toBe(1420070400500);
    expect(parseDateValue('12:30', 'hour_minute', 'millis')).toBe(12.5 * 3600 * 1000);
    expect(parseDateValue('2015-032', 'ordinal_date', 'millis')).toBe(ms('2015-02-01T00:00:00Z'));
  });

  it('parses patterns with literals, offsets and alternatives', () => {
    expect(parseDateValue('2015-01-01 12:10:30.123', 'yyyy-MM-dd HH:mm:ss.SSS', 'millis')).toBe(
      ms('2015-01-01T12:10:30.123Z'),
    );
    expect(parseDateValue('2015-01-01 | 12:10:30.123', 'yyyy-MM-dd | HH:mm:ss.SSS', 'millis')).toBe(
      ms('2015-01-01T12:10:30.123Z'),
    );
    expect(parseDateValue('2015-01-01T12:10:30', "yyyy-MM-dd'T'HH:mm:ss", 'millis')).toBe(
      ms('2015-01-01T12:10:30Z'),
    );
    expect(parseDateValue('01/Feb/2015:10:00:00 +0100', 'dd/MMM/yyyy:HH:mm:ss Z', 'millis')).toBe(
      ms('2015-02-01T09:00:00Z'),
    );
    expect(parseDateValue('2015/01/01', 'yyyy-MM-dd||yyyy/MM/dd', 'millis')).toBe(ms('2015-01-01T00:00:00Z'));
    expect(parseDateValue('2015-01-01T12:00:00+05:30', "yyyy-MM-dd'T'HH:mm:ssXXX", 'millis')).toBe(
      ms('2015-01-01T06:30:00Z'),
    );
    expect(parseDateValue('2015-01-01 12:00:00.123456789', 'yyyy-MM-dd HH:mm:ss.SSSSSSSSS', 'nanos')).toBe(
      1420113600123456789n,
    );
    expect(parseDateValue('2015-01-01', 'yyyy-MM-dd[ HH:mm]', 'millis')).toBe(ms('2015-01-01T00:00:00Z'));
    expect(parseDateValue('2015-01-01 10:30', 'yyyy-MM-dd[ HH:mm]', 'millis')).toBe(
      ms('2015-01-01T10:30:00Z'),
    );
    expect(parseDateValue('03/04/15 1:05 PM', 'MM/dd/yy h:mm a', 'millis')).toBe(ms('2015-03-04T13:05:00Z'));
  });

  it('rejects unknown pattern letters', () => {
    const e = thrown(() => validateDateFormat('yyyy-MM-dd foo'));
    expect(e.type).toBe('illegal_argument_exception');
    expect(e.reason).toBe('Invalid format: [yyyy-MM-dd foo]: Unknown pattern letter: f');
    expect(thrown(() => validateDateFormat('')).reason).toBe('No date pattern provided');
  });

  it('reports unparsed trailing text', () => {
    const e = thrown(() => parseDateValue('2015-01-01x', 'yyyy-MM-dd', 'millis'));
    expect(e.causedBy?.reason).toBe(
      "Text '2015-01-01x' could not be parsed, unparsed text found at index 10",
    );
  });
});

describe('formatDate', () => {
  const t = ms('2021-02-11T08:30:04.828Z');
  it('prints with the first format', () => {
    expect(formatDate(t, 'millis', DEFAULT_DATE_FORMAT)).toBe('2021-02-11T08:30:04.828Z');
    expect(formatDate(t, 'millis', 'epoch_millis||strict_date_optional_time')).toBe(String(t));
    expect(formatDate(t, 'millis', 'epoch_second')).toBe('1613032204.828');
    expect(formatDate(t, 'millis', 'yyyy-MM-dd | HH:mm:ss.SSS')).toBe('2021-02-11 | 08:30:04.828');
    expect(formatDate(t, 'millis', 'basic_date')).toBe('20210211');
    expect(formatDate(t, 'millis', 'date_time')).toBe('2021-02-11T08:30:04.828Z');
    expect(formatDate(t, 'millis', 'dd MMM yyyy EEE Z')).toBe('11 Feb 2021 Thu +0000');
  });

  it('prints nanos', () => {
    expect(formatDate(1613032204828733000n, 'nanos', DEFAULT_DATE_NANOS_FORMAT)).toBe(
      '2021-02-11T08:30:04.828733Z',
    );
    expect(formatDate(1613032204000000000n, 'nanos', DEFAULT_DATE_NANOS_FORMAT)).toBe(
      '2021-02-11T08:30:04.000Z',
    );
    expect(formatDate(1613032204828733001n, 'nanos', 'epoch_millis')).toBe('1613032204828.733001');
  });

  it('prints in a time zone', () => {
    expect(formatDate(t, 'millis', 'strict_date_optional_time', 'Europe/Paris')).toBe(
      '2021-02-11T09:30:04.828+01:00',
    );
    expect(formatDate(t, 'millis', 'yyyy-MM-dd HH:mm XXX', '-05:30')).toBe('2021-02-11 03:00 -05:30');
  });

  it('round-trips with parse', () => {
    for (const f of [
      'strict_date_optional_time',
      'date_time',
      'basic_date_time',
      'yyyy-MM-dd HH:mm:ss.SSS',
    ]) {
      expect(parseDateValue(formatDate(t, 'millis', f), f, 'millis')).toBe(t);
    }
  });
});

describe('resolveDateMath', () => {
  const now = ms('2020-05-15T13:45:30.123Z');
  const down = { roundUp: false, nowMillis: now };
  const up = { roundUp: true, nowMillis: now };

  it('evaluates now with arithmetic and rounding', () => {
    expect(resolveDateMath('now', DEFAULT_DATE_FORMAT, 'millis', down)).toBe(now);
    expect(resolveDateMath('now-1d', DEFAULT_DATE_FORMAT, 'millis', down)).toBe(now - 86_400_000);
    expect(resolveDateMath('now-1d/d', DEFAULT_DATE_FORMAT, 'millis', down)).toBe(ms('2020-05-14T00:00:00Z'));
    expect(resolveDateMath('now-1d/d', DEFAULT_DATE_FORMAT, 'millis', up)).toBe(
      ms('2020-05-14T23:59:59.999Z'),
    );
    expect(resolveDateMath('now/M', DEFAULT_DATE_FORMAT, 'millis', down)).toBe(ms('2020-05-01T00:00:00Z'));
    expect(resolveDateMath('now/M', DEFAULT_DATE_FORMAT, 'millis', up)).toBe(ms('2020-05-31T23:59:59.999Z'));
    expect(resolveDateMath('now/y', DEFAULT_DATE_FORMAT, 'millis', up)).toBe(ms('2020-12-31T23:59:59.999Z'));
    expect(resolveDateMath('now/w', DEFAULT_DATE_FORMAT, 'millis', down)).toBe(ms('2020-05-11T00:00:00Z'));
    expect(resolveDateMath('now/h', DEFAULT_DATE_FORMAT, 'millis', down)).toBe(ms('2020-05-15T13:00:00Z'));
    expect(resolveDateMath('now+1h/m', DEFAULT_DATE_FORMAT, 'millis', down)).toBe(ms('2020-05-15T14:45:00Z'));
    expect(resolveDateMath('now+2M', DEFAULT_DATE_FORMAT, 'millis', down)).toBe(
      ms('2020-07-15T13:45:30.123Z'),
    );
  });

  it('anchors on a date with ||', () => {
    expect(resolveDateMath('2020-01-31||+1M', DEFAULT_DATE_FORMAT, 'millis', down)).toBe(
      ms('2020-02-29T00:00:00Z'),
    );
    expect(resolveDateMath('2014-11-18||/M', DEFAULT_DATE_FORMAT, 'millis', up)).toBe(
      ms('2014-11-30T23:59:59.999Z'),
    );
    expect(resolveDateMath('2014-11-18||/M', DEFAULT_DATE_FORMAT, 'millis', down)).toBe(
      ms('2014-11-01T00:00:00Z'),
    );
    expect(resolveDateMath('2020/01/01||+1d', 'yyyy/MM/dd', 'millis', down)).toBe(ms('2020-01-02T00:00:00Z'));
  });

  it('rounds a bare date up to the end of what it names', () => {
    expect(resolveDateMath('2014-11-18', DEFAULT_DATE_FORMAT, 'millis', up)).toBe(
      ms('2014-11-18T23:59:59.999Z'),
    );
    expect(resolveDateMath('2014-11-18T10', DEFAULT_DATE_FORMAT, 'millis', up)).toBe(
      ms('2014-11-18T10:59:59.999Z'),
    );
    expect(resolveDateMath('2014-11-18', DEFAULT_DATE_FORMAT, 'millis', down)).toBe(
      ms('2014-11-18T00:00:00Z'),
    );
    expect(resolveDateMath('2014-11-18', DEFAULT_DATE_NANOS_FORMAT, 'nanos', up)).toBe(1416355199999999999n);
    expect(resolveDateMath('1500000000', 'epoch_second', 'millis', up)).toBe(1500000000999);
  });

  it('applies time zones to parsing and rounding', () => {
    const paris = { roundUp: false, nowMillis: now, timeZone: 'Europe/Paris' };
    expect(resolveDateMath('2020-01-01', DEFAULT_DATE_FORMAT, 'millis', paris)).toBe(
      ms('2019-12-31T23:00:00Z'),
    );
    expect(resolveDateMath('now/d', DEFAULT_DATE_FORMAT, 'millis', paris)).toBe(ms('2020-05-14T22:00:00Z'));
    expect(resolveDateMath('now/d', DEFAULT_DATE_FORMAT, 'millis', { ...paris, roundUp: true })).toBe(
      ms('2020-05-15T21:59:59.999Z'),
    );
    const plus = { roundUp: false, nowMillis: now, timeZone: '+01:00' };
    expect(resolveDateMath('2020-01-01T00:00:00', DEFAULT_DATE_FORMAT, 'millis', plus)).toBe(
      ms('2019-12-31T23:00:00Z'),
    );
    // An explicit offset in the text wins over the time zone.
    expect(resolveDateMath('2020-01-01T00:00:00Z', DEFAULT_DATE_FORMAT, 'millis', plus)).toBe(
      ms('2020-01-01T00:00:00Z'),
    );
    expect(
      thrown(() => resolveDateMath('now', DEFAULT_DATE_FORMAT, 'millis', { ...down, timeZone: 'Mars/Base' }))
        .reason,
    ).toBe('Unknown time-zone ID: Mars/Base');
  });

  it('reports malformed math as parse_exception', () => {
    const cases: [string, string][] = [
      ['now*1d', 'operator not supported for date math [*1d]'],
      ['now+1', 'truncated date math [+1]'],
      ['now/2d', 'rounding `/` can only be used on single unit types [/2d]'],
      ['now+1x', 'unit [x] not supported for date math [+1x]'],
    ];
    for (const [expr, reason] of cases) {
      const e = thrown(() => resolveDateMath(expr, DEFAULT_DATE_FORMAT, 'millis', down));
      expect(e.type).toBe('parse_exception');
      expect(e.reason).toBe(reason);
    }
    const bad = thrown(() => resolveDateMath('garbage', DEFAULT_DATE_FORMAT, 'millis', down));
    expect(bad.type).toBe('parse_exception');
    expect(bad.reason).toBe(
      'failed to parse date field [garbage] with format [strict_date_optional_time||epoch_millis]: ' +
        '[failed to parse date field [garbage] with format [strict_date_optional_time||epoch_millis]]',
    );
  });
});

describe('dynamic date detection', () => {
  it('detects dates with the default formats and never pure numbers', () => {
    expect(isDateString('2015-01-01')).toBe(true);
    expect(isDateString('2015-01-01T12:10:30Z')).toBe(true);
    expect(detectDateFormat('2015/01/01 12:10:30')).toBe('yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis');
    expect(isDateString('2015')).toBe(false);
    expect(isDateString('1420070400001')).toBe(false);
    expect(isDateString('1.5')).toBe(false);
    expect(isDateString('hello')).toBe(false);
    expect(isDateString('')).toBe(false);
    expect(detectDateFormat('01/02/2020', ['MM/dd/yyyy'])).toBe('MM/dd/yyyy');
  });
});
