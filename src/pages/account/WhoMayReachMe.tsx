import { Banner } from '../../components/Banner.tsx';
import { FormField } from '../../components/FormField.tsx';
import {
  filteredMessagesPath,
  REACH_ANCHOR,
  reachSettingsApiPath,
  verificationPath,
} from '../../../core/paths.ts';
import {
  HIDDEN_WORDS_MAX,
  REACH_AGE_MAX,
  REACH_AGE_MIN,
} from '../../../core/schemas/reach-settings.ts';
import type { ReachSettingsView } from '../../../core/views/reach-settings.ts';

/** The two age boxes, in this order. */
const AGE_BOUNDS = [
  { name: 'minAge', id: 'reach-min-age', label: 'Youngest' },
  { name: 'maxAge', id: 'reach-max-age', label: 'Oldest' },
] as const;

/**
 * On /account: "Who may reach me" (docs/product.md section 7), one plain form of the member's own
 * settings for first messages about their ads, each a fieldset of its own: only verified members,
 * the ages that may write first, and hidden words. The form saves them all at once.
 */
export function WhoMayReachMe({
  settings,
  notice,
  error,
  errorField,
}: {
  settings: ReachSettingsView;
  notice?: string;
  error?: string;
  errorField?: string;
}) {
  const fieldError = (field: string) => (errorField === field ? error : undefined);
  const wordsError = fieldError('hiddenWords');
  return (
    <section className="my-data reach" id={REACH_ANCHOR} aria-labelledby="reach-title">
      <h2 id="reach-title">Who may reach me</h2>
      <p className="my-data__text">
        These apply to the first message of a conversation about one of your ads. Nobody is told
        your settings, except that a member refused reads why: that you accept only verified
        members, or which ages you accept.
      </p>
      {notice && <Banner tone="info">{notice}</Banner>}
      {error && <Banner>{error}</Banner>}
      <form className="form reach__form" method="post" action={reachSettingsApiPath()}>
        <input type="hidden" name="reachForm" value="1" />
        <fieldset className="reach__fieldset">
          <legend>Verified members</legend>
          <label className="checkbox">
            <input
              type="checkbox"
              name="verifiedOnly"
              value="on"
              defaultChecked={settings.verifiedOnly}
              aria-describedby="reach-verified-only-hint"
            />{' '}
            Only verified members can start a conversation with me
          </label>
          <p className="field__hint" id="reach-verified-only-hint">
            Others are told that you accept first messages only from verified members, and how to
            get verified (<a href={verificationPath()}>what verification is</a>). Conversations
            already started go on.
          </p>
        </fieldset>
        <fieldset className="reach__fieldset">
          <legend>Ages that may write to me first</legend>
          <p className="field__hint">
            From their date of birth. Leave a box empty for no limit ({REACH_AGE_MIN} and over).
          </p>
          <div className="reach__ages">
            {AGE_BOUNDS.map(({ name, id, label }) => (
              <FormField
                key={name}
                id={id}
                name={name}
                label={label}
                type="number"
                inputMode="numeric"
                min={REACH_AGE_MIN}
                max={REACH_AGE_MAX}
                defaultValue={settings[name]}
                error={fieldError(name)}
              />
            ))}
          </div>
        </fieldset>
        <fieldset className="reach__fieldset">
          <legend>Hidden words</legend>
          <div className={wordsError ? 'field field--invalid' : 'field'}>
            <label htmlFor="reach-hidden-words">Words I don’t want to read first</label>
            <textarea
              id="reach-hidden-words"
              name="hiddenWords"
              rows={4}
              defaultValue={settings.hiddenWords}
              aria-describedby={`reach-hidden-words-hint${wordsError ? ' reach-hidden-words-error' : ''}`}
              aria-invalid={wordsError ? true : undefined}
            />
            <p className="field__hint" id="reach-hidden-words-hint">
              One a line, up to {HIDDEN_WORDS_MAX}. A first message with one goes to your{' '}
              <a href={filteredMessagesPath()}>Filtered folder</a> instead of your inbox, without a
              mail; its sender is not told. Whole words only, in any case or spelling trick.
            </p>
            {wordsError && (
              <p className="field__error" id="reach-hidden-words-error">
                {wordsError}
              </p>
            )}
          </div>
        </fieldset>
        <button className="button button--primary" type="submit">
          Save who may reach me
        </button>
      </form>
    </section>
  );
}
