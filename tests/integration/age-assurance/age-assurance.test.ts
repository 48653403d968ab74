// Age assurance (docs/product.md section 6, "Age assurance"), in-process on a real database
// (SQLite, and PostgreSQL in its suite) with real cryptography: the test wallet
// (tests/helpers/test-wallet.ts) answers the server's requests under the test IACA root, which is
// in the trust list only here (AGE_ISSUERS_DIR), in either protocol the request offers
// (org-iso-mdoc, OpenID4VP). A member whose state, or whose ad's state, asks
// for the check is refused (403) a post and a first message until a licence says "18 or over";
// in a state that does not ask, nothing changes; every wrong answer is refused with its reason;
// the tables keep the method, the outcome, the time and the issuing state, nothing else; the
// member's state is asked at sign-up, taken from a first ad, and changed on /account, as plain
// form posts.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import {
  type AgeCheckRequest,
  NO_TRUSTED_ISSUERS,
  OPEN_REQUESTS_MAX,
  PROBLEM_TEXTS,
  REQUEST_EXPIRED,
  REQUEST_USED,
  TOO_MANY_REQUESTS,
  UNDER_18,
} from '../../../server/age-assurance/checks.ts';
import { newMdocRequest } from '../../../server/age-assurance/mdoc.ts';
import { encryptionJwk, newEncryptionKey } from '../../../server/age-assurance/openid4vp.ts';
import {
  accountDataApiPath,
  accountPath,
  adsApiPath,
  ageCheckRequestApiPath,
  ageCheckResponseApiPath,
  declaredStateApiPath,
  moderatePath,
  signupApiPath,
} from '../../../core/paths.ts';
import {
  cookieHeader,
  ORIGIN,
  postJson,
  sessionTokenOf,
  signupBody,
  uniqueEmail,
} from '../../helpers/api.ts';
import { signUpModerator } from '../../helpers/moderation.ts';
import { insertLiveAd, startConversation, storedMessages } from '../../helpers/messages.ts';
import { bannerOf, testAppOnFixtureContent, textOf } from '../../helpers/pages.ts';
import { getPage, makeMember, submit, validAd, type TestMember } from '../../helpers/posting.ts';
import {
  LICENCE_BIRTH_DATE,
  LICENCE_FAMILY_NAME,
  TEST_ISSUERS_DIR,
  testWallet,
  type AnswerOptions,
  type OpenId4VpAnswerOptions,
} from '../../helpers/test-wallet.ts';
import { onPostgres } from '../../helpers/test-store.ts';
import { storedRows } from '../../helpers/stored-rows.ts';

const t = testAppOnFixtureContent();
const previousIssuers = process.env.AGE_ISSUERS_DIR;
beforeAll(() => {
  process.env.AGE_ISSUERS_DIR = TEST_ISSUERS_DIR;
});
afterAll(() => {
  if (previousIssuers === undefined) delete process.env.AGE_ISSUERS_DIR;
  else process.env.AGE_ISSUERS_DIR = previousIssuers;
});

const MISSISSIPPI_AD = { state: 'Mississippi', city: 'Jackson' };

/** The request the page's script asks for (JSON), as the server answers it. */
async function askForRequest(member: TestMember) {
  const response = await submit(t, ageCheckRequestApiPath(), {}, member.session, 'json', {
    origin: ORIGIN,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as AgeCheckRequest;
}

/** The wallet's answer, posted back as the script does, with the protocol it came in. */
const sendAnswer = (
  member: TestMember,
  answer: { requestId: string; protocol: string; response: string },
) => submit(t, ageCheckResponseApiPath(), answer, member.session, 'json', { origin: ORIGIN });

/** A whole check over org-iso-mdoc: a request, the wallet's answer, posted back. */
async function checkAge(
  member: TestMember,
  credential: Parameters<typeof testWallet>[0] = {},
  answer: AnswerOptions = {},
) {
  const { requestId, requests } = await askForRequest(member);
  const response = await (await testWallet(credential)).answer(requests[0], ORIGIN, answer);
  return sendAnswer(member, { requestId, protocol: requests[0].protocol, response });
}

/** A whole check over OpenID4VP: the same request, the wallet's JWE answer, posted back. */
async function checkAgeOverOpenId4Vp(
  member: TestMember,
  credential: Parameters<typeof testWallet>[0] = {},
  answer: OpenId4VpAnswerOptions = {},
) {
  const { requestId, requests } = await askForRequest(member);
  const wallet = await testWallet(credential);
  const response = await wallet.answerOpenId4Vp(requests[1], ORIGIN, answer);
  return { requestId, protocol: requests[1].protocol, response };
}

const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error;

const postAd = (member: TestMember, ad = MISSISSIPPI_AD) =>
  submit(t, adsApiPath(), validAd(ad), member.session);

const declare = (member: TestMember, state: string) =>
  submit(t, declaredStateApiPath(), { stateForm: '1', state }, member.session);

describe('the gate', () => {
  test('a post in Mississippi is refused in words until the licence says 18 or over', async () => {
    const member = await makeMember(t);
    const refused = await postAd(member);
    expect(refused.status).toBe(403);
    const html = await refused.text();
    expect(bannerOf(html)).toContain('Mississippi HB 1126');
    expect(html).toContain('<a href="/verify-age">/verify-age</a>');
    expect(
      await storedRows(t, 'SELECT id FROM member_ads WHERE account_id = ?', member.accountId),
    ).toEqual([]);

    const checked = await checkAge(member);
    expect(checked.status).toBe(200);
    expect(await checked.json()).toMatchObject({
      redirectUrl: '/verify-age?done=checked',
      check: { method: 'digital-licence', outcome: 'passed', issuingState: 'Mississippi' },
    });
    expect((await postAd(member)).status).toBe(303);
  });

  test('a first message about a Tennessee ad waits for the check; answers do not', async () => {
    const poster = await makeMember(t);
    const replier = await makeMember(t);
    const adId = await insertLiveAd(t, poster, 'Live music and a walk', {
      state: 'Tennessee',
      city: 'Memphis',
    });
    const refused = await startConversation(t, replier, adId, 'Hello, I liked your ad.', 'json');
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toContain('Tennessee HB 1891');
    expect(await storedMessages(t)).toEqual([]);
    expect((await checkAge(replier)).status).toBe(200);
    expect((await startConversation(t, replier, adId, 'Hello, I liked your ad.')).status).toBe(303);
  });

  test("a member's declared state holds them back anywhere; elsewhere nothing changes", async () => {
    const member = await makeMember(t);
    expect((await postAd(member, { state: 'California', city: 'Los Angeles' })).status).toBe(303);
    expect(await t.store.ageChecks.declaredState(member.accountId)).toBe('California');

    const other = await makeMember(t);
    expect((await declare(other, 'Tennessee')).status).toBe(303);
    const refused = await postAd(other, { state: 'California', city: 'Los Angeles' });
    expect(refused.status).toBe(403);
    expect(bannerOf(await refused.text())).toContain('members in Tennessee');
  });
});

describe("the member's state", () => {
  test('is asked at sign-up (optional), kept, and changed or cleared on /account', async () => {
    const email = uniqueEmail('state');
    const signedUp = await postJson(t.app, signupApiPath(), {
      ...signupBody({ email }),
      state: 'Mississippi',
    });
    expect(signedUp.status).toBe(201);
    const accountId = (await t.store.accounts.findByEmail(email))!.id;
    const member = { email, accountId, session: sessionTokenOf(signedUp) };
    expect(await t.store.ageChecks.declaredState(accountId)).toBe('Mississippi');
    const page = textOf(await (await getPage(t, accountPath(), member.session)).text());
    expect(page).toContain('Mississippi HB 1126');

    const saved = await declare(member, 'Texas');
    expect(saved.headers.get('location')).toBe('/account?done=state-saved#my-state-title');
    expect(await t.store.ageChecks.declaredState(accountId)).toBe('Texas');
    await declare(member, '');
    expect(await t.store.ageChecks.declaredState(accountId)).toBeNull();
    const wrong = await declare(member, 'Atlantis');
    expect(wrong.status).toBe(400);
    expect(await t.store.ageChecks.declaredState(accountId)).toBeNull();
  });

  test('comes with the sign-up form posted without JavaScript, and back with a refused one', async () => {
    const email = uniqueEmail('state-form');
    const fields = { ...signupBody({ email }), state: 'Tennessee', acceptTerms: 'on' };
    const posted = await submit(t, signupApiPath(), fields as Record<string, string>);
    expect(posted.status).toBe(303);
    const accountId = (await t.store.accounts.findByEmail(email))!.id;
    expect(await t.store.ageChecks.declaredState(accountId)).toBe('Tennessee');

    const refused = await submit(t, signupApiPath(), {
      ...(signupBody() as Record<string, string>),
      state: 'Atlantis',
      acceptTerms: 'on',
    });
    expect(refused.status).toBe(400);
    expect(bannerOf(await refused.text())).toBe('Choose one of the 50 states, or leave it empty.');
    // A post refused for another field comes back with the state as it was chosen.
    const young = await submit(t, signupApiPath(), {
      ...(signupBody({ dateOfBirth: '2020-01-01' }) as Record<string, string>),
      state: 'Tennessee',
      acceptTerms: 'on',
    });
    expect(young.status).toBe(400);
    expect(await young.text()).toMatch(/<option value="Tennessee" selected="">/);
  });

  test('a sign-up without it, or with an unknown one, is as before or refused', async () => {
    expect((await postJson(t.app, signupApiPath(), signupBody())).status).toBe(201);
    const unknown = await postJson(t.app, signupApiPath(), { ...signupBody(), state: 'Nowhere' });
    expect(unknown.status).toBe(400);
  });
});

describe('answers that are refused, each with its reason', () => {
  test('untrusted, expired, unsigned, altered, wrong nonce, other origin', async () => {
    const member = await makeMember(t);
    const other = await newMdocRequest();
    const cases: Record<string, [Parameters<typeof testWallet>[0], AnswerOptions]> = {
      untrusted: [{ signer: 'untrusted' }, {}],
      expired: [{ validUntil: new Date(Date.now() - 60_000) }, {}],
      unsigned: [{}, { unsigned: true }],
      altered: [{ ageOver18: false }, { alterValue: true }],
      'not-for-this-request': [{}, { signOverOtherRequest: other.encryptionInfo }],
    };
    for (const [kind, [credential, answer]] of Object.entries(cases)) {
      const refused = await checkAge(member, credential, answer);
      const expected = PROBLEM_TEXTS[kind as keyof typeof PROBLEM_TEXTS];
      expect([kind, refused.status, await errorOf(refused)]).toEqual([
        kind,
        expected.kind === 'forbidden' ? 403 : 400,
        expected.text,
      ]);
    }
    const elsewhere = await checkAge(member, {}, { origin: 'https://elsewhere.test' });
    expect(await errorOf(elsewhere)).toBe(PROBLEM_TEXTS['not-for-this-request'].text);
    expect(await t.store.ageChecks.of([member.accountId])).toEqual(new Map());
  });

  test('a replayed answer is refused; so is one after the request expired', async () => {
    const member = await makeMember(t);
    const request = await askForRequest(member);
    const response = await (await testWallet()).answer(request.requests[0], ORIGIN);
    const answer = { requestId: request.requestId, response };
    const send = () =>
      submit(t, ageCheckResponseApiPath(), answer, member.session, 'json', { origin: ORIGIN });
    expect((await send()).status).toBe(200);
    const replayed = await send();
    expect([replayed.status, await errorOf(replayed)]).toEqual([409, REQUEST_USED]);

    const late = await askForRequest(member);
    const lateResponse = await (await testWallet()).answer(late.requests[0], ORIGIN);
    vi.useFakeTimers({ now: Date.now() + 6 * 60_000, toFake: ['Date'] });
    try {
      const expired = await submit(
        t,
        ageCheckResponseApiPath(),
        { requestId: late.requestId, response: lateResponse },
        member.session,
        'json',
        { origin: ORIGIN },
      );
      expect([expired.status, await errorOf(expired)]).toEqual([410, REQUEST_EXPIRED]);
    } finally {
      vi.useRealTimers();
    }
  });

  test('at most 5 requests wait at once for a member (429)', async () => {
    const member = await makeMember(t);
    for (let n = 0; n < OPEN_REQUESTS_MAX; n += 1) await askForRequest(member);
    const sixth = await submit(t, ageCheckRequestApiPath(), {}, member.session, 'json', {
      origin: ORIGIN,
    });
    expect([sixth.status, await errorOf(sixth)]).toEqual([429, TOO_MANY_REQUESTS]);
    expect(sixth.headers.get('retry-after')).toBe('300');
  });

  test('another member cannot use my request', async () => {
    const member = await makeMember(t);
    const thief = await makeMember(t);
    const request = await askForRequest(member);
    const response = await (await testWallet()).answer(request.requests[0], ORIGIN);
    const stolen = await submit(
      t,
      ageCheckResponseApiPath(),
      { requestId: request.requestId, response },
      thief.session,
      'json',
      { origin: ORIGIN },
    );
    expect([stolen.status, await errorOf(stolen)]).toEqual([409, REQUEST_USED]);
  });

  test('a licence that says under 18 is kept as a failure and refused', async () => {
    const member = await makeMember(t);
    const refused = await checkAge(member, { ageOver18: false });
    expect([refused.status, await errorOf(refused)]).toEqual([403, UNDER_18]);
    expect((await t.store.ageChecks.of([member.accountId])).get(member.accountId)).toMatchObject({
      outcome: 'failed',
      issuingState: 'Mississippi',
    });
    expect((await postAd(member)).status).toBe(403);
  });

  test('with an empty trust list, no check starts, in words', async () => {
    const member = await makeMember(t);
    process.env.AGE_ISSUERS_DIR = `${TEST_ISSUERS_DIR}/none`;
    try {
      const refused = await submit(t, ageCheckRequestApiPath(), {}, member.session, 'json');
      expect([refused.status, await errorOf(refused)]).toEqual([409, NO_TRUSTED_ISSUERS]);
    } finally {
      process.env.AGE_ISSUERS_DIR = TEST_ISSUERS_DIR;
    }
  });
});

describe('over OpenID4VP', () => {
  test('the request offers both protocols; an OpenID4VP answer lets the member post', async () => {
    const member = await makeMember(t);
    expect((await postAd(member)).status).toBe(403);
    const request = await askForRequest(member);
    expect(request.requests.map(({ protocol }) => protocol)).toEqual([
      'org-iso-mdoc',
      'openid4vp-v1-unsigned',
    ]);
    const response = await (await testWallet()).answerOpenId4Vp(request.requests[1], ORIGIN);
    const answer = { requestId: request.requestId, protocol: 'openid4vp-v1-unsigned', response };
    const checked = await sendAnswer(member, answer);
    expect(checked.status).toBe(200);
    expect(await checked.json()).toMatchObject({
      check: { method: 'digital-licence', outcome: 'passed', issuingState: 'Mississippi' },
    });
    expect((await postAd(member)).status).toBe(303);

    const replayed = await sendAnswer(member, answer);
    expect([replayed.status, await errorOf(replayed)]).toEqual([409, REQUEST_USED]);
  });

  test('untrusted, wrong nonce, other origin, another key: refused with the same words', async () => {
    const member = await makeMember(t);
    const otherKey = await encryptionJwk(newEncryptionKey());
    const cases: Array<[string, Parameters<typeof testWallet>[0], OpenId4VpAnswerOptions]> = [
      ['untrusted', { signer: 'untrusted' }, {}],
      ['not-for-this-request', {}, { nonce: 'AAAAAAAAAAAAAAAAAAAAAA' }],
      ['not-for-this-request', {}, { origin: 'https://elsewhere.test' }],
      ['not-for-this-request', {}, { encryptTo: otherKey }],
    ];
    for (const [kind, credential, options] of cases) {
      const refused = await sendAnswer(
        member,
        await checkAgeOverOpenId4Vp(member, credential, options),
      );
      const expected = PROBLEM_TEXTS[kind as keyof typeof PROBLEM_TEXTS];
      expect([options, refused.status, await errorOf(refused)]).toEqual([
        options,
        expected.kind === 'forbidden' ? 403 : 400,
        expected.text,
      ]);
    }
    expect(await t.store.ageChecks.of([member.accountId])).toEqual(new Map());
  });

  test('a licence that says under 18 is kept as a failure and refused', async () => {
    const member = await makeMember(t);
    const refused = await sendAnswer(
      member,
      await checkAgeOverOpenId4Vp(member, { ageOver18: false }),
    );
    expect([refused.status, await errorOf(refused)]).toEqual([403, UNDER_18]);
    expect((await t.store.ageChecks.of([member.accountId])).get(member.accountId)).toMatchObject({
      outcome: 'failed',
      issuingState: 'Mississippi',
    });
  });

  test("an answer in one protocol posted as the other's is not taken", async () => {
    const member = await makeMember(t);
    const answer = await checkAgeOverOpenId4Vp(member);
    const refused = await sendAnswer(member, { ...answer, protocol: 'org-iso-mdoc' });
    expect([refused.status, await errorOf(refused)]).toEqual([400, PROBLEM_TEXTS.unreadable.text]);
    expect(await t.store.ageChecks.of([member.accountId])).toEqual(new Map());
  });
});

describe('the answer posted as a form', () => {
  test('is refused on the check page with its reason', async () => {
    const member = await makeMember(t);
    const request = await askForRequest(member);
    const refused = await submit(
      t,
      ageCheckResponseApiPath(),
      { requestId: request.requestId, response: 'bm90IGNib3I' },
      member.session,
    );
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(bannerOf(html)).toBe(PROBLEM_TEXTS.unreadable.text);
    expect(textOf(html)).toContain('Check your age');
  });
});

describe('what is kept', () => {
  test('the method, the outcome, the time and the issuing state; nothing of the licence', async () => {
    const member = await makeMember(t);
    expect((await checkAge(member)).status).toBe(200);
    const rows = await storedRows(
      t,
      'SELECT * FROM age_checks WHERE account_id = ?',
      member.accountId,
    );
    expect(rows).toEqual([
      {
        account_id: member.accountId,
        method: 'digital-licence',
        outcome: 'passed',
        checked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        issuing_state: 'Mississippi',
      },
    ]);
    // The request is gone with its answer; no table holds the answer, a name or a birth date.
    expect(
      await storedRows(
        t,
        'SELECT * FROM age_check_requests WHERE account_id = ?',
        member.accountId,
      ),
    ).toEqual([]);
    const tables = onPostgres()
      ? await storedRows<{ name: string }>(
          t,
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
        )
      : await storedRows<{ name: string }>(
          t,
          "SELECT name FROM sqlite_master WHERE type = 'table'",
        );
    expect(tables.map((table) => table.name)).toContain('age_checks');
    for (const { name } of tables) {
      const dump = JSON.stringify(await storedRows(t, `SELECT * FROM ${name}`));
      expect([name, dump.includes(LICENCE_FAMILY_NAME)]).toEqual([name, false]);
      expect([name, dump.includes(LICENCE_BIRTH_DATE)]).toEqual([name, false]);
    }
  });
});

describe('who sees it', () => {
  test('the member in Download my data; a moderator, one line beside the poster', async () => {
    const member = await makeMember(t);
    expect((await declare(member, 'Mississippi')).status).toBe(303);
    expect((await checkAge(member)).status).toBe(200);
    const file = (await (
      await t.app.request(`${ORIGIN}${accountDataApiPath()}`, {
        headers: cookieHeader(member.session),
      })
    ).json()) as { ageAssurance: unknown };
    expect(file.ageAssurance).toEqual({
      declaredState: 'Mississippi',
      ageCheck: {
        method: 'digital licence',
        result: '18 or over',
        checkedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        issuingState: 'Mississippi',
      },
    });

    expect((await postAd(member)).status).toBe(303);
    const moderator = await signUpModerator(t.app, t.store);
    const queue = textOf(await (await getPage(t, moderatePath(), moderator.session)).text());
    expect(queue).toMatch(/Age\s*age checked \(digital licence, Mississippi, \w+ \d+, \d{4}\)/);
  });
});

describe('without JavaScript', () => {
  test('the check form says what to do instead; the page explains the other ways', async () => {
    const member = await makeMember(t);
    const posted = await submit(t, ageCheckRequestApiPath(), {}, member.session, 'form', {
      origin: ORIGIN,
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('/verify-age?without=script');
    expect(await storedRows(t, 'SELECT * FROM age_check_requests')).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ account_id: member.accountId })]),
    );
    const page = textOf(
      await (await getPage(t, '/verify-age?without=script', member.session)).text(),
    );
    expect(page).toContain('which needs JavaScript');
    expect(page).toContain('No digital licence, or a browser that cannot ask for one?');
  });
});
