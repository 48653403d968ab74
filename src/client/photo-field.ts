// The posting form's photos with JavaScript (docs/product.md section 10): the server-rendered photo
// field (src/components/PhotoField.tsx: a multiple file input and the photos already kept) becomes
// one list of previews across kept photos and newly chosen files, each with its alt text, Remove,
// Move up and Move down. The real file input keeps the chosen files in the order shown (a
// DataTransfer), and hidden fields say the rest (`photo_order`, `new_photo_alt`, the contract in
// the common brief), so the form still posts as a plain multipart form. The form is then sent with
// XMLHttpRequest for its upload progress (sendWithProgress). Limits are checked here as a courtesy;
// the server checks every file again, and only it reads a file's type (from its bytes).
import { MAX_PHOTO_BYTES, MAX_PHOTOS, PHOTO_ALT_MAX } from '../schemas/photos.ts';
import { NETWORK_ERROR, sameSiteRedirect } from './submit-json.ts';

export const ALT_LABEL = 'Describe this photo (optional)';
export const tooManyPhotos = (left: number) =>
  `An ad can have up to ${MAX_PHOTOS} photos: ${left} of the files you chose ${left === 1 ? 'was' : 'were'} not added.`;
export const tooLargePhoto = (name: string) =>
  `${name}: This file is larger than ${MAX_PHOTO_BYTES / 1024 / 1024} MB. Choose a smaller photo, or one saved at a lower quality.`;

/** A photo the server keeps (on the ad, or uploaded with a refused post): posted by its id. */
interface KeptItem {
  kind: 'kept';
  id: number;
  element: HTMLLIElement;
}
/** A file chosen here, sent with the form. */
interface NewItem {
  kind: 'new';
  file: File;
  url: string;
  element: HTMLLIElement;
}
type Item = KeptItem | NewItem;

/** A photo the server kept from a refused post (its JSON answer's `keptPhotos`). */
export interface KeptPhoto {
  id: number;
  alt: string;
  previewUrl: string;
}

export interface PhotoField {
  /** Whether any chosen file will be sent. */
  hasNewFiles(): boolean;
  /** After a refused post: the files the server processed become kept photos (not sent again). */
  keepFromServer(keptPhotos: readonly KeptPhoto[], refusalTexts: readonly string[]): void;
}

/**
 * Enhances the photo field of `form`; undefined when the form has none. `showProblem` puts a
 * message beside the field (undefined clears it).
 */
export function enhancePhotoField(
  form: HTMLFormElement,
  showProblem: (message: string | undefined) => void,
): PhotoField | undefined {
  const field = form.querySelector<HTMLElement>('[data-photo-field]');
  const found = field?.querySelector<HTMLInputElement>('input[type="file"][name="photos"]');
  if (!field || !found) return undefined;
  const root: HTMLElement = field;
  const input: HTMLInputElement = found;
  const canSyncFiles = typeof DataTransfer === 'function';
  const title = form.querySelector<HTMLInputElement>('[name="title"]');

  const list = document.createElement('ol');
  list.className = 'photo-previews';
  list.dataset.photoPreviews = '';
  list.setAttribute('aria-label', 'Your photos');
  // Photos the member removed on the edit page: their fields still post (photo_remove_{id}).
  const removed = document.createElement('div');
  removed.hidden = true;
  const order = hidden('photo_order');
  const announcer = document.createElement('p');
  announcer.className = 'visually-hidden';
  announcer.setAttribute('role', 'status');
  announcer.dataset.photoAnnouncer = '';
  input.after(list, removed, order, announcer);

  const items: Item[] = [];
  const keptList = root.querySelector<HTMLElement>('[data-kept-photos]');
  for (const element of keptList?.querySelectorAll<HTMLElement>('[data-photo-id]') ?? []) {
    const id = Number(element.dataset.photoId);
    // Only a photo the form posts (its hidden `photo` field) is in the list; a photo a moderator
    // removed stays where the server put it, with its reason.
    if (!Number.isInteger(id) || !element.querySelector(`input[name="photo"]`)) continue;
    const item = keptItem(id, element);
    const removeBox = element.querySelector<HTMLInputElement>(`input[name="photo_remove_${id}"]`);
    if (removeBox?.checked) removed.append(item.element);
    else items.push(item);
  }
  if (keptList && !keptList.querySelector('[data-photo-id]')) keptList.hidden = true;

  input.addEventListener('change', () => {
    const chosen = [...(input.files ?? [])];
    if (!canSyncFiles) {
      // The input alone holds the files: show what it holds, as chosen.
      for (const item of items.filter((each) => each.kind === 'new')) drop(item);
    }
    const problems: string[] = [];
    let left = 0;
    for (const file of chosen) {
      if (file.size > MAX_PHOTO_BYTES) problems.push(tooLargePhoto(file.name));
      else if (items.length >= MAX_PHOTOS) left += 1;
      else items.push(newItem(file));
    }
    if (left > 0) problems.push(tooManyPhotos(left));
    showProblem(problems.length > 0 ? problems.join(' ') : undefined);
    update();
    if (chosen.length > 0) announce(`${items.length} of ${MAX_PHOTOS} photos chosen.`);
  });
  title?.addEventListener('input', () => update());
  update();

  /** A kept photo as the server rendered it (thumbnail, alt field, remove box), in our layout. */
  function keptItem(id: number, from: HTMLElement): KeptItem {
    const image = from.querySelector<HTMLImageElement>('img');
    const alt = from.querySelector<HTMLInputElement>(`[name="photo_alt_${id}"]`);
    const element = itemElement(
      image ?? thumbnail(`/api/photos/${id}/320`),
      alt ?? altInput(`photo_alt_${id}`, ''),
    );
    element.dataset.photoId = String(id);
    // The posted fields and anything the server says of the photo ("Waiting for review").
    for (const field of from.querySelectorAll<HTMLInputElement>('input[type="hidden"]'))
      element.append(field);
    const removeBox = from.querySelector<HTMLInputElement>(`input[name="photo_remove_${id}"]`);
    if (removeBox) {
      removeBox.tabIndex = -1;
      const holder = document.createElement('span');
      holder.hidden = true;
      holder.append(removeBox);
      element.append(holder);
    }
    for (const note of from.querySelectorAll('[data-photo-note]'))
      element.querySelector('.photo-preview__about')!.append(note);
    from.remove();
    return { kind: 'kept', id, element };
  }

  function newItem(file: File): NewItem {
    const url = URL.createObjectURL(file);
    const element = itemElement(thumbnail(url), altInput('new_photo_alt', ''));
    element.dataset.newPhoto = '';
    const name = document.createElement('p');
    name.className = 'photo-preview__file';
    name.textContent = `${file.name} · ${sizeText(file.size)}`;
    element.querySelector('.photo-preview__number')!.after(name);
    return { kind: 'new', file, url, element };
  }

  /** One preview: the picture, its number, its alt field and its buttons. */
  function itemElement(image: HTMLImageElement, alt: HTMLInputElement): HTMLLIElement {
    const element = document.createElement('li');
    element.className = 'photo-preview';
    const picture = document.createElement('div');
    picture.className = 'photo-preview__picture';
    image.className = 'photo-preview__image';
    image.addEventListener('error', () => picture.classList.add('photo-preview__picture--none'), {
      once: true,
    });
    const none = document.createElement('span');
    none.className = 'photo-preview__no-preview';
    none.textContent = 'No preview';
    picture.append(image, none);

    const about = document.createElement('div');
    about.className = 'photo-preview__about';
    const number = document.createElement('p');
    number.className = 'photo-preview__number';
    alt.id ||= `photo-alt-${(altCount += 1)}`;
    alt.maxLength = PHOTO_ALT_MAX;
    const label = document.createElement('label');
    label.htmlFor = alt.id;
    label.textContent = ALT_LABEL;
    const altField = document.createElement('div');
    altField.className = 'photo-preview__alt';
    altField.append(label, alt);
    about.append(number, altField);

    const buttons = document.createElement('div');
    buttons.className = 'photo-preview__buttons';
    for (const [action, text] of [
      ['up', 'Move up'],
      ['down', 'Move down'],
      ['remove', 'Remove'],
    ] as const) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'button button--small button--secondary';
      button.dataset.photoAction = action;
      button.textContent = text;
      button.addEventListener('click', () => act(element, action));
      buttons.append(button);
    }
    element.append(picture, about, buttons);
    return element;
  }

  function act(element: HTMLLIElement, action: 'up' | 'down' | 'remove') {
    const at = items.findIndex((item) => item.element === element);
    const item = items[at];
    if (!item) return;
    if (action === 'remove') {
      drop(item);
      update();
      const next = items[Math.min(at, items.length - 1)];
      (next?.element.querySelector<HTMLElement>('[data-photo-action="remove"]') ?? input).focus();
      announce(`Photo ${at + 1} removed. ${items.length} of ${MAX_PHOTOS} photos.`);
      showProblem(undefined);
      return;
    }
    const to = action === 'up' ? at - 1 : at + 1;
    if (to < 0 || to >= items.length) return;
    items.splice(at, 1);
    items.splice(to, 0, item);
    update();
    // Focus stays on the photo moved; on its other button once this one can go no further.
    const same = element.querySelector<HTMLButtonElement>(`[data-photo-action="${action}"]`)!;
    const other = element.querySelector<HTMLButtonElement>(
      `[data-photo-action="${action === 'up' ? 'down' : 'up'}"]`,
    )!;
    (same.disabled ? other : same).focus();
    announce(`Photo moved to position ${to + 1} of ${items.length}.`);
  }

  /** Takes a photo out of the list: a kept one of the edit page is posted as removed. */
  function drop(item: Item) {
    items.splice(items.indexOf(item), 1);
    if (item.kind === 'new') URL.revokeObjectURL(item.url);
    const removeBox = item.element.querySelector<HTMLInputElement>(
      `input[name="photo_remove_${item.kind === 'kept' ? item.id : ''}"]`,
    );
    if (item.kind === 'kept' && removeBox) {
      removeBox.checked = true;
      removed.append(item.element);
    } else item.element.remove();
  }

  /** Shows the list as it is and writes what the form posts. */
  function update() {
    list.replaceChildren(...items.map((item) => item.element));
    list.hidden = items.length === 0;
    const count = items.length;
    const newFiles = items.filter((item): item is NewItem => item.kind === 'new');
    if (canSyncFiles) {
      const files = new DataTransfer();
      for (const item of newFiles) files.items.add(item.file);
      input.files = files.files;
    }
    order.value = items
      .map((item) => (item.kind === 'kept' ? `p${item.id}` : `f${newFiles.indexOf(item)}`))
      .join(',');
    // No photos: no order to send.
    order.disabled = items.length === 0;
    const titleText = title?.value.trim() || 'your ad’s title';
    items.forEach((item, index) => {
      const n = index + 1;
      item.element.querySelector('.photo-preview__number')!.textContent = `Photo ${n} of ${count}`;
      item.element.querySelector<HTMLInputElement>('.photo-preview__alt input')!.placeholder =
        `Photo ${n} of ${count}: ${titleText}`;
      for (const button of item.element.querySelectorAll<HTMLButtonElement>(
        '[data-photo-action]',
      )) {
        const action = button.dataset.photoAction;
        button.setAttribute(
          'aria-label',
          // The visible words first, then the photo's number (WCAG 2.5.3, label in name).
          action === 'remove' ? `Remove photo ${n}` : `Move ${action} photo ${n}`,
        );
        button.disabled = (action === 'up' && n === 1) || (action === 'down' && n === count);
      }
    });
    root.classList.toggle('photo-field--full', count >= MAX_PHOTOS);
  }

  function announce(text: string) {
    announcer.textContent = text;
  }

  return {
    hasNewFiles: () => items.some((item) => item.kind === 'new'),
    keepFromServer(keptPhotos, refusalTexts) {
      // Photos shown, and those removed on the edit page, are known already.
      const shown = new Set(items.flatMap((item) => (item.kind === 'kept' ? [item.id] : [])));
      for (const element of removed.querySelectorAll<HTMLElement>('[data-photo-id]'))
        shown.add(Number(element.dataset.photoId));
      const fresh = keptPhotos.filter((photo) => !shown.has(photo.id));
      const sent = items.filter((item): item is NewItem => item.kind === 'new');
      // A file the server refused is named in its message ("shell.jpg: This file isn't a photo…");
      // the others were processed, in the order sent, and come back as kept photos.
      const refused = sent.filter((item) =>
        refusalTexts.some((text) => text.includes(`${item.file.name}:`)),
      );
      const processed = sent.filter((item) => !refused.includes(item));
      for (const item of refused) drop(item);
      if (fresh.length === 0) {
        // Nothing processed (the text was refused first, or every file was): the files stay.
      } else if (processed.length === fresh.length) {
        processed.forEach((item, index) => {
          items.splice(items.indexOf(item), 1, keptFromAnswer(fresh[index]!, item));
          URL.revokeObjectURL(item.url);
        });
      } else {
        // Not one for one: every file sent gives way to what the server kept, in its order.
        for (const item of processed) drop(item);
        const room = MAX_PHOTOS - items.length;
        items.push(...fresh.slice(0, room).map((photo) => keptFromAnswer(photo)));
      }
      update();
    },
  };

  /** A photo the server kept from this form's post, shown where its file was. */
  function keptFromAnswer(photo: KeptPhoto, file?: NewItem): KeptItem {
    const typed = file?.element.querySelector<HTMLInputElement>('.photo-preview__alt input');
    const alt = altInput(`photo_alt_${photo.id}`, photo.alt || typed?.value || '');
    const image = thumbnail(sameSiteRedirect(photo.previewUrl, `/api/photos/${photo.id}/320`));
    const element = itemElement(image, alt);
    element.dataset.photoId = String(photo.id);
    element.append(hidden('photo', String(photo.id)));
    return { kind: 'kept', id: photo.id, element };
  }
}

let altCount = 0;

function altInput(name: string, value: string): HTMLInputElement {
  const alt = document.createElement('input');
  alt.type = 'text';
  alt.name = name;
  alt.value = value;
  alt.autocomplete = 'off';
  return alt;
}

function thumbnail(src: string): HTMLImageElement {
  const image = document.createElement('img');
  image.src = src;
  // Decorative here: the alt field beside it says what the photo shows.
  image.alt = '';
  return image;
}

function hidden(name: string, value = ''): HTMLInputElement {
  const field = document.createElement('input');
  field.type = 'hidden';
  field.name = name;
  field.value = value;
  return field;
}

/** "850 KB", "2.4 MB". */
export function sizeText(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** What a form sent with sendWithProgress came back with. */
export type ProgressResult =
  | { ok: true; redirectUrl: string }
  | {
      ok: false;
      error: string;
      field?: string;
      fieldErrors: Record<string, string>;
      keptPhotos?: KeptPhoto[];
    };

/**
 * Posts the form as multipart (its FormData, as a plain post would) with XMLHttpRequest, for the
 * upload's progress (0 to 1); the answer asked for as JSON. A busy server (503) is not tried
 * again here: its message says when to.
 */
export function sendWithProgress(
  form: HTMLFormElement,
  fallbackError: string,
  fallbackRedirect: string,
  onProgress: (sent: number) => void,
): Promise<ProgressResult> {
  const data = new FormData(form);
  // An empty file input posts one nameless empty part; without files, none is sent.
  const files = data.getAll('photos').filter((file) => file instanceof File && file.name !== '');
  if (files.length === 0) data.delete('photos');
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open('POST', form.action);
    request.setRequestHeader('Accept', 'application/json');
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    request.addEventListener('error', () =>
      resolve({ ok: false, error: NETWORK_ERROR, fieldErrors: {} }),
    );
    request.addEventListener('load', () => {
      let answer: {
        error?: unknown;
        field?: unknown;
        fieldErrors?: unknown;
        keptPhotos?: unknown;
        redirectUrl?: unknown;
      } = {};
      try {
        answer = JSON.parse(request.responseText) as typeof answer;
      } catch {
        // A body that is not JSON (a proxy's error page) gets the fallback texts.
      }
      if (request.status >= 200 && request.status < 300) {
        resolve({ ok: true, redirectUrl: sameSiteRedirect(answer.redirectUrl, fallbackRedirect) });
        return;
      }
      let error =
        typeof answer.error === 'string' && answer.error.trim() !== ''
          ? answer.error
          : fallbackError;
      const retryAfter = request.getResponseHeader('Retry-After')?.trim();
      if (request.status === 503 && retryAfter && /^\d+$/.test(retryAfter))
        error = `${error} Please try again in ${retryAfter} second${retryAfter === '1' ? '' : 's'}.`;
      resolve({
        ok: false,
        error,
        field: typeof answer.field === 'string' ? answer.field : undefined,
        fieldErrors: textsOf(answer.fieldErrors),
        keptPhotos: Array.isArray(answer.keptPhotos)
          ? answer.keptPhotos.filter(isKeptPhoto)
          : undefined,
      });
    });
    request.send(data);
  });
}

function textsOf(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object') return {};
  return Object.fromEntries(
    Object.entries(value).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

function isKeptPhoto(value: unknown): value is KeptPhoto {
  const photo = value as Partial<KeptPhoto> | null;
  return (
    typeof photo === 'object' &&
    photo !== null &&
    Number.isInteger(photo.id) &&
    typeof photo.previewUrl === 'string' &&
    (photo.alt === undefined || typeof photo.alt === 'string')
  );
}

/** The upload's bar and its words ("Uploading… 45 %"), said to screen readers every quarter. */
export function uploadProgress(form: HTMLFormElement) {
  const box = document.createElement('div');
  box.className = 'photo-upload';
  box.dataset.photoProgress = '';
  box.hidden = true;
  const bar = document.createElement('progress');
  bar.max = 100;
  bar.value = 0;
  bar.setAttribute('aria-label', 'Upload progress');
  const text = document.createElement('p');
  text.className = 'photo-upload__text';
  text.setAttribute('aria-hidden', 'true');
  const status = document.createElement('p');
  status.className = 'visually-hidden';
  status.setAttribute('role', 'status');
  box.append(bar, text, status);
  const button = form.querySelector('button[type="submit"]');
  if (button) button.before(box);
  else form.append(box);
  let said = -1;
  return {
    start() {
      box.hidden = false;
      said = -1;
      this.show(0);
    },
    show(sent: number) {
      const percent = Math.round(sent * 100);
      bar.value = percent;
      const words = percent >= 100 ? 'Uploaded. Checking your photos…' : `Uploading… ${percent} %`;
      text.textContent = words;
      const quarter = Math.floor(percent / 25);
      if (quarter !== said) {
        said = quarter;
        status.textContent = words;
      }
    },
    stop() {
      box.hidden = true;
      status.textContent = '';
    },
  };
}
