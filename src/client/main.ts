// Progressive enhancement of the prerendered pages. Every page works without this script.
import { showSignedInMember } from './member-header.ts';

const MEMBER_ACTION = 'a[data-member-action]';
const loadDialog = () => import('./signup-dialog.tsx');
const loadForms = () => import('./enhance-forms.tsx');

// Member actions (Post Your Ad, Join Free, Reply, …) are links to /signup; with JavaScript they
// open the sign-up dialog instead. Its code starts loading as soon as a pointer or focus nears one.
document.addEventListener('click', (event) => {
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
      if ((event.target as Element | null)?.closest?.(MEMBER_ACTION)) void loadDialog();
    },
    { passive: true },
  );
}

if (document.querySelector('[data-enhance]'))
  void loadForms().then((forms) => forms.enhanceForms());

void showSignedInMember();
