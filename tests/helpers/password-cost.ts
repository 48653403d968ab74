// The password-hashing cost of every test server (scrypt's N): vitest.config.ts gives it to each
// test file as PASSWORD_HASH_COST, and the e2e global set-up's server, which runs outside them,
// takes it from here. Production's default is 2^16 (server/auth/passwords.ts).
export const TEST_PASSWORD_HASH_COST = 2 ** 10;
