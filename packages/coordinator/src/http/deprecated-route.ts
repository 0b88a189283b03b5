/**
 * A route kept under its old path (RestController.registerWithDeprecatedHandler / ReplacedRoute):
 * it answers as the new one does, with the Warning
 * `[<OLD_METHOD> <old_path>] is deprecated! Use [<METHOD> <path>] instead.` (changes78.md §0).
 */
import type { Route } from './rest-types.ts';

/** `:param` segments are written `{param}`, as Elasticsearch names its paths in the message. */
function display(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}

export function replacedRoute<S>(route: Route<S>, oldPath: string, oldMethod = route.method): Route<S> {
  const message = `[${oldMethod} ${display(oldPath)}] is deprecated! Use [${route.method} ${display(route.path)}] instead.`;
  return {
    method: oldMethod,
    path: oldPath,
    action: route.action,
    handler: (req, services) => {
      req.warnings.push(message);
      return route.handler(req, services);
    },
  };
}

/** The route itself, then its replaced form under each old path. */
export function withReplaced<S>(route: Route<S>, ...oldPaths: string[]): Route<S>[] {
  return [route, ...oldPaths.map((p) => replacedRoute(route, p))];
}
