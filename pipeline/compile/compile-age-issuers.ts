// The age check's trust list (content/age-assurance/issuers/*.pem; docs/product.md section 6, "Age
// assurance"), checked as content: each file one X.509 certificate of an issuing authority's root
// (a certificate authority), a problem otherwise. A root out of date on the build date is a
// warning, not a problem: time, not an edit, makes it so, and it must not stop the publishing of
// members' ads; licences under it are refused as untrusted until an editor replaces it. The server reads the files at each check
// (server/age-assurance/trust-list.ts); nothing of them is compiled. No folder: no list (nothing
// to check, and the check page says it cannot check yet).
import { X509Certificate } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContentReader } from './content-reader.ts';
import { formatProblem } from './report.ts';

export const AGE_ISSUERS_FOLDER = join('age-assurance', 'issuers');
const PEM_BEGIN = '-----BEGIN CERTIFICATE-----';

/** Checks the trust list's files: their problems go to the reader's; the warnings come back. */
export function checkAgeIssuers(
  { contentDir, problems, rel }: ContentReader,
  buildDate: string,
): string[] {
  const warnings: string[] = [];
  const dir = join(contentDir, AGE_ISSUERS_FOLDER);
  if (!existsSync(dir)) return warnings;
  for (const name of readdirSync(dir)
    .filter((file) => file.endsWith('.pem'))
    .sort()) {
    const path = join(dir, name);
    const file = rel(path);
    const text = readFileSync(path, 'utf8');
    const lines = text.split(/\r?\n/);
    const begins = lines.flatMap((line, index) => (line.trim() === PEM_BEGIN ? [index + 1] : []));
    const problem = (line: number, field: string, message: string) =>
      problems.push({ file, line, field, message });
    if (begins.length !== 1) {
      problem(
        begins[1] ?? 1,
        'certificate',
        begins.length === 0
          ? `has no ${PEM_BEGIN} block; save the root certificate in PEM form`
          : `holds ${begins.length} certificates; keep one a file, named for its authority`,
      );
      continue;
    }
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(text);
    } catch (error) {
      problem(
        begins[0]!,
        'certificate',
        `is not a readable X.509 certificate; save the authority's root in PEM form (${(error as Error).message})`,
      );
      continue;
    }
    if (!certificate.ca)
      problem(
        begins[0]!,
        'certificate',
        "is not a certificate authority's; add the issuing authority's IACA root, not a document signer's certificate",
      );
    const validTo = certificate.validToDate.toISOString().slice(0, 10);
    const validFrom = certificate.validFromDate.toISOString().slice(0, 10);
    const warn = (field: string, message: string) =>
      warnings.push(formatProblem({ file, line: begins[0]!, field, message }));
    if (validTo < buildDate)
      warn('validTo', `expired on ${validTo}; replace it with the authority's current root`);
    if (validFrom > buildDate) warn('validFrom', `is not valid until ${validFrom}`);
  }
  return warnings;
}
