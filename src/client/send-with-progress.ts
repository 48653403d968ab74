// Sends the posting form with its photos (ad-form.ts, when the form has a photo field): multipart,
// as a plain post would, but with XMLHttpRequest for the upload's progress (upload-progress.ts
// shows it), and the answer read as JSON: where to go next, or the refusal with its field
// messages and the photos the server kept (photo-field.ts shows those instead of the files).
import { NETWORK_ERROR, sameSiteRedirect } from './submit-json.ts';

/** A photo the server kept from a refused post (its JSON answer's `keptPhotos`). */
export interface KeptPhoto {
  id: number;
  alt: string;
  previewUrl: string;
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
