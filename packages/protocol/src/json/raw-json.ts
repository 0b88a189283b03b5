/**
 * Pre-serialised JSON (a stored `_source`, a shard's partial response) that `stringifyJson`
 * splices into the output verbatim, without parsing it again. The bytes must be one valid
 * JSON value; they are decoded at most once.
 */
import { parseJson } from './parse.ts';

const utf8 = new TextDecoder();

/** Set by stringifyJson while it serialises; see rawJsonSentinel. */
let activeRaws: string[] | null = null;

export class RawJson {
  #bytes: Uint8Array | undefined;
  #text: string | undefined;

  constructor(json: string | Uint8Array) {
    if (typeof json === 'string') this.#text = json;
    else this.#bytes = json;
  }

  get text(): string {
    if (this.#text === undefined) {
      this.#text = utf8.decode(this.#bytes!);
      this.#bytes = undefined;
    }
    return this.#text;
  }

  /** The bytes it was made of, while they have not been decoded to text. */
  get bytes(): Uint8Array | undefined {
    return this.#bytes;
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

/** Runs `f` with RawJson.toJSON writing placeholders; returns f's result and the collected texts. */
export function withRawPlaceholders<T>(f: () => T): { result: T; raws: string[] } {
  const previous = activeRaws;
  const raws: string[] = [];
  activeRaws = raws;
  try {
    return { result: f(), raws };
  } finally {
    activeRaws = previous;
  }
}
