// Row ids are 64-bit integers in both engines (PostgreSQL's bigint), read as JS numbers: an id
// beyond the safe integers, as a URL or a form can carry, names no row, and must not reach the
// database as a rounded number: parts answer "none".
export const MAX_ID = Number.MAX_SAFE_INTEGER;

/** Whether `id` could be a row's id. */
export const isStorableId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= MAX_ID;

/** Ids stored as a JSON array of whole numbers; anything else in the column reads as none. */
export function idsFromJson(json: string): number[] {
  try {
    const ids: unknown = JSON.parse(json);
    return Array.isArray(ids) ? ids.filter((id): id is number => Number.isInteger(id)) : [];
  } catch {
    return [];
  }
}
