/** The Painless syntax tree; every node keeps the source offset it started at. */

export type Expr =
  | { k: 'num'; at: number; value: number; integral: boolean; long: boolean }
  | { k: 'str'; at: number; value: string }
  | { k: 'bool'; at: number; value: boolean }
  | { k: 'null'; at: number }
  | { k: 'var'; at: number; name: string }
  | { k: 'unary'; at: number; op: '-' | '+' | '!' | '~'; expr: Expr }
  | { k: 'binary'; at: number; op: string; left: Expr; right: Expr }
  | { k: 'logical'; at: number; op: '&&' | '||'; left: Expr; right: Expr }
  | { k: 'cond'; at: number; test: Expr; then: Expr; else: Expr }
  | { k: 'elvis'; at: number; left: Expr; right: Expr }
  | { k: 'assign'; at: number; op: string; target: Expr; value: Expr }
  | { k: 'update'; at: number; op: '++' | '--'; prefix: boolean; target: Expr }
  | { k: 'member'; at: number; object: Expr; name: string; nullSafe: boolean }
  | { k: 'index'; at: number; object: Expr; index: Expr }
  | { k: 'call'; at: number; object: Expr; name: string; args: Expr[]; nullSafe: boolean }
  | { k: 'static'; at: number; cls: string; name: string; args: Expr[] | null }
  /** A call of a function of the script's context (`emit(...)` in a runtime field). */
  | { k: 'fn'; at: number; name: string; args: Expr[] }
  | { k: 'cast'; at: number; type: string; expr: Expr }
  | { k: 'new'; at: number; cls: string; args: Expr[] }
  | { k: 'list'; at: number; items: Expr[] }
  | { k: 'map'; at: number; entries: [Expr, Expr][] }
  | { k: 'instanceof'; at: number; expr: Expr; type: string }
  /** `x -> expr`, `(a, b) -> { … }`: a lambda (its body an expression or statements). */
  | { k: 'lambda'; at: number; params: string[]; body: Expr | Stmt[] }
  /** `Type::method`, `Type::new`: a method reference. */
  | { k: 'ref'; at: number; cls: string; name: string };

export type Stmt =
  | { k: 'decl'; at: number; type: string; vars: { name: string; at: number; init: Expr | null }[] }
  | { k: 'expr'; at: number; expr: Expr }
  | { k: 'if'; at: number; test: Expr; then: Stmt; else: Stmt | null }
  | { k: 'while'; at: number; test: Expr; body: Stmt }
  | { k: 'do'; at: number; body: Stmt; test: Expr }
  | { k: 'for'; at: number; init: Stmt | null; test: Expr | null; update: Expr[]; body: Stmt }
  | { k: 'foreach'; at: number; type: string; name: string; iterable: Expr; body: Stmt }
  | { k: 'block'; at: number; body: Stmt[] }
  | { k: 'return'; at: number; value: Expr | null }
  | { k: 'break'; at: number }
  | { k: 'continue'; at: number }
  | { k: 'empty'; at: number };

export interface Program {
  body: Stmt[];
  /** Offsets where statements start (for the snippet of a script stack). */
  statements: number[];
}
