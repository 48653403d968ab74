// A prerender worker thread: renders tasks beside the main thread, taking them from the shared
// counter, and hands back what it rendered when none is left.
import { parentPort, workerData } from 'node:worker_threads';
import { useCompiledContentDir } from '../../content/index.ts';
import { runSharedTasks, type RenderSetting, type TaskRequest } from './render-task.ts';

export interface WorkerInput extends RenderSetting {
  compiledContentDir: string;
  requests: TaskRequest[];
  counter: SharedArrayBuffer;
}

const input = workerData as WorkerInput;
useCompiledContentDir(input.compiledContentDir);
parentPort!.postMessage(runSharedTasks(input.requests, new Int32Array(input.counter), input));
