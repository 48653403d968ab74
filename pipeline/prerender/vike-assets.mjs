// Asks Vike's production renderPage() which stylesheets and scripts a page links to (run in a
// short-lived worker thread by run.ts). Plain JavaScript: it only talks to Vike's built server.
import { parentPort, workerData } from 'node:worker_threads';

try {
  await import(workerData.serverEntry);
  const { renderPage } = await import('vike/server');
  const { httpResponse } = await renderPage({ urlOriginal: '/about' });
  if (httpResponse?.statusCode !== 200)
    throw new Error(
      `Vike could not render /about for its asset list (status ${httpResponse?.statusCode})`,
    );
  const html = httpResponse.body;
  parentPort.postMessage({
    stylesheets: [...html.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"/g)].map(
      (match) => match[1],
    ),
    scripts: [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]),
  });
} catch (error) {
  parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
