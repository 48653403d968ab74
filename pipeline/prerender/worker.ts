// The prerender worker thread (bundled as the build step `prerender-worker`): renders tasks beside the main thread, taking them from the shared
// counter, and hands back what it rendered when none is left.
import { parentPort, workerData } from 'node:worker_threads';
import { useCompiledContentDir } from '../../core/content/index.ts';
import { listRenderGroups } from './render-groups.ts';
import { runSharedTasks, type RenderSetting, type TaskRequest } from './render-task.ts';

export interface WorkerInput extends RenderSetting {
  compiledContentDir: string;
  requests: TaskRequest[];
  counter: SharedArrayBuffer;
}

const input = workerData as WorkerInput;
useCompiledContentDir(input.compiledContentDir, { inWindows: true });
// The same groups as the main thread's: listed from the same compiled content, in the same order.
const groups = listRenderGroups();
parentPort!.postMessage(
  runSharedTasks(input.requests, groups, new Int32Array(input.counter), input),
);
