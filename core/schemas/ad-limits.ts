// The numbers of posting (docs/product.md section 6), apart from the zod schemas that enforce the field
// limits (ad-fields.ts), so that pages can show them without loading zod: the prerenderer loads
// every page's modules in each render thread.

export const AD_AGE_MIN = 18;
export const AD_AGE_MAX = 99;
export const AD_STATE_MAX = 40;
export const AD_CITY_MAX = 80;
export const AD_TITLE_MAX = 120;
export const AD_DESCRIPTION_MAX = 5000;

/** Ads a member may have in review or live (not expired) at once. */
export const MAX_ACTIVE_ADS = 3;
/** New ads a member may post in one city within CITY_WINDOW_HOURS. */
export const CITY_WINDOW_HOURS = 24;
/** Days a member ad stays live after approval or renewal. */
export const AD_LIVE_DAYS = 30;
/** A live ad may be renewed from this many days before it expires… */
export const RENEW_BEFORE_DAYS = 3;
/** …and an expired one until this many days after. */
export const RENEW_AFTER_DAYS = 30;
/** The expiry reminder is mailed when this many days (or fewer) are left. */
export const REMIND_BEFORE_DAYS = 3;
