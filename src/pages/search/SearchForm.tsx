import type { InputHTMLAttributes, ReactNode } from 'react';
import { searchPath } from '../../../core/paths.ts';
import { AD_AGE_MAX, AD_AGE_MIN } from '../../../core/schemas/ad-limits.ts';
import { DEFAULT_WITHIN_MILES, WITHIN_MILES } from '../../../core/near-query.ts';
import { QUERY_MAX, WITHIN_DAYS, type SearchField } from '../../../core/search-query.ts';

interface SearchFormProps {
  values: Readonly<Partial<Record<SearchField, string>>>;
  errors: Readonly<Partial<Record<SearchField, string>>>;
  states: readonly string[];
  seeksOptions: readonly { value: string; label: string }[];
}

/** /search's filters: a GET form, so the URL is the search (it can be bookmarked and shared). */
export function SearchForm({ values, errors, states, seeksOptions }: SearchFormProps) {
  // `within` is miles near a city; in a search that is not, an older URL's days (as `posted`).
  const form = {
    values: values.near
      ? values
      : {
          ...values,
          posted: values.posted ?? values.within,
          within: String(DEFAULT_WITHIN_MILES),
        },
    errors,
  };
  return (
    <form className="search-form" method="get" action={searchPath()} role="search" noValidate>
      <SearchInput
        form={form}
        name="q"
        label="Words"
        wide
        type="search"
        maxLength={QUERY_MAX}
        placeholder="e.g. hiking, coffee"
      />
      <SearchSelect form={form} name="state" label="State">
        <option value="">Any state</option>
        {states.map((state) => (
          <option key={state} value={state}>
            {state}
          </option>
        ))}
      </SearchSelect>
      <SearchInput form={form} name="city" label="City" type="text" placeholder="Any city" />
      <SearchSelect form={form} name="seeks" label="Seeking">
        <option value="">Anyone</option>
        {seeksOptions.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label} ({option.value})
          </option>
        ))}
      </SearchSelect>
      {AGE_FIELDS.map((age) => (
        <SearchInput key={age.name} form={form} {...AGE_INPUT} {...age} />
      ))}
      <SearchSelect form={form} name="within" label="Within">
        {WITHIN_MILES.map((miles) => (
          <option key={miles} value={String(miles)}>
            {miles} miles of
          </option>
        ))}
      </SearchSelect>
      <SearchInput
        form={form}
        name="near"
        label="Near city"
        type="text"
        maxLength={200}
        placeholder="e.g. Portland, OR"
      />
      <SearchSelect form={form} name="posted" label="Posted">
        <option value="">Any time</option>
        {WITHIN_DAYS.map((days) => (
          <option key={days} value={String(days)}>
            {days === 1 ? 'Today' : `In the last ${days} days`}
          </option>
        ))}
      </SearchSelect>
      <SearchSelect form={form} name="verified" label="Members">
        <option value="">Anyone</option>
        <option value="1">Verified members only</option>
      </SearchSelect>
      {/* Best match needs words: the choice is offered once there are some. */}
      {(values.q || errors.sort) && (
        <SearchSelect form={form} name="sort" label="Order" unset="match">
          <option value="match">Best match</option>
          <option value="newest">Newest first</option>
        </SearchSelect>
      )}
      <div className="search-form__submit">
        <button type="submit" className="button button--primary">
          Search
        </button>
      </div>
    </form>
  );
}

/** The two age fields, from and to. */
const AGE_FIELDS = [
  { name: 'minAge', label: 'Age from', placeholder: String(AD_AGE_MIN) },
  { name: 'maxAge', label: 'Age to', placeholder: String(AD_AGE_MAX) },
] as const;

/** The age fields' input: a number within the ages an ad may have. */
const AGE_INPUT = {
  type: 'number',
  inputMode: 'numeric',
  min: AD_AGE_MIN,
  max: AD_AGE_MAX,
} as const;

/** What every field of the form reads from: the values asked for and their messages. */
type SearchFormState = Pick<SearchFormProps, 'values' | 'errors'>;

interface SearchControlProps {
  form: SearchFormState;
  name: SearchField;
  label: string;
  wide?: boolean;
}

/** A text or number field: its input is named, labelled and marked invalid by its field's name. */
function SearchInput({
  form,
  name,
  label,
  wide,
  type,
  ...input
}: SearchControlProps & Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'form'>) {
  return (
    <Field name={name} label={label} error={form.errors[name]} wide={wide}>
      <input
        type={type}
        name={name}
        id={`search-${name}`}
        defaultValue={form.values[name] ?? ''}
        {...input}
        {...invalid(name, form.errors)}
      />
    </Field>
  );
}

/** A choice: `unset` is chosen while the URL asks for none. */
function SearchSelect({
  form,
  name,
  label,
  unset = '',
  children,
}: SearchControlProps & { unset?: string; children: ReactNode }) {
  return (
    <Field name={name} label={label} error={form.errors[name]}>
      <select
        name={name}
        id={`search-${name}`}
        defaultValue={form.values[name] ?? unset}
        {...invalid(name, form.errors)}
      >
        {children}
      </select>
    </Field>
  );
}

function invalid(name: SearchField, errors: SearchFormProps['errors']) {
  return errors[name]
    ? { 'aria-invalid': true as const, 'aria-describedby': `search-${name}-error` }
    : {};
}

function Field({
  name,
  label,
  error,
  wide,
  children,
}: {
  name: SearchField;
  label: string;
  error?: string;
  wide?: boolean;
  children: ReactNode;
}) {
  const classes = [
    'field',
    `search-form__${name}`,
    error && 'field--invalid',
    wide && 'search-form__wide',
  ];
  return (
    <div className={classes.filter(Boolean).join(' ')}>
      <label htmlFor={`search-${name}`}>{label}</label>
      {children}
      {error && (
        <p className="field__error" id={`search-${name}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
