// For visitors without JavaScript: a refused form post answers with the prerendered form page
// again, its error shown in the banner slot and the fields they typed kept (never the password).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type FormPageName = 'signup' | 'signin';

export interface FormPageFill {
  /** The banner's message; none when the page is only filled in (sign-in's `next`). */
  error?: string;
  /** Values to put back into their inputs, by input name. */
  values: Record<string, string>;
}

/** Fields the prerendered forms do not have, added as hidden inputs when a value is given. */
const HIDDEN_FIELDS = ['next'];

export const FORM_STATUS_SLOT = '<div class="form-status" data-form-status="true"></div>';

const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');

export function formPages(siteDir: string) {
  const cache = new Map<FormPageName, { mtimeMs: number; html: string }>();
  const template = (page: FormPageName) => {
    const file = join(siteDir, page, 'index.html');
    const { mtimeMs } = statSync(file);
    const cached = cache.get(page);
    if (cached?.mtimeMs === mtimeMs) return cached.html;
    const html = readFileSync(file, 'utf8');
    cache.set(page, { mtimeMs, html });
    return html;
  };
  return {
    render(page: FormPageName, fill: FormPageFill): string {
      // Replacer functions: a typed `$&` or `$'` must stay text, not become a replacement pattern.
      const hidden = HIDDEN_FIELDS.filter((name) => fill.values[name])
        .map(
          (name) =>
            `<input type="hidden" name="${name}" value="${escapeHtml(fill.values[name]!)}"/>`,
        )
        .join('');
      const banner = fill.error
        ? `<div class="form-status" data-form-status="true"><p class="banner banner--error" role="alert">${escapeHtml(fill.error)}</p></div>`
        : FORM_STATUS_SLOT;
      let html = template(page).replace(FORM_STATUS_SLOT, () => banner + hidden);
      for (const [name, value] of Object.entries(fill.values)) {
        if (HIDDEN_FIELDS.includes(name)) continue;
        if (value !== '')
          html = html.replace(
            `name="${name}"`,
            () => `name="${name}" value="${escapeHtml(value)}"`,
          );
      }
      return html;
    },
  };
}

export type FormPages = ReturnType<typeof formPages>;
