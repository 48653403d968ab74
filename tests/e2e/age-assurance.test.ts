// Age assurance on the production build, in Chromium (docs/product.md section 6, "Age
// assurance"): a member posting in Mississippi is refused in words with the way to /verify-age;
// there the page's script asks the server for a request and calls navigator.credentials.get once,
// offering org-iso-mdoc and openid4vp-v1-unsigned, which an init script answers with the test
// wallet's real answer in one of them (the test IACA root in the trust list through
// AGE_ISSUERS_DIR); the server verifies it and the member posts. Without the Digital Credentials API the script says what to do instead, and so does the
// same form posted without JavaScript. The member's state is chosen on the sign-up page and saved
// on /account, with JavaScript and without. Screenshots at 390 and 1280 px (axe-core clean) into
// AGE_SCREENSHOTS_DIR (default /tmp/localboard-age-screenshots).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { verifyAgePath } from '../../core/paths.ts';
import { NO_DIGITAL_CREDENTIALS } from '../../src/client/verify-age.ts';
import { gotoEnhanced, shownText, waitForEnhanced } from '../helpers/browser-waits.ts';
import { heading, PASSWORD, signUpAndVerify, uniqueEmail } from '../helpers/e2e-members.ts';
import { startModerationServer, type ModerationServer } from '../helpers/moderation-server.ts';
import { lookAtWidths } from '../helpers/page-checks.ts';
import type { AgeCheckRequest } from '../../server/age-assurance/checks.ts';
import { TEST_ISSUERS_DIR, testWallet } from '../helpers/test-wallet.ts';
import { fetchPage, launchChromium, siteDir, textOf } from './support.ts';
import { storedRows } from '../helpers/stored-rows.ts';

const SHOTS = process.env.AGE_SCREENSHOTS_DIR ?? '/tmp/localboard-age-screenshots';

let browser: Browser;
let server: ModerationServer;
const previousIssuers = process.env.AGE_ISSUERS_DIR;

beforeAll(async () => {
  process.env.AGE_ISSUERS_DIR = TEST_ISSUERS_DIR;
  [browser, server] = await Promise.all([launchChromium(), startModerationServer(siteDir())]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (previousIssuers === undefined) delete process.env.AGE_ISSUERS_DIR;
  else process.env.AGE_ISSUERS_DIR = previousIssuers;
});

/** A signed-in member with a verified email, in a context of their own. */
async function member(label: string, javaScriptEnabled = true): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    javaScriptEnabled,
  });
  await signUpAndVerify(context, server, label, { throughApi: true });
  return context;
}

/** The posting form, filled for Jackson, Mississippi, and sent. */
async function postInMississippi(page: Page) {
  await gotoEnhanced(page, `${server.url}/post`);
  await page.selectOption('#ad-state', 'Mississippi');
  await page.fill('#ad-city', 'Jackson');
  await page.selectOption('#ad-seeks', 'm4w');
  await page.fill('#ad-title', 'Blues on a Saturday');
  await page.fill('#ad-description', 'Live music, a long walk and a good coffee.');
  await page.getByRole('button', { name: 'Submit for review' }).click();
}

/** What the page asked the wallet for, as navigator.credentials.get received it. */
interface AskedOfWallet {
  mediation?: string;
  requests: AgeCheckRequest['requests'];
}

/**
 * A member whose browser has the Digital Credentials API, its navigator.credentials.get answered
 * by the test wallet in `protocol` with real cryptography for the page's origin; what it was
 * asked, in `asked`. A browser that `allowsOnlyMdoc` says so as Safari 26 would, through
 * DigitalCredential.userAgentAllowsProtocol.
 */
async function memberWithWallet(
  label: string,
  protocol: 'org-iso-mdoc' | 'openid4vp-v1-unsigned',
  allowsOnlyMdoc = false,
) {
  const context = await member(label);
  const asked: AskedOfWallet[] = [];
  const wallet = await testWallet();
  await context.exposeFunction('answerAsTestWallet', async (options: AskedOfWallet) => {
    asked.push(options);
    const find = <P extends string>(name: P) =>
      options.requests.find((request) => request.protocol === name) as Extract<
        AgeCheckRequest['requests'][number],
        { protocol: P }
      >;
    const response =
      protocol === 'org-iso-mdoc'
        ? await wallet.answer(find('org-iso-mdoc'), server.url)
        : await wallet.answerOpenId4Vp(find('openid4vp-v1-unsigned'), server.url);
    return { protocol, data: { response } };
  });
  await context.addInitScript((onlyMdoc: boolean) => {
    const answer = (window as unknown as Record<string, (options: unknown) => Promise<unknown>>)
      .answerAsTestWallet!;
    (window as unknown as Record<string, unknown>).DigitalCredential = onlyMdoc
      ? class {
          static userAgentAllowsProtocol = (name: string) => name === 'org-iso-mdoc';
        }
      : class {};
    Object.defineProperty(navigator.credentials, 'get', {
      value: async (options: { digital: { requests: unknown[] }; mediation?: string }) =>
        answer({ requests: options.digital.requests, mediation: options.mediation }),
    });
  }, allowsOnlyMdoc);
  return { context, asked };
}

describe('the state pages, as prerendered', () => {
  test('a state that asks shows its law and reason in words; another shows nothing', async () => {
    const mississippi = textOf((await fetchPage('/state/Mississippi')).html);
    expect(mississippi).toContain('Age checks in Mississippi');
    expect(mississippi).toContain(
      'Mississippi HB 1126 (Walker Montgomery Protecting Children Online Act)',
    );
    expect(mississippi).toContain('commercially reasonable efforts to verify the age');
    expect(mississippi).toContain('Browsing stays free.');
    const vermont = textOf((await fetchPage('/state/Vermont')).html);
    expect(vermont).not.toContain('Age checks in');
  });
});

describe('with a digital licence, in Chromium', () => {
  test('refused in words, checked through navigator.credentials.get over OpenID4VP, then posted', async () => {
    const { context, asked } = await memberWithWallet('age-check', 'openid4vp-v1-unsigned');
    const page = await context.newPage();

    await postInMississippi(page);
    const refusal = await shownText(page.locator('.banner--error').first());
    expect(refusal).toContain('Mississippi HB 1126');
    expect(refusal).toContain(verifyAgePath());
    // The path in the refusal is a link to the check.
    await page.locator(`.banner--error a[href="${verifyAgePath()}"]`).click();
    await page.waitForURL(`${server.url}${verifyAgePath()}`);
    await waitForEnhanced(page);
    expect(await heading(page)).toBe('Check your age');
    await lookAtWidths(page, SHOTS, 'verify-age', true);
    await page.getByRole('button', { name: 'Check my age with a digital licence' }).click();
    await page.waitForURL(`${server.url}${verifyAgePath()}?done=checked`);
    // One call offered both protocols, the wallet to choose; it chose OpenID4VP.
    expect(asked).toHaveLength(1);
    expect(asked[0]!.mediation).toBe('required');
    expect(asked[0]!.requests.map((request) => request.protocol)).toEqual([
      'org-iso-mdoc',
      'openid4vp-v1-unsigned',
    ]);
    expect(Object.keys(asked[0]!.requests[0].data).sort()).toEqual([
      'deviceRequest',
      'encryptionInfo',
    ]);
    expect(asked[0]!.requests[1].data).toMatchObject({
      response_type: 'vp_token',
      response_mode: 'dc_api.jwt',
    });
    expect(await page.locator('[data-age-check-status]').textContent()).toMatch(
      /^Your age was checked with a digital licence issued by Mississippi on \w+ \d+, \d{4}: 18 or over\.$/,
    );
    await lookAtWidths(page, SHOTS, 'verify-age-done', true);

    await postInMississippi(page);
    await page.waitForURL(`${server.url}/post/in-review`);
    expect(await heading(page)).toBe('Your ad is in review');
    await context.close();
  });

  test('a browser that allows only org-iso-mdoc is offered it alone, and checks the same way', async () => {
    const { context, asked } = await memberWithWallet('age-check-mdoc', 'org-iso-mdoc', true);
    const page = await context.newPage();
    await gotoEnhanced(page, `${server.url}${verifyAgePath()}`);
    await page.getByRole('button', { name: 'Check my age with a digital licence' }).click();
    await page.waitForURL(`${server.url}${verifyAgePath()}?done=checked`);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.requests.map((request) => request.protocol)).toEqual(['org-iso-mdoc']);
    expect(await page.locator('[data-age-check-status]').textContent()).toContain(
      'issued by Mississippi',
    );
    await postInMississippi(page);
    await page.waitForURL(`${server.url}/post/in-review`);
    await context.close();
  });

  test('a browser without the Digital Credentials API is told what to do instead', async () => {
    const context = await member('age-no-api');
    await context.addInitScript(() => {
      delete (window as unknown as Record<string, unknown>).DigitalCredential;
    });
    const page = await context.newPage();
    await gotoEnhanced(page, `${server.url}${verifyAgePath()}`);
    await page.getByRole('button', { name: 'Check my age with a digital licence' }).click();
    expect(await shownText(page.locator('[data-age-check-progress]'))).toBe(NO_DIGITAL_CREDENTIALS);
    expect(await storedRows(server, 'SELECT * FROM age_check_requests')).toEqual([]);
    await context.close();
  });
});

describe('without JavaScript', () => {
  test('the same form posts and comes back saying what to do instead', async () => {
    const context = await member('age-no-js', false);
    const page = await context.newPage();
    await gotoEnhanced(page, `${server.url}${verifyAgePath()}`, false);
    await page.getByRole('button', { name: 'Check my age with a digital licence' }).click();
    await page.waitForURL(`${server.url}${verifyAgePath()}?without=script`);
    expect(await page.locator('.banner--info').first().textContent()).toContain(
      'which needs JavaScript',
    );
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toContain(
      'No digital licence, or a browser that cannot ask for one?',
    );
    await lookAtWidths(page, SHOTS, 'verify-age-without-script', false);
    await context.close();
  });
});

describe("the member's state", () => {
  test('chosen on the sign-up page, in Chromium', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const email = uniqueEmail('age-signup');
    await gotoEnhanced(page, `${server.url}/signup`);
    await page.fill('#signup-email', email);
    await page.fill('#signup-password', PASSWORD);
    await page.fill('#signup-dateOfBirth', '1990-04-12');
    await page.getByLabel('Your state (optional)').selectOption('Tennessee');
    await page.check('#signup-acceptTerms');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${server.url}/success`);
    const accountId = (await server.store.accounts.findByEmail(email))!.id;
    expect(await server.store.ageChecks.declaredState(accountId)).toBe('Tennessee');
    await context.close();
  });

  for (const javaScriptEnabled of [true, false])
    test(`saved on /account ${javaScriptEnabled ? 'in Chromium' : 'without JavaScript'}`, async () => {
      const context = await member('age-state', javaScriptEnabled);
      const page = await context.newPage();
      await gotoEnhanced(page, `${server.url}/account`, javaScriptEnabled);
      const section = page.locator('.my-state');
      await section.getByLabel('Your state').selectOption('Mississippi');
      await section.getByRole('button', { name: 'Save my state' }).click();
      await page.waitForURL(`${server.url}/account?done=state-saved#my-state-title`);
      expect(await section.locator('.banner--info').textContent()).toBe('Your state is saved.');
      expect(await section.getByLabel('Your state').inputValue()).toBe('Mississippi');
      expect(await section.textContent()).toContain(
        'asks members in Mississippi to check their age before posting or sending a first message.',
      );
      await context.close();
    });
});
