// Bad input to /api/signup and /api/signin: each is a clean 4xx with its exact message, never a
// 500, and stores nothing; hostile text where a value may hold anything is stored as is.
import { describe, expect, it, test } from 'vitest';
import {
  accountIn,
  dobYearsAgo,
  FORM_TYPE,
  JSON_TYPE,
  ORIGIN,
  PASSWORD,
  postJson,
  rowsIn,
  signupBody,
  uniqueEmail,
  testAppForFile,
} from '../../helpers/api.ts';
import { withFixtureContent } from '../../helpers/pages.ts';
import { signinApiPath, signupApiPath } from '../../../core/paths.ts';
import { storedRows } from '../../helpers/stored-rows.ts';

// Refused form posts come back as their pages, which read the compiled content.
withFixtureContent();

const SQL = "' OR 1=1; DROP TABLE accounts; --";
const HTML = '<script>alert(1)</script>';
const ONE_MB = 'x'.repeat(1024 * 1024);

const NOT_JSON = 'The request body is not valid JSON.';
const NOT_OBJECT = 'The request body must be a JSON object.';
const UNSUPPORTED = 'Send the request as JSON (Content-Type: application/json) or as a form.';
const TOO_LARGE = 'The request body is too large (16 KB at most).';
const INVALID_EMAIL = 'Enter a valid email address, like name@example.com.';
const REAL_DATE = 'Enter a real date of birth (YYYY-MM-DD).';
const WRONG_CREDENTIALS = 'Email or password is incorrect.';

interface BadInput {
  name: string;
  /** A raw body, or an object sent as JSON. */
  body: string | Record<string, unknown>;
  contentType?: string;
  status: number;
  error: string;
  field?: string;
  /** A form body: refused with the form page and the message (form-refusals.test.ts), not JSON. */
  formPage?: true;
}

const valid = { email: 'bad-input@example.com', password: PASSWORD, dateOfBirth: '1990-05-17' };
const validSignin = { email: valid.email, password: PASSWORD };
const without = (name: keyof typeof valid) => {
  const { [name]: _, ...rest } = valid;
  return rest;
};

// `valid` is a body the endpoint would accept; each row spoils one thing in it.
const bothEndpoints = (valid: Record<string, unknown>): BadInput[] => [
  { name: 'malformed JSON', body: '{"email": "a@example.com",', status: 400, error: NOT_JSON },
  { name: 'an empty JSON body', body: '', status: 400, error: NOT_JSON },
  { name: 'a JSON array', body: '[]', status: 400, error: NOT_OBJECT },
  { name: 'JSON null', body: 'null', status: 400, error: NOT_OBJECT },
  { name: 'a JSON string', body: '"hello"', status: 400, error: NOT_OBJECT },
  { name: 'text/plain', body: 'hello', contentType: 'text/plain', status: 415, error: UNSUPPORTED },
  {
    name: 'application/xml',
    body: '<signup/>',
    contentType: 'application/xml',
    status: 415,
    error: UNSUPPORTED,
  },
  {
    name: 'multipart without a boundary',
    body: 'email=a@example.com',
    contentType: 'multipart/form-data',
    status: 400,
    error: 'The form could not be read. Please try again.',
    formPage: true,
  },
  { name: 'a 1 MB JSON body', body: `{"email":"${ONE_MB}"}`, status: 413, error: TOO_LARGE },
  {
    name: 'a 1 MB form body',
    body: `email=${ONE_MB}`,
    contentType: FORM_TYPE,
    status: 413,
    error: TOO_LARGE,
    formPage: true,
  },
  {
    name: 'a number for email',
    body: { ...valid, email: 42 },
    status: 400,
    error: 'Email must be text.',
    field: 'email',
  },
  {
    name: 'an object for password',
    body: { ...valid, password: { value: PASSWORD } },
    status: 400,
    error: 'Password must be text.',
    field: 'password',
  },
  {
    name: 'an email of 255 characters',
    body: { ...valid, email: `${'a'.repeat(243)}@example.com` },
    status: 400,
    error: 'Email address is too long (254 characters at most).',
    field: 'email',
  },
  {
    name: 'an invalid email',
    body: { ...valid, email: 'not-an-email' },
    status: 400,
    error: INVALID_EMAIL,
    field: 'email',
  },
  {
    name: 'SQL as the email',
    body: { ...valid, email: SQL },
    status: 400,
    error: INVALID_EMAIL,
    field: 'email',
  },
  {
    name: 'HTML as the email',
    body: { ...valid, email: HTML },
    status: 400,
    error: INVALID_EMAIL,
    field: 'email',
  },
  {
    name: 'HTML in an email-shaped value',
    body: { ...valid, email: `${HTML}@example.com` },
    status: 400,
    error: INVALID_EMAIL,
    field: 'email',
  },
  {
    name: 'an extra field',
    body: { ...valid, isAdmin: true },
    status: 400,
    error: 'Unexpected field: isAdmin.',
  },
  {
    name: 'SQL as a field name',
    body: { ...valid, [SQL]: 1 },
    status: 400,
    error: `Unexpected field: ${SQL}.`,
  },
  {
    name: 'a __proto__ field',
    body: `{"__proto__": {"isAdmin": true}, ${JSON.stringify(valid).slice(1)}`,
    status: 400,
    error: 'Unexpected field: __proto__.',
  },
];

const signupOnly: BadInput[] = [
  {
    name: 'no email',
    body: without('email'),
    status: 400,
    error: 'Enter your email address.',
    field: 'email',
  },
  { name: 'no password', body: without('password'), status: 400, error: 'Enter a password.' },
  {
    name: 'no date of birth',
    body: without('dateOfBirth'),
    status: 400,
    error: 'Enter your date of birth.',
    field: 'dateOfBirth',
  },
  { name: 'an empty object', body: {}, status: 400, error: 'Enter your email address.' },
  {
    name: 'a null email',
    body: { ...valid, email: null },
    status: 400,
    error: 'Enter your email address.',
  },
  {
    name: 'a blank email',
    body: { ...valid, email: '   ' },
    status: 400,
    error: 'Enter your email address.',
  },
  {
    name: 'an array for date of birth',
    body: { ...valid, dateOfBirth: ['1990', '05', '17'] },
    status: 400,
    error: 'Date of birth must be text.',
    field: 'dateOfBirth',
  },
  {
    name: 'a password of 7 characters',
    body: { ...valid, password: '1234567' },
    status: 400,
    error: 'Password must be at least 8 characters.',
    field: 'password',
  },
  {
    name: 'a password of 201 characters',
    body: { ...valid, password: 'p'.repeat(201) },
    status: 400,
    error: 'Password must be at most 200 characters.',
    field: 'password',
  },
  {
    name: 'a date of birth 17 years 364 days ago',
    body: { ...valid, dateOfBirth: dobYearsAgo(17, 364) },
    status: 400,
    error: 'You must be 18 or older to join.',
    field: 'dateOfBirth',
  },
  {
    name: 'the day before the 18th birthday',
    body: { ...valid, dateOfBirth: dobYearsAgo(18, -1) },
    status: 400,
    error: 'You must be 18 or older to join.',
    field: 'dateOfBirth',
  },
  {
    name: 'an impossible date (2001-02-30)',
    body: { ...valid, dateOfBirth: '2001-02-30' },
    status: 400,
    error: REAL_DATE,
    field: 'dateOfBirth',
  },
  {
    name: 'a future date (tomorrow)',
    body: { ...valid, dateOfBirth: dobYearsAgo(0, -1) },
    status: 400,
    error: 'Date of birth cannot be in the future.',
    field: 'dateOfBirth',
  },
  {
    name: 'a date of birth in 1850',
    body: { ...valid, dateOfBirth: '1850-01-01' },
    status: 400,
    error: REAL_DATE,
    field: 'dateOfBirth',
  },
  {
    name: 'a date of birth written 05/17/1990',
    body: { ...valid, dateOfBirth: '05/17/1990' },
    status: 400,
    error: REAL_DATE,
    field: 'dateOfBirth',
  },
  {
    name: 'an empty date of birth',
    body: { ...valid, dateOfBirth: '' },
    status: 400,
    error: 'Enter your date of birth.',
    field: 'dateOfBirth',
  },
  {
    name: 'SQL as the date of birth',
    body: { ...valid, dateOfBirth: SQL },
    status: 400,
    error: REAL_DATE,
    field: 'dateOfBirth',
  },
  {
    name: 'HTML as the date of birth',
    body: { ...valid, dateOfBirth: HTML },
    status: 400,
    error: REAL_DATE,
    field: 'dateOfBirth',
  },
  {
    name: 'SQL and HTML in every field',
    body: { email: `${SQL}${HTML}`, password: `${SQL}${HTML}`, dateOfBirth: `${SQL}${HTML}` },
    status: 400,
    error: INVALID_EMAIL,
    field: 'email',
  },
];

const signinOnly: BadInput[] = [
  {
    name: 'no password',
    body: { email: valid.email },
    status: 400,
    error: 'Enter your password.',
    field: 'password',
  },
  {
    name: 'an empty password',
    body: { email: valid.email, password: '' },
    status: 400,
    error: 'Enter your password.',
    field: 'password',
  },
  {
    name: 'a date of birth (not a sign-in field)',
    body: { email: valid.email, password: PASSWORD, dateOfBirth: '1990-05-17' },
    status: 400,
    error: 'Unexpected field: dateOfBirth.',
  },
];

const testApp = testAppForFile();

async function send(path: string, input: BadInput): Promise<Response> {
  return testApp.app.request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { 'content-type': input.contentType ?? JSON_TYPE },
    body: typeof input.body === 'string' ? input.body : JSON.stringify(input.body),
  });
}

async function expectRefusal(response: Response, input: BadInput) {
  expect(response.status).not.toBe(500);
  expect(response.status).toBe(input.status);
  expect(response.headers.getSetCookie()).toEqual([]);
  if (input.formPage) {
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain(`role="alert">${input.error}</p>`);
    return;
  }
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body.error).toBe(input.error);
  if (input.field) expect(body.field).toBe(input.field);
  // One shape for failures: the message, and at most the field it concerns.
  expect(Object.keys(body).filter((key) => key !== 'error' && key !== 'field')).toEqual([]);
  expect(response.headers.getSetCookie()).toEqual([]);
}

describe(`POST ${signupApiPath()} refuses bad input`, () => {
  test.each([...bothEndpoints(valid), ...signupOnly])('$name → $status', async (input) => {
    const before = await rowsIn(testApp, 'accounts');
    await expectRefusal(await send(signupApiPath(), input), input);
    expect(await rowsIn(testApp, 'accounts')).toBe(before);
  });
});

describe(`POST ${signinApiPath()} refuses bad input`, () => {
  test.each([...bothEndpoints(validSignin), ...signinOnly])('$name → $status', async (input) => {
    const before = await rowsIn(testApp, 'sessions');
    await expectRefusal(await send(signinApiPath(), input), input);
    expect(await rowsIn(testApp, 'sessions')).toBe(before);
  });

  it('answers an unknown email with SQL in the password as wrong credentials (401)', async () => {
    const response = await postJson(testApp.app, signinApiPath(), {
      email: uniqueEmail('nobody'),
      password: SQL,
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: WRONG_CREDENTIALS });
  });

  // A password over 200 characters gets the wrong-credentials message but 400, and names the
  // password field, where every other wrong password is a 401 with no field. Not enumeration
  // (it does not depend on the account), but inconsistent; asserted loosely on purpose.
  it('answers an over-long password with the wrong-credentials message, never 500', async () => {
    const response = await postJson(testApp.app, signinApiPath(), {
      email: valid.email,
      password: 'p'.repeat(201),
    });
    expect([400, 401]).toContain(response.status);
    expect(((await response.json()) as { error: string }).error).toBe(WRONG_CREDENTIALS);
  });
});

describe('an email taken in another case', () => {
  it('answers 409 and keeps one row', async () => {
    const local = uniqueEmail('taken').replace('@example.com', '');
    const first = await postJson(
      testApp.app,
      signupApiPath(),
      signupBody({ email: `${local}@example.com` }),
    );
    expect(first.status).toBe(201);

    const second = await postJson(
      testApp.app,
      signupApiPath(),
      signupBody({ email: `  ${local.toUpperCase()}@EXAMPLE.com ` }),
    );
    expect(second.status).toBe(409);
    expect(await second.json()).toEqual({
      error: 'An account with this email already exists. Sign in instead.',
      field: 'email',
    });
    expect(second.headers.getSetCookie()).toEqual([]);
    const rows = await storedRows(
      testApp,
      'SELECT id FROM accounts WHERE email = ?',
      `${local}@example.com`,
    );
    expect(rows).toHaveLength(1);
  });
});

describe('hostile text where any text is allowed', () => {
  it.each([
    ['SQL', SQL],
    ['HTML', HTML],
  ])(
    'stores a password of %s as is: it signs in with it, and only with it',
    async (_, password) => {
      const email = `o'brien+${uniqueEmail('hostile')}`;
      const signup = await postJson(testApp.app, signupApiPath(), signupBody({ email, password }));
      expect(signup.status).toBe(201);
      expect((await accountIn(testApp, email))?.password_hash).toMatch(/^scrypt\$/);

      const right = await postJson(testApp.app, signinApiPath(), { email, password });
      expect(right.status).toBe(200);
      const wrong = await postJson(testApp.app, signinApiPath(), {
        email,
        password: `${password} `,
      });
      expect(wrong.status).toBe(401);
    },
  );

  it('leaves the accounts and sessions tables in place after all of the above', async () => {
    expect(await rowsIn(testApp, 'accounts')).toBeGreaterThan(0);
    expect(await rowsIn(testApp, 'sessions')).toBeGreaterThan(0);
  });
});
