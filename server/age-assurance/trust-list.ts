// The trust list (docs/product.md section 6, "Age assurance"): the root certificates (IACA roots)
// of the authorities whose digital licences the check accepts, one PEM file each in
// content/age-assurance/issuers/ (AGE_ISSUERS_DIR to read another folder: the tests' own root,
// tests/fixtures/age-assurance/). Read at each check, so an editor's refresh applies at once; a
// file that is no certificate is check:content's to report (pipeline/compile/compile-age-issuers.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { US_STATES } from '../../core/schemas/us-states.ts';

export const ageIssuersDir = () =>
  process.env.AGE_ISSUERS_DIR || join(process.cwd(), 'content', 'age-assurance', 'issuers');

/** The roots, as PEM text; none when the folder is missing or empty. */
export function trustedRoots(dir = ageIssuersDir()): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.pem'));
  } catch {
    return [];
  }
  return names.sort().map((name) => readFileSync(join(dir, name), 'utf8'));
}

const STATE_NAMES = new Map<string, string>(
  Object.entries(US_STATES).flatMap(([code, name]) => [
    [code.toLowerCase(), name],
    [`us-${code.toLowerCase()}`, name],
    [name.toLowerCase(), name],
  ]),
);

/** A US state named by a certificate's ST (`MS`, `US-MS` or `Mississippi`), if it names one. */
export function stateOfCertificateName(name: string): string | undefined {
  const fields = name.split('\n').map((line) => line.split('=') as [string, string]);
  const country = fields.find(([key]) => key === 'C')?.[1];
  const region = fields.find(([key]) => key === 'ST')?.[1];
  if (country !== 'US' || !region) return undefined;
  return STATE_NAMES.get(region.trim().toLowerCase());
}
