// The password's length limits, apart from the sign-up schema (signup.ts), so that pages can show
// them without loading zod (see seeks.ts for why that matters).
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;
