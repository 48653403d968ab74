// The way on after a link from a mail that expired, was used or is not valid (password reset,
// email verification): one button to ask for a new link.
import { ButtonLink } from './Button.tsx';

/** `href`: the page that sends a new link. */
export function NewLinkButton({ href }: { href: string }) {
  return (
    <div className="button-row">
      <ButtonLink kind="primary" href={href}>
        Get a new link
      </ButtonLink>
    </div>
  );
}
