import { createElement, type ReactNode } from 'react';
import { FormStatus } from './Banner.tsx';
import { PhotoField } from './PhotoField.tsx';
import type { AdFieldName, FormPhoto } from '../../core/schemas/ad-form.ts';
import {
  AD_AGE_MAX,
  AD_AGE_MIN,
  AD_CITY_MAX,
  AD_DESCRIPTION_MAX,
  AD_TITLE_MAX,
} from '../../core/schemas/ad-limits.ts';
import { SEEKS_LABELS, type Seeks } from '../../core/schemas/seeks.ts';

/** What the member typed in each field, as text. */
export type AdFormValues = Record<AdFieldName, string>;

export interface AdFormProps {
  /** Where the form posts: /api/ads, or /api/ads/{id}/edit. */
  action: string;
  values: AdFormValues;
  fieldErrors: Readonly<Partial<Record<string, string>>>;
  /** The banner: why the whole form was refused. */
  error?: string;
  /** The 50 states, for the select. */
  states: readonly string[];
  /** The chosen state's cities, suggested as the member types. */
  cities: readonly string[];
  /** Editing: state and city are the ad's and cannot change. */
  fixedPlace?: { state: string; city: string };
  submitLabel: string;
  /** The photos kept so far (the ad's on the edit page; uploads kept from a refused post). */
  photos: readonly FormPhoto[];
}

/**
 * The posting form (/post, /account/ads/{id}/edit): a plain form that works without JavaScript;
 * with it, src/client/ad-form.ts checks it with the same schema as the server.
 */
export function AdForm(props: AdFormProps) {
  const { values, fieldErrors: errors } = props;
  const field = (name: keyof AdFormValues) => ({ name, value: values[name], error: errors[name] });
  return (
    <form
      className="form ad-form"
      action={props.action}
      method="post"
      encType="multipart/form-data"
      data-ad-form={props.fixedPlace ? 'edit' : 'new'}
    >
      <FormStatus error={props.error} />
      {props.fixedPlace ? (
        <div className="ad-form__place">
          <p className="ad-form__place-name">
            {props.fixedPlace.city}, {props.fixedPlace.state}
          </p>
          <p className="field__hint">
            The state and city of an ad can&apos;t be changed: they are part of its address. To post
            somewhere else, delete this ad and post a new one.
          </p>
        </div>
      ) : (
        <div className="ad-form__pair">
          <AdField {...field('state')} label="State" control="select" attributes={STATE_SELECT}>
            <option value="">Choose a state</option>
            {props.states.map((state) => (
              <option key={state} value={state}>
                {state}
              </option>
            ))}
          </AdField>
          <AdField
            {...field('city')}
            label="City"
            hint="Type a few letters to see the state's cities."
            attributes={CITY_INPUT}
          />
          <datalist id="ad-city-suggestions">
            {props.cities.map((city) => (
              <option key={city} value={city} />
            ))}
          </datalist>
        </div>
      )}
      <div className="ad-form__pair">
        <AdField
          {...field('age')}
          label="Your age"
          hint={`${AD_AGE_MIN} to ${AD_AGE_MAX}.`}
          attributes={AGE_INPUT}
        />
        <AdField {...field('seeks')} label="Looking for" control="select" attributes={NO_AUTOFILL}>
          <option value="">Choose one</option>
          {(Object.entries(SEEKS_LABELS) as [Seeks, string][]).map(([value, label]) => (
            <option key={value} value={value}>
              {label} ({value})
            </option>
          ))}
        </AdField>
      </div>
      <AdField
        {...field('title')}
        label="Title"
        hint={`One line, up to ${AD_TITLE_MAX} characters.`}
        attributes={TITLE_INPUT}
      />
      <AdField
        {...field('description')}
        label="Description"
        hint={`Up to ${AD_DESCRIPTION_MAX.toLocaleString('en-US')} characters; line breaks are kept. No phone numbers, emails or links: members reply through the site.`}
        control="textarea"
        attributes={DESCRIPTION_TEXTAREA}
      />
      <PhotoField
        photos={props.photos}
        title={values.title}
        removable={props.fixedPlace !== undefined}
        error={errors.photos}
      />
      <button className="button button--primary button--block" type="submit">
        {props.submitLabel}
      </button>
    </form>
  );
}

// Each control's own attributes; AdField adds its id, name, value, `required` and its messages.
const STATE_SELECT = { autoComplete: 'address-level1' };
const CITY_INPUT = {
  type: 'text',
  list: 'ad-city-suggestions',
  autoComplete: 'address-level2',
  maxLength: AD_CITY_MAX,
};
const AGE_INPUT = {
  type: 'text',
  inputMode: 'numeric',
  pattern: '[0-9]*',
  maxLength: 3,
  autoComplete: 'off',
} as const;
const NO_AUTOFILL = { autoComplete: 'off' };
const TITLE_INPUT = { type: 'text', autoComplete: 'off', maxLength: AD_TITLE_MAX };
const DESCRIPTION_TEXTAREA = { rows: 9, autoComplete: 'off', maxLength: AD_DESCRIPTION_MAX };

/**
 * A label, its control (required, named `name`, with the member's value), the hint and the
 * field's error right below it.
 */
function AdField({
  name,
  label,
  hint,
  error,
  value,
  control = 'input',
  attributes,
  children,
}: {
  name: string;
  label: ReactNode;
  hint?: string;
  error?: string;
  value: string;
  control?: 'input' | 'select' | 'textarea';
  attributes: Readonly<Record<string, string | number>>;
  children?: ReactNode;
}) {
  const id = `ad-${name}`;
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className={error ? 'field field--invalid' : 'field'} data-field={name}>
      <label htmlFor={id}>{label}</label>
      {createElement(
        control,
        {
          id,
          name,
          ...attributes,
          required: true,
          defaultValue: value,
          ...(ids ? { 'aria-describedby': ids } : {}),
          ...(error ? { 'aria-invalid': true as const } : {}),
        },
        children,
      )}
      {hint && (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
