/**
 * The search side of a transform, tried before it is stored or shown: `_preview` (the first
 * 100 destination documents and the destination index a start would create) and the test
 * search that PUT, `_update` and `_start` run unless validation is deferred (a bad query or an
 * aggregation Shoal cannot run is the client's error now, not a failed transform later).
 */

import { DEST_INDEX_SETTINGS, destMappings, sourceFieldTypes } from './dest-index.ts';
import type { TransformConfig } from './transform-config.ts';
import { passQuery, searchPage } from './transform-indexer.ts';
import type { TransformService } from './transform-service.ts';
import { emptyStats } from './transform-stats.ts';

/** How many documents a preview shows (TransformPreview's limit). */
export const PREVIEW_SIZE = 100;

export async function validateWithSearch(service: TransformService, config: TransformConfig): Promise<void> {
  const upper = config.sync ? Date.now() - config.sync.delayMs : undefined;
  await searchPage(
    { s: service.s, config, stats: emptyStats() },
    passQuery(config, upper, []),
    1,
    undefined,
    {},
  );
}

export async function previewTransform(
  service: TransformService,
  config: TransformConfig,
): Promise<Record<string, unknown>> {
  const types = await sourceFieldTypes(service.client, config);
  const upper = config.sync ? Date.now() - config.sync.delayMs : undefined;
  const page = await searchPage(
    { s: service.s, config, stats: emptyStats() },
    passQuery(config, upper, []),
    PREVIEW_SIZE,
    undefined,
    types,
  );
  const mappings = destMappings({ ...config, id: config.id || 'transform-preview' }, types, Date.now());
  if (mappings.properties === undefined) mappings.properties = {};
  return {
    preview: page.docs.slice(0, PREVIEW_SIZE).map((d) => d.source),
    generated_dest_index: { mappings, settings: DEST_INDEX_SETTINGS, aliases: {} },
  };
}
