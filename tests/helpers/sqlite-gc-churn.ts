// The child of tests/integration/server/sqlite-collected.test.ts, run as
// `node --import tsx sqlite-gc-churn.ts DIR`: the store on a SQLite file in DIR, written and read
// thousands of times (each query through Kysely prepares a statement of its own, as the server's
// do) while the thread allocates as a busy server does, in this thread and in two worker threads
// that then end, and the process ending on its own. The statements are collected by the
// collections V8 starts by itself, whose weak callbacks run later as a task, outside JavaScript,
// and when a worker or the process tears down. That is where better-sqlite3 below 13 aborted on
// Node 24.19+ ("Assertion failed: (env) != nullptr" in Statement::~Statement). A collection forced
// with gc() would not show it: V8 runs a forced collection's callbacks at once, inside the call.
// Prints `{thread}: churned N queries` from each thread.
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { join } from 'node:path';
import { openSqliteStore } from '../../store/open-store.ts';

const ACCOUNTS = 300;
const READS = 10;

/** Short-lived objects, as a server answering requests makes: young-generation collections. */
function allocate(): number {
  let kept = 0;
  for (let index = 0; index < 20_000; index += 1)
    kept += { index, text: `row ${index}` }.text.length;
  return kept;
}

async function churn(path: string, label: string): Promise<void> {
  const store = openSqliteStore(path);
  const now = new Date().toISOString();
  let queries = 0;
  for (let index = 0; index < ACCOUNTS; index += 1) {
    const email = `${label}-${index}@example.org`;
    const id = await store.accounts.create({
      email,
      passwordHash: 'not a real hash',
      dateOfBirth: '1990-05-17',
      termsAcceptedAt: now,
      createdAt: now,
    });
    if (id === undefined) throw new Error(`${email} was not created`);
    queries += 1;
    for (let read = 0; read < READS; read += 1) {
      await store.accounts.findByEmail(email);
      await store.accounts.findById(id);
      queries += 2;
    }
    allocate();
  }
  // The main thread closes its store; the workers end with theirs open, as a thread that fails does.
  if (isMainThread) await store.close();
  console.log(`${label}: churned ${queries} queries`);
}

if (isMainThread) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: sqlite-gc-churn.ts DIR');
  const path = join(dir, 'churn.sqlite');
  // The main thread first: it creates and migrates the file.
  await churn(path, 'main');
  await Promise.all(
    ['worker-1', 'worker-2'].map(
      (label) =>
        new Promise<void>((resolve, reject) => {
          const worker = new Worker(new URL(import.meta.url), {
            workerData: { path, label },
            execArgv: ['--import', 'tsx'],
          });
          worker.once('error', reject);
          worker.once('exit', (code) =>
            code === 0 ? resolve() : reject(new Error(`${label} exited with ${code}`)),
          );
        }),
    ),
  );
  // Garbage for the main thread's last collections, after the workers' statements.
  for (let round = 0; round < 50; round += 1) allocate();
} else {
  const { path, label } = workerData as { path: string; label: string };
  await churn(path, label);
}
