import { searchPath } from '../../core/paths.ts';
import { AD_AGE_MAX, AD_AGE_MIN } from '../../core/schemas/ad-limits.ts';
import { SEEKS_LABELS } from '../../core/schemas/seeks.ts';

/**
 * A city page's small filter form (docs/product.md section 9): words, who is sought and an age range,
 * sent to /search with the state and city filled in. A GET form: it works without JavaScript.
 */
export function CityFilterForm({ state, city }: { state: string; city: string }) {
  return (
    <form className="city-filter" method="get" action={searchPath()} role="search">
      <input type="hidden" name="state" value={state} />
      <input type="hidden" name="city" value={city} />
      <div className="city-filter__field city-filter__words">
        <label htmlFor="city-filter-q">Words</label>
        <input
          type="search"
          id="city-filter-q"
          name="q"
          maxLength={200}
          placeholder="e.g. hiking"
        />
      </div>
      <div className="city-filter__field city-filter__seeks">
        <label htmlFor="city-filter-seeks">Seeking</label>
        <select id="city-filter-seeks" name="seeks" defaultValue="">
          <option value="">Anyone</option>
          {Object.entries(SEEKS_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label} ({value})
            </option>
          ))}
        </select>
      </div>
      <fieldset className="city-filter__field city-filter__ages">
        <legend>Age</legend>
        <AgeInput name="minAge" label="Age from" placeholder={AD_AGE_MIN} />
        <span aria-hidden="true">–</span>
        <AgeInput name="maxAge" label="Age to" placeholder={AD_AGE_MAX} />
      </fieldset>
      <button type="submit" className="button button--primary city-filter__submit">
        Search {city}
      </button>
    </form>
  );
}

/** One end of the age range, labelled for screen readers (the fieldset's legend shows "Age"). */
function AgeInput(props: { name: 'minAge' | 'maxAge'; label: string; placeholder: number }) {
  const id = `city-filter-${props.name}`;
  return (
    <>
      <label className="visually-hidden" htmlFor={id}>
        {props.label}
      </label>
      <input
        type="number"
        id={id}
        name={props.name}
        inputMode="numeric"
        min={AD_AGE_MIN}
        max={AD_AGE_MAX}
        placeholder={String(props.placeholder)}
      />
    </>
  );
}
