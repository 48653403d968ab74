// Posts a form's values as JSON and turns every outcome into what the form shows: a redirect on
// success, the server's error text, or the network-failure text. Never navigates on failure.
// A busy server (503 with Retry-After: password hashing takes a burst of sign-ups in turns,
// docs/product.md section 5) is waited for and tried again, for up to a minute in all, while the
// form says it is still working; only then does the form show the error.

export const NETWORK_ERROR = 'Could not reach the server. Please try again.';
/** What a form says while it waits to try again, unless it says what it is doing. */
export const STILL_WORKING = 'The server is busy right now: still working…';
/** The longest a form keeps trying a busy server, from its first attempt. */
export const BUSY_PATIENCE_MS = 60_000;

export type SubmitResult =
  { ok: true; redirectUrl: string } | { ok: false; error: string; field?: string };

export interface SubmitOptions {
  /** Called each time a busy server is waited for, with the status line to show meanwhile. */
  onBusy?: (status: string) => void;
  /** That status line (`Lots of people are signing up right now: …`). Default STILL_WORKING. */
  busyStatus?: string;
  /** Stops waiting to try again (the dialog was closed); the answer is then the last refusal. */
  signal?: AbortSignal;
}

/** Only a path on this site: an answer can never send the browser to another site. */
export function sameSiteRedirect(value: unknown, fallback: string): string {
  return typeof value === 'string' && /^\/(?![/\\])/.test(value) ? value : fallback;
}

export async function submitJson(
  url: string,
  body: unknown,
  fallbackError: string,
  fallbackRedirect: string,
  options: SubmitOptions = {},
): Promise<SubmitResult> {
  const started = Date.now();
  for (;;) {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        credentials: 'same-origin',
        body: JSON.stringify(body),
      });
    } catch {
      return { ok: false, error: NETWORK_ERROR };
    }
    let answer: { error?: unknown; field?: unknown; redirectUrl?: unknown } = {};
    try {
      answer = (await response.json()) as typeof answer;
    } catch {
      // A body that is not JSON (a proxy's error page) gets the fallback texts.
    }
    if (response.ok)
      return { ok: true, redirectUrl: sameSiteRedirect(answer.redirectUrl, fallbackRedirect) };
    const retryInMs = busyRetryMs(response);
    if (
      retryInMs !== undefined &&
      Date.now() + retryInMs - started <= BUSY_PATIENCE_MS &&
      !options.signal?.aborted
    ) {
      options.onBusy?.(options.busyStatus ?? STILL_WORKING);
      if (await pause(retryInMs, options.signal)) continue;
    }
    const error =
      typeof answer.error === 'string' && answer.error.trim() !== '' ? answer.error : fallbackError;
    return { ok: false, error, field: typeof answer.field === 'string' ? answer.field : undefined };
  }
}

/**
 * When a 503 says to try again (Retry-After: seconds, or a date), in milliseconds, at least one
 * second; undefined for any other answer, and for a 503 that does not say (a proxy's).
 */
export function busyRetryMs(response: Response): number | undefined {
  const header = response.headers.get('Retry-After')?.trim();
  if (response.status !== 503 || !header) return undefined;
  const ms = /^\d+$/.test(header) ? Number(header) * 1000 : Date.parse(header) - Date.now();
  return Number.isNaN(ms) ? undefined : Math.max(1000, ms);
}

/** Waits `ms`; false when `signal` stopped it first. */
function pause(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const stop = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}
