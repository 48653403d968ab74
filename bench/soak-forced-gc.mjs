// Preloaded (NODE_OPTIONS=--expose-gc --import) into the server of `npm run bench:soak -- --forced-gc`
// and into its children: gc() every 2 s (FORCED_GC_EVERY_MS of bench/soak.ts), besides the
// collections V8 starts by itself. Forced collections alone would never show the crash the soak
// looks for: V8 runs their weak callbacks inside the call, not later outside JavaScript. The timer
// never keeps a process alive.
if (typeof globalThis.gc === 'function') setInterval(() => globalThis.gc(), 2000).unref();
