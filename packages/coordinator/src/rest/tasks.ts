/**
 * The task management API: `GET /_tasks` (running tasks, filtered by `actions`, `nodes`,
 * `parent_task_id`, grouped by `group_by`), `GET /_tasks/{id}` (a running task's status, or a
 * finished one's stored result; `wait_for_completion` waits up to `timeout`), and
 * `POST /_tasks/_cancel` / `POST /_tasks/{id}/_cancel`.
 */
import { illegalArgument, parseTimeValue, resourceNotFound, timeoutException } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { parseGroupBy, taskInfoJson, taskListJson } from '../tasks/task-json.ts';
import { parseTaskId, type Task } from '../tasks/task-registry.ts';
import { readTaskResult } from '../tasks/task-results.ts';
import { boolParam } from './params.ts';

const DEFAULT_WAIT_MS = 30_000;

function listed(s: NodeServices, q: Record<string, string>): Task[] {
  if (q.nodes !== undefined) {
    const wanted = q.nodes.split(',').map((x) => x.trim());
    const matches = wanted.some(
      (n) => n === '_all' || n === '_local' || n === s.node.id || n === s.node.name || n === '*',
    );
    if (!matches) return [];
  }
  const actions = q.actions === undefined ? undefined : q.actions.split(',').map((a) => a.trim());
  const parentTaskId = q.parent_task_id;
  if (parentTaskId !== undefined) parseTaskId(parentTaskId);
  return s.tasks.list({ actions, parentTaskId });
}

async function waitFor(s: NodeServices, tasks: Task[], q: Record<string, string>): Promise<void> {
  if (!boolParam(q, 'wait_for_completion', false)) return;
  const ms = q.timeout === undefined ? DEFAULT_WAIT_MS : parseTimeValue(q.timeout, 'timeout');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((r) => {
    timer = setTimeout(() => r('timeout'), ms);
  });
  const done = Promise.all(tasks.map((t) => s.tasks.finished(t.id)));
  const first = await Promise.race([done, timedOut]);
  clearTimeout(timer);
  if (first === 'timeout') {
    throw timeoutException(
      `Timed out waiting for completion of tasks [${tasks.map((t) => t.taskId).join(', ')}]`,
    );
  }
}

async function listTasks(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const q = req.query;
  const groupBy = parseGroupBy(q.group_by);
  const detailed = boolParam(q, 'detailed', false);
  const tasks = listed(s, q);
  await waitFor(s, tasks, q);
  return { status: 200, body: taskListJson(s, tasks, detailed, groupBy) };
}

async function getTask(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const text = req.params.task_id!;
  const { node, id } = parseTaskId(text);
  if (node !== s.node.id) {
    throw resourceNotFound(
      `task [${text}] belongs to the node [${node}] which isn't part of the cluster and there is no record of the task`,
    );
  }
  const task = s.tasks.get(id);
  if (task) {
    if (!boolParam(req.query, 'wait_for_completion', false)) {
      return { status: 200, body: { completed: false, task: taskInfoJson(task, true) } };
    }
    await waitFor(s, [task], req.query);
  }
  const stored = await readTaskResult(s, text);
  if (stored) return { status: 200, body: stored };
  if (task) {
    // It finished while we waited and kept no result (it was waited for by its client).
    return { status: 200, body: { completed: true, task: taskInfoJson(task, true) } };
  }
  throw resourceNotFound(`task [${text}] isn't running and hasn't stored its results`);
}

async function cancelTasks(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const q = req.query;
  const reason = 'by user request';
  let tasks: Task[];
  if (req.params.task_id !== undefined) {
    const { node, id } = parseTaskId(req.params.task_id);
    const task = node === s.node.id ? s.tasks.get(id) : undefined;
    if (!task) throw resourceNotFound(`task [${req.params.task_id}] is not found`);
    if (!task.spec.cancellable) {
      throw illegalArgument(`task [${req.params.task_id}] doesn't support cancellation`);
    }
    tasks = [task];
  } else {
    tasks = listed(s, q).filter((t) => t.spec.cancellable);
  }
  for (const t of tasks) t.cancel(reason);
  await waitFor(s, tasks, q);
  return { status: 200, body: taskListJson(s, tasks, false, parseGroupBy(q.group_by)) };
}

export function taskRoutes(): Route<NodeServices>[] {
  return [
    { method: 'GET', path: '/_tasks', action: 'cluster:monitor/tasks/lists', handler: listTasks },
    { method: 'GET', path: '/_tasks/:task_id', action: 'cluster:monitor/task/get', handler: getTask },
    { method: 'POST', path: '/_tasks/_cancel', action: 'cluster:admin/tasks/cancel', handler: cancelTasks },
    {
      method: 'POST',
      path: '/_tasks/:task_id/_cancel',
      action: 'cluster:admin/tasks/cancel',
      handler: cancelTasks,
    },
  ];
}
