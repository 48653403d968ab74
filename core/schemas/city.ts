// A city row: content/cities/{State Name}.csv, one city a row. Imported once from GeoNames
// (`npm run import:cities`), then owned by editors.
import { z } from 'zod';
import { csvInteger, singleLine } from './fields.ts';

export const CITY_COLUMNS = ['name', 'population'] as const;

export const cityRowSchema = z.object({
  /** Place name exactly as displayed and in URLs; unique within its state; no slash. */
  name: singleLine(1, 80).refine((name) => !name.includes('/'), {
    error: 'must not contain a slash',
  }),
  /** Residents, a whole number; orders the city tiles (largest first). */
  population: csvInteger(),
  /** Optional GeoNames id of the place, for tracing it back to the dataset. */
  geonamesId: z.union([z.literal('').transform(() => undefined), csvInteger()]).optional(),
});

export type CityRow = z.infer<typeof cityRowSchema>;
