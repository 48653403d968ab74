// The posting form (/post, and an ad's edit page) filled in Chromium as a member fills it, by its
// labelled fields' ids.
import type { Page } from 'playwright-core';

export interface AdFormValues {
  state?: string;
  city?: string;
  age?: string;
  seeks?: string;
  title?: string;
  description?: string;
}

/** Fills the fields given; the others stay as the page has them. */
export async function fillAdForm(page: Page, values: AdFormValues): Promise<void> {
  if (values.state) await page.selectOption('#ad-state', values.state);
  if (values.city !== undefined) await page.fill('#ad-city', values.city);
  if (values.age !== undefined) await page.fill('#ad-age', values.age);
  if (values.seeks) await page.selectOption('#ad-seeks', values.seeks);
  if (values.title !== undefined) await page.fill('#ad-title', values.title);
  if (values.description !== undefined) await page.fill('#ad-description', values.description);
}

/** A new ad's fields: in California, a woman seeking a man, unless told. */
export const fillNewAd = (page: Page, values: AdFormValues): Promise<void> =>
  fillAdForm(page, { state: 'California', seeks: 'w4m', ...values });
