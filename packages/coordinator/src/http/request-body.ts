import type { IncomingMessage } from 'node:http';

/**
 * Reads the raw request body. Read straight from Node's request for every method:
 * @hono/node-server never hands a GET or HEAD body to the app, and Elasticsearch clients send
 * search bodies with GET.
 *
 * A search body is small and arrives in the packet that carries the headers. The handler starts
 * inside the parser's headers callback, and Node parses the rest of the packet only after that
 * callback's microtasks; by the check phase of the same loop turn (setImmediate) the whole
 * message sits in the request's buffer (`complete`) and is read at once, without an async
 * iterator and its end-of-stream machinery. A body still on the wire is streamed.
 */
export async function readRawBody(incoming: IncomingMessage | undefined): Promise<Buffer | undefined> {
  if (!incoming || incoming.readableEnded) return undefined;
  const h = incoming.headers;
  // No framing header: no body (HTTP/1.1), and no need to wait for the stream's end.
  if (h['content-length'] === undefined && h['transfer-encoding'] === undefined) return undefined;
  if (h['content-length'] === '0') return undefined;
  if (!incoming.complete) await new Promise<void>((resolve) => setImmediate(resolve));
  if (incoming.complete && !incoming.readableFlowing && !incoming.destroyed) return readBuffered(incoming);
  return readStreamed(incoming);
}

/** Everything the parser buffered for a complete message; `end` follows on the next tick. */
function readBuffered(incoming: IncomingMessage): Buffer | undefined {
  let body: Buffer | undefined;
  for (
    let chunk = incoming.read() as Buffer | null;
    chunk !== null;
    chunk = incoming.read() as Buffer | null
  ) {
    body = body === undefined ? chunk : Buffer.concat([body, chunk]);
  }
  return body === undefined || body.length === 0 ? undefined : body;
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
