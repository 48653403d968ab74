// /moderate/appeals as moderators read it (core/views/moderate-appeals.ts): the open
// appeals, oldest first, each with the decision's statement (the ad's words or the photo as they
// were: a removed photo itself, through the moderators-only photo URL while its sizes are kept),
// the member's text and record, and whether the moderator reading made the decision (then they
// are not offered to decide it).
import type { AppealItem, ModerateAppealsView } from '../../core/views/moderate-appeals.ts';
import type { StatementKind, StatementRow } from '../../store/parts/statements.ts';
import type { Store } from '../../store/store.ts';
import { photoSizeApiPath } from '../../core/paths.ts';
import { statementView } from './statement-view.ts';

/** How many open appeals the page shows at once. */
const APPEALS_SHOWN = 50;

const DECISIONS: Record<StatementKind, string> = {
  'ad-rejected': 'an ad rejected',
  'edit-rejected': "an ad's edit rejected",
  'ad-removed': 'an ad removed',
  'ad-hidden': 'an ad hidden by reports',
  'photo-removed': 'a photo removed',
  'account-banned': 'an account banned',
  'verification-refused': 'a verification refused',
};

async function itemOf(
  store: Store,
  row: StatementRow,
  moderatorId: number,
  now: Date,
): Promise<AppealItem> {
  const poster = row.accountId === null ? undefined : await store.moderation.poster(row.accountId);
  const photo = await removedPhotoOf(store, row);
  return {
    appealId: row.appeal!.id,
    filedAt: row.appeal!.filedAt,
    text: row.appeal!.text,
    decision: DECISIONS[row.kind],
    statement: statementView(row, now),
    ...(photo ? { photo } : {}),
    member: poster && {
      email: poster.email,
      record: `Joined ${poster.createdAt.slice(0, 10)}${poster.bannedAt ? ', banned' : ''}; ads approved ${poster.approved}, rejected ${poster.rejected}, removed ${poster.removed}; reports about them ${poster.reports}.`,
    },
    yours: row.decidedBy === moderatorId,
  };
}

/** The removed photo of a photo's removal, its widest size kept, as moderators see it. */
async function removedPhotoOf(store: Store, row: StatementRow): Promise<AppealItem['photo']> {
  if (row.kind !== 'photo-removed' || row.photoId === null) return undefined;
  const widest = (await store.photos.find(row.photoId))?.variants.at(-1);
  if (!widest) return undefined;
  const alt = row.facts.photo?.alt || `Photo ${row.photoId}`;
  const { width, height } = widest;
  return { src: photoSizeApiPath(row.photoId, width), width, height, alt };
}

export async function appealsView(
  store: Store,
  moderatorId: number,
  now: Date,
): Promise<ModerateAppealsView> {
  const rows = await store.statements.openAppeals(APPEALS_SHOWN);
  const appeals: AppealItem[] = [];
  for (const row of rows) appeals.push(await itemOf(store, row, moderatorId, now));
  return { appeals, open: await store.statements.openAppealCount() };
}
