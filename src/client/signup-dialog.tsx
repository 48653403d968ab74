// Opens the sign-up dialog over the current page (loaded on demand with React).
import { createRoot, type Root } from 'react-dom/client';
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
  root.render(<SignupDialog key={Date.now()} brand={brand} onClose={closeSignupDialog} />);
}

function closeSignupDialog(): void {
  root?.render(null);
  const opener = openedBy;
  openedBy = undefined;
  opener?.focus();
}
