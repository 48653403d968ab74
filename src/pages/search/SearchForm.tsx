import type { ReactNode } from 'react';
import { searchPath } from '../../paths.ts';
import { AD_AGE_MAX, AD_AGE_MIN } from '../../schemas/ad-limits.ts';
import { QUERY_MAX, WITHIN_DAYS, type SearchField } from './searchQuery.ts';

interface SearchFormProps {
  values: Readonly<Partial<Record<SearchField, string>>>;
  errors: Readonly<Partial<Record<SearchField, string>>>;
  states: readonly string[];
  seeksOptions: readonly { value: string; label: string }[];
}

/** /search's filters: a GET form, so the URL is the search (it can be bookmarked and shared). */
export function SearchForm({ values, errors, states, seeksOptions }: SearchFormProps) {
  return (
    <form className="search-form" method="get" action={searchPath()} role="search" noValidate>
      <Field name="q" label="Words" error={errors.q} wide>
        <input
          type="search"
          name="q"
          id="search-q"
          defaultValue={values.q ?? ''}
          maxLength={QUERY_MAX}
          placeholder="e.g. hiking, coffee"
          {...invalid('q', errors)}
        />
      </Field>
      <Field name="state" label="State" error={errors.state}>
        <select
          name="state"
          id="search-state"
          defaultValue={values.state ?? ''}
          {...invalid('state', errors)}
        >
          <option value="">Any state</option>
          {states.map((state) => (
            <option key={state} value={state}>
              {state}
            </option>
          ))}
        </select>
      </Field>
      <Field name="city" label="City" error={errors.city}>
        <input
          type="text"
          name="city"
          id="search-city"
          defaultValue={values.city ?? ''}
          placeholder="Any city"
          {...invalid('city', errors)}
        />
      </Field>
      <Field name="seeks" label="Seeking" error={errors.seeks}>
        <select
          name="seeks"
          id="search-seeks"
          defaultValue={values.seeks ?? ''}
          {...invalid('seeks', errors)}
        >
          <option value="">Anyone</option>
          {seeksOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label} ({option.value})
            </option>
          ))}
        </select>
      </Field>
      <Field name="minAge" label="Age from" error={errors.minAge}>
        <input
          type="number"
          name="minAge"
          id="search-minAge"
          inputMode="numeric"
          min={AD_AGE_MIN}
          max={AD_AGE_MAX}
          defaultValue={values.minAge ?? ''}
          placeholder={String(AD_AGE_MIN)}
          {...invalid('minAge', errors)}
        />
      </Field>
      <Field name="maxAge" label="Age to" error={errors.maxAge}>
        <input
          type="number"
          name="maxAge"
          id="search-maxAge"
          inputMode="numeric"
          min={AD_AGE_MIN}
          max={AD_AGE_MAX}
          defaultValue={values.maxAge ?? ''}
          placeholder={String(AD_AGE_MAX)}
          {...invalid('maxAge', errors)}
        />
      </Field>
      <Field name="within" label="Posted" error={errors.within}>
        <select
          name="within"
          id="search-within"
          defaultValue={values.within ?? ''}
          {...invalid('within', errors)}
        >
          <option value="">Any time</option>
          {WITHIN_DAYS.map((days) => (
            <option key={days} value={String(days)}>
              {days === 1 ? 'Today' : `In the last ${days} days`}
            </option>
          ))}
        </select>
      </Field>
      {/* Best match needs words: the choice is offered once there are some. */}
      {(values.q || errors.sort) && (
        <Field name="sort" label="Order" error={errors.sort}>
          <select
            name="sort"
            id="search-sort"
            defaultValue={values.sort ?? 'match'}
            {...invalid('sort', errors)}
          >
            <option value="match">Best match</option>
            <option value="newest">Newest first</option>
          </select>
        </Field>
      )}
      <div className="search-form__submit">
        <button type="submit" className="button button--primary">
          Search
        </button>
      </div>
    </form>
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
