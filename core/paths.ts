// URL shapes of the public site (docs/product.md section 3): names are the full names, URL-encoded.
// Pages, the content compiler, the prerenderer and the server all build paths here.

import { defineRoute } from './route.ts';

/** Every URL shape of the site, each declared once; page folders hand theirs to Vike (+route.ts). */
export const routes = {
  home: defineRoute<Record<string, never>>('/'),
  state: defineRoute<{ stateName: string }>('/state/@stateName'),
  city: defineRoute<{ stateName: string; cityName: string; page?: string }>(
    '/city/@stateName/@cityName',
    '/city/@stateName/@cityName/page/@page',
  ),
  ad: defineRoute<{ stateName: string; cityName: string; adId: string }>(
    '/city/@stateName/@cityName/ad/@adId',
  ),
  // A city's Atom feed of its newest ads (docs/product.md section 11): a file, not a page.
  cityFeed: defineRoute<{ stateName: string; cityName: string }>(
    '/city/@stateName/@cityName/feed.xml',
  ),
  about: defineRoute<Record<string, never>>('/about'),
  guide: defineRoute<{ slug: string }>('/about/@slug'),
  legal: defineRoute<{ slug: 'terms' | 'privacy' }>('/@slug(terms|privacy)'),
  signup: defineRoute<Record<string, never>>('/signup'),
  signin: defineRoute<Record<string, never>>('/signin'),
  success: defineRoute<Record<string, never>>('/success'),
  // The transparency report (docs/product.md section 6), prerendered, and its numbers as a file.
  transparency: defineRoute<Record<string, never>>('/transparency'),
  transparencyCsv: defineRoute<Record<string, never>>('/transparency.csv'),
  verify: defineRoute<Record<string, never>>('/verify'),
  account: defineRoute<Record<string, never>>('/account'),
  forgot: defineRoute<Record<string, never>>('/forgot'),
  reset: defineRoute<Record<string, never>>('/reset'),
  // Posting, the member's ads, moderation (docs/product.md section 6), rendered on request.
  post: defineRoute<Record<string, never>>('/post'),
  postInReview: defineRoute<Record<string, never>>('/post/in-review'),
  editAd: defineRoute<{ adId: string }>('/account/ads/@adId/edit'),
  moderate: defineRoute<Record<string, never>>('/moderate'),
  moderationLog: defineRoute<Record<string, never>>('/moderate/log'),
  // Statements of reasons and appeals (docs/product.md section 6): one decision about the member
  // (`?key=` from its mail, for a member who cannot sign in), and the moderators' open appeals.
  decision: defineRoute<{ statementId: string }>('/account/decisions/@statementId(\\d+)'),
  moderateAppeals: defineRoute<Record<string, never>>('/moderate/appeals'),
  // Replying to an ad (docs/product.md section 7): `?ad={id}`.
  newMessage: defineRoute<Record<string, never>>('/messages/new'),
  // Conversations (docs/product.md section 7): the inbox and one thread.
  messages: defineRoute<Record<string, never>>('/messages'),
  conversation: defineRoute<{ conversationId: string }>('/messages/@conversationId(\\d+)'),
  // Reports (docs/product.md section 8): `?ad={id}`, or `?conversation={id}` from a thread.
  report: defineRoute<Record<string, never>>('/report'),
  moderateReports: defineRoute<Record<string, never>>('/moderate/reports'),
  // The member's own data (docs/product.md section 8): the confirmation of Delete my account.
  deleteAccount: defineRoute<Record<string, never>>('/account/delete'),
  // Search and filters (docs/product.md section 9), rendered on request; the query string is the form.
  search: defineRoute<Record<string, never>>('/search'),
  // The Atom feed of a search: the same query string as /search, served by the server.
  searchFeed: defineRoute<Record<string, never>>('/search/feed.xml'),
  // A saved search's digest links here to unsubscribe (docs/product.md section 11), signed out.
  unsubscribe: defineRoute<{ token: string }>('/unsubscribe/@token'),
  // Verified members (docs/product.md section 6): the member's challenge and selfie, and the
  // moderators' queue of selfies.
  verification: defineRoute<Record<string, never>>('/account/verification'),
  moderateVerifications: defineRoute<Record<string, never>>('/moderate/verifications'),
  // The scam shield's recent refusals and warnings, for moderators to mark mistaken (section 7):
  // `?before={decision id}` for older ones.
  moderateShield: defineRoute<Record<string, never>>('/moderate/shield'),
  // Age assurance (docs/product.md section 6, "Age assurance"): the check by a digital licence.
  verifyAge: defineRoute<Record<string, never>>('/verify-age'),
};

export const homePath = () => routes.home.path({});
export const statePath = (state: string) => routes.state.path({ stateName: state });
export const cityPath = (state: string, city: string, page = 1) =>
  routes.city.path({
    stateName: state,
    cityName: city,
    ...(page > 1 ? { page: String(page) } : {}),
  });
export const cityFeedPath = (state: string, city: string) =>
  routes.cityFeed.path({ stateName: state, cityName: city });
export const adPath = (state: string, city: string, adId: number) =>
  routes.ad.path({ stateName: state, cityName: city, adId: String(adId) });
export const aboutPath = () => routes.about.path({});
export const guidePath = (slug: string) => routes.guide.path({ slug });
/**
 * The safety notice (content/guides/dating-safety.md; Texas Business and Commerce Code section
 * 106.006): linked from the footer, sign-up and the first-message form.
 */
export const SAFETY_NOTICE_SLUG = 'dating-safety';
export const safetyNoticePath = () => guidePath(SAFETY_NOTICE_SLUG);
export const legalPath = (slug: 'terms' | 'privacy') => routes.legal.path({ slug });
export const signupPath = () => routes.signup.path({});
export const signinPath = () => routes.signin.path({});
export const successPath = () => routes.success.path({});
export const transparencyPath = () => routes.transparency.path({});
export const transparencyCsvPath = () => routes.transparencyCsv.path({});
export const verifyPath = () => routes.verify.path({});
export const accountPath = () => routes.account.path({});
export const forgotPath = () => routes.forgot.path({});
export const resetPath = () => routes.reset.path({});
export const postPath = () => routes.post.path({});
export const postInReviewPath = () => routes.postInReview.path({});
export const editAdPath = (adId: number) => routes.editAd.path({ adId: String(adId) });
export const moderatePath = () => routes.moderate.path({});
export const moderationLogPath = () => routes.moderationLog.path({});
export const moderateAppealsPath = () => routes.moderateAppeals.path({});
/** A decision's page; `key`: its mail's key, for a member who cannot sign in. */
export const decisionPagePath = (statementId: number, key?: string) =>
  `${routes.decision.path({ statementId: String(statementId) })}${key ? `?key=${encodeURIComponent(key)}` : ''}`;
export const searchPath = () => routes.search.path({});
export const searchFeedPath = () => routes.searchFeed.path({});
/** Where Reply and Send Message lead for an ad. */
export const newMessagePath = (adId: number) => `${routes.newMessage.path({})}?ad=${adId}`;
export const messagesPath = () => routes.messages.path({});
/** The account page's "Who may reach me" form (docs/product.md section 7), and its anchor. */
export const REACH_ANCHOR = 'who-may-reach-me';
export const whoMayReachMePath = () => `${accountPath()}#${REACH_ANCHOR}`;
/** The account page's message settings (requests mailed at once, read receipts), and its anchor. */
export const MESSAGE_SETTINGS_ANCHOR = 'message-settings';
export const messageSettingsPath = () => `${accountPath()}#${MESSAGE_SETTINGS_ANCHOR}`;
/** The account page's "Notifications on this device" section (docs/product.md section 7). */
export const NOTIFICATIONS_ANCHOR = 'notifications';
export const notificationsPath = () => `${accountPath()}#${NOTIFICATIONS_ANCHOR}`;
/** The member's Filtered folder (docs/product.md section 7, "Who may reach me"). */
export const filteredMessagesPath = () => `${messagesPath()}?folder=filtered`;
/** The member's Requests: first messages about their ads not answered yet (section 7). */
export const requestMessagesPath = () => `${messagesPath()}?folder=requests`;
export const conversationPath = (conversationId: number) =>
  routes.conversation.path({ conversationId: String(conversationId) });
/** Where Report this ad leads. */
export const reportAdPath = (adId: number) => `${routes.report.path({})}?ad=${adId}`;
/** Where Report this conversation leads. */
/** The report form about a conversation; `reason`: chosen already ("Report as scam"). */
export const reportConversationPath = (conversationId: number, reason?: string) =>
  `${routes.report.path({})}?conversation=${conversationId}${reason ? `&reason=${reason}` : ''}`;
export const moderateReportsPath = () => routes.moderateReports.path({});
export const deleteAccountPath = () => routes.deleteAccount.path({});
export const verificationPath = () => routes.verification.path({});
export const moderateVerificationsPath = () => routes.moderateVerifications.path({});
/** /moderate/shield, or its page of the decisions before `before`. */
export const moderateShieldPath = (before?: number) =>
  `${routes.moderateShield.path({})}${before === undefined ? '' : `?before=${before}`}`;
/** A saved search's unsubscribe page: its confirm button posts here too. */
export const unsubscribePath = (token: string) => routes.unsubscribe.path({ token });
/**
 * The installable web app (docs/product.md section 7, "Notifications on this device"): its
 * manifest, written by the build (core/web-app.ts says what it holds), and the service worker
 * that shows pushed notifications, at the root so that its scope is the whole site.
 */
export const webAppManifestPath = () => '/manifest.webmanifest';
export const serviceWorkerPath = () => '/sw.js';
/** The sign-in page, coming back to `next` (a path of this site) after signing in. */
export const signinThenPath = (next: string | undefined) =>
  next ? `${routes.signin.path({})}?next=${encodeURIComponent(next)}` : routes.signin.path({});
/** The sign-up page, going on to `next` after the account is made and its email verified. */
export const signupThenPath = (next: string | undefined) =>
  next ? `${routes.signup.path({})}?next=${encodeURIComponent(next)}` : routes.signup.path({});

/** Where the API lives (docs/architecture.md, "A form post"): its endpoints, and its cookies' path. */
export const API_PREFIX = '/api';

/** Whether a request path is the API's (`/api` or under it). */
export const isApiPath = (pathname: string) =>
  pathname === API_PREFIX || pathname.startsWith(`${API_PREFIX}/`);

/**
 * Every endpoint of the API, each declared once as the Hono route pattern server/http/routes/ registers
 * (`:id{[0-9]+}`: digits only); the functions below build the URLs forms, scripts and pages use.
 */
export const apiRoutes = {
  /** Everything under the API: its middleware and the unknown endpoint's 404. */
  any: '/api/*',
  // Accounts (server/http/routes/accounts.ts, email-links.ts, member-data.ts).
  signup: '/api/signup',
  signin: '/api/signin',
  signout: '/api/signout',
  /** Who is signed in, for the header's script. */
  me: '/api/me',
  verify: '/api/verify',
  verifyResend: '/api/verify/resend',
  forgot: '/api/forgot',
  reset: '/api/reset',
  accountData: '/api/account/data',
  reachSettings: '/api/account/reach',
  messageSettings: '/api/account/messages',
  deleteAccount: '/api/account/delete',
  // Notifications on the member's devices (server/http/routes/push.ts): a device's subscription,
  // removing one, and what else to notify them of.
  pushDevices: '/api/account/push-devices',
  removePushDevice: '/api/account/push-devices/:id/delete',
  pushSettings: '/api/account/push-settings',
  // Posting and the member's ads (server/http/routes/posting.ts).
  ads: '/api/ads',
  /** A state's cities, for the posting form's script: `?state=`. */
  adCities: '/api/ads/cities',
  editAd: '/api/ads/:id/edit',
  deleteAd: '/api/ads/:id/delete',
  renewAd: '/api/ads/:id/renew',
  // Photos through the server (server/http/routes/photos.ts): one size, and the blurred rendering.
  photoSize: '/api/photos/:id{[0-9]{1,15}}/:width{[0-9]{1,5}}',
  blurredPhoto: '/api/photos/:id{[0-9]{1,15}}/blurred',
  // Saved searches (server/http/routes/saved-searches.ts): the search's query string travels along.
  savedSearches: '/api/saved-searches',
  deleteSavedSearch: '/api/saved-searches/:id/delete',
  // Messages (server/http/routes/messages.ts).
  messages: '/api/messages',
  reply: '/api/messages/:id/reply',
  block: '/api/messages/:id/:action{block|unblock}',
  // Reports (server/http/routes/reports.ts): filing one, and a moderator resolving a group.
  reports: '/api/reports',
  moderateReports: '/api/moderate/reports',
  // Appeals (server/http/routes/appeals.ts): the member's, and a moderator's decision on one.
  appeal: '/api/decisions/:id/appeal',
  decideAppeal: '/api/moderate/appeals/:id/decide',
  // The moderation queue (server/http/routes/moderation.ts).
  approveAd: '/api/moderate/ads/:id/approve',
  rejectAd: '/api/moderate/ads/:id/reject',
  removeAd: '/api/moderate/ads/:id/remove',
  banAccount: '/api/moderate/accounts/:id/ban',
  removePhoto: '/api/moderate/photos/:id/remove',
  revealPhoto: '/api/moderate/photos/:id/reveal',
  dismissRepeatedMessage: '/api/moderate/repeated-messages/:id/dismiss',
  markShieldDecisionMistaken: '/api/moderate/shield-decisions/:id/mistaken',
  photoSettings: '/api/moderate/photo-settings',
  // Verified members (server/http/routes/verification.ts): a challenge, its selfie and the
  // selfie's bytes, withdrawing, the first-message setting; a moderator's decision.
  verificationChallenge: '/api/verification/challenge',
  verificationSelfie: '/api/verification/selfie',
  verificationWithdraw: '/api/verification/withdraw',
  selfie: '/api/verification/:id{[0-9]{1,15}}/selfie',
  approveVerification: '/api/moderate/verifications/:id/approve',
  refuseVerification: '/api/moderate/verifications/:id/refuse',
  // Age assurance (server/http/routes/age-assurance.ts): the member's state, the licence request
  // and the wallet's answer.
  declaredState: '/api/account/state',
  ageCheckRequest: '/api/age-check/request',
  ageCheckResponse: '/api/age-check/response',
} as const;

/** The names of a Hono pattern's parameters: `'id' | 'width'` of `/api/photos/:id{…}/:width{…}`. */
type ApiParamNames<Pattern extends string> = Pattern extends `${string}:${infer Name}/${infer Rest}`
  ? ParamName<Name> | ApiParamNames<`/${Rest}`>
  : Pattern extends `${string}:${infer Name}`
    ? ParamName<Name>
    : never;
type ParamName<Segment extends string> = Segment extends `${infer Name}{${string}` ? Name : Segment;

/** The URL of an endpoint: its pattern with each parameter filled in, URL-encoded. */
function apiPath<Pattern extends string>(
  pattern: Pattern,
  params: Record<ApiParamNames<Pattern>, string | number>,
): string {
  const values: Record<string, string | number> = params;
  return pattern.replace(/:(\w+)(\{[^/]*\})?/g, (_, name: string) =>
    encodeURIComponent(String(values[name])),
  );
}

export const signupApiPath = () => apiRoutes.signup;
export const signinApiPath = () => apiRoutes.signin;
export const signoutApiPath = () => apiRoutes.signout;
export const meApiPath = () => apiRoutes.me;
export const verifyApiPath = () => apiRoutes.verify;
export const verifyResendApiPath = () => apiRoutes.verifyResend;
export const forgotApiPath = () => apiRoutes.forgot;
export const resetApiPath = () => apiRoutes.reset;
/** Download my data. */
export const accountDataApiPath = () => apiRoutes.accountData;
export const reachSettingsApiPath = () => apiRoutes.reachSettings;
export const messageSettingsApiPath = () => apiRoutes.messageSettings;
export const deleteAccountApiPath = () => apiRoutes.deleteAccount;
/** Where the account page's script posts a device's push subscription. */
export const pushDevicesApiPath = () => apiRoutes.pushDevices;
export const removePushDeviceApiPath = (deviceId: number) =>
  apiPath(apiRoutes.removePushDevice, { id: deviceId });
export const pushSettingsApiPath = () => apiRoutes.pushSettings;
/** Where the posting form posts a new ad. */
export const adsApiPath = () => apiRoutes.ads;
export const adCitiesApiPath = (state: string) =>
  `${apiRoutes.adCities}?state=${encodeURIComponent(state)}`;
export const editAdApiPath = (adId: number) => apiPath(apiRoutes.editAd, { id: adId });
export const deleteAdApiPath = (adId: number) => apiPath(apiRoutes.deleteAd, { id: adId });
export const renewAdApiPath = (adId: number) => apiPath(apiRoutes.renewAd, { id: adId });
/** One size of a photo through the server (for its member and moderators). */
export const photoSizeApiPath = (photoId: number, width: number) =>
  apiPath(apiRoutes.photoSize, { id: photoId, width });
/** The blurred rendering of a photo (server/photos/blurred-photo.ts). */
export const blurredPhotoApiPath = (photoId: number) =>
  apiPath(apiRoutes.blurredPhoto, { id: photoId });
/** "Email me new ads like these": the search's query string goes with it. */
export const saveSearchApiPath = (query: string) =>
  query ? `${apiRoutes.savedSearches}?${query}` : apiRoutes.savedSearches;
export const deleteSavedSearchApiPath = (id: number) =>
  apiPath(apiRoutes.deleteSavedSearch, { id });
/** Where the first message about an ad posts. */
export const messagesApiPath = () => apiRoutes.messages;
export const replyApiPath = (conversationId: number) =>
  apiPath(apiRoutes.reply, { id: conversationId });
/** Block the other side of a conversation, or (`blocked` false) undo it. */
export const blockApiPath = (conversationId: number, blocked: boolean) =>
  apiPath(apiRoutes.block, { id: conversationId, action: blocked ? 'block' : 'unblock' });
export const reportsApiPath = () => apiRoutes.reports;
export const moderateReportsApiPath = () => apiRoutes.moderateReports;
/** The appeal of a decision; `key`: its mail's key, for a member who cannot sign in. */
export const appealApiPath = (statementId: number, key?: string) =>
  `${apiPath(apiRoutes.appeal, { id: statementId })}${key ? `?key=${encodeURIComponent(key)}` : ''}`;
export const decideAppealApiPath = (appealId: number) =>
  apiPath(apiRoutes.decideAppeal, { id: appealId });
/** A moderator's action on an ad of the queue. */
export const moderateAdApiPath = (adId: number, action: 'approve' | 'reject' | 'remove') =>
  apiPath(
    { approve: apiRoutes.approveAd, reject: apiRoutes.rejectAd, remove: apiRoutes.removeAd }[
      action
    ],
    {
      id: adId,
    },
  );
export const banAccountApiPath = (accountId: number) =>
  apiPath(apiRoutes.banAccount, { id: accountId });
export const removePhotoApiPath = (photoId: number) =>
  apiPath(apiRoutes.removePhoto, { id: photoId });
export const revealPhotoApiPath = (photoId: number) =>
  apiPath(apiRoutes.revealPhoto, { id: photoId });
export const dismissRepeatedMessageApiPath = (flagId: number) =>
  apiPath(apiRoutes.dismissRepeatedMessage, { id: flagId });
export const photoSettingsApiPath = () => apiRoutes.photoSettings;
export const markShieldDecisionMistakenApiPath = (decisionId: number) =>
  apiPath(apiRoutes.markShieldDecisionMistaken, { id: decisionId });

/** Ads shown on one page of a city's list. */
export const ADS_PER_PAGE = 30;

/**
 * Where a page's HTML is stored in the static output: decoded names, so that any static host
 * (which decodes the request path) finds `/city/South%20Dakota/De%20Smet` at
 * `city/South Dakota/De Smet/index.html`. A city feed is a file of its own name
 * (`city/South Dakota/De Smet/feed.xml`), and so is the transparency report's CSV.
 */
export function outputFileForPath(urlPath: string): string {
  const parts = urlPath.split('/').filter(Boolean).map(decodeURIComponent);
  const isFile = routes.cityFeed.match(urlPath) || routes.transparencyCsv.match(urlPath);
  return isFile ? parts.join('/') : [...parts, 'index.html'].join('/');
}

/**
 * A published size of a member's photo (core/schemas/photos.ts photoFilePath), as the server's
 * route for it when the photos are in a bucket (server/http/routes/published-photos.ts).
 */
export const publishedPhotoRoute = '/photos/:shelf{[0-9a-f]{2}}/:file{[0-9a-f]{32}\\.webp}';

/**
 * The not-found screens in the static output. The server answers 404 with the specific one;
 * a static host serves 404.html (see the README for mapping the others on nginx).
 */
export const NOT_FOUND_FILES = {
  page: '404.html',
  state: '_not-found/state.html',
  city: '_not-found/city.html',
  ad: '_not-found/ad.html',
} as const;
export const verificationChallengeApiPath = () => apiRoutes.verificationChallenge;
export const verificationSelfieApiPath = () => apiRoutes.verificationSelfie;
export const verificationWithdrawApiPath = () => apiRoutes.verificationWithdraw;
/** A verification selfie's bytes: to its member and to moderators only (no-store). */
export const selfieApiPath = (verificationId: number) =>
  apiPath(apiRoutes.selfie, { id: verificationId });
export const approveVerificationApiPath = (verificationId: number) =>
  apiPath(apiRoutes.approveVerification, { id: verificationId });
export const refuseVerificationApiPath = (verificationId: number) =>
  apiPath(apiRoutes.refuseVerification, { id: verificationId });
/** The age check by a digital licence (docs/product.md section 6, "Age assurance"). */
export const verifyAgePath = () => routes.verifyAge.path({});
export const declaredStateApiPath = () => apiRoutes.declaredState;
export const ageCheckRequestApiPath = () => apiRoutes.ageCheckRequest;
export const ageCheckResponseApiPath = () => apiRoutes.ageCheckResponse;
