// One side of a race between processes to report ads (tests/integration/reports/processes.test.ts):
// opens the database file on its own connection and, for each ad, files one report at the agreed
// moment as its own reporter, printing each outcome as a JSON line.
import { openDatabase } from '../../server/db/database.ts';
import { reportStore } from '../../server/db/reports.ts';
import { raceRounds } from './race-processes.ts';

const [dbPath, reporter, startAt, slotMs, ...adIds] = process.argv.slice(2);
const db = openDatabase(dbPath!);
const reports = reportStore(db);
raceRounds(adIds, Number(startAt), Number(slotMs), (adId) =>
  reports.file({
    adId: Number(adId),
    reportedAccountId: null,
    reporterKey: `address:${reporter}`,
    reporterAccountId: null,
    reason: 'spam',
    note: '',
    adCopy: {
      kind: 'member',
      id: Number(adId),
      state: 'California',
      city: 'San Jose',
      age: 30,
      seeks: 'm4w',
      title: 'Race',
      description: 'Race',
      postedAt: '2026-11-22',
      sample: false,
    },
  }),
);
db.close();
