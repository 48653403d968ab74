import { Banner } from '../../components/Banner.tsx';
import {
  MESSAGE_SETTINGS_ANCHOR,
  messageSettingsApiPath,
  requestMessagesPath,
} from '../../../core/paths.ts';
import type { RequestMails } from '../../../core/schemas/message-settings.ts';
import type { MessageSettingsView } from '../../../core/views/message-settings.ts';

/** The two ways new requests are mailed, in this order: the default first. */
const REQUEST_MAIL_CHOICES: ReadonlyArray<{ value: RequestMails; label: string; hint: string }> = [
  {
    value: 'daily',
    label: 'Once a day, in one mail',
    hint: 'New requests of the day together. Nothing is mailed on a day without any.',
  },
  {
    value: 'at-once',
    label: 'At once, for each new request',
    hint: 'One mail when a member first writes to you, then none while you have not opened it.',
  },
];

/**
 * On /account: "Messages" (docs/product.md section 7), one plain form of the member's own settings
 * for messages: how new requests are mailed, and read receipts. It saves both at once.
 */
export function MessageSettings({
  settings,
  notice,
  error,
}: {
  settings: MessageSettingsView;
  notice?: string;
  error?: string;
}) {
  return (
    <section
      className="my-data message-settings"
      id={MESSAGE_SETTINGS_ANCHOR}
      aria-labelledby="message-settings-title"
    >
      <h2 id="message-settings-title">Messages</h2>
      <p className="my-data__text">
        A member&apos;s first message about one of your ads is a request: it waits in your{' '}
        <a href={requestMessagesPath()}>Requests</a> until you answer, and then the conversation is
        a chat. We mail you about each new message in a chat as it comes, never with its text.
      </p>
      {notice && <Banner tone="info">{notice}</Banner>}
      {error && <Banner>{error}</Banner>}
      <form className="form reach__form" method="post" action={messageSettingsApiPath()}>
        <input type="hidden" name="messagesForm" value="1" />
        <fieldset className="reach__fieldset">
          <legend>Mail me about new requests</legend>
          {REQUEST_MAIL_CHOICES.map(({ value, label, hint }) => (
            <label className="checkbox" key={value}>
              <input
                type="radio"
                name="requestMails"
                value={value}
                defaultChecked={settings.requestMails === value}
                aria-describedby={`request-mails-${value}-hint`}
              />{' '}
              <span>
                {label}
                <span className="field__hint" id={`request-mails-${value}-hint`}>
                  {hint}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
        <fieldset className="reach__fieldset">
          <legend>Read receipts</legend>
          <label className="checkbox">
            <input
              type="checkbox"
              name="readReceipts"
              value="on"
              defaultChecked={settings.readReceipts}
              aria-describedby="read-receipts-hint"
            />{' '}
            Show “Read” under my last message once the other member has read it, and let them see
            when I have read theirs
          </label>
          <p className="field__hint" id="read-receipts-hint">
            Only between two members who both turned this on: if either of you has it off, neither
            sees it. Off unless you tick it.
          </p>
        </fieldset>
        <button className="button button--primary" type="submit">
          Save message settings
        </button>
      </form>
    </section>
  );
}
