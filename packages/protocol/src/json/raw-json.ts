/**
 * Pre-serialised JSON (a stored `_source`, a shard's partial response) that `stringifyJson`
 * splices into the output verbatim, without parsing it again. The bytes must be one valid
 * JSON value; they are decoded at most once.
 */
import { blockBytes } from './byte-blocks.ts';
import { parseJson } from './parse.ts';

const utf8 = new TextDecoder();

/** Set by stringifyJson while it serialises; see rawJsonSentinel. */
let activeRaws: string[] | null = null;

/**
 * JSON bytes not assembled yet: their length, and how to write them at a position of a larger
 * buffer. A response that holds them writes them once, in place, with no copy of their own.
 */
export interface RawJsonWriter {
  readonly byteLength: number;
  writeTo(out: Uint8Array, at: number): void;
}

export class RawJson {
  #bytes: Uint8Array | undefined;
  #text: string | undefined;
  #writer: RawJsonWriter | undefined;

  constructor(json: string | Uint8Array | RawJsonWriter) {
    if (typeof json === 'string') this.#text = json;
    else if (json instanceof Uint8Array) this.#bytes = json;
    else this.#writer = json;
  }

  /** One JSON scalar (a number text such as an aggregation's `15.0`), not an object or an array. */
  get isScalar(): boolean {
    const text = this.#text;
    if (text !== undefined) {
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return c !== 0x7b && c !== 0x5b;
      }
      return true;
    }
    const bytes = this.bytes!;
    for (let i = 0; i < bytes.length; i++) {
      const c = bytes[i]!;
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return c !== 0x7b && c !== 0x5b;
    }
    return true;
  }

  get text(): string {
    if (this.#text === undefined) {
      this.#text = utf8.decode(this.bytes!);
      this.#bytes = undefined;
    }
    return this.#text;
  }

  /** The bytes it was made of, while they have not been decoded to text. */
  get bytes(): Uint8Array | undefined {
    if (this.#writer !== undefined) {
      const bytes = blockBytes(this.#writer.byteLength);
      this.#writer.writeTo(bytes, 0);
      this.#bytes = bytes;
      this.#writer = undefined;
    }
    return this.#bytes;
  }

  /**
   * Assembles a writer's bytes now, while what it reads is still there (a page read in the
   * shards' reply slots, which are freed once the search has its body).
   */
  assemble(): this {
    void this.bytes;
    return this;
  }

  /** Whether it is still a writer: bytes not assembled yet. */
  get unassembled(): boolean {
    return this.#writer !== undefined;
  }

  /** How many bytes it holds while they are bytes or a writer; -1 once decoded to text. */
  get byteLength(): number {
    return this.#writer?.byteLength ?? this.#bytes?.byteLength ?? -1;
  }

  /** The bytes as a writer (without assembling them when they are still a writer); undefined once text. */
  get writer(): RawJsonWriter | undefined {
    if (this.#writer !== undefined) return this.#writer;
    const bytes = this.#bytes;
    return bytes === undefined ? undefined : new BytesWriter(bytes);
  }

  /** The value itself, for the rare reader that needs it (pretty printing, filter_path). */
  parse(): unknown {
    return parseJson(this.text, 'raw json');
  }

  /**
   * Inside stringifyJson: a placeholder the writer swaps for the raw text. Outside (someone
   * calling JSON.stringify directly): the parsed value, so the output is still right.
   */
  toJSON(): unknown {
    if (activeRaws === null) return this.parse();
    activeRaws.push(this.text);
    return `\u0000R${activeRaws.length - 1}`;
  }
}

class BytesWriter implements RawJsonWriter {
  constructor(private readonly bytes: Uint8Array) {}
  get byteLength(): number {
    return this.bytes.byteLength;
  }
  writeTo(out: Uint8Array, at: number): void {
    out.set(this.bytes, at);
  }
}

/** Runs `f` with RawJson.toJSON writing placeholders; returns f's result and the collected texts. */
export function withRawMarkers<T>(f: () => T): { result: T; raws: string[] } {
  const previous = activeRaws;
  const raws: string[] = [];
  activeRaws = raws;
  try {
    return { result: f(), raws };
  } finally {
    activeRaws = previous;
  }
}
