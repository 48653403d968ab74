// The moderator's own "Show all photos blurred" on the queue (moderator wellbeing; docs/product.md
// section 6): a plain form, kept per moderator by the server, so it works without
// JavaScript and on every instance.
import { photoSettingsApiPath } from '../../../core/paths.ts';

/** The setting as it stands, and the form that changes it. */
export function PhotoSetting({ blurAll }: { blurAll: boolean }) {
  return (
    <form
      className="photo-setting"
      method="post"
      action={photoSettingsApiPath()}
      aria-label="Photo setting"
    >
      <label className="photo-setting__choice">
        <input type="checkbox" name="blurAll" value="on" defaultChecked={blurAll} />
        Show all photos blurred
      </label>
      <button className="button button--ghost button--small" type="submit">
        Save setting
      </button>
      <span className="photo-setting__now">
        {blurAll
          ? 'On: every photo is blurred until you show it.'
          : 'Off: only photos likely explicit are blurred.'}
      </span>
    </form>
  );
}
