// `npm run shield:labels` (docs/product.md section 7): the texts moderators' decisions left to
// label (shield-review.ts) as CSV in the columns of the shield's corpus, label,family,source,text,
// for an editor to review and add to content/shield/first-messages.csv. Nothing trains on members'
// messages without that review: the family is left empty, for the editor to choose from the
// corpus schema's lists (core/schemas/shield-corpus.ts), and a line without one is refused by the
// corpus check. The export holds the text and the label only: no email, no id, no other message.
// Written first, then marked exported (`--dry-run`: not marked), so an export that fails half-way
// is written again the next time rather than lost; two at once may write a text twice.
import type { LabelCandidateRow } from '../../store/parts/shield-decisions.ts';
import type { ShieldCandidateReason } from '../../store/shield-tables.ts';
import type { Store } from '../../store/store.ts';

/** The corpus file the lines go to, once an editor has reviewed them and chosen their family. */
export const CORPUS_FILE = 'content/shield/first-messages.csv';
/** The columns of the corpus's first messages (core/schemas/shield-corpus.ts). */
export const LABEL_COLUMNS = ['label', 'family', 'source', 'text'] as const;

/** The source column: where the text came from, as the corpus names its sources. */
export const LABEL_SOURCES: Readonly<Record<ShieldCandidateReason, string>> = {
  'marked-mistaken': 'moderator review: marked mistaken',
  'banned-for-fraud': 'moderator review: account banned for fraud',
};

/** A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
export const csvField = (value: string) =>
  /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;

/** The texts as CSV lines, without the header; a label and text twice is one line. */
export function shieldLabelLines(rows: readonly LabelCandidateRow[]): string[] {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const row of rows) {
    const key = `${row.label}\n${row.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    lines.push([row.label, '', LABEL_SOURCES[row.reason], row.text].map(csvField).join(','));
  }
  return lines;
}

/** What the editor reads on the standard error after an export. */
export function shieldLabelsNote(lines: number, dryRun: boolean): string {
  const count = `${lines} text${lines === 1 ? '' : 's'} to label`;
  if (lines === 0) return `${count}: nothing waits for review.`;
  return [
    `${count}${dryRun ? ' (dry run: not marked exported; they will be exported again)' : ''}.`,
    'The family column is empty: before adding a line to',
    `${CORPUS_FILE}, read its text, check its label, and fill in its family from the lists in`,
    'core/schemas/shield-corpus.ts (CORPUS_SCAM_FAMILIES for scam, CORPUS_ORDINARY_FAMILIES for',
    'ordinary). Leave out any line that is not a clear example. Open the file in a text editor,',
    'not a spreadsheet: the texts are as members and scammers wrote them.',
  ].join('\n');
}

/**
 * Writes the texts no export has written yet, then (unless `dryRun`) marks them exported; how
 * many lines (one a label and text).
 */
export async function exportShieldLabels(
  store: Pick<Store, 'shieldDecisions'>,
  options: { dryRun: boolean; now: Date },
  write: (csv: string) => Promise<void>,
): Promise<number> {
  const rows = await store.shieldDecisions.unexportedCandidates();
  const lines = shieldLabelLines(rows);
  await write([LABEL_COLUMNS.join(','), ...lines].map((line) => `${line}\n`).join(''));
  if (!options.dryRun)
    await store.shieldDecisions.markExported(
      rows.map((row) => row.id),
      options.now.toISOString(),
    );
  return lines.length;
}

export const SHIELD_LABELS_USAGE =
  'Usage: npm run shield:labels -- [--out FILE] [--dry-run]\n' +
  'Writes the texts moderators marked mistaken or left by a ban for fraud, as CSV lines of the ' +
  `scam shield's corpus (label,family,source,text), for an editor to review into ${CORPUS_FILE} ` +
  '(to FILE, or the standard output), and marks them exported (not with --dry-run).';

/** The command's arguments; undefined when they are not understood. */
export function parseShieldLabelsArgs(
  args: readonly string[],
): { out?: string; dryRun: boolean } | undefined {
  let out: string | undefined;
  let dryRun = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index];
    if (arg === '--dry-run') dryRun = true;
    else if (arg === '--out' && args[index + 1] && !args[index + 1]!.startsWith('--'))
      out = args[(index += 1)];
    else return undefined;
  }
  return out ? { out, dryRun } : { dryRun };
}
