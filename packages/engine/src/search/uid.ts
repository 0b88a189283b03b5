/**
 * The bytes Elasticsearch indexes for an `_id` (Uid.encodeId, paging.md §5.3), which a sliced
 * scroll hashes: all-digit ids pack two digits a byte behind 0xFE, url-safe base64 ids
 * (auto-generated ones) are decoded (0xFD escapes a first byte >= 0xFD), anything else is
 * 0xFF followed by its UTF-8 bytes.
 */
import { illegalArgument } from '@shoal/protocol';

const BASE64_ESCAPE = 0xfd;
const NUMERIC = 0xfe;
const UTF8 = 0xff;

const encoder = new TextEncoder();

function isPositiveNumeric(id: string): boolean {
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

const LAST_OF_2 = new Set('AQgw');
const LAST_OF_3 = new Set('AEIMQUYcgkosw048');

/** Url-safe base64 without padding whose unused trailing bits are zero (so it round-trips). */
function isUrlBase64WithoutPadding(id: string): boolean {
  const rem = id.length & 3;
  if (rem === 1) return false;
  const last = id[id.length - 1]!;
  if (rem === 2 && !LAST_OF_2.has(last)) return false;
  if (rem === 3 && !LAST_OF_3.has(last)) return false;
  return /^[A-Za-z0-9_-]*$/.test(id);
}

export function encodeId(id: string): Uint8Array {
  if (id.length === 0) throw illegalArgument("Ids can't be empty");
  if (isPositiveNumeric(id)) {
    const out = new Uint8Array(1 + ((id.length + 1) >> 1));
    out[0] = NUMERIC;
    for (let i = 0; i < id.length; i += 2) {
      const hi = id.charCodeAt(i) - 48;
      const lo = i + 1 === id.length ? 0x0f : id.charCodeAt(i + 1) - 48;
      out[1 + (i >> 1)] = (hi << 4) | lo;
    }
    return out;
  }
  if (isUrlBase64WithoutPadding(id)) {
    const bytes = Buffer.from(id, 'base64url');
    if (bytes[0]! < BASE64_ESCAPE) return new Uint8Array(bytes);
    const out = new Uint8Array(bytes.length + 1);
    out[0] = BASE64_ESCAPE;
    out.set(bytes, 1);
    return out;
  }
  const utf8 = encoder.encode(id);
  const out = new Uint8Array(utf8.length + 1);
  out[0] = UTF8;
  out.set(utf8, 1);
  return out;
}
