// A city row: content/cities/{State Name}.csv, one city a row. Imported from GeoNames
// (`npm run import:cities`, which keeps editors' rows and edits), then owned by editors.
import { z } from 'zod';
import { csvInteger, singleLine } from './fields.ts';
import { insideUnitedStates } from './us-bounds.ts';

export const CITY_COLUMNS = ['name', 'population', 'latitude', 'longitude'] as const;
export const CITY_OPTIONAL_COLUMNS = ['geonamesId'] as const;

/** Degrees written in a CSV cell, e.g. `45.52345` or `-122.67621`, from `min` to `max`. */
const csvDegrees = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^-?\d{1,3}(\.\d+)?$/, {
      error: (issue) => `must be a number of degrees such as 45.5 (got '${String(issue.input)}')`,
    })
    .transform(Number)
    .refine((degrees) => degrees >= min && degrees <= max, {
      error: (issue) => `must be from ${min} to ${max} (got ${String(issue.input)})`,
    });

export const cityRowSchema = z
  .object({
    /** Place name exactly as displayed and in URLs; unique within its state; no slash. */
    name: singleLine(1, 80).refine((name) => !name.includes('/'), {
      error: 'must not contain a slash',
    }),
    /** Residents, a whole number; orders the city tiles (largest first). */
    population: csvInteger(),
    /** Degrees north, -90 to 90, inside the United States (e.g. 45.52345); nearby cities and distances. */
    latitude: csvDegrees(-90, 90),
    /** Degrees east, -180 to 180 (US places are mostly negative, e.g. -122.67621). */
    longitude: csvDegrees(-180, 180),
    /** Optional GeoNames id of the place, for tracing it back to the dataset. */
    geonamesId: z.union([z.literal('').transform(() => undefined), csvInteger()]).optional(),
  })
  .superRefine((city, context) => {
    // Only coordinates that passed their own checks (zod runs this after a field failed too).
    const { latitude, longitude } = city as { latitude: unknown; longitude: unknown };
    if (typeof latitude !== 'number' || typeof longitude !== 'number') return;
    if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return;
    if (!insideUnitedStates(latitude, longitude))
      context.addIssue({
        code: 'custom',
        path: ['latitude'],
        message: `${city.latitude}, ${city.longitude} is outside the United States; check the latitude and longitude (not swapped, west is negative)`,
      });
  });

export type CityRow = z.infer<typeof cityRowSchema>;
