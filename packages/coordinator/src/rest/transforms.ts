/**
 * The transform APIs (`/_transform`): put, get, stats, start, stop, update, reset, schedule
 * now, delete, preview and upgrade, each authorized as Elasticsearch's action (covered by the
 * `manage_transform` and `monitor_transform` cluster privileges). The work is in transforms/.
 */
import {
  actionRequestValidation,
  illegalArgument,
  parseTimeValue,
  requestBodyRequired,
} from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { checkPipeline } from '../transforms/source-dest-validation.ts';
import { BodyReader } from '../transforms/strict-body.ts';
import { configJson, parseTransformConfig, validateTransformId } from '../transforms/transform-config.ts';
import {
  authorizationJson,
  checkTransformPrivileges,
  storedAuthorization,
} from '../transforms/transform-privileges.ts';
import type { TransformService } from '../transforms/transform-service.ts';
import { transformStatsJson } from '../transforms/transform-stats-json.ts';
import { previewTransform } from '../transforms/transform-validation.ts';
import { boolParam, intParam } from './params.ts';

const ACK = { status: 200, body: { acknowledged: true } } as const;
/** GetTransformAction's page limit. */
const MAX_PAGE_SIZE = 1000;

function service(s: NodeServices): TransformService {
  if (!s.transforms) throw illegalArgument('transforms are not available on this node');
  return s.transforms;
}

function hasBody(req: RestRequest): boolean {
  return req.body !== undefined && req.body.length > 0;
}

function page(req: RestRequest): { from: number; size: number } {
  const from = intParam(req.query, 'from') ?? 0;
  const size = intParam(req.query, 'size') ?? 100;
  const problems: string[] = [];
  if (from < 0) problems.push('Param [from] can not be negative');
  if (size < 0) problems.push('Param [size] can not be negative');
  if (size > MAX_PAGE_SIZE) problems.push(`Param [size] has a max acceptable value of [${MAX_PAGE_SIZE}]`);
  if (problems.length > 0) throw actionRequestValidation(problems);
  return { from, size };
}

function timeoutMs(req: RestRequest, dflt: number): number {
  const t = req.query.timeout;
  return t === undefined ? dflt : parseTimeValue(t, 'timeout');
}

async function putTransform(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const id = req.params.transform_id!;
  validateTransformId(id);
  if (!hasBody(req)) throw requestBodyRequired();
  const defer = boolParam(req.query, 'defer_validation', false);
  timeoutMs(req, 30_000);
  await service(s).put(id, req.body, req.json(), req.authentication, defer, req.warnings);
  return ACK;
}

async function getTransforms(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const svc = service(s);
  const { from, size } = page(req);
  const exclude = boolParam(req.query, 'exclude_generated', false);
  const ids = await svc.expand(
    req.params.transform_id ?? '_all',
    boolParam(req.query, 'allow_no_match', true),
  );
  const transforms: Record<string, unknown>[] = [];
  for (const id of ids.slice(from, from + size)) {
    const stored = await svc.store.getConfig(id);
    if (!stored) continue;
    const { config, who } = await svc.load(id);
    const json = configJson(config, exclude);
    if (who && !exclude) {
      // AuthorizationState sits right after the id, as Elasticsearch writes it.
      const { id: _, ...rest } = json;
      transforms.push({ id, authorization: authorizationJson(who), ...rest });
    } else transforms.push(json);
  }
  return { status: 200, body: { count: ids.length, transforms } };
}

async function getStats(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const svc = service(s);
  const { from, size } = page(req);
  const ids = await svc.expand(
    req.params.transform_id ?? '_all',
    boolParam(req.query, 'allow_no_match', true),
  );
  const transforms: Record<string, unknown>[] = [];
  for (const id of ids.slice(from, from + size)) transforms.push(await transformStatsJson(svc, id));
  return { status: 200, body: { count: ids.length, transforms } };
}

/** `from`: a date (epoch millis or ISO 8601) for a continuous transform's first checkpoint. */
function fromParam(req: RestRequest): number | undefined {
  const v = req.query.from;
  if (v === undefined) return undefined;
  const ms = /^\d+$/.test(v)
    ? Number(v)
    : Date.parse(v.endsWith('Z') || /[+-]\d\d:?\d\d$/.test(v) ? v : `${v}Z`);
  if (v.trim() === '' || !Number.isFinite(ms)) {
    throw illegalArgument(`Failed to parse date for [from]`);
  }
  return ms;
}

async function startTransform(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const from = fromParam(req);
  timeoutMs(req, 30_000);
  await service(s).start(req.params.transform_id!, from);
  return ACK;
}

async function stopTransform(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  await service(s).stop(req.params.transform_id!, {
    allowNoMatch: boolParam(req.query, 'allow_no_match', true),
    force: boolParam(req.query, 'force', false),
    waitForCompletion: boolParam(req.query, 'wait_for_completion', false),
    waitForCheckpoint: boolParam(req.query, 'wait_for_checkpoint', false),
    timeoutMs: timeoutMs(req, 30_000),
  });
  return ACK;
}

async function deleteTransform(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  timeoutMs(req, 30_000);
  await service(s).delete(
    req.params.transform_id!,
    boolParam(req.query, 'force', false),
    boolParam(req.query, 'delete_dest_index', false),
  );
  return ACK;
}

async function updateTransform(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  if (!hasBody(req)) throw requestBodyRequired();
  const defer = boolParam(req.query, 'defer_validation', false);
  timeoutMs(req, 30_000);
  const config = await service(s).update(
    req.params.transform_id!,
    req.body,
    req.json(),
    req.authentication,
    defer,
    req.warnings,
  );
  return { status: 200, body: configJson(config) };
}

async function resetTransform(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  timeoutMs(req, 30_000);
  await service(s).reset(req.params.transform_id!, boolParam(req.query, 'force', false));
  return ACK;
}

async function scheduleNow(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  timeoutMs(req, 30_000);
  await service(s).scheduleNow(req.params.transform_id!);
  return ACK;
}

async function preview(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const svc = service(s);
  const id = req.params.transform_id;
  timeoutMs(req, 30_000);
  if (id !== undefined && hasBody(req)) {
    throw actionRequestValidation([
      'Please provide either a transform [id] or the config object but not both',
    ]);
  }
  if (id === undefined && !hasBody(req)) {
    throw actionRequestValidation(['Please provide a transform [id] or the config object']);
  }
  const config =
    id !== undefined
      ? (await svc.load(id)).config
      : parseTransformConfig(BodyReader.of(req.body), 'transform-preview', req.json(), req.warnings, {
          forPreview: true,
          now: Date.now(),
        });
  await checkTransformPrivileges(s, 'preview', config, storedAuthorization(req.authentication), false);
  await svc.validate(config, true);
  checkPipeline(config);
  return { status: 200, body: await previewTransform(svc, config) };
}

async function upgrade(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  boolParam(req.query, 'dry_run', false);
  timeoutMs(req, 30_000);
  return { status: 200, body: await service(s).upgrade() };
}

export function transformRoutes(): Route<NodeServices>[] {
  const admin = 'cluster:admin/transform';
  const monitor = 'cluster:monitor/transform';
  return [
    { method: 'PUT', path: '/_transform/:transform_id', action: `${admin}/put`, handler: putTransform },
    { method: 'GET', path: '/_transform', action: `${monitor}/get`, handler: getTransforms },
    { method: 'GET', path: '/_transform/:transform_id', action: `${monitor}/get`, handler: getTransforms },
    { method: 'GET', path: '/_transform/_stats', action: `${monitor}/stats/get`, handler: getStats },
    {
      method: 'GET',
      path: '/_transform/:transform_id/_stats',
      action: `${monitor}/stats/get`,
      handler: getStats,
    },
    {
      method: 'POST',
      path: '/_transform/:transform_id/_start',
      action: `${admin}/start`,
      handler: startTransform,
    },
    {
      method: 'POST',
      path: '/_transform/:transform_id/_stop',
      action: `${admin}/stop`,
      handler: stopTransform,
    },
    {
      method: 'DELETE',
      path: '/_transform/:transform_id',
      action: `${admin}/delete`,
      handler: deleteTransform,
    },
    {
      method: 'POST',
      path: '/_transform/:transform_id/_update',
      action: `${admin}/update`,
      handler: updateTransform,
    },
    {
      method: 'POST',
      path: '/_transform/:transform_id/_reset',
      action: `${admin}/reset`,
      handler: resetTransform,
    },
    {
      method: 'POST',
      path: '/_transform/:transform_id/_schedule_now',
      action: `${admin}/schedule_now`,
      handler: scheduleNow,
    },
    { method: 'POST', path: '/_transform/_preview', action: `${admin}/preview`, handler: preview },
    { method: 'GET', path: '/_transform/_preview', action: `${admin}/preview`, handler: preview },
    {
      method: 'POST',
      path: '/_transform/:transform_id/_preview',
      action: `${admin}/preview`,
      handler: preview,
    },
    {
      method: 'GET',
      path: '/_transform/:transform_id/_preview',
      action: `${admin}/preview`,
      handler: preview,
    },
    { method: 'POST', path: '/_transform/_upgrade', action: `${admin}/upgrade`, handler: upgrade },
  ];
}
