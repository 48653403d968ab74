// /verify-age's check by a digital licence (docs/product.md section 6, "Age assurance"): the
// server's request handed to the W3C Digital Credentials API (`org-iso-mdoc`, ISO 18013-7
// Annex C), and the wallet's encrypted answer handed back to the server, which verifies it.
// Without the API (`'DigitalCredential' in window` false), the form says in words what to do
// instead; without this script, the form's plain post gets the page back saying so.
import {
  ageCheckRequestApiPath,
  ageCheckResponseApiPath,
  verifyAgePath,
} from '../../core/paths.ts';
import { NETWORK_ERROR, sameSiteRedirect } from './submit-json.ts';

export const NO_DIGITAL_CREDENTIALS =
  'This browser cannot ask your wallet for a digital licence (it has no Digital Credentials API). Open this page in Chrome or Edge 141 or later, or Safari 26 on an iPhone; or see the other ways below.';
export const WALLET_CANCELLED =
  'Your wallet did not share a licence (cancelled, or no licence in it). Nothing was kept; you can try again.';
const CHECKING = 'Asking your wallet…';
const VERIFYING = 'Checking the answer…';

interface WalletRequest {
  requestId: string;
  protocol: string;
  data: Record<string, unknown>;
}

type Answer = Record<string, unknown>;

async function postJson(url: string, body: unknown): Promise<{ ok: boolean; answer: Answer }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify(body),
  });
  let answer: Answer = {};
  try {
    answer = (await response.json()) as Answer;
  } catch {
    // Not JSON (a proxy's page): the fallback text below.
  }
  return { ok: response.ok, answer };
}

/** The server's words for a refusal, or the network's. */
const errorOf = (answer: Answer) =>
  typeof answer.error === 'string' ? answer.error : NETWORK_ERROR;

export function enhanceAgeCheck(): void {
  const form = document.querySelector<HTMLFormElement>('form[data-age-check]');
  const progress = form?.querySelector<HTMLElement>('[data-age-check-progress]');
  if (!form || !progress) return;
  const say = (text: string) => {
    progress.textContent = text;
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void check();
  });
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');

  async function check(): Promise<void> {
    if (!('DigitalCredential' in window) || !navigator.credentials) {
      say(NO_DIGITAL_CREDENTIALS);
      return;
    }
    if (button) button.disabled = true;
    try {
      say(CHECKING);
      const asked = await postJson(ageCheckRequestApiPath(), {});
      if (!asked.ok) return say(errorOf(asked.answer));
      const request = asked.answer as unknown as WalletRequest;
      let credential: { data?: { response?: unknown } } | null;
      try {
        credential = (await navigator.credentials.get({
          digital: { requests: [{ protocol: request.protocol, data: request.data }] },
        } as CredentialRequestOptions)) as typeof credential;
      } catch {
        return say(WALLET_CANCELLED);
      }
      const response = credential?.data?.response;
      if (typeof response !== 'string') return say(WALLET_CANCELLED);
      say(VERIFYING);
      const answered = await postJson(ageCheckResponseApiPath(), {
        requestId: request.requestId,
        response,
      });
      if (!answered.ok) return say(errorOf(answered.answer));
      window.location.assign(
        sameSiteRedirect(answered.answer.redirectUrl, `${verifyAgePath()}?done=checked`),
      );
    } catch {
      say(NETWORK_ERROR);
    } finally {
      if (button) button.disabled = false;
    }
  }
}
