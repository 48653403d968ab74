// One side of a race between processes to report ads (tests/integration/reports/processes.test.ts):
// opens the database file on its own connection and, for each ad, files one report at the agreed
// moment as its own reporter, printing each outcome as a JSON line.
import { openDatabase } from '../../server/db/database.ts';
import { reportStore } from '../../server/db/reports.ts';

const [dbPath, reporter, startAt, slotMs, ...adIds] = process.argv.slice(2);
const db = openDatabase(dbPath!);
const reports = reportStore(db);
adIds.forEach((adId, round) => {
  const at = Number(startAt) + round * Number(slotMs);
  while (Date.now() < at) {
    // Spin: every process must file each round's report within the same millisecond.
  }
  let outcome: unknown;
  try {
    outcome = reports.file({
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
    });
  } catch (error) {
    outcome = { error: String(error) };
  }
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
});
db.close();
