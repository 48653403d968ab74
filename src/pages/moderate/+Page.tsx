// https://vike.dev/Page
import { Banner } from '../../components/Banner.tsx';
import { plural } from '../../../core/format.ts';
import {
  banAccountApiPath,
  moderateAppealsPath,
  moderatePath,
  moderateReportsPath,
  moderateShieldPath,
  moderateVerificationsPath,
  moderationLogPath,
} from '../../../core/paths.ts';
import type { ReportsSummary } from '../../../core/views/moderation.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';
import { BanConfirm } from './BanConfirm.tsx';
import { ModerationHeader, ActionNotice } from './ModerationHeader.tsx';
import { PhotoSetting } from './PhotoSetting.tsx';
import { QueueEntry } from './QueueEntry.tsx';
import { RepeatedMessages } from './RepeatedMessages.tsx';

export default function Page() {
  const { queue, error, typed, reasons } = useData<Data>();
  const banShown = queue?.banTarget !== undefined;
  return (
    <section className="container moderation">
      <ModerationHeader
        title="Moderation queue"
        lead={
          <>
            {!queue || queue.waiting === 0
              ? 'Nothing is waiting for review.'
              : `${plural(queue.waiting, 'ad')} waiting for review. Ads with likely explicit photos are listed first, then the oldest first.`}
            {queue && queue.waiting > queue.items.length
              ? ` Showing the ${queue.items.length} first.`
              : ''}
          </>
        }
        below={queue && <PhotoSetting blurAll={queue.blurAll} />}
        links={[
          {
            href: moderateReportsPath(),
            label: <>Reports{queue?.reports?.open ? ` (${queue.reports.open})` : ''}</>,
          },
          {
            href: moderateAppealsPath(),
            label: <>Appeals{queue?.openAppeals ? ` (${queue.openAppeals})` : ''}</>,
          },
          {
            href: moderateVerificationsPath(),
            label: (
              <>Verifications{queue?.openVerifications ? ` (${queue.openVerifications})` : ''}</>
            ),
          },
          { href: moderateShieldPath(), label: 'Scam shield' },
          { href: moderationLogPath(), label: 'Moderation log' },
        ]}
      />
      {queue?.repeatedMessages && <RepeatedMessages flags={queue.repeatedMessages} />}
      {queue?.openAppeals ? (
        <p className="moderation__appeals" role="region" aria-label="Appeals">
          <strong>{`${plural(queue.openAppeals, 'appeal')} ${queue.openAppeals === 1 ? 'waits' : 'wait'} for a moderator`}</strong>{' '}
          <a href={moderateAppealsPath()}>Review the appeals</a>
        </p>
      ) : null}
      {queue?.reports && (queue.reports.hiddenAds > 0 || queue.reports.urgentOnSite > 0) && (
        <UrgentReports {...queue.reports} />
      )}
      <ActionNotice notice={queue?.notice} />
      {error && !banShown && <Banner>{error}</Banner>}
      {queue?.banTarget && (
        <BanConfirm
          target={queue.banTarget}
          reasons={reasons}
          action={banAccountApiPath(queue.banTarget.accountId)}
          cancel={moderatePath()}
          error={error}
          typed={typed}
        />
      )}
      {queue && queue.items.length > 0 && (
        <ol className="queue">
          {queue.items.map((item) => (
            <QueueEntry
              key={item.adId}
              item={item}
              reasons={reasons}
              typed={
                typed?.adId === String(item.adId) ||
                [...item.photos, ...(item.livePhotos ?? [])].some(
                  (photo) => typed?.photoId === String(photo.id),
                )
                  ? typed
                  : undefined
              }
            />
          ))}
        </ol>
      )}
    </section>
  );
}

/**
 * Ads that reports took off the site, and ads reported as possibly involving someone under 18
 * that were not hidden (their reporters were doubted): a moderator decides first.
 */
function UrgentReports({ hiddenAds, urgentAds, urgentOnSite }: ReportsSummary) {
  return (
    <div className="urgent-reports" role="region" aria-label="Urgent reports">
      <p className="urgent-reports__text">
        {hiddenAds > 0 && (
          <>
            <strong>{`${plural(hiddenAds, 'ad')} hidden by reports ${hiddenAds === 1 ? 'waits' : 'wait'} for a decision`}</strong>
            {urgentAds === 0
              ? '.'
              : urgentAds === hiddenAds
                ? `, ${hiddenAds === 1 ? '' : 'all '}reported as possibly involving someone under 18.`
                : `, ${urgentAds} of them reported as possibly involving someone under 18.`}
          </>
        )}
        {hiddenAds > 0 && urgentOnSite > 0 && ' '}
        {urgentOnSite > 0 && (
          <>
            <strong>{`${plural(urgentOnSite, 'ad')} reported as possibly involving someone under 18 ${urgentOnSite === 1 ? 'was' : 'were'} not hidden`}</strong>
            {`: ${urgentOnSite === 1 ? 'its reporter has' : 'their reporters have'} had such reports dismissed before.`}
          </>
        )}
      </p>
      <a className="button button--danger button--small" href={moderateReportsPath()}>
        Review the reports
      </a>
    </div>
  );
}
