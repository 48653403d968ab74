// Node 20 starts worker threads only from JavaScript files: register tsx, then load the worker.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
