// Instances on one database with the site in a bucket (docs/product.md section 12, "Instances that
// start in seconds"). Only the publisher (the instance holding the lock: bucket-publishing.ts)
// builds; the others never do, so a new instance is ready once it has read the publisher's
// latest release of the content (runtime-follower.ts), not after a build of the whole site.
// - A publish asked for on any instance (an approval, a removal …) is announced to all (the
//   store's announcements: PostgreSQL's NOTIFY); the publisher builds, whichever instance asked.
// - After a build the publisher uploads what changed (bucket-publishing.ts), then releases the
//   content and the search index it compiled (runtime-content.ts), then announces the release;
//   each other instance fetches it within a moment and moves its readers to it.
// - When listening begins again (the database was away), announcements may have been missed: the
//   publisher publishes once, the others look for a newer release. (At start-up the instance
//   that takes the lock publishes, and the others read the release: bucket-publishing.ts.)
import type { ObjectStorage } from '../../../store/object-storage/object-storage.ts';
import type { PublishAnnouncements } from '../../../store/parts/publish-announcements.ts';
import type { BuildPublisher } from '../build-publisher.ts';
import type { ClusterPublisher } from '../cluster-publisher.ts';
import { publishSoon, type PublishOutcome } from '../publisher.ts';
import type { BucketPublishing } from './bucket-publishing.ts';
import { releaseRuntimeContent } from './runtime-content.ts';
import type { RuntimeFollower } from './runtime-follower.ts';

/** The start of the publisher's announcement of a release (followed by its version). */
export const RELEASE_ANNOUNCED = "released the site's content, version";

export interface BucketInstancesSettings {
  announcements: PublishAnnouncements;
  /** This instance's builds (called only while it is the publisher). */
  local: () => BuildPublisher;
  publishing: BucketPublishing;
  storage: ObjectStorage;
  /** Where this instance's builds compile the content (the publisher's release comes from it). */
  compiledDir: string;
  follower: RuntimeFollower;
  log?: (line: string) => void;
}

export interface BucketInstances extends ClusterPublisher {
  /** BuildPublisher's afterBuild: the upload, then the release and its announcement. */
  afterBuild(): Promise<PublishOutcome>;
  /** Reads the latest release, when this instance is not the publisher. */
  follow(why: string): Promise<void>;
  /** Undefined once this instance has content to serve, else why not (/readyz). */
  notReadyBecause(): string | undefined;
}

export function bucketInstances(settings: BucketInstancesSettings): BucketInstances {
  const { announcements, publishing, follower, storage } = settings;
  const log = settings.log ?? ((line: string) => console.log(line));

  // Listening begins at start-up too, when the instance that takes the lock publishes anyway.
  let listenedBefore = false;
  const stopListening = announcements.onAnnounced((heard) => {
    if (heard.kind === 'announced' && heard.reason.startsWith(RELEASE_ANNOUNCED)) {
      void follower.refresh(`announced by ${heard.instance}`);
      return;
    }
    if (heard.kind === 'listening' && !listenedBefore) {
      listenedBefore = true;
      return;
    }
    if (publishing.publishing)
      publishSoon(
        settings.local(),
        heard.kind === 'announced'
          ? `${heard.reason}, on ${heard.instance}`
          : 'listening to the other instances (again): they may have asked meanwhile',
      );
    else if (heard.kind === 'listening')
      void follower.refresh('listening to the publisher (again): it may have released meanwhile');
  });

  return {
    publish(reason) {
      announcements
        .announce(reason)
        .catch((error: unknown) =>
          log(`The publisher was not told to publish (${reason}): ${(error as Error).message}`),
        );
      return publishing.publishing
        ? settings.local().publish(reason)
        : Promise.resolve({ ok: true });
    },
    async afterBuild() {
      const uploaded = await publishing.afterBuild();
      if (!uploaded.ok || !publishing.publishing) return uploaded;
      const started = performance.now();
      const { release, puts, putBytes, deleted } = await releaseRuntimeContent(
        storage,
        settings.compiledDir,
      );
      follower.heldAlready(release.version);
      const ms = Math.round(performance.now() - started);
      log(
        `Released version ${release.version} of the site's content (${release.files.length} ` +
          `files): ${puts} objects put (${(putBytes / 1e6).toFixed(2)} MB), ${deleted} deleted, ` +
          `in ${ms} ms.`,
      );
      await announcements
        .announce(`${RELEASE_ANNOUNCED} ${release.version}`)
        .catch((error: unknown) =>
          log(`The other instances were not told of the release: ${(error as Error).message}`),
        );
      return { ok: true };
    },
    follow: (why) => follower.refresh(why),
    notReadyBecause() {
      if (follower.version !== undefined || settings.local().published > 0) return undefined;
      const last = settings.local().lastOutcome;
      if (publishing.publishing)
        return last && !last.ok
          ? `this instance publishes, and its first publish failed: ${last.message}`
          : 'this instance publishes: the site is being built and released';
      return follower.waitingFor;
    },
    stop() {
      stopListening();
      follower.stop();
    },
  };
}
