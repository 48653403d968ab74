// "Publish needed", between the instances on one database (docs/product.md section 12): each
// instance keeps its own copy of the site, so an approval, removal, deletion, renewal or
// report-hide on one must make every one publish. An instance announces why it publishes; the
// others hear it (server/publishing/cluster-publisher.ts publishes then). Carried by the engine's
// announcements (engine.ts): PostgreSQL's NOTIFY, or this process's listeners on SQLite.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { EngineAnnouncements } from '../engine.ts';

/** What another instance asked for, or that announcements may have been missed. */
export type PublishAnnouncement =
  | { kind: 'announced'; instance: string; reason: string }
  /** The listening connection is in place (at first, or again after it was lost). */
  | { kind: 'listening' };

export interface PublishAnnouncements {
  /** This instance, as its announcements name it (host, process, a random part). */
  readonly instance: string;
  /** Tells every other instance on this database to publish, because of `reason`. */
  announce(reason: string): Promise<void>;
  /**
   * Calls `listener` with each announcement of another instance (this one's are left out), and,
   * on PostgreSQL, each time listening begins or begins again: what was announced before may
   * have been missed. Returns the function that stops it.
   */
  onAnnounced(listener: (announcement: PublishAnnouncement) => void): () => void;
}

/** NOTIFY payloads are at most 8,000 bytes: a reason is a line for a log. */
const LONGEST_REASON = 500;

export function publishAnnouncements(engine: EngineAnnouncements): PublishAnnouncements {
  const instance = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  return {
    instance,
    announce(reason) {
      return engine.announce(JSON.stringify({ instance, reason: reason.slice(0, LONGEST_REASON) }));
    },
    onAnnounced(listener) {
      return engine.listen((payload) => {
        if (payload === undefined) return listener({ kind: 'listening' });
        const heard = parse(payload);
        if (heard && heard.instance !== instance) listener({ kind: 'announced', ...heard });
      });
    },
  };
}

/** An announcement's instance and reason; undefined for anything else on the channel. */
function parse(payload: string): { instance: string; reason: string } | undefined {
  try {
    const { instance, reason } = JSON.parse(payload) as { instance?: unknown; reason?: unknown };
    if (typeof instance === 'string' && typeof reason === 'string') return { instance, reason };
  } catch {
    // Not ours.
  }
  return undefined;
}
