import type { IncomingMessage } from 'node:http';
import { CapturedBodyMessage } from './captured-body.ts';

/**
 * Reads the raw request body. Read straight from Node's request for every method:
 * @hono/node-server never hands a GET or HEAD body to the app, and Elasticsearch clients send
 * search bodies with GET.
 *
 * A node's server makes its requests as CapturedBodyMessage, which keeps the body as it is
 * parsed: the answer is at hand once the message is complete (for a small search, as soon as
 * the packet that carried the headers is parsed). Any other request is read as a stream.
 */
export function readRawBody(
  incoming: IncomingMessage | undefined,
): Buffer | undefined | Promise<Buffer | undefined> {
  if (!incoming) return undefined;
  if (incoming instanceof CapturedBodyMessage) return incoming.body();
  if (incoming.readableEnded) return undefined;
  const h = incoming.headers;
  // No framing header: no body (HTTP/1.1), and no need to wait for the stream's end.
  if (h['content-length'] === undefined && h['transfer-encoding'] === undefined) return undefined;
  if (h['content-length'] === '0') return undefined;
  return readStreamed(incoming);
}

async function readStreamed(incoming: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  if (size === 0) return undefined;
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
}
