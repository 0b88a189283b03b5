/**
 * Deprecation `Warning` headers (HeaderWarning / DeprecationLogger, changes78.md §5.1):
 * `299 shoal-<version>-<build hash> "<escaped message>"`, one header per distinct message.
 */
import { SHOAL_BUILD_HASH, SHOAL_VERSION } from './version.ts';

const AGENT = `shoal-${SHOAL_VERSION}-${SHOAL_BUILD_HASH}`;

/** The `Warning` header value for one deprecation message. */
export function deprecationWarning(message: string): string {
  return `299 ${AGENT} "${escapeWarning(message)}"`;
}

/** The header values for a request's messages, deduplicated in order (ThreadContext keeps one of each). */
export function warningHeaders(messages: Iterable<string>): string[] {
  return [...new Set(messages)].map(deprecationWarning);
}

/**
 * Backslash and double quote are backslash-escaped; then every character outside
 * RFC 7230's quoted-string text (TAB, SP, !, #-[, ]-~, 0x80-0xFF; the escaped \ and " stay) is
 * percent-encoded as its UTF-8 bytes in upper-case hex — `%` itself included.
 */
export function escapeWarning(message: string): string {
  const escaped = message.replace(/[\\"]/g, (c) => `\\${c}`);
  let out = '';
  let run = '';
  for (const ch of escaped) {
    if (isQuotedText(ch.codePointAt(0)!)) {
      if (run) {
        out += encodeRun(run);
        run = '';
      }
      out += ch;
    } else {
      run += ch;
    }
  }
  return run ? out + encodeRun(run) : out;
}

function isQuotedText(c: number): boolean {
  return (
    c === 0x09 ||
    c === 0x20 ||
    c === 0x21 ||
    c === 0x5c ||
    c === 0x22 ||
    (c >= 0x23 && c <= 0x24) ||
    (c >= 0x26 && c <= 0x5b) ||
    (c >= 0x5d && c <= 0x7e) ||
    (c >= 0x80 && c <= 0xff)
  );
}

function encodeRun(run: string): string {
  let out = '';
  for (const b of Buffer.from(run, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}
