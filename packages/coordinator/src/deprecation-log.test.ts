import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { DeprecationLog } from './deprecation-log.ts';

function logger() {
  const lines: Record<string, unknown>[] = [];
  const stream = { write: (s: string) => lines.push(JSON.parse(s)) };
  return { lines, log: new DeprecationLog(pino({ base: {} }, stream)) };
}

describe('DeprecationLog', () => {
  it('logs under its own name, once per message and X-Opaque-Id', () => {
    const { lines, log } = logger();
    log.record(['a', 'a', 'b'], 'op-1');
    log.record(['a'], 'op-1');
    log.record(['a'], 'op-2');
    log.record(['a']);
    expect(lines.map((l) => [l.name, l.msg, l['x-opaque-id']])).toEqual([
      ['deprecation', 'a', 'op-1'],
      ['deprecation', 'b', 'op-1'],
      ['deprecation', 'a', 'op-2'],
      ['deprecation', 'a', undefined],
    ]);
    expect(lines.every((l) => l.level === 40)).toBe(true);
  });

  it('forgets the least recently seen pair past 128', () => {
    const { lines, log } = logger();
    log.record(['first']);
    for (let i = 0; i < 128; i++) log.record([`m${i}`]);
    log.record(['first']);
    expect(lines.filter((l) => l.msg === 'first')).toHaveLength(2);
  });
});
