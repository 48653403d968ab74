import { getSite } from '../../../core/content/index.ts';
import { verifyAgePath } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';
import type { DataContext } from '../registry.ts';
import type { VerifyAgeView } from '../../../core/views/age-assurance.ts';

/**
 * `/verify-age`, for the signed-in member: why and how their age is checked with a digital
 * licence, and what to do where that cannot happen (docs/product.md section 6, "Age assurance").
 */
export function verifyAgeData({ request }: DataContext<VerifyAgeView>) {
  const { brand } = getSite();
  return {
    ...pageShell({
      title: `Check your age - ${brand}`,
      description: `Prove you are 18 or over with a digital driver's licence, where a state's law asks for it.`,
      path: verifyAgePath(),
      robots: 'noindex, nofollow',
    }),
    access: 'members' as const,
    brand,
    /** Absent on the dev server, which has no database. */
    view: request?.read,
    /** The check form was posted without JavaScript (`?without=script`). */
    withoutScript: request?.query.without === 'script',
    /** A check just passed (`?done=checked`). */
    checked: request?.query.done === 'checked',
    error: request?.form?.error,
  };
}
