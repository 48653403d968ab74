// Ages counted from a date of birth, apart from the sign-up schema (signup.ts re-exports them) so
// that pages can use them without loading zod.

/** Whole years between a date of birth and a day, both YYYY-MM-DD. */
export function ageOn(dateOfBirth: string, day: string): number {
  const [birthYear, birthMonth, birthDay] = dateOfBirth.split('-').map(Number) as [
    number,
    number,
    number,
  ];
  const [year, month, dayOfMonth] = day.split('-').map(Number) as [number, number, number];
  const hadBirthday = month > birthMonth || (month === birthMonth && dayOfMonth >= birthDay);
  return year - birthYear - (hadBirthday ? 0 : 1);
}
