import { describe, expect, test } from 'vitest';
import {
  ageOn,
  firstProblem,
  latestAdultBirthDate,
  makeSignupSchema,
} from '../../../core/schemas/signup.ts';

const today = '2026-11-22';
const schema = makeSignupSchema(today);
const valid = { email: 'Person@Example.com ', password: 'long enough', dateOfBirth: '1990-05-01' };
const problemOf = (input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? undefined : firstProblem(result.error);
};

describe('sign-up schema', () => {
  test('normalises the email', () => {
    expect(schema.parse(valid).email).toBe('person@example.com');
  });

  test('counts whole years of age, birthdays included', () => {
    expect(ageOn('2008-11-22', today)).toBe(18);
    expect(ageOn('2008-11-23', today)).toBe(17);
    expect(ageOn('2004-02-29', '2022-02-28')).toBe(17);
    expect(ageOn('2004-02-29', '2022-03-01')).toBe(18);
    expect(latestAdultBirthDate(today)).toBe('2008-11-22');
  });

  test.each([
    [{ ...valid, dateOfBirth: '2008-11-23' }, 'dateOfBirth', 'You must be 18 or older to join.'],
    [
      { ...valid, dateOfBirth: '2001-02-30' },
      'dateOfBirth',
      'Enter a real date of birth (YYYY-MM-DD).',
    ],
    [
      { ...valid, dateOfBirth: '2027-01-01' },
      'dateOfBirth',
      'Date of birth cannot be in the future.',
    ],
    [{ ...valid, password: 'short' }, 'password', 'Password must be at least 8 characters.'],
    [
      { ...valid, email: 'not-an-email' },
      'email',
      'Enter a valid email address, like name@example.com.',
    ],
    [{ ...valid, email: 42 }, 'email', 'Email must be text.'],
    [{ password: 'long enough', dateOfBirth: '1990-05-01' }, 'email', 'Enter your email address.'],
    [{ ...valid, role: 'admin' }, undefined, 'Unexpected field: role.'],
  ])('refuses %j with a message for its field', (input, field, message) => {
    expect(problemOf(input)).toEqual({ field, message });
  });

  test('accepts someone who turns 18 today', () => {
    expect(problemOf({ ...valid, dateOfBirth: '2008-11-22' })).toBeUndefined();
  });
});
