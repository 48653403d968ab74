// Announcements between the instances on one PostgreSQL database (engine.ts): NOTIFY on a channel
// of this schema, heard on one connection of each instance's own that LISTENs. That connection is
// opened when the first listener arrives (the build, which only reads, never opens one) and comes
// back by itself when PostgreSQL goes away: tried again after 0.25 s, then twice as long each
// time up to 15 s. Each time it is in place, listeners hear `undefined`: "announcements may have
// been missed". Notifications are delivered once committed; an announcement outside a
// transaction is committed at once.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { reasonOf, type EngineAnnouncements } from './engine.ts';

const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 15_000;
/** PostgreSQL's identifiers, channels included, are at most 63 bytes. */
const LONGEST_CHANNEL = 63;

/** The channel of a schema: instances on other schemas of the same database do not hear it. */
export function channelOf(schema: string): string {
  const readable = `localboard:publish:${schema}`;
  if (Buffer.byteLength(readable) <= LONGEST_CHANNEL) return readable;
  return `localboard:publish:${createHash('sha1').update(schema).digest('hex')}`;
}

export interface PostgresAnnouncementSettings {
  url: string;
  /** The pool's connections: announcements are sent on one of them. */
  pool: pg.Pool;
  channel: string;
  /** Where a lost listening connection is said, in one line. */
  log: (line: string) => void;
}

export function postgresAnnouncements(
  settings: PostgresAnnouncementSettings,
): EngineAnnouncements & { close(): Promise<void> } {
  const { url, pool, channel, log } = settings;
  const listeners = new Set<(payload: string | undefined) => void>();
  let client: pg.Client | undefined;
  let connecting = false;
  let retry: NodeJS.Timeout | undefined;
  let retryMs = FIRST_RETRY_MS;
  let closed = false;
  let saidLost = false;

  const hear = (payload: string | undefined) => {
    for (const listener of [...listeners]) listener(payload);
  };

  async function connect(): Promise<void> {
    if (closed || connecting || client || listeners.size === 0) return;
    connecting = true;
    const candidate = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: 5_000,
      // A connection that went quiet (a dropped network) is found out, not waited on for ever.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    const lost = (error?: Error) => {
      if (client !== candidate) return;
      client = undefined;
      candidate.removeAllListeners('notification');
      void candidate.end().catch(() => {});
      if (closed) return;
      if (!saidLost)
        log(
          `PostgreSQL stopped telling this instance of publishes${error ? ` (${reasonOf(error)})` : ''}; listening again when it answers.`,
        );
      saidLost = true;
      later();
    };
    candidate.on('error', lost);
    candidate.on('end', () => lost());
    candidate.on('notification', (message) => {
      if (message.channel === channel) hear(message.payload ?? '');
    });
    try {
      await candidate.connect();
      await candidate.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      connecting = false;
      candidate.removeAllListeners();
      candidate.on('error', () => {});
      void candidate.end().catch(() => {});
      if (!saidLost)
        log(
          `PostgreSQL does not tell this instance of publishes yet (${reasonOf(error)}); trying again.`,
        );
      saidLost = true;
      later();
      return;
    }
    connecting = false;
    if (closed || listeners.size === 0) {
      void candidate.end().catch(() => {});
      return;
    }
    client = candidate;
    retryMs = FIRST_RETRY_MS;
    if (saidLost) log('PostgreSQL tells this instance of publishes again.');
    saidLost = false;
    hear(undefined);
  }

  function later(): void {
    if (closed || retry) return;
    // A little jitter: instances that lost PostgreSQL together do not all come back at once.
    const wait = retryMs * (0.8 + Math.random() * 0.4);
    retryMs = Math.min(retryMs * 2, LONGEST_RETRY_MS);
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, wait);
    retry.unref();
  }

  async function disconnect(): Promise<void> {
    if (retry) clearTimeout(retry);
    retry = undefined;
    const current = client;
    client = undefined;
    if (current) {
      current.removeAllListeners();
      current.on('error', () => {});
      await current.end().catch(() => {});
    }
  }

  return {
    async announce(payload) {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    listen(listener) {
      const each = (payload: string | undefined) => listener(payload);
      listeners.add(each);
      // Listening is in place already: this listener hears so, as the others did.
      if (client)
        setImmediate(() => {
          if (listeners.has(each) && client) each(undefined);
        });
      void connect();
      return () => {
        listeners.delete(each);
        if (listeners.size === 0) void disconnect();
      };
    },
    async close() {
      closed = true;
      listeners.clear();
      await disconnect();
    },
  };
}
