// The posting form's photos with JavaScript (docs/product.md section 10): the server-rendered photo
// field (src/components/PhotoField.tsx: a multiple file input and the photos already kept) becomes
// one list of previews across kept photos and newly chosen files, each with its alt text, Remove,
// Move up and Move down. The real file input keeps the chosen files in the order shown (a
// DataTransfer), and hidden fields say the rest (`photo_order`, `new_photo_alt`, the contract in
// the common brief), so the form still posts as a plain multipart form. The form is then sent with
// XMLHttpRequest for its upload progress (send-with-progress.ts). Limits are checked here as a
// courtesy; the server checks every file again, and only it reads a file's type (from its bytes).
// Here the list and what it posts; each photo's preview is made in photo-preview.ts.
import { MAX_PHOTO_BYTES, MAX_PHOTOS } from '../../core/schemas/photos.ts';
import {
  hiddenField,
  keptFromAnswer,
  keptItem,
  newItem,
  type Item,
  type NewItem,
} from './photo-preview.ts';
import type { KeptPhoto } from './send-with-progress.ts';

export const tooManyPhotos = (left: number) =>
  `An ad can have up to ${MAX_PHOTOS} photos: ${left} of the files you chose ${left === 1 ? 'was' : 'were'} not added.`;
export const tooLargePhoto = (name: string) =>
  `${name}: This file is larger than ${MAX_PHOTO_BYTES / 1024 / 1024} MB. Choose a smaller photo, or one saved at a lower quality.`;

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
  const order = hiddenField('photo_order');
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
    const item = keptItem(id, element, act);
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
      else items.push(newItem(file, act));
    }
    if (left > 0) problems.push(tooManyPhotos(left));
    showProblem(problems.length > 0 ? problems.join(' ') : undefined);
    update();
    if (chosen.length > 0) announce(`${items.length} of ${MAX_PHOTOS} photos chosen.`);
  });
  title?.addEventListener('input', () => update());
  update();

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
          items.splice(items.indexOf(item), 1, keptFromAnswer(fresh[index]!, act, item));
          URL.revokeObjectURL(item.url);
        });
      } else {
        // Not one for one: every file sent gives way to what the server kept, in its order.
        for (const item of processed) drop(item);
        const room = MAX_PHOTOS - items.length;
        items.push(...fresh.slice(0, room).map((photo) => keptFromAnswer(photo, act)));
      }
      update();
    },
  };
}
