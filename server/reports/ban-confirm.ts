// The ban's confirmation on /moderate/reports (core/views/reports.ts ReportBanConfirm): the
// member of a group of reports, with what the ban is about and how many reports it closes.
import type { FormFill } from '../../core/views/form-fill.ts';
import type { ReportBanConfirm, ReportGroup } from '../../core/views/reports.ts';
import { idOf } from '../../core/ids.ts';
import { banTargetFrom } from '../moderation/ban-target.ts';
import type { Store } from '../../store/store.ts';

/**
 * The ban's confirmation: asked for by Ban the account… (`?ban={group}&seen={id}`, the newest
 * report the moderator saw), or shown again when its form was refused for what was typed (no
 * reason, say). A group that is no longer open, or whose member cannot be banned, has none.
 */
export async function banConfirmOf(
  store: Store,
  groups: readonly ReportGroup[],
  query: Record<string, string>,
  form: FormFill | undefined,
): Promise<ReportBanConfirm | undefined> {
  const asked = form
    ? form.values.action === 'ban' && form.field !== undefined
      ? { group: form.values.group, seen: form.values.seen }
      : undefined
    : query.ban !== undefined
      ? { group: query.ban, seen: query.seen }
      : undefined;
  if (!asked) return undefined;
  const group = groups.find((candidate) => candidate.key === asked.group);
  if (!group?.canBan || !group.reportedAccount) return undefined;
  const { banTarget } = banTargetFrom(
    await store.moderation.poster(group.reportedAccount.accountId),
  );
  if (!banTarget) return undefined;
  return {
    group: group.key,
    seen: idOf(asked.seen) ?? group.seen,
    anchor: group.key.replace(/:/g, '-'),
    about:
      group.kind === 'ad'
        ? `ad ${group.adId} in ${group.ad.city}, ${group.ad.state}`
        : `the conversation about “${group.ad.title}”`,
    reports: group.reports.length,
    target: banTarget,
  };
}
