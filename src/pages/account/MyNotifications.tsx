import { Banner } from '../../components/Banner.tsx';
import { MessageTime } from '../../components/MessageTime.tsx';
import {
  NOTIFICATIONS_ANCHOR,
  pushSettingsApiPath,
  removePushDeviceApiPath,
} from '../../../core/paths.ts';
import type { PushDevicesView } from '../../../core/views/push-devices.ts';

/** The boxes of "What to notify me of", in order. */
const SETTINGS = [
  {
    name: 'requests',
    label: 'First messages about my ads, before I answer them',
    hint: 'Otherwise only new messages in conversations you have written in.',
  },
  {
    name: 'savedSearches',
    label: 'New ads for my saved searches',
    hint: 'When we email you a saved search’s new ads, at most once a day.',
  },
  {
    name: 'messageText',
    label: 'Show the message’s text in the notification',
    hint: 'Anyone who sees your screen can read it. A message that comes with a scam warning never shows its text.',
  },
] as const;

export type PushSettingName = (typeof SETTINGS)[number]['name'];

/**
 * On /account: "Notifications on this device" (docs/product.md section 7). The button is the page
 * script's (src/client/push-device.ts): only pressing it asks the browser for permission, never a
 * visit. The member's devices, each removable, and what else to notify them of are plain forms.
 */
export function MyNotifications({
  push,
  brand,
  settings,
  notice,
  error,
}: {
  push: PushDevicesView;
  brand: string;
  /** The boxes as saved, or as a refused form was ticked. */
  settings: Readonly<Record<PushSettingName, boolean>>;
  notice?: string;
  error?: string;
}) {
  return (
    <section
      className="my-data push"
      id={NOTIFICATIONS_ANCHOR}
      aria-labelledby="notifications-title"
      data-push-device={push.available ? '' : undefined}
      data-vapid-key={push.publicKey}
    >
      <h2 id="notifications-title">Notifications on this device</h2>
      {notice && <Banner tone="info">{notice}</Banner>}
      {error && <Banner>{error}</Banner>}
      {push.available ? (
        <div className="push__device">
          <p className="my-data__text">
            Get a notification on this phone or computer when someone you are talking with writes to
            you. It says “New message on {brand}” and opens the conversation; who wrote and what
            stay in {brand}.
          </p>
          <button
            className="button button--primary push__button"
            type="button"
            data-push-subscribe=""
            hidden
          >
            Notify me on this device
          </button>
          <p className="push__status" role="status" data-push-status="">
            <noscript>
              Notifications need JavaScript: turn it on to get them on this device.
            </noscript>
          </p>
          <p className="field__hint" data-push-hint="">
            On an iPhone or iPad, add {brand} to your Home Screen first (Share, then Add to Home
            Screen) and open it from there.
          </p>
        </div>
      ) : (
        <p className="my-data__text">{brand} does not send notifications at the moment.</p>
      )}
      <h3 className="my-data__title">Your devices</h3>
      {push.devices.length === 0 ? (
        <p className="my-data__text">No device gets notifications.</p>
      ) : (
        <ul className="push__devices">
          {push.devices.map((device) => (
            <li className="my-data__item" key={device.id} data-push-endpoint={device.endpoint}>
              <div>
                <p className="push__device-name">
                  {device.label}
                  <span className="push__this-device" data-this-device="" hidden>
                    {' '}
                    (this device)
                  </span>
                </p>
                <p className="my-data__text">
                  Since <MessageTime at={device.addedAt} />, through {device.service}
                </p>
              </div>
              <form method="post" action={removePushDeviceApiPath(device.id)}>
                <input type="hidden" name="pushForm" value="device" />
                <button className="button button--ghost button--small" type="submit">
                  Remove<span className="visually-hidden"> {device.label}</span>
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
      <form className="form push__form" method="post" action={pushSettingsApiPath()}>
        <input type="hidden" name="pushForm" value="settings" />
        <fieldset className="push__fieldset">
          <legend>What to notify me of</legend>
          <p className="field__hint">New messages in your conversations, and if you choose:</p>
          {SETTINGS.map(({ name, label, hint }) => (
            <div className="push__setting" key={name}>
              <label className="checkbox">
                <input
                  type="checkbox"
                  name={name}
                  value="on"
                  defaultChecked={settings[name]}
                  aria-describedby={`push-${name}-hint`}
                />{' '}
                {label}
              </label>
              <p className="field__hint" id={`push-${name}-hint`}>
                {hint}
              </p>
            </div>
          ))}
        </fieldset>
        <button className="button button--secondary" type="submit">
          Save notification settings
        </button>
      </form>
    </section>
  );
}
