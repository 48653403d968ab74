// The posting form with JavaScript (/post, /account/ads/{id}/edit): the server-rendered form,
// checked on submit with the schema the server uses (core/schemas/ad-form.ts), each message shown
// beside its field, then sent as JSON without reloading the page; the city suggestions follow the
// chosen state. Without this script the same form posts as it is and the server answers the page.
import { piecesOfText } from '../../core/paths-in-text.ts';
import { accountPath, adCitiesApiPath } from '../../core/paths.ts';
import { checkAdEdit, checkAdForm, type AdFormProblems } from '../../core/schemas/ad-form.ts';
import { enhancePhotoField } from './photo-field.ts';
import { sendWithProgress } from './send-with-progress.ts';
import { uploadProgress } from './upload-progress.ts';
import { submitJson, type SubmitResult } from './submit-json.ts';

export const POST_FAILED = 'Your ad could not be sent. Please try again.';

const FIELDS = ['state', 'city', 'age', 'seeks', 'title', 'description'] as const;
/** The fields a message can be shown beside: the text fields and the photos. */
const SHOWN = [...FIELDS, 'photos'] as const;
type Problems = AdFormProblems & { photos?: string };

export function enhanceAdForm(): void {
  const form = document.querySelector<HTMLFormElement>('form[data-ad-form]');
  if (!form) return;
  // Our messages, beside each field, instead of the browser's bubbles.
  form.noValidate = true;
  const editing = form.dataset.adForm === 'edit';
  const cities = citySuggestions(form);
  // With a photo field (src/client/photo-field.ts), the form is sent as multipart with progress.
  const photos = enhancePhotoField(form, (message) => showFieldError(form, 'photos', message));
  const progress = photos && uploadProgress(form);
  let sending = false;

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (sending) return;
    const values = valuesOf(form);
    const checked = editing
      ? checkAdEdit(values)
      : checkAdForm(values, cities.known(values.state ?? ''));
    showProblems(form, checked.ok ? {} : checked.problems);
    if (!checked.ok) return;
    sending = true;
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    const label = button.textContent;
    button.disabled = true;
    button.textContent = 'Sending...';
    const answered = (result: SubmitResult & { fieldErrors?: Record<string, string> }) => {
      if (result.ok) {
        window.location.assign(result.redirectUrl);
        return;
      }
      sending = false;
      button.disabled = false;
      button.textContent = label;
      progress?.stop();
      const problems: Problems = {};
      for (const [name, message] of Object.entries(result.fieldErrors ?? {}))
        if (SHOWN.includes(name as (typeof SHOWN)[number]))
          problems[name as keyof Problems] = message;
      if (result.field && SHOWN.includes(result.field as (typeof SHOWN)[number]))
        problems[result.field as keyof Problems] ??= result.error;
      if (Object.keys(problems).length === 0) problems.form = result.error;
      showProblems(form, problems);
    };
    if (!photos || !progress) {
      void submitJson(form.action, values, POST_FAILED, accountPath()).then(answered);
      return;
    }
    if (photos.hasNewFiles()) progress.start();
    void sendWithProgress(form, POST_FAILED, accountPath(), (sent) => progress.show(sent)).then(
      (result) => {
        if (!result.ok && result.keptPhotos)
          photos.keepFromServer(result.keptPhotos, [
            result.error,
            ...Object.values(result.fieldErrors),
          ]);
        answered(result);
      },
    );
  });
}

/** The form's text fields as they would be posted (an edit has no state or city). */
function valuesOf(form: HTMLFormElement): Record<string, string> {
  const data = new FormData(form);
  const values: Record<string, string> = {};
  for (const name of FIELDS) {
    const value = data.get(name);
    if (typeof value === 'string') values[name] = value;
  }
  return values;
}

/** Puts each message beside its field (and the form's own in the banner); clears the others. */
function showProblems(form: HTMLFormElement, problems: Problems): void {
  for (const name of SHOWN) showFieldError(form, name, problems[name]);
  const status = form.querySelector<HTMLElement>('[data-form-status]');
  if (status) {
    const banner = problems.form ?? (Object.keys(problems).length > 0 ? FIX_FIELDS : undefined);
    status.replaceChildren();
    if (banner) {
      const text = document.createElement('p');
      text.className = 'banner banner--error';
      text.setAttribute('role', 'alert');
      // A site path in the words (the age check's page) is a link, as on the server's page.
      for (const piece of piecesOfText(banner))
        text.append('path' in piece ? link(piece.path) : piece.text);
      status.append(text);
    }
  }
  const first = SHOWN.find((name) => problems[name]);
  if (first) form.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
}

const FIX_FIELDS = 'Please correct the fields marked below.';

/** Shows `message` beside the field `name` (its error paragraph, aria-describedby), or clears it. */
function showFieldError(form: HTMLFormElement, name: string, message: string | undefined): void {
  const field =
    form.querySelector<HTMLElement>(`[data-field="${name}"]`) ??
    (name === 'photos' ? form.querySelector<HTMLElement>('[data-photo-field]') : null);
  const control = form.querySelector<HTMLElement>(`[name="${name}"]`);
  if (!field || !control) return;
  const errorId = `ad-${name}-error`;
  let error = field.querySelector<HTMLElement>('.field__error');
  const describedBy = (control.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter((id) => id && id !== errorId);
  if (message) {
    if (!error) {
      error = document.createElement('p');
      error.className = 'field__error';
      error.id = errorId;
      // Beside the control, before the previews that follow it.
      if (name === 'photos') control.after(error);
      else field.append(error);
    }
    error.textContent = message;
    describedBy.push(error.id);
    control.setAttribute('aria-invalid', 'true');
  } else {
    error?.remove();
    control.removeAttribute('aria-invalid');
  }
  field.classList.toggle('field--invalid', Boolean(message));
  if (describedBy.length > 0) control.setAttribute('aria-describedby', describedBy.join(' '));
  else control.removeAttribute('aria-describedby');
}

/**
 * Keeps the city suggestions (the <datalist>) to the chosen state's cities, loaded when the state
 * changes. `known` says whether a city is listed, once the state's list is here; until then the
 * server has the last word.
 */
function citySuggestions(form: HTMLFormElement) {
  const loaded = new Map<string, Set<string>>();
  const select = form.querySelector<HTMLSelectElement>('select[name="state"]');
  const list = form.querySelector<HTMLDataListElement>('datalist');
  const fill = (names: Iterable<string>) => {
    if (!list) return;
    list.replaceChildren(
      ...[...names].map((name) => {
        const option = document.createElement('option');
        option.value = name;
        return option;
      }),
    );
  };
  const load = async (state: string) => {
    if (!state || loaded.has(state)) return;
    try {
      const response = await fetch(adCitiesApiPath(state), {
        headers: { Accept: 'application/json' },
      });
      if (!response.ok) return;
      const { cities } = (await response.json()) as { cities: string[] };
      loaded.set(state, new Set(cities));
      if (select?.value === state) fill(cities);
    } catch {
      // Offline: no suggestions; the server still checks the city.
    }
  };
  if (select && list) {
    const rendered = [...list.options].map((option) => option.value);
    if (select.value && rendered.length > 0) loaded.set(select.value, new Set(rendered));
    else void load(select.value);
    select.addEventListener('change', () => {
      const cities = loaded.get(select.value);
      fill(cities ?? []);
      if (!cities) void load(select.value);
    });
  }
  return {
    known(state: string): ((state: string, city: string) => boolean) | undefined {
      const cities = loaded.get(state);
      return cities && ((_state, city) => cities.has(city.trim()));
    },
  };
}

function link(path: string): HTMLAnchorElement {
  const anchor = document.createElement('a');
  anchor.href = path;
  anchor.textContent = path;
  return anchor;
}
