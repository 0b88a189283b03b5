/**
 * `script.max_compilations_rate` (ScriptCache.checkCompilationLimit): a token bucket of
 * compilations — `N/interval`, refilled continuously — that every script source not compiled
 * lately takes one token from. The node remembers the last 100 sources it let through
 * (`script.cache.max_size`); a source sent again compiles from cache and costs nothing. An empty
 * bucket refuses the request with Elasticsearch's 429 `circuit_breaking_exception`.
 */
import { circuitBreaking, getString, parseCompilationRate, type ScriptSpec } from '@shoal/protocol';
import type { NodeServices } from '../services.ts';

const REMEMBERED = 100;

export class CompilationLimit {
  private tokens: number | undefined;
  private lastRefill = 0;
  private rateText = '';
  private readonly seen = new Map<string, true>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts the new sources of a request against `rate` (the setting's current value). */
  admit(specs: readonly ScriptSpec[], rate: string): void {
    for (const spec of specs) {
      const source = spec.source;
      if (source === undefined) continue;
      if (this.seen.has(source)) {
        this.seen.delete(source);
        this.seen.set(source, true);
        continue;
      }
      this.take(rate);
      this.seen.set(source, true);
      if (this.seen.size > REMEMBERED) this.seen.delete(this.seen.keys().next().value as string);
    }
  }

  private take(rate: string): void {
    if (rate === 'unlimited') return;
    const { count, perMs } = parseCompilationRate(rate);
    const now = this.now();
    if (rate !== this.rateText || this.tokens === undefined) {
      this.rateText = rate;
      this.tokens = count;
      this.lastRefill = now;
    } else {
      this.tokens = Math.min(count, this.tokens + ((now - this.lastRefill) * count) / perMs);
      this.lastRefill = now;
    }
    if (this.tokens < 1) {
      throw circuitBreaking(
        `[script] Too many dynamic script compilations within, max: [${rate}]; please use indexed, or scripts with parameters instead; this limit can be changed by the [script.max_compilations_rate] setting`,
        0,
        0,
      );
    }
    this.tokens -= 1;
  }
}

/** Admits a request's scripts against the cluster's `script.max_compilations_rate`. */
export function admitScripts(s: NodeServices, specs: readonly ScriptSpec[]): void {
  s.compilations.admit(specs, getString(s.clusterSettings.effective(), 'script.max_compilations_rate'));
}
