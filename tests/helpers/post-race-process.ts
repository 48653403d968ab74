// One side of a race between processes for a member's last ad slot (tests/integration/posting/
// limits.test.ts): opens the database file on its own connection and, for each account, posts an
// ad at the agreed moment, printing each outcome as a JSON line.
import { openDatabase } from '../../server/db/database.ts';
import { memberAdStore } from '../../server/db/member-ads.ts';
import { raceRounds } from './race-processes.ts';

const [dbPath, city, startAt, slotMs, ...accounts] = process.argv.slice(2);
const db = openDatabase(dbPath!);
const store = memberAdStore(db);
raceRounds(accounts, Number(startAt), Number(slotMs), (account) => {
  const ad = {
    state: 'California',
    city: city!,
    age: 30,
    seeks: 'w4m' as const,
    title: 'Race',
    description: 'Race',
  };
  return store.post(Number(account), ad, '[]', new Date());
});
db.close();
