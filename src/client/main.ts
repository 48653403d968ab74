// Progressive enhancement of the prerendered pages. Every page works without this script.
import { isSignedIn, showSignedInMember } from './member-header.ts';

const MEMBER_ACTION = 'a[data-member-action]';
const loadDialog = () => import('./signup-dialog.tsx');
const loadForms = () => import('./enhance-forms.tsx');

// Member actions (Post Your Ad, Join Free, Reply, …) are links to where the action happens
// (/post, the ad's reply screen, /signup). Members follow them; for visitors who are not signed in,
// JavaScript opens the sign-up dialog instead. Its code starts loading as soon as a pointer or
// focus nears one.
document.addEventListener('click', (event) => {
  if (isSignedIn()) return;
  if (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey
  )
    return;
  const opener = (event.target as Element | null)?.closest<HTMLAnchorElement>(MEMBER_ACTION);
  if (!opener) return;
  event.preventDefault();
  void loadDialog().then((dialog) => dialog.openSignupDialog(opener));
});
for (const type of ['pointerover', 'focusin'] as const) {
  document.addEventListener(
    type,
    (event) => {
      if (!isSignedIn() && (event.target as Element | null)?.closest?.(MEMBER_ACTION))
        void loadDialog();
    },
    { passive: true },
  );
}

// Forms that undo something (Delete on the account page) ask first.
document.addEventListener('submit', (event) => {
  const form = event.target as HTMLFormElement;
  if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) event.preventDefault();
});

/** The page's forms and header, enhanced; the script is async, so the page may still be parsing. */
async function enhancePage(): Promise<void> {
  const enhancingForms = document.querySelector('[data-enhance]')
    ? loadForms().then((forms) => forms.enhanceForms())
    : undefined;
  // The posting form (/post, editing an ad): checked in the browser with the server's schema.
  // Only that page loads the schema (zod).
  const enhancingAdForm = document.querySelector('form[data-ad-form]')
    ? import('./ad-form.ts').then((form) => form.enhanceAdForm())
    : undefined;
  // The moderation queue's "Show photo": the photo shown in place.
  const enhancingReveals = document.querySelector('form[data-photo-reveal]')
    ? import('./photo-reveal.ts').then((reveals) => reveals.enhancePhotoReveals())
    : undefined;
  // /verify-age: the check by a digital licence, through the Digital Credentials API.
  const enhancingAgeCheck = document.querySelector('form[data-age-check]')
    ? import('./verify-age.ts').then((ageCheck) => ageCheck.enhanceAgeCheck())
    : undefined;
  // /account's "Notify me on this device": the only place notifications are asked for.
  const enhancingPush = document.querySelector('[data-push-device]')
    ? import('./push-device.ts').then((push) => push.enhancePushDevice())
    : undefined;
  await Promise.all([
    enhancingForms,
    enhancingAdForm,
    enhancingReveals,
    enhancingAgeCheck,
    enhancingPush,
    showSignedInMember(),
  ]);
  // Every enhancement this page needs has run: <html data-enhanced="true"> says so, and the
  // end-to-end tests wait for it before they use the page, as a person waits for it to be ready.
  document.documentElement.dataset.enhanced = 'true';
}

if (document.readyState === 'loading')
  document.addEventListener('DOMContentLoaded', () => void enhancePage(), { once: true });
else void enhancePage();
