// https://vike.dev/Page
import { Banner } from '../../components/Banner.tsx';
import { plural } from '../../format.ts';
import { moderationLogPath } from '../../paths.ts';
import { useData } from '../../../renderer/useData.ts';
import type { Data } from './+data.ts';
import { BanConfirm } from './BanConfirm.tsx';
import { QueueEntry } from './QueueEntry.tsx';

export default function Page() {
  const { queue, error, typed, reasons } = useData<Data>();
  const banShown = queue?.banTarget !== undefined;
  return (
    <section className="container moderation">
      <header className="moderation__header">
        <div>
          <h1>Moderation queue</h1>
          <p className="moderation__lead">
            {!queue || queue.waiting === 0
              ? 'Nothing is waiting for review.'
              : `${plural(queue.waiting, 'ad')} waiting for review, oldest first.`}
            {queue && queue.waiting > queue.items.length
              ? ` Showing the ${queue.items.length} oldest.`
              : ''}
          </p>
        </div>
        <a className="button button--ghost button--small" href={moderationLogPath()}>
          Moderation log
        </a>
      </header>
      <div className="moderation__status" role="status">
        {queue?.notice && <Banner tone="info">{queue.notice}</Banner>}
      </div>
      {error && !banShown && <Banner>{error}</Banner>}
      {queue?.banTarget && (
        <BanConfirm target={queue.banTarget} reasons={reasons} error={error} typed={typed} />
      )}
      {queue && queue.items.length > 0 && (
        <ol className="queue">
          {queue.items.map((item) => (
            <QueueEntry
              key={item.adId}
              item={item}
              reasons={reasons}
              typed={typed?.adId === String(item.adId) ? typed : undefined}
            />
          ))}
        </ol>
      )}
    </section>
  );
}
