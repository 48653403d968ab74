// Age assurance as the store keeps it (store/parts/age-checks.ts), on SQLite and (in the postgres suite)
// on PostgreSQL: a member's declared state is set, kept when a first ad would set it, and cleared;
// a request to a wallet is taken once, by its own member only, with its keys for both protocols,
// and swept once expired; a check's outcome is kept, a pass never replaced by a failure; a deleted
// account takes its rows with it.
import { beforeEach, describe, expect, it } from 'vitest';
import type { AgeCheckRequestRow } from '../../../store/parts/age-checks.ts';
import { accountRow } from '../../helpers/store-accounts.ts';
import { storeForEachTest } from '../../helpers/test-store.ts';

const t = storeForEachTest();
const MEMBER = 1;
const OTHER = 2;

beforeEach(async () => {
  for (const id of [MEMBER, OTHER]) await accountRow(t.sql, id);
});

const request = (overrides: Partial<AgeCheckRequestRow> = {}): AgeCheckRequestRow => ({
  id: 'req-1',
  accountId: MEMBER,
  readerKey: Buffer.alloc(32, 7),
  encryptionInfo: 'gmVkY2FwaQ',
  openid4vpKey: Buffer.alloc(32, 9),
  origin: 'https://localboard.test',
  createdAt: '2026-11-24T10:00:00.000Z',
  expiresAt: '2026-11-24T10:05:00.000Z',
  ...overrides,
});

describe('the declared state', () => {
  it('is set, kept against a first ad, and cleared', async () => {
    const { ageChecks } = t.store;
    expect(await ageChecks.declaredState(MEMBER)).toBeNull();
    await ageChecks.declareStateIfUnset(MEMBER, 'Texas');
    expect(await ageChecks.declaredState(MEMBER)).toBe('Texas');
    await ageChecks.declareStateIfUnset(MEMBER, 'Mississippi');
    expect(await ageChecks.declaredState(MEMBER)).toBe('Texas');
    await ageChecks.declareState(MEMBER, 'Tennessee');
    expect(await ageChecks.declaredState(MEMBER)).toBe('Tennessee');
    await ageChecks.declareState(MEMBER, null);
    expect(await ageChecks.declaredState(MEMBER)).toBeNull();
    expect(await ageChecks.declaredState(OTHER)).toBeNull();
  });
});

describe('requests to a wallet', () => {
  it('are taken once, by their own member only', async () => {
    const { ageChecks } = t.store;
    await ageChecks.openRequest(request());
    expect(await ageChecks.takeRequest('req-1', OTHER)).toBeUndefined();
    expect(await ageChecks.takeRequest('req-1', MEMBER)).toEqual(request());
    expect(await ageChecks.takeRequest('req-1', MEMBER)).toBeUndefined();
    // A request made before OpenID4VP was offered has no key for it.
    await ageChecks.openRequest(request({ id: 'req-old', openid4vpKey: null }));
    expect(await ageChecks.takeRequest('req-old', MEMBER)).toEqual(
      request({ id: 'req-old', openid4vpKey: null }),
    );
  });

  it('are counted while they wait', async () => {
    const { ageChecks } = t.store;
    await ageChecks.openRequest(request());
    await ageChecks.openRequest(request({ id: 'req-2', expiresAt: '2026-11-24T10:09:00.000Z' }));
    await ageChecks.openRequest(request({ id: 'req-3', accountId: OTHER }));
    expect(await ageChecks.openRequestsOf(MEMBER, '2026-11-24T10:01:00.000Z')).toBe(2);
    expect(await ageChecks.openRequestsOf(MEMBER, '2026-11-24T10:06:00.000Z')).toBe(1);
  });

  it('are swept once expired', async () => {
    const { ageChecks } = t.store;
    await ageChecks.openRequest(request());
    await ageChecks.openRequest(request({ id: 'req-2', expiresAt: '2026-11-24T10:09:00.000Z' }));
    expect(await ageChecks.sweepRequests('2026-11-24T10:06:00.000Z')).toBe(1);
    expect(await ageChecks.takeRequest('req-1', MEMBER)).toBeUndefined();
    expect(await ageChecks.takeRequest('req-2', MEMBER)).toBeDefined();
  });
});

describe('checks', () => {
  it('keep the outcome; a failure never replaces a pass', async () => {
    const { ageChecks } = t.store;
    const failed = {
      method: 'digital-licence',
      outcome: 'failed',
      checkedAt: '2026-11-24T10:00:00.000Z',
      issuingState: 'Mississippi',
    } as const;
    await ageChecks.record(MEMBER, failed);
    expect(await ageChecks.of([MEMBER, OTHER])).toEqual(new Map([[MEMBER, failed]]));
    const passed = { ...failed, outcome: 'passed', checkedAt: '2026-11-24T11:00:00.000Z' } as const;
    await ageChecks.record(MEMBER, passed);
    await ageChecks.record(MEMBER, { ...failed, checkedAt: '2026-11-24T12:00:00.000Z' });
    expect((await ageChecks.of([MEMBER])).get(MEMBER)).toEqual(passed);
    expect(await ageChecks.of([])).toEqual(new Map());
  });

  it('go with the account', async () => {
    const { ageChecks } = t.store;
    await ageChecks.openRequest(request());
    await ageChecks.record(MEMBER, {
      method: 'digital-licence',
      outcome: 'passed',
      checkedAt: '2026-11-24T10:00:00.000Z',
      issuingState: null,
    });
    await t.store.memberData.removeAccount(
      MEMBER,
      '2026-11-25T00:00:00.000Z',
      '2026-12-25T00:00:00.000Z',
    );
    expect(await ageChecks.of([MEMBER])).toEqual(new Map());
    expect(await t.sql.all('SELECT * FROM age_check_requests')).toEqual([]);
  });
});
