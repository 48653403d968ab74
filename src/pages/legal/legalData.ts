import { render } from 'vike/abort';
import { getPage } from '../../../core/content/index.ts';
import { legalPath } from '../../../core/paths.ts';
import { pageShell, withBrand } from '../../renderer/shell.ts';
import { NOT_FOUND } from '../_error/not-found.ts';

export const LEGAL_SLUGS = ['terms', 'privacy'] as const;
type LegalSlug = (typeof LEGAL_SLUGS)[number];

export function legalData(slug: string) {
  if (!LEGAL_SLUGS.includes(slug as LegalSlug)) throw render(404, NOT_FOUND.page.heading);
  const page = getPage(slug as LegalSlug);
  return {
    ...pageShell({
      title: withBrand(page.title),
      description: page.description,
      path: legalPath(slug as LegalSlug),
    }),
    page: { title: page.title, html: page.html, lastUpdated: page.lastUpdated ?? '' },
  };
}
