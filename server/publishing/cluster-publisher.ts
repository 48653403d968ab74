// Every instance publishes (docs/product.md section 12): each instance on one database keeps its
// own copy of the site, so a publish one instance asks for (an approval, a removal, a deletion, a
// renewal, a report that hides an ad …) is announced to the others through the store
// (store/parts/publish-announcements.ts), and each of them publishes too. Other instances'
// announcements publish here; this one's own are not heard back. When listening begins, and
// again after the database was away, announcements may have been missed: this instance
// publishes once, as if it had heard one (on PostgreSQL, that is also the first build of an
// instance that starts).
import type { PublishAnnouncements } from '../../store/parts/publish-announcements.ts';
import { publishSoon, type Publisher } from './publisher.ts';

export interface ClusterPublisher extends Publisher {
  /** Stops hearing the other instances. */
  stop(): void;
}

export function clusterPublisher(
  announcements: PublishAnnouncements,
  local: Publisher,
  log: (line: string) => void = (line) => console.error(line),
): ClusterPublisher {
  const stop = announcements.onAnnounced((heard) =>
    publishSoon(
      local,
      heard.kind === 'announced'
        ? `${heard.reason}, on ${heard.instance}`
        : 'listening to the other instances (again): they may have published meanwhile',
    ),
  );
  return {
    publish(reason) {
      // The build reads the database, which the change is already in: the others may build now.
      announcements
        .announce(reason)
        .catch((error: unknown) =>
          log(
            `The other instances were not told to publish (${reason}): ${(error as Error).message}`,
          ),
        );
      return local.publish(reason);
    },
    stop,
  };
}
