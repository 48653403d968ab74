// Opens the sign-up dialog over the current page (loaded on demand with React).
import { createRoot, type Root } from 'react-dom/client';
import { signupPath } from '../../core/paths.ts';
import { SignupDialog } from './SignupDialog.tsx';

let root: Root | undefined;
let openedBy: HTMLElement | undefined;

export function openSignupDialog(opener: HTMLElement): void {
  if (openedBy) return;
  openedBy = opener;
  if (!root) {
    const container = document.createElement('div');
    container.id = 'signup-dialog-root';
    document.body.append(container);
    root = createRoot(container);
  }
  const brand = document.querySelector('.logo__text')?.textContent ?? '';
  root.render(
    <SignupDialog
      key={Date.now()}
      brand={brand}
      next={destinationOf(opener)}
      onClose={closeSignupDialog}
    />,
  );
}

/**
 * Where the visitor was going: the opener's own destination (Reply: the ad's reply screen; Post
 * Your Ad: /post), or the `next` a sign-up link carries. Join Free goes nowhere in particular.
 */
export function destinationOf(opener: HTMLElement): string | undefined {
  const href = opener.getAttribute('href');
  if (!href) return undefined;
  const url = new URL(href, window.location.href);
  if (url.origin !== window.location.origin) return undefined;
  if (url.pathname === signupPath()) return url.searchParams.get('next') ?? undefined;
  return `${url.pathname}${url.search}`;
}

function closeSignupDialog(): void {
  root?.render(null);
  const opener = openedBy;
  openedBy = undefined;
  opener?.focus();
}
