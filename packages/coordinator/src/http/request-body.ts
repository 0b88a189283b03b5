import type { IncomingMessage } from 'node:http';

/**
 * Reads the raw request body. Read straight from Node's request for every method:
 * @hono/node-server never hands a GET or HEAD body to the app, and Elasticsearch clients send
 * search bodies with GET.
 */
export async function readRawBody(incoming: IncomingMessage | undefined): Promise<Buffer | undefined> {
  if (!incoming || incoming.readableEnded) return undefined;
  const h = incoming.headers;
  // No framing header: no body (HTTP/1.1), and no need to wait for the stream's end.
  if (h['content-length'] === undefined && h['transfer-encoding'] === undefined) return undefined;
  if (h['content-length'] === '0') return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  if (size === 0) return undefined;
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
}
