/** IP addresses as text (an address is a 128-bit bigint, IPv4 as IPv4-mapped IPv6). */

/** The canonical text of an address: dotted IPv4 for mapped addresses, else RFC 5952 IPv6. */
export function formatIp(v: bigint): string {
  if (v >> 32n === 0xffffn) {
    return [24n, 16n, 8n, 0n].map((s) => String((v >> s) & 0xffn)).join('.');
  }
  const words: number[] = [];
  for (let i = 7; i >= 0; i--) words.push(Number((v >> BigInt(i * 16)) & 0xffffn));
  // The longest run of two or more zero words becomes "::".
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = words.map((w) => w.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}
