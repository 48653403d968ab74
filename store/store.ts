// The store seam: every piece of data the server keeps, behind async interfaces, one per kind of
// data (docs/product.md section 12). Built once (open-store.ts) and handed to the routes; no
// route, page hook or build step sees a driver. Each part stores and reads; the rules (limits,
// who may do what, the texts members read) are in the domain modules that use it.
//
// Every part is written once with Kysely (tables.ts) and runs on either engine: SQLite, the
// embedded default, or PostgreSQL, for several instances on one database (engine.ts).
import { accountStore, type AccountStore } from './parts/accounts.ts';
import { ageCheckStore, type AgeCheckStore } from './parts/age-checks.ts';
import { blockStore, type BlockStore } from './parts/blocks.ts';
import { conversationStore, type ConversationStore } from './parts/conversations.ts';
import { emailTokenStore, type EmailTokenStore } from './parts/email-tokens.ts';
import { fraudNoticeStore, type FraudNoticeStore } from './parts/fraud-notices.ts';
import type { PoolStats, SessionLock, StoreEngine } from './engine.ts';
import { publishAnnouncements, type PublishAnnouncements } from './parts/publish-announcements.ts';
import { publishedAdsStore, type PublishedAdsStore } from './parts/published-ads.ts';
import { purgeBudgetStore, type PurgeBudgetStore } from './parts/purge-budget.ts';
import { pushStore, type PushStore } from './parts/pushes.ts';
import { hiddenAdStore, type HiddenAdStore } from './parts/hidden-ads.ts';
import { knownDeviceStore, type KnownDeviceStore } from './parts/known-devices.ts';
import { memberDataStore, type MemberDataStore } from './parts/member-data.ts';
import { memberAdStore, type MemberAdStore } from './parts/member-ads.ts';
import { messageSettingsStore, type MessageSettingsStore } from './parts/message-settings.ts';
import { requestDigestStore, type RequestDigestStore } from './parts/request-digests.ts';
import { moderationLogStore, type ModerationLogStore } from './parts/moderation-log.ts';
import { moderationStore, type ModerationStore } from './parts/moderation.ts';
import { moderatorPhotoStore, type ModeratorPhotoStore } from './parts/moderator-photos.ts';
import { photoBlobStore, type PhotoBlobStore } from './parts/photo-blobs.ts';
import { photoStore, type PhotoStore } from './parts/photos.ts';
import { photoHashStore, type PhotoHashStore } from './parts/photo-hashes.ts';
import { reachSettingsStore, type ReachSettingsStore } from './parts/reach-settings.ts';
import { reportStore, type ReportStore } from './parts/reports.ts';
import { savedSearchStore, type SavedSearchStore } from './parts/saved-searches.ts';
import { scamShieldStore, type ScamShieldStore } from './parts/scam-shield.ts';
import { secretStore, type SecretStore } from './parts/server-secrets.ts';
import { shieldDecisionStore, type ShieldDecisionStore } from './parts/shield-decisions.ts';
import { sessionStore, type SessionStore } from './parts/sessions.ts';
import { statementStore, type StatementStore } from './parts/statements.ts';
import { verificationStore, type VerificationStore } from './parts/verifications.ts';

import type { StoreContext } from './store-context.ts';

export type { StoreContext };

export interface Store {
  readonly sessions: SessionStore;
  /** What the build publishes, read in one consistent snapshot (published-ads.ts). */
  readonly publishedAds: PublishedAdsStore;
  readonly conversations: ConversationStore;
  readonly blocks: BlockStore;
  readonly hiddenAds: HiddenAdStore;
  readonly accounts: AccountStore;
  readonly emailTokens: EmailTokenStore;
  readonly knownDevices: KnownDeviceStore;
  readonly memberData: MemberDataStore;
  readonly memberAds: MemberAdStore;
  readonly moderation: ModerationStore;
  readonly moderationLog: ModerationLogStore;
  readonly reports: ReportStore;
  readonly secrets: SecretStore;
  /** Members' photos and the hashes of removed ones (photos.ts). */
  readonly photos: PhotoStore;
  /** Photos' bytes, when stored in the database (store/photo-storage/photo-storage.ts chooses). */
  readonly photoBlobs: PhotoBlobStore;
  /** The duplicate-photo index: photos by pieces of their hash (photo-hashes.ts). */
  readonly photoHashes: PhotoHashStore;
  /** Members' saved searches and their digests' claims (saved-searches.ts). */
  readonly savedSearches: SavedSearchStore;
  /** Who answered an account banned for scam or fraud, and their mails (fraud-notices.ts). */
  readonly fraudNotices: FraudNoticeStore;
  /** The scam shield's records of senders, and its flags of repeated messages (scam-shield.ts). */
  readonly scamShield: ScamShieldStore;
  /** Statements of reasons of restrictions, and their appeals (statements.ts). */
  readonly statements: StatementStore;
  /** Each moderator's blur setting and the photos they chose to see (moderator-photos.ts). */
  readonly moderatorPhotos: ModeratorPhotoStore;
  /** Who may reach each member: ages, hidden words (reach-settings.ts). */
  readonly reachSettings: ReachSettingsStore;
  /** Verified members' challenges, selfies and decisions (verifications.ts). */
  readonly verifications: VerificationStore;
  /** The scam shield's refusals and warnings for the moderators, and texts to label (shield-decisions.ts). */
  readonly shieldDecisions: ShieldDecisionStore;
  /** Members' declared states, age checks and the requests sent to their wallets (age-checks.ts). */
  readonly ageChecks: AgeCheckStore;
  /** Each member's settings for messages: requests mailed at once, read receipts (message-settings.ts). */
  readonly messageSettings: MessageSettingsStore;
  /** The daily digests of new requests and their claims (request-digests.ts). */
  readonly requestDigests: RequestDigestStore;
  /** Members' devices for notifications, and the pushes waiting for them (pushes.ts). */
  readonly pushes: PushStore;
  /**
   * Runs `work` as one unit: every part of the store it is given reads and writes in one
   * transaction, committed when `work` resolves and rolled back when it throws. Within a unit of
   * work, this is the same store: units do not nest. Keep waits on anything but the store (a
   * password hash, a mail) out of it: on SQLite a unit of work holds the one writer.
   */
  unitOfWork<T>(work: (tx: Store) => Promise<T>): Promise<T>;
  /**
   * Within a unit of work: holds `key` (`account:12`) until the unit ends, waiting while another
   * unit, in any instance, holds it. The few rules that read before they write ("three ads at
   * once") take the lock of what they count, so two requests racing on two instances cannot both pass.
   */
  lock(key: string): Promise<void>;
}

/** The store the server opens: the parts, and the engine's health and end. */
export interface StoreHandle extends Store {
  readonly kind: StoreEngine['kind'];
  /** The database, as logs name it (a path, or the URL without its password). */
  readonly describe: string;
  /** Resolves when the database answers; rejects with the reason otherwise. */
  ping(): Promise<void>;
  schemaVersion(): Promise<number>;
  /**
   * A rate limiter every instance on this store counts with (engine.ts): build each once, where
   * the app is built, under a keyPrefix of its own.
   */
  readonly rateLimiter: StoreEngine['rateLimiter'];
  /** An online, consistent copy into `file` (SQLite only: PostgreSQL has pg_dump). */
  backup?(file: string): Promise<void>;
  /** "Publish needed", between the instances on this database (publish-announcements.ts). */
  readonly publishing: PublishAnnouncements;
  /** The CDN's purge budget, shared by every instance on this database (purge-budget.ts). */
  readonly purgeBudget: PurgeBudgetStore;
  /** The connections of this instance's pool (PostgreSQL only). */
  poolStats?(): PoolStats;
  /** Whether `error` says the database cannot be reached for now: 503, try again (engine.ts). */
  isUnavailable(error: unknown): boolean;
  /**
   * A lock one instance on this database holds while it lives (engine.ts): on SQLite, one
   * instance, which holds it at once.
   */
  sessionLock(key: string): SessionLock;
  /**
   * Lets the queries already asked for finish (units of work in flight, and those waiting for a
   * connection), then closes; a query asked for after is refused (store/draining-dialect.ts).
   */
  close(): Promise<void>;
}

/** SQLite's session lock: one process a database, which holds it. */
const heldByTheOnlyInstance = (): SessionLock => ({
  held: true,
  onChange: () => () => {},
  release: async () => {},
});

function partsOf(context: StoreContext) {
  return {
    sessions: sessionStore(context),
    publishedAds: publishedAdsStore(context),
    conversations: conversationStore(context),
    blocks: blockStore(context),
    hiddenAds: hiddenAdStore(context),
    accounts: accountStore(context),
    emailTokens: emailTokenStore(context),
    knownDevices: knownDeviceStore(context),
    memberData: memberDataStore(context),
    memberAds: memberAdStore(context),
    moderation: moderationStore(context),
    moderationLog: moderationLogStore(context),
    reports: reportStore(context),
    reachSettings: reachSettingsStore(context),
    secrets: secretStore(context),
    photos: photoStore(context),
    photoBlobs: photoBlobStore(context),
    photoHashes: photoHashStore(context),
    savedSearches: savedSearchStore(context),
    fraudNotices: fraudNoticeStore(context),
    scamShield: scamShieldStore(context),
    statements: statementStore(context),
    moderatorPhotos: moderatorPhotoStore(context),
    verifications: verificationStore(context),
    shieldDecisions: shieldDecisionStore(context),
    ageChecks: ageCheckStore(context),
    messageSettings: messageSettingsStore(context),
    requestDigests: requestDigestStore(context),
    pushes: pushStore(context),
  };
}

export function storeOn(engine: StoreEngine): StoreHandle {
  const parts = partsOf({ db: engine.db, kind: engine.kind });
  const store: StoreHandle = {
    ...parts,
    kind: engine.kind,
    describe: engine.describe,
    unitOfWork: (work) =>
      engine.db.transaction().execute((trx) => {
        const tx: Store = {
          ...partsOf({ db: trx, kind: engine.kind }),
          unitOfWork: (inner) => inner(tx),
          lock: (key) => engine.lock(trx, key),
        };
        return work(tx);
      }),
    lock: () => Promise.reject(new Error('store.lock() is for a unit of work (tx.lock)')),
    ping: () => engine.ping(),
    schemaVersion: () => engine.schemaVersion(),
    rateLimiter: (options) => engine.rateLimiter(options),
    backup: engine.backup && ((file) => engine.backup!(file)),
    publishing: publishAnnouncements(engine.announcements),
    purgeBudget: purgeBudgetStore({ db: engine.db, kind: engine.kind }),
    poolStats: engine.poolStats && (() => engine.poolStats!()),
    isUnavailable: (error) => engine.isUnavailable(error),
    sessionLock: (key) => engine.sessionLock?.(key) ?? heldByTheOnlyInstance(),
    close: () => engine.close(),
  };
  return store;
}
