// Row ids are 32-bit integers (PostgreSQL's integer; SQLite's could go further, but never get
// there). An id beyond them, as a URL or a form can carry, names no row, and must not reach
// PostgreSQL, which refuses the query ("out of range for type integer"): parts answer "none".
export const MAX_ID = 2 ** 31 - 1;

/** Whether `id` could be a row's id. */
export const isStorableId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= MAX_ID;
