// What /transparency shows (docs/product.md section 6): the moderation counts the build read from
// the database (core/content/index.ts getTransparency), counts only.
import { getSite, getTransparency } from '../../../core/content/index.ts';
import { transparencyCsvPath, transparencyPath } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';

export function transparencyData() {
  const { brand } = getSite();
  return {
    ...pageShell({
      title: `Transparency report - ${brand}`,
      description: `How ${brand} moderates: decisions by kind, reason and trigger, reports, appeals and how long decisions take, month by month.`,
      path: transparencyPath(),
    }),
    brand,
    report: getTransparency(),
    csvPath: transparencyCsvPath(),
  };
}
