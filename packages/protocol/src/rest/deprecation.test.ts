import { describe, expect, it } from 'vitest';
import { deprecationWarning, escapeWarning, warningHeaders } from './deprecation.ts';
import { SHOAL_BUILD_HASH, SHOAL_VERSION } from './version.ts';

describe('deprecationWarning', () => {
  it('formats the header with Shoal agent', () => {
    expect(SHOAL_VERSION).toBe('0.1.0');
    expect(deprecationWarning('[GET /_ext/license] is deprecated! Use [GET /_license] instead.')).toBe(
      `299 shoal-0.1.0-${SHOAL_BUILD_HASH} "[GET /_ext/license] is deprecated! Use [GET /_license] instead."`,
    );
    // Elasticsearch's own pattern for the agent's build hash.
    expect(SHOAL_BUILD_HASH).toMatch(/^(?:[a-f0-9]{7}(?:[a-f0-9]{33})?|unknown)$/);
  });

  it('escapes quotes and backslashes, then percent-encodes', () => {
    expect(escapeWarning('a "quoted" \\ b')).toBe('a \\"quoted\\" \\\\ b');
    expect(escapeWarning('100%')).toBe('100%25');
    expect(escapeWarning('line\nbreak')).toBe('line%0Abreak');
    expect(escapeWarning('café')).toBe('café');
    expect(escapeWarning('日本')).toBe('%E6%97%A5%E6%9C%AC');
    expect(escapeWarning('tab\tok')).toBe('tab\tok');
  });

  it('keeps one header per distinct message', () => {
    expect(warningHeaders(['a', 'b', 'a'])).toHaveLength(2);
  });
});
