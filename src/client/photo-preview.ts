// One photo of the enhanced photo field (photo-field.ts) as the member sees it: its picture, its
// number, its alt text field and its buttons (Move up, Move down, Remove). Made from a photo the
// server rendered, a file just chosen here, or a photo the server kept from a refused post; what
// the buttons do, and the numbers and labels, are photo-field.ts's.
import { photoSizeApiPath } from '../../core/paths.ts';
import { PHOTO_ALT_MAX } from '../../core/schemas/photos.ts';
import type { KeptPhoto } from './send-with-progress.ts';
import { sameSiteRedirect } from './submit-json.ts';

export const ALT_LABEL = 'Describe this photo (optional)';

/** A photo the server keeps (on the ad, or uploaded with a refused post): posted by its id. */
export interface KeptItem {
  kind: 'kept';
  id: number;
  element: HTMLLIElement;
}
/** A file chosen here, sent with the form. */
export interface NewItem {
  kind: 'new';
  file: File;
  url: string;
  element: HTMLLIElement;
}
export type Item = KeptItem | NewItem;

/** What a preview's buttons do (photo-field.ts moves or removes the photo). */
export type PhotoAction = (element: HTMLLIElement, action: 'up' | 'down' | 'remove') => void;

/** A kept photo as the server rendered it (thumbnail, alt field, remove box), in our layout. */
export function keptItem(id: number, from: HTMLElement, act: PhotoAction): KeptItem {
  const image = from.querySelector<HTMLImageElement>('img');
  const alt = from.querySelector<HTMLInputElement>(`[name="photo_alt_${id}"]`);
  const element = itemElement(
    image ?? thumbnail(photoSizeApiPath(id, 320)),
    alt ?? altInput(`photo_alt_${id}`, ''),
    act,
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

/** A file chosen here: its picture, its name and its size. */
export function newItem(file: File, act: PhotoAction): NewItem {
  const url = URL.createObjectURL(file);
  const element = itemElement(thumbnail(url), altInput('new_photo_alt', ''), act);
  element.dataset.newPhoto = '';
  const name = document.createElement('p');
  name.className = 'photo-preview__file';
  name.textContent = `${file.name} · ${sizeText(file.size)}`;
  element.querySelector('.photo-preview__number')!.after(name);
  return { kind: 'new', file, url, element };
}

/** A photo the server kept from this form's post, shown where its file was. */
export function keptFromAnswer(photo: KeptPhoto, act: PhotoAction, file?: NewItem): KeptItem {
  const typed = file?.element.querySelector<HTMLInputElement>('.photo-preview__alt input');
  const alt = altInput(`photo_alt_${photo.id}`, photo.alt || typed?.value || '');
  const image = thumbnail(sameSiteRedirect(photo.previewUrl, photoSizeApiPath(photo.id, 320)));
  const element = itemElement(image, alt, act);
  element.dataset.photoId = String(photo.id);
  element.append(hiddenField('photo', String(photo.id)));
  return { kind: 'kept', id: photo.id, element };
}

/** One preview: the picture, its number, its alt field and its buttons. */
function itemElement(
  image: HTMLImageElement,
  alt: HTMLInputElement,
  act: PhotoAction,
): HTMLLIElement {
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

export function hiddenField(name: string, value = ''): HTMLInputElement {
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
