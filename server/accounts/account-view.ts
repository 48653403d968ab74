// What /account shows a member of their own (core/views/account.ts), read from the
// store: their ads, each with its photos and what they can do with it, their saved searches, the
// statements of reasons of the decisions about them, and what became of the reports they sent.
import type { AccountView, MyReportView } from '../../core/views/account.ts';
import { REPORT_REASONS } from '../../core/schemas/report-reasons.ts';
import { reachSettingsView } from '../messages/reach.ts';
import { messageSettingsView } from '../messages/message-settings.ts';
import { savedSearchView } from '../saved-searches/saved-searches.ts';
import { statementView } from '../moderation/statement-view.ts';
import { memberAdView } from '../posting/ad-view.ts';
import { ageAssuranceView } from '../age-assurance/views.ts';
import type { ReporterReportRow } from '../../store/parts/reports.ts';
import type { Store } from '../../store/store.ts';

/** How many of their reports a member sees again. */
const REPORTS_SHOWN = 50;

export async function accountView(
  store: Store,
  accountId: number,
  today: string,
  now: Date,
): Promise<AccountView> {
  const owned = await store.memberAds.listOwned(accountId);
  const photos = await store.photos.listOwned(accountId);
  const saved = await store.savedSearches.listOwned(accountId);
  const statements = await store.statements.listForAccount(accountId);
  const reports = await store.reports.ofReporter(`account:${accountId}`, REPORTS_SHOWN);
  const adStatements: Record<number, number> = {};
  // Newest first: the first about an ad is its newest.
  for (const row of statements)
    if (row.adId !== null && row.kind !== 'photo-removed') adStatements[row.adId] ??= row.id;
  return {
    savedSearches: saved.map(savedSearchView),
    ads: owned.map((ad) =>
      memberAdView(
        ad,
        today,
        photos.filter((photo) => photo.adId === ad.id),
      ),
    ),
    statements: statements.map((row) => statementView(row, now)),
    adStatements,
    reports: reports.map(myReportView),
    reach: reachSettingsView(
      await store.reachSettings.of(accountId),
      await store.verifications.verifiedFirstOnly(accountId),
    ),
    messages: messageSettingsView(await store.messageSettings.of(accountId)),
    verification: {
      level: (await store.verifications.currentFor([accountId])).get(accountId)?.level,
    },
    ageAssurance: await ageAssuranceView(store, accountId),
  };
}

/** A report as its reporter reads it again: the ad's title as they saw it, never who anyone is. */
function myReportView(row: ReporterReportRow): MyReportView {
  return {
    id: row.id,
    about: `${row.aboutConversation ? 'a conversation about the ad' : 'the ad'} “${row.adTitle}”`,
    reason: REPORT_REASONS[row.reason] ?? row.reason,
    sentAt: row.createdAt,
    state:
      row.resolution === null
        ? 'open'
        : row.resolution === 'dismissed'
          ? 'no-action'
          : 'action-taken',
  };
}
