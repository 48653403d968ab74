import { searchPath } from '../paths.ts';
import { AD_AGE_MAX, AD_AGE_MIN } from '../schemas/ad-limits.ts';
import { SEEKS_LABELS } from '../schemas/seeks.ts';

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
        <label className="visually-hidden" htmlFor="city-filter-minAge">
          Age from
        </label>
        <input
          type="number"
          id="city-filter-minAge"
          name="minAge"
          inputMode="numeric"
          min={AD_AGE_MIN}
          max={AD_AGE_MAX}
          placeholder={String(AD_AGE_MIN)}
        />
        <span aria-hidden="true">–</span>
        <label className="visually-hidden" htmlFor="city-filter-maxAge">
          Age to
        </label>
        <input
          type="number"
          id="city-filter-maxAge"
          name="maxAge"
          inputMode="numeric"
          min={AD_AGE_MIN}
          max={AD_AGE_MAX}
          placeholder={String(AD_AGE_MAX)}
        />
      </fieldset>
      <button type="submit" className="button button--primary city-filter__submit">
        Search {city}
      </button>
    </form>
  );
}
