// Posting an ad (/post → POST /api/ads), in-process against a real SQLite file: as a plain form
// (303 to /post/in-review, or the form again with each message beside its field and what was
// typed kept) and as JSON; who may post (signed in, verified); the place; the body limit.
import { beforeAll, describe, expect, test } from 'vitest';
import { bannerOf, formOf, headingOf, testAppOnFixtureContent } from '../../helpers/pages.ts';
import { privatePage } from '../../helpers/pages.ts';
import { dobYearsAgo } from '../../helpers/api.ts';
import {
  fieldErrorOf,
  getPage,
  makeMember,
  storedAds,
  submit,
  validAd,
  type TestMember,
} from '../../helpers/posting.ts';
import {
  adsApiPath,
  editAdApiPath,
  postInReviewPath,
  postPath,
  verifyResendApiPath,
} from '../../../core/paths.ts';

const t = testAppOnFixtureContent();

describe('the /post page', () => {
  test('sends a signed-out visitor to sign in and back', async () => {
    const response = await getPage(t, postPath());
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/signin?next=%2Fpost');
  });

  test('shows the form with real labels, plain names and the age from the date of birth', async () => {
    const member = await makeMember(t, { dateOfBirth: dobYearsAgo(41) });
    const response = await getPage(t, postPath(), member.session);
    const html = await privatePage(response, 'Post an ad');
    expect(formOf(html, adsApiPath())?.attributes).toMatchObject({
      'data-ad-form': 'new',
      enctype: 'multipart/form-data',
      method: 'post',
    });
    const controls = [
      ['state', 'address-level1'],
      ['city', 'address-level2'],
      ['age', 'off'],
      ['seeks', 'off'],
      ['title', 'off'],
      ['description', 'off'],
    ];
    for (const [name, autocomplete] of controls) {
      expect(html).toMatch(new RegExp(`<label for="ad-${name}">[^<]+</label>`));
      const control = new RegExp(`<(?:select|input|textarea) id="ad-${name}"[^>]*>`).exec(
        html,
      )?.[0];
      expect(control).toContain(`name="${name}"`);
      expect(control).toContain(`autoComplete="${autocomplete}"`);
    }
    expect(html).toMatch(/id="ad-age"[^>]*name="age" value="41"/);
    expect(html).toContain('<option value="Wyoming">Wyoming</option>');
    expect(html).toContain('<option value="t4t">Trans person seeking trans person (t4t)</option>');
  });

  test('suggests the chosen state’s cities when the form comes back', async () => {
    const member = await makeMember(t);
    const response = await submit(t, adsApiPath(), validAd({ title: '' }), member.session);
    const html = await response.text();
    expect(html).toContain(
      '<datalist id="ad-city-suggestions"><option value="Los Angeles"></option>',
    );
  });

  test('tells an unverified member why they cannot post, with the resend form', async () => {
    const member = await makeMember(t, { verified: false });
    const html = await (await getPage(t, postPath(), member.session)).text();
    expect(headingOf(html)).toBe('Verify your email to post');
    expect(html).toContain(`action="${verifyResendApiPath()}"`);
    expect(html).not.toContain(`action="${adsApiPath()}"`);
  });
});

describe(`POST ${adsApiPath()} as a form`, () => {
  let member: TestMember;
  beforeAll(async () => {
    member = await makeMember(t);
  });

  test('stores the ad in review and answers 303 to /post/in-review', async () => {
    const poster = await makeMember(t);
    const response = await submit(t, adsApiPath(), validAd(), poster.session);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(postInReviewPath());
    const [ad, ...others] = await storedAds(t, poster.accountId);
    expect(others).toEqual([]);
    expect(ad).toMatchObject({
      state: 'California',
      city: 'Los Angeles',
      age: 34,
      seeks: 'w4m',
      title: 'Coffee and a long walk by the sea',
      description: 'I like early mornings,\nold films and a good bookshop.\n\nSay hello.',
      status: 'review',
      marks: '[]',
      revision: 1,
    });
    expect(ad!.id).toBeGreaterThanOrEqual(100_000_001);
    const page = await getPage(t, postInReviewPath(), poster.session);
    expect(headingOf(await page.text())).toBe('Your ad is in review');
  });

  test('keeps line breaks sent as CRLF as one character each', async () => {
    const poster = await makeMember(t);
    const description = `${'x'.repeat(2499)}\r\n${'y'.repeat(2500)}`;
    const response = await submit(t, adsApiPath(), validAd({ description }), poster.session);
    expect(response.status).toBe(303);
    expect((await storedAds(t, poster.accountId))[0]!.description).toBe(
      `${'x'.repeat(2499)}\n${'y'.repeat(2500)}`,
    );
  });

  test('takes a 5,000-character description of three-byte characters (45 KB encoded)', async () => {
    const poster = await makeMember(t);
    const description = '語'.repeat(5000);
    const response = await submit(t, adsApiPath(), validAd({ description }), poster.session);
    expect(response.status).toBe(303);
    expect((await storedAds(t, poster.accountId))[0]!.description).toBe(description);
  });

  test.each([
    ['state', { state: '' }, 'Choose your state.'],
    ['state', { state: 'Narnia' }, 'Choose one of the 50 states from the list.'],
    ['city', { city: '' }, 'Enter your city.'],
    [
      'city',
      { city: 'Los Angelos' },
      'We don\'t list a city called "Los Angelos" in California. Choose one of the suggested cities, or the nearest one.',
    ],
    ['age', { age: '' }, 'Enter your age.'],
    ['age', { age: '17' }, 'You must be 18 or over to post an ad.'],
    ['age', { age: '100' }, 'Age must be 99 or under.'],
    ['age', { age: 'thirty' }, 'Age must be a whole number, like 30.'],
    ['age', { age: '3.5' }, 'Age must be a whole number, like 30.'],
    ['seeks', { seeks: '' }, 'Choose who you are and who you are looking for.'],
    ['seeks', { seeks: 'x4y' }, 'Choose one of the options in the list.'],
    ['title', { title: '   ' }, 'Give your ad a title.'],
    ['title', { title: 't'.repeat(121) }, 'Title must be at most 120 characters (it has 121).'],
    ['title', { title: 'one\ntwo' }, 'Title must be on one line.'],
    ['description', { description: '' }, 'Write a description.'],
    [
      'description',
      { description: 'd'.repeat(5001) },
      'Description must be at most 5,000 characters (it has 5,001).',
    ],
  ])(
    '%s %j: 400, the form again with the message beside the field',
    async (field, change, message) => {
      const typed = validAd(change);
      const before = (await storedAds(t)).length;
      const response = await submit(t, adsApiPath(), typed, member.session);
      expect(response.status).toBe(400);
      const html = await response.text();
      expect(headingOf(html)).toBe('Post an ad');
      expect(bannerOf(html)).toBe('Please correct the fields marked below.');
      expect(fieldErrorOf(html, field)).toBe(message);
      expect(html).toMatch(new RegExp(`id="ad-${field}"[^>]*aria-invalid="true"`));
      // Every other field has no message, and what was typed is kept.
      for (const other of ['state', 'city', 'age', 'seeks', 'title', 'description'])
        if (other !== field) expect(fieldErrorOf(html, other)).toBeUndefined();
      expect(html).toMatch(
        /<option value="California" selected="">California<\/option>|value="California"/,
      );
      if (field !== 'title') expect(html).toContain(`value="${typed.title}"`);
      if (field !== 'description' && field !== 'title')
        expect(html).toContain('I like early mornings,\nold films and a good bookshop.');
      expect((await storedAds(t)).length).toBe(before);
    },
  );

  test('shows every field’s message at once, each beside its own field', async () => {
    const response = await submit(
      t,
      adsApiPath(),
      {
        state: 'California',
        city: 'Los Angeles',
        age: '17',
        seeks: '',
        title: '',
        description: '',
      },
      member.session,
    );
    const html = await response.text();
    expect(fieldErrorOf(html, 'age')).toBe('You must be 18 or over to post an ad.');
    expect(fieldErrorOf(html, 'seeks')).toBe('Choose who you are and who you are looking for.');
    expect(fieldErrorOf(html, 'title')).toBe('Give your ad a title.');
    expect(fieldErrorOf(html, 'description')).toBe('Write a description.');
    expect(fieldErrorOf(html, 'city')).toBeUndefined();
  });

  test('keeps typed markup as text, never as HTML', async () => {
    const response = await submit(
      t,
      adsApiPath(),
      validAd({ age: '17', title: '<script>alert(1)</script>' }),
      member.session,
    );
    const html = await response.text();
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  test('missing fields are each named beside their field', async () => {
    const response = await submit(t, adsApiPath(), { title: 'Only a title' }, member.session);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(fieldErrorOf(html, 'state')).toBe('Choose your state.');
    expect(fieldErrorOf(html, 'description')).toBe('Write a description.');
    expect(html).toContain('value="Only a title"');
  });

  test('an unverified member gets 403 and the page says why', async () => {
    const unverified = await makeMember(t, { verified: false });
    const response = await submit(t, adsApiPath(), validAd(), unverified.session);
    expect(response.status).toBe(403);
    expect(headingOf(await response.text())).toBe('Verify your email to post');
    expect(await storedAds(t, unverified.accountId)).toEqual([]);
  });

  test('a signed-out form post goes to sign in and back to /post; nothing is stored', async () => {
    const before = (await storedAds(t)).length;
    const response = await submit(t, adsApiPath(), validAd());
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/signin?next=%2Fpost');
    expect((await storedAds(t)).length).toBe(before);
  });

  test('a body over the limit is 413 with the form page and its message', async () => {
    const response = await submit(
      t,
      adsApiPath(),
      validAd({ description: 'x'.repeat(70 * 1024) }),
      member.session,
    );
    expect(response.status).toBe(413);
    const html = await response.text();
    expect(headingOf(html)).toBe('Post an ad');
    expect(bannerOf(html)).toBe('The request body is too large (64 KB at most).');
  });

  test('a form from another site is 403 with the form page', async () => {
    const response = await submit(t, adsApiPath(), validAd(), member.session, 'form', {
      origin: 'https://elsewhere.example',
    });
    expect(response.status).toBe(403);
    expect(bannerOf(await response.text())).toBe(
      'This request came from another site and was refused.',
    );
  });

  test('a body that is neither JSON nor a form is 415', async () => {
    const response = await t.app.request(`http://localhost${adsApiPath()}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', accept: 'application/json' },
      body: 'hello',
    });
    expect(response.status).toBe(415);
  });

  test('GET is 405', async () => {
    const response = await t.app.request(`http://localhost${adsApiPath()}`);
    expect(response.status).toBe(405);
  });
});

describe(`POST ${adsApiPath()} as JSON`, () => {
  test('201 with the id and where to go', async () => {
    const poster = await makeMember(t);
    const response = await submit(
      t,
      adsApiPath(),
      { ...validAd(), age: 29 },
      poster.session,
      'json',
    );
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: number; redirectUrl: string };
    expect(body.redirectUrl).toBe(postInReviewPath());
    expect(await storedAds(t, poster.accountId)).toMatchObject([{ id: body.id, age: 29 }]);
  });

  test.each([
    [{ ...validAd(), title: 42 }, 'title', 'Title must be text.'],
    [{ ...validAd(), description: ['a'] }, 'description', 'Description must be text.'],
    [{ ...validAd(), age: 17 }, 'age', 'You must be 18 or over to post an ad.'],
    [{ ...validAd(), age: null }, 'age', 'Enter your age.'],
    [{ ...validAd(), state: undefined }, 'state', 'Choose your state.'],
    [{ ...validAd(), admin: true }, undefined, 'Unexpected field: admin.'],
  ])('%j → 400 with the field and its message', async (body, field, error) => {
    const member = await makeMember(t);
    const response = await submit(t, adsApiPath(), body, member.session, 'json');
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { error: string; field?: string };
    expect(answer.error).toBe(error);
    expect(answer.field).toBe(field);
    expect(await storedAds(t, member.accountId)).toEqual([]);
  });

  test('not JSON, or not an object: 400', async () => {
    const member = await makeMember(t);
    for (const body of ['{oops', '[1,2]', '"text"']) {
      const response = await t.app.request(`http://localhost${adsApiPath()}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `lb_session=${member.session}` },
        body,
      });
      expect(response.status).toBe(400);
    }
  });

  test('signed out: 401', async () => {
    const response = await submit(t, adsApiPath(), validAd(), undefined, 'json');
    expect(response.status).toBe(401);
  });
});

describe('the policy scanner on submit', () => {
  test('an unambiguous term refuses the ad: the message beside its field, nothing stored', async () => {
    const member = await makeMember(t);
    const response = await submit(
      t,
      adsApiPath(),
      validAd({ title: 'Friendly ESC0RT in town' }),
      member.session,
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(fieldErrorOf(html, 'title')).toBe(
      "The word “ESC0RT” can't be used in an ad on Localboard: ads may not offer or seek anything for money, or involve anyone under 18 (see the terms).",
    );
    expect(html).toContain('value="Friendly ESC0RT in town"');
    expect(await storedAds(t, member.accountId)).toEqual([]);
  });

  test('contact details refuse the ad, beside the description', async () => {
    const member = await makeMember(t);
    const response = await submit(
      t,
      adsApiPath(),
      validAd({ description: 'Text me on 555 123 4567 any time.' }),
      member.session,
      'json',
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      field: 'description',
      error:
        "Contact details (phone numbers, email addresses, links) can't be in an ad: members reply through Localboard.",
    });
    expect(await storedAds(t, member.accountId)).toEqual([]);
  });

  test('ambiguous terms let the ad through, marked for the moderator', async () => {
    const member = await makeMember(t);
    const description = 'I grow roses and I am generous with my time.';
    const response = await submit(t, adsApiPath(), validAd({ description }), member.session);
    expect(response.status).toBe(303);
    const [ad] = await storedAds(t, member.accountId);
    const marks = JSON.parse(ad!.marks) as {
      field: string;
      term: string;
      start: number;
      end: number;
    }[];
    expect(
      marks.map((mark) => [mark.field, mark.term, description.slice(mark.start, mark.end)]),
    ).toEqual([
      ['description', 'roses', 'roses'],
      ['description', 'generous', 'generous'],
    ]);
  });

  test('scam signals let the ad through, marked for the moderator by family', async () => {
    const member = await makeMember(t);
    const description = 'Add me on kik, and cashapp me for gas money.';
    const response = await submit(t, adsApiPath(), validAd({ description }), member.session);
    expect(response.status).toBe(303);
    const [ad] = await storedAds(t, member.accountId);
    const marks = JSON.parse(ad!.marks) as {
      term: string;
      family?: string;
      start: number;
      end: number;
    }[];
    // The ad model's mark, if it reads the ad as a scam too, is of the whole ad: no range.
    const words = marks.filter((mark) => mark.start < mark.end);
    expect(
      words.map((mark) => [mark.family, mark.term, description.slice(mark.start, mark.end)]),
    ).toEqual([
      // "cashapp" is a review term too (content/policy/review-terms.txt)
      [undefined, 'cashapp', 'cashapp'],
      ['off-site-contact', 'off-site contact', 'Add me on kik'],
      ['money', 'money request', 'cashapp me'],
    ]);
  });

  test('the ad model marks an ad no signal names, in words, for the moderator', async () => {
    const member = await makeMember(t);
    const description =
      'Widowed engineer working on an offshore platform, home next month. Looking for a loyal ' +
      'and understanding woman. My contract pays at the end, so I need someone I can trust to ' +
      'help me with a few things until then.';
    const response = await submit(t, adsApiPath(), validAd({ description }), member.session);
    expect(response.status).toBe(303);
    const [ad] = await storedAds(t, member.accountId);
    const marks = JSON.parse(ad!.marks) as { term: string; family?: string }[];
    expect(marks).toEqual([
      expect.objectContaining({
        field: 'description',
        term: expect.stringMatching(/^reads like a scam to the learned model \(\d+ %, /),
        start: 0,
        end: 0,
      }),
    ]);
  });

  test('an edit of a live ad is scanned too: marks go to pending_marks, refusals store nothing', async () => {
    const member = await makeMember(t);
    await submit(t, adsApiPath(), validAd({ city: 'San Diego' }), member.session);
    const [ad] = await storedAds(t, member.accountId);
    const at = new Date().toISOString();
    const approved = await t.store.moderation.approveNew(ad!.id, ad!.revision, at, {
      postedOn: at.slice(0, 10),
      expiresOn: '2099-01-01',
    });
    expect(approved).toBe(true);
    const edit = {
      age: '34',
      seeks: 'w4m',
      title: 'New title',
      description: 'Flower arrangement classes, anyone?',
    };
    const refused = await submit(
      t,
      editAdApiPath(ad!.id),
      { ...edit, title: 'Incall only' },
      member.session,
    );
    expect(refused.status).toBe(400);
    expect(fieldErrorOf(await refused.text(), 'title')).toContain('“Incall”');
    expect((await storedAds(t, member.accountId))[0]!.pending_title).toBeNull();
    expect((await submit(t, editAdApiPath(ad!.id), edit, member.session)).status).toBe(303);
    const after = (await storedAds(t, member.accountId))[0]!;
    expect(after.marks).toBe('[]');
    expect(JSON.parse(after.pending_marks!)).toMatchObject([
      { field: 'description', term: 'arrangement' },
    ]);
  });
});
