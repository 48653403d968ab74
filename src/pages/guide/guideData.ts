import { render } from 'vike/abort';
import { getGuide, getGuides } from '../../../core/content/index.ts';
import { guidePath } from '../../../core/paths.ts';
import { pageShell, withBrand } from '../../renderer/shell.ts';
import { NOT_FOUND } from '../_error/not-found.ts';

export function guideData(slug: string) {
  const guide = getGuide(slug);
  if (!guide) throw render(404, NOT_FOUND.page.heading);
  const guides = getGuides();
  const position = guides.indexOf(guide);
  const link = (entry: (typeof guides)[number] | undefined) =>
    entry && { slug: entry.slug, title: entry.title };
  return {
    ...pageShell({
      title: withBrand(guide.title),
      description: guide.summary,
      path: guidePath(guide.slug),
      ogType: 'article',
    }),
    guide: { title: guide.title, summary: guide.summary, html: guide.html },
    previous: link(guides[position - 1]),
    next: link(guides[position + 1]),
  };
}
