/**
 * The iteration order of a java.util.HashMap, which is the key order Elasticsearch writes
 * nested settings in (Settings.getAsStructuredMap builds HashMaps sized for 2 entries from the
 * sorted flat keys). Buckets are `(h ^ h >>> 16) & (capacity - 1)` of String.hashCode; within
 * a bucket, insertion order; the table doubles past 3/4 full. Reproduces, for instance, the
 * familiar `routing, number_of_shards, provided_name, creation_date, number_of_replicas, uuid, version`.
 */
export function javaHashMapOrder(keysInInsertionOrder: readonly string[], initialCapacity = 4): string[] {
  let capacity = initialCapacity;
  let threshold = Math.floor(capacity * 0.75);
  for (let size = 1; size <= keysInInsertionOrder.length; size++) {
    if (size > threshold) {
      capacity *= 2;
      threshold = Math.floor(capacity * 0.75);
    }
  }
  return keysInInsertionOrder
    .map((key, i) => ({ key, i, bucket: spread(javaStringHash(key)) & (capacity - 1) }))
    .sort((a, b) => a.bucket - b.bucket || a.i - b.i)
    .map((e) => e.key);
}

export function javaStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

function spread(h: number): number {
  return h ^ (h >>> 16);
}
