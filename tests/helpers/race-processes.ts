// Races between processes on one database file: in one process better-sqlite3 runs each
// transaction whole, so only separate processes make a real race. The test spawns the sides with
// `raceProcess`; each side (a script under tests/helpers/) runs its rounds with `raceRounds`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Runs one side: `script` (a path under tests/helpers/) with `args`, under tsx; resolves with the
 * JSON lines it printed, one outcome a round.
 */
export function raceProcess<Outcome>(script: string, args: string[]): Promise<Outcome[]> {
  const path = fileURLToPath(new URL(script, import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', () =>
      resolve(
        out
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Outcome),
      ),
    );
  });
}

/**
 * In a side's process: for each item, waits for its round's moment (`startAt` + round × `slotMs`),
 * runs `attempt` and prints its outcome (or the error) as a JSON line.
 */
export function raceRounds<Item>(
  items: Item[],
  startAt: number,
  slotMs: number,
  attempt: (item: Item) => unknown,
): void {
  items.forEach((item, round) => {
    const at = startAt + round * slotMs;
    while (Date.now() < at) {
      // Spin: every process must start each round within the same millisecond.
    }
    let outcome: unknown;
    try {
      outcome = attempt(item);
    } catch (error) {
      outcome = { error: String(error) };
    }
    process.stdout.write(`${JSON.stringify(outcome)}\n`);
  });
}
