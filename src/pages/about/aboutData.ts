import { getGuides, getPage } from '../../../core/content/index.ts';
import { aboutPath } from '../../../core/paths.ts';
import { pageShell, withBrand } from '../../renderer/shell.ts';

export function aboutData() {
  const page = getPage('about');
  return {
    ...pageShell({
      title: withBrand(page.title),
      description: page.description,
      path: aboutPath(),
    }),
    page: { title: page.title, html: page.html },
    guides: getGuides().map(({ slug, title, summary }) => ({ slug, title, summary })),
  };
}
