// The route handlers of server/http/routes/, found in the source with the TypeScript compiler: the
// function given to `app.get/post/on/all(...)` (its last argument), or, for a form endpoint, the
// handler given to `form.action(spec, handler)`. With each, its length in lines as written, and
// what a handler should no longer hold (try/catch, a form-or-JSON branch). Read by the
// architecture test and printed by `npx tsx tests/helpers/route-handlers.ts [folder]`.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface RouteHandler {
  /** `server/http/routes/posting.ts:218` */
  at: string;
  /** `POST /:id/edit` */
  name: string;
  lines: number;
  hasTry: boolean;
}

const ROUTE_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'all', 'on', 'use']);

export function routeHandlers(folder = 'server/http/routes'): RouteHandler[] {
  return readdirSync(folder)
    .filter((file) => file.endsWith('.ts'))
    .sort()
    .flatMap((name) => handlersIn(join(folder, name), readFileSync(join(folder, name), 'utf8')));
}

/** The route handlers of one file's text. */
export function handlersIn(file: string, text: string): RouteHandler[] {
  const found: RouteHandler[] = [];
  {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      const handler = handlerOf(node);
      if (handler) {
        const start = source.getLineAndCharacterOfPosition(handler.fn.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(handler.fn.getEnd()).line;
        let hasTry = false;
        const findTry = (inner: ts.Node) => {
          if (ts.isTryStatement(inner)) hasTry = true;
          ts.forEachChild(inner, findTry);
        };
        findTry(handler.fn);
        found.push({
          at: `${relative('.', file)}:${start + 1}`,
          name: handler.name,
          lines: end - start + 1,
          hasTry,
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The rule: a handler reads, calls one domain function and answers, in a dozen lines at most. */
export const MAX_HANDLER_LINES = 12;

export function handlersBreakingTheRule(handlers: readonly RouteHandler[]): string[] {
  return handlers
    .filter((handler) => handler.lines > MAX_HANDLER_LINES || handler.hasTry)
    .map(
      (handler) =>
        `${handler.at} ${handler.name}: ${handler.lines} lines${handler.hasTry ? ', try/catch' : ''}`,
    );
}

const isFunction = (node: ts.Node | undefined): node is ts.ArrowFunction | ts.FunctionExpression =>
  !!node && (ts.isArrowFunction(node) || ts.isFunctionExpression(node));

/** `app.post('/x', …, (c) => …)`: the route's handler, unless a form.action inside gives it. */
function handlerOf(node: ts.Node): { fn: ts.Node; name: string } | undefined {
  if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression))
    return undefined;
  const method = node.expression.name.text;
  const receiver = node.expression.expression.getText();
  const last = node.arguments.at(-1);
  if (method === 'action' && isFunction(last)) {
    const route = ts.findAncestor(node.parent, (up) => ts.isCallExpression(up) && routeCall(up));
    return { fn: last, name: route ? routeName(route as ts.CallExpression) : 'form action' };
  }
  if (receiver !== 'app' || !ROUTE_METHODS.has(method) || method === 'use') return undefined;
  if (!isFunction(last)) return undefined;
  return { fn: last, name: routeName(node) };
}

const routeCall = (call: ts.CallExpression) =>
  ts.isPropertyAccessExpression(call.expression) &&
  call.expression.expression.getText() === 'app' &&
  ROUTE_METHODS.has(call.expression.name.text);

function routeName(call: ts.CallExpression): string {
  const method = (call.expression as ts.PropertyAccessExpression).name.text.toUpperCase();
  const [first, second] = call.arguments;
  const path = method === 'ON' ? second : first;
  return `${method === 'ON' ? first?.getText() : method} ${path?.getText().replace(/'/g, '') ?? ''}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const handlers = routeHandlers(process.argv[2]);
  const sizes = handlers.map((handler) => handler.lines).sort((a, b) => a - b);
  const median =
    sizes.length % 2
      ? sizes[(sizes.length - 1) / 2]!
      : (sizes[sizes.length / 2 - 1]! + sizes[sizes.length / 2]!) / 2;
  for (const handler of handlers)
    console.log(
      `${String(handler.lines).padStart(4)}  ${handler.at}  ${handler.name}${handler.hasTry ? '  (try)' : ''}`,
    );
  console.log(
    `${handlers.length} handlers: median ${median} lines, longest ${sizes.at(-1)}, over 12: ${sizes.filter((size) => size > 12).length}, over 30: ${sizes.filter((size) => size > 30).length}, with try: ${handlers.filter((handler) => handler.hasTry).length}`,
  );
}
