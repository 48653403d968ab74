// Posts a form's values as JSON and turns every outcome into what the form shows: a redirect on
// success, the server's error text, or the network-failure text. Never navigates on failure.

export const NETWORK_ERROR = 'Could not reach the server. Please try again.';

export type SubmitResult =
  { ok: true; redirectUrl: string } | { ok: false; error: string; field?: string };

/** Only a path on this site: an answer can never send the browser to another site. */
export function sameSiteRedirect(value: unknown, fallback: string): string {
  return typeof value === 'string' && /^\/(?![/\\])/.test(value) ? value : fallback;
}

export async function submitJson(
  url: string,
  body: unknown,
  fallbackError: string,
  fallbackRedirect: string,
): Promise<SubmitResult> {
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
  if (!response.ok) {
    const error =
      typeof answer.error === 'string' && answer.error.trim() !== '' ? answer.error : fallbackError;
    return { ok: false, error, field: typeof answer.field === 'string' ? answer.field : undefined };
  }
  return { ok: true, redirectUrl: sameSiteRedirect(answer.redirectUrl, fallbackRedirect) };
}
