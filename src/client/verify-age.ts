// /verify-age's check by a digital licence (docs/product.md section 6, "Age assurance"): the
// server's request handed to the W3C Digital Credentials API in one call offering two protocols
// (`org-iso-mdoc`, ISO 18013-7 Annex C, and `openid4vp-v1-unsigned`, OpenID4VP 1.0; those the
// browser says it allows, when it says), and the wallet's encrypted answer handed back to the
// server with the protocol it came in, which the server verifies accordingly.
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
  requests: Array<{ protocol: string; data: Record<string, unknown> }>;
}

/** What the wallet answered: DigitalCredential's protocol, and its data's `response`. */
interface WalletAnswer {
  protocol?: unknown;
  data?: { response?: unknown };
}

/** The requests in protocols the browser allows (all, where it cannot say). */
function allowedRequests(requests: WalletRequest['requests']) {
  const allows = (
    window as unknown as {
      DigitalCredential?: { userAgentAllowsProtocol?: (protocol: string) => boolean };
    }
  ).DigitalCredential?.userAgentAllowsProtocol;
  return typeof allows === 'function'
    ? requests.filter((request) => allows(request.protocol))
    : requests;
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
      const requests = allowedRequests(request.requests ?? []);
      if (requests.length === 0) return say(NO_DIGITAL_CREDENTIALS);
      let credential: WalletAnswer | null;
      try {
        credential = (await navigator.credentials.get({
          digital: { requests },
          mediation: 'required',
        } as CredentialRequestOptions)) as WalletAnswer | null;
      } catch {
        return say(WALLET_CANCELLED);
      }
      const response = credential?.data?.response;
      if (typeof response !== 'string' || typeof credential?.protocol !== 'string')
        return say(WALLET_CANCELLED);
      say(VERIFYING);
      const answered = await postJson(ageCheckResponseApiPath(), {
        requestId: request.requestId,
        protocol: credential.protocol,
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
