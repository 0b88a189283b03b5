/**
 * The node's running tasks (Elasticsearch's TaskManager): every long request registers one —
 * reindex and the by-query requests, each slice of them as a child, searches and scrolls — so
 * `GET /_tasks` lists them with their status and `POST /_tasks/{id}/_cancel` stops them. Ids
 * are `<node id>:<number>`, numbered from 1 per node run, as Elasticsearch's are.
 *
 * A cancellable task keeps its cancel listeners: cancelling calls them once (the reason is
 * kept for the status), and a listener added after that is called at once. Cancelling a task
 * cancels its children too (Elasticsearch's ban on the parent).
 */
import { ShoalError } from '@shoal/protocol';

export interface TaskSpec {
  action: string;
  /** What the task does (shown when detailed); a function when it costs something to say. */
  description?: string | (() => string);
  cancellable: boolean;
  parent?: Task;
  /** The task's status as `GET /_tasks` shows it (read each time it is asked). */
  status?: () => Record<string, unknown>;
}

export class Task {
  readonly startTimeMs = Date.now();
  readonly startedAt = process.hrtime.bigint();
  private childSet: Set<Task> | undefined;
  private listeners: (() => void)[] | undefined;
  cancelledReason: string | undefined;

  constructor(
    readonly node: string,
    readonly id: number,
    readonly spec: TaskSpec,
  ) {}

  get taskId(): string {
    return `${this.node}:${this.id}`;
  }

  get cancelled(): boolean {
    return this.cancelledReason !== undefined;
  }

  /** The running tasks started on behalf of this one. */
  get children(): Set<Task> {
    this.childSet ??= new Set();
    return this.childSet;
  }

  get description(): string | undefined {
    const d = this.spec.description;
    return typeof d === 'function' ? d() : d;
  }

  onCancel(listener: () => void): void {
    if (this.cancelled) listener();
    else if (this.listeners) this.listeners.push(listener);
    else this.listeners = [listener];
  }

  cancel(reason: string): void {
    if (this.cancelled) return;
    this.cancelledReason = reason;
    const listeners = this.listeners ?? [];
    this.listeners = undefined;
    for (const l of listeners) l();
    for (const child of this.childSet ?? []) child.cancel(`parent task was cancelled [${reason}]`);
  }
}

export interface TaskFilter {
  actions?: string[];
  parentTaskId?: string;
}

/** `*` matches any run of characters, as Elasticsearch's `Regex.simpleMatch`. */
function simpleMatch(pattern: string, value: string): boolean {
  const re = new RegExp(`^${pattern.split('*').map(escapeRe).join('.*')}$`);
  return re.test(value);
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class TaskRegistry {
  private nextId = 1;
  private readonly running = new Map<number, Task>();
  private readonly finishListeners = new Map<number, (() => void)[]>();

  constructor(readonly nodeId: string) {}

  /** Numbers new tasks after `id`: a restarted node does not reuse the ids of stored results. */
  numberAfter(id: number): void {
    if (id >= this.nextId) this.nextId = id + 1;
  }

  register(spec: TaskSpec): Task {
    const task = new Task(this.nodeId, this.nextId++, spec);
    this.running.set(task.id, task);
    spec.parent?.children.add(task);
    if (spec.parent?.cancelled) task.cancel(`parent task was cancelled [${spec.parent.cancelledReason}]`);
    return task;
  }

  unregister(task: Task): void {
    this.running.delete(task.id);
    task.spec.parent?.children.delete(task);
    if (this.finishListeners.size === 0) return;
    const listeners = this.finishListeners.get(task.id);
    this.finishListeners.delete(task.id);
    for (const l of listeners ?? []) l();
  }

  /** Runs `f` as a registered task, unregistered however it ends. */
  async run<T>(spec: TaskSpec, f: (task: Task) => Promise<T>): Promise<T> {
    const task = this.register(spec);
    try {
      return await f(task);
    } finally {
      this.unregister(task);
    }
  }

  get(id: number): Task | undefined {
    return this.running.get(id);
  }

  /** Resolves when the task is no longer running (at once when it is not). */
  finished(id: number): Promise<void> {
    if (!this.running.has(id)) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.finishListeners.get(id) ?? [];
      list.push(resolve);
      this.finishListeners.set(id, list);
    });
  }

  list(filter: TaskFilter = {}): Task[] {
    const out: Task[] = [];
    for (const t of this.running.values()) {
      if (filter.actions && !filter.actions.some((a) => simpleMatch(a, t.spec.action))) continue;
      if (filter.parentTaskId !== undefined && t.spec.parent?.taskId !== filter.parentTaskId) continue;
      out.push(t);
    }
    return out;
  }
}

/** `<node>:<id>` as Elasticsearch's TaskId parses it. */
export function parseTaskId(text: string): { node: string; id: number } {
  const colon = text.lastIndexOf(':');
  const node = text.slice(0, colon);
  const idText = text.slice(colon + 1);
  if (colon <= 0 || !/^-?\d+$/.test(idText)) {
    throw new ShoalError('illegal_argument_exception', `malformed task id ${text}`, 400);
  }
  const id = Number(idText);
  if (!Number.isSafeInteger(id)) {
    throw new ShoalError('illegal_argument_exception', `malformed task id ${text}`, 400);
  }
  return { node, id };
}
