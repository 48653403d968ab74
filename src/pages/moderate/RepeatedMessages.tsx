import { formatDate, formatMoment, plural } from '../../../core/format.ts';
import { dismissRepeatedMessageApiPath, moderatePath } from '../../../core/paths.ts';
import type { RepeatedMessageFlag } from '../../../core/views/moderation.ts';
import { daysAgo } from './moments.ts';
import { ScamRecord } from './ScamRecord.tsx';

/**
 * The same first message from several new accounts (docs/product.md section 7), announced at the
 * top of /moderate until a moderator bans them (the queue's own ban, with its confirmation) or
 * dismisses it (a plain form post).
 */
export function RepeatedMessages({ flags }: { flags: readonly RepeatedMessageFlag[] }) {
  return (
    <div className="repeated-messages" role="region" aria-label="Repeated messages">
      {flags.map((flag) => (
        <section className="repeated-messages__flag" key={flag.id} id={`repeated-${flag.id}`}>
          <p className="repeated-messages__text">
            <strong>
              {plural(flag.accounts.length, 'new account')} sent the same first message:
            </strong>{' '}
            <span className="repeated-messages__sample">“{flag.sample}”</span>{' '}
            <span className="repeated-messages__when">
              (announced <time dateTime={flag.flaggedAt}>{formatMoment(flag.flaggedAt)}</time>)
            </span>
          </p>
          <ul className="repeated-messages__accounts">
            {flag.accounts.map((account) => (
              <li key={account.accountId}>
                <span className="repeated-messages__email">{account.email}</span>, member since{' '}
                {formatDate(account.joinedAt.slice(0, 10))} ({daysAgo(account.daysSinceJoining)})
                {account.banned ? (
                  ' · Banned'
                ) : (
                  <>
                    {' · '}
                    <a href={`${moderatePath()}?ban=${account.accountId}#ban`}>Ban this account…</a>
                  </>
                )}
                <ScamRecord record={account.scamRecord} />
              </li>
            ))}
          </ul>
          <form
            className="repeated-messages__dismiss"
            method="post"
            action={dismissRepeatedMessageApiPath(flag.id)}
          >
            <button className="button button--secondary button--small" type="submit">
              Dismiss this announcement
            </button>
          </form>
        </section>
      ))}
    </div>
  );
}
