// A lock that one instance on a PostgreSQL database holds for as long as it lives (engine.ts
// SessionLock): a session-level advisory lock, taken on a connection of its own. The others try
// again every few seconds; when the holder ends, or its connection does (the process killed, the
// network gone), PostgreSQL lets the lock go and the next to try takes it. What holds it hears
// at once when its connection is lost, and stops acting as the holder.
import pg from 'pg';
import { reasonOf, type SessionLock } from './engine.ts';

export interface PostgresSessionLockSettings {
  url: string;
  key: string;
  /** How often an instance that does not hold it tries again. Default 2 s. */
  retryMs?: number;
  log: (line: string) => void;
}

export function postgresSessionLock(settings: PostgresSessionLockSettings): SessionLock {
  const { url, key, log } = settings;
  const retryMs = settings.retryMs ?? 2_000;
  const listeners = new Set<(held: boolean) => void>();
  let client: pg.Client | undefined;
  let held = false;
  let released = false;
  let timer: NodeJS.Timeout | undefined;

  const become = (now: boolean) => {
    if (held === now) return;
    held = now;
    for (const listener of [...listeners]) listener(now);
  };

  const later = () => {
    if (released || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void attempt();
    }, retryMs);
    timer.unref();
  };

  const drop = (candidate: pg.Client, error?: unknown) => {
    if (client !== candidate) return;
    client = undefined;
    candidate.removeAllListeners();
    candidate.on('error', () => {});
    void candidate.end().catch(() => {});
    if (held && !released)
      log(
        `The lock ${key} was lost${error ? ` (${reasonOf(error)})` : ''}; trying to take it again.`,
      );
    become(false);
    later();
  };

  async function attempt(): Promise<void> {
    if (released) return;
    try {
      if (!client) {
        const candidate = new pg.Client({
          connectionString: url,
          connectionTimeoutMillis: 5_000,
          keepAlive: true,
          keepAliveInitialDelayMillis: 10_000,
        });
        candidate.on('error', (error) => drop(candidate, error));
        candidate.on('end', () => drop(candidate));
        client = candidate;
        await candidate.connect();
      }
      const answer = await client.query<{ taken: boolean }>(
        'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS taken',
        [key],
      );
      if (released) return;
      if (answer.rows[0]?.taken) become(true);
      else later();
    } catch (error) {
      if (client) drop(client, error);
      else later();
    }
  }

  void attempt();
  return {
    get held() {
      return held;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async release() {
      released = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = undefined;
      become(false);
      listeners.clear();
      if (current) {
        current.removeAllListeners();
        current.on('error', () => {});
        // Ending the session lets the lock go.
        await current.end().catch(() => {});
      }
    },
  };
}
