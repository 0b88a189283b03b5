/**
 * The checks of a transform's source and destination against the cluster (Elasticsearch's
 * SourceDestValidator): every source expression resolves, the destination names one index (an
 * alias with several indices needs a write index) that is not one of the sources, and the
 * destination pipeline exists.
 */
import { actionRequestValidation, isShoalError, statusException } from '@shoal/protocol';
import type { NodeServices } from '../services.ts';
import { SEARCH_INDICES_OPTIONS } from '../state/resolve-indices.ts';
import type { TransformConfig } from './transform-config.ts';

export function validateSourceDest(s: NodeServices, config: TransformConfig, forPreview: boolean): void {
  const sources = new Set<string>();
  for (const expr of config.source.index) {
    try {
      for (const m of s.indices.resolve(expr, SEARCH_INDICES_OPTIONS)) sources.add(m.name);
    } catch (e) {
      if (isShoalError(e) && e.type === 'index_not_found_exception')
        throw actionRequestValidation([e.reason]);
      throw e;
    }
  }
  if (sources.size === 0) {
    throw actionRequestValidation([`Source index [${config.source.index.join(',')}] does not exist`]);
  }
  if (!forPreview && config.dest.index !== '') {
    const dest = config.dest.index;
    const targets = s.indices.get(dest) ? [s.indices.get(dest)!] : s.indices.aliasTargets(dest);
    const write = targets.length === 1 ? targets[0] : targets.find((m) => m.aliases.get(dest)?.isWriteIndex);
    if (targets.length > 1 && !write) {
      throw actionRequestValidation([
        `no write index is defined for alias [${dest}]. The write index may be explicitly disabled using is_write_index=false or the alias points to multiple indices without one being designated as a write index`,
      ]);
    }
    const destName = write?.name ?? dest;
    if (sources.has(destName)) {
      throw actionRequestValidation([
        `Destination index [${destName}] is included in source expression [${[...sources].join(',')}]`,
      ]);
    }
  }
}

/** Shoal has no ingest pipelines: a transform that names one cannot write (Elasticsearch's missing-pipeline error). */
export function checkPipeline(config: TransformConfig): void {
  const p = config.dest.pipeline;
  if (p !== undefined) throw statusException(`Pipeline with id [${p}] could not be found`, 400);
}
