// One line a request: time, method, path (no query string), status, duration. Bodies, cookies
// and headers are never logged, so no password or token reaches the log.
import type { MiddlewareHandler } from 'hono';

export function requestLog(
  write: (line: string) => void = (line) => console.log(line),
): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const path = new URL(c.req.url).pathname;
    write(
      `${new Date().toISOString()} ${c.req.method} ${path} ${c.res.status} ${(performance.now() - started).toFixed(0)}ms`,
    );
  };
}
