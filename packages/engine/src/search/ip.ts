/**
 * IP addresses as 128-bit integers (IPv4 mapped into ::ffff:0:0/96, as InetAddressPoint
 * encodes them), so that ranges, CIDR masks and sorting compare numerically.
 */
export function parseIp(text: string): bigint | undefined {
  const s = text.trim();
  if (s.includes(':')) return parseV6(s);
  const v4 = parseV4(s);
  return v4 === undefined ? undefined : 0xffff00000000n | v4;
}

function parseV4(s: string): bigint | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let v = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    v = (v << 8n) | BigInt(n);
  }
  return v;
}

function parseV6(s: string): bigint | undefined {
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const words = (h: string): number[] | undefined => {
    if (h === '') return [];
    const out: number[] = [];
    const parts = h.split(':');
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (i === parts.length - 1 && p.includes('.')) {
        const v4 = parseV4(p);
        if (v4 === undefined) return undefined;
        out.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(p)) return undefined;
        out.push(Number.parseInt(p, 16));
      }
    }
    return out;
  };
  const head = words(halves[0]!);
  const tail = halves.length === 2 ? words(halves[1]!) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  let v = 0n;
  for (const w of all) v = (v << 16n) | BigInt(w);
  return v;
}

/** `10.0.0.0/8`, `2001:db8::/32` → inclusive [lo, hi]; undefined when malformed. */
export function parseCidr(text: string): [bigint, bigint] | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const addrText = text.slice(0, slash);
  const bits = Number(text.slice(slash + 1));
  const addr = parseIp(addrText);
  if (addr === undefined || !Number.isInteger(bits)) return undefined;
  const isV4 = !addrText.includes(':');
  const prefix = isV4 ? bits + 96 : bits;
  if (bits < 0 || prefix > 128) return undefined;
  const hostBits = BigInt(128 - prefix);
  const mask = (1n << hostBits) - 1n;
  const lo = addr & ~mask;
  return [lo, lo | mask];
}

/** A fixed-width hex key that sorts like the address (used as the comparable sort value). */
export function ipSortKey(v: bigint): string {
  return v.toString(16).padStart(32, '0');
}

export { formatIp } from '@shoal/protocol';
