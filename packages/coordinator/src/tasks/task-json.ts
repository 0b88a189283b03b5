/**
 * Tasks in Elasticsearch's JSON (TaskInfo, ListTasksResponse): one task, and the list grouped
 * by node (the default), by parent (`group_by=parents`, children nested under their parent) or
 * flat (`group_by=none`). Status and description appear when detailed, as in Elasticsearch;
 * `GET /_tasks/{id}` always shows them.
 */
import { illegalArgument } from '@shoal/protocol';
import type { NodeServices } from '../services.ts';
import type { Task } from './task-registry.ts';

export function taskInfoJson(task: Task, detailed: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    node: task.node,
    id: task.id,
    type: 'transport',
    action: task.spec.action,
  };
  if (detailed && task.spec.status) out.status = task.spec.status();
  const description = detailed ? task.description : undefined;
  if (description !== undefined) out.description = description;
  out.start_time_in_millis = task.startTimeMs;
  out.running_time_in_nanos = Number(process.hrtime.bigint() - task.startedAt);
  out.cancellable = task.spec.cancellable;
  if (task.spec.cancellable) out.cancelled = task.cancelled;
  if (task.spec.parent) out.parent_task_id = task.spec.parent.taskId;
  out.headers = {};
  return out;
}

export type GroupBy = 'nodes' | 'parents' | 'none';

export function parseGroupBy(v: string | undefined): GroupBy {
  if (v === undefined || v === 'nodes' || v === 'parents' || v === 'none') return v ?? 'nodes';
  throw illegalArgument(
    `No enum constant org.elasticsearch.rest.action.admin.cluster.RestListTasksAction.GroupBy.${v.toUpperCase()}`,
  );
}

function nodeHeader(s: NodeServices): Record<string, unknown> {
  return {
    name: s.node.name,
    transport_address: `${s.node.host}:${s.node.transportPort}`,
    host: s.node.host,
    ip: `${s.node.host}:${s.node.transportPort}`,
    roles: s.node.roles,
    attributes: {},
  };
}

export function taskListJson(
  s: NodeServices,
  tasks: Task[],
  detailed: boolean,
  groupBy: GroupBy,
): Record<string, unknown> {
  if (groupBy === 'none') return { tasks: tasks.map((t) => taskInfoJson(t, detailed)) };
  if (groupBy === 'parents') {
    const listed = new Set(tasks);
    const out: Record<string, unknown> = {};
    const withChildren = (t: Task): Record<string, unknown> => {
      const json = taskInfoJson(t, detailed);
      const children = [...t.children].filter((c) => listed.has(c));
      if (children.length > 0) json.children = children.map(withChildren);
      return json;
    };
    for (const t of tasks) {
      if (t.spec.parent && listed.has(t.spec.parent)) continue;
      out[t.taskId] = withChildren(t);
    }
    return { tasks: out };
  }
  if (tasks.length === 0) return { nodes: {} };
  const byId: Record<string, unknown> = {};
  for (const t of tasks) byId[t.taskId] = taskInfoJson(t, detailed);
  return { nodes: { [s.node.id]: { ...nodeHeader(s), tasks: byId } } };
}
