import type { ReactNode } from 'react';
import { piecesOfText } from '../../core/paths-in-text.ts';

/** A message across a form: red for errors (docs/product.md: the request's error in a red banner). */
export function Banner({
  tone = 'error',
  children,
}: {
  tone?: 'error' | 'info';
  children: ReactNode;
}) {
  return (
    <p className={`banner banner--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}

/**
 * What an interactive form says while it keeps working (waiting for a busy server to take it): a
 * live region there from the start, so that screen readers announce what appears in it. Empty, it
 * takes no room.
 */
export function FormProgress({ text }: { text?: string }) {
  return (
    <p className="form-progress" role="status">
      {text}
    </p>
  );
}

/**
 * Where a form shows its request error. Prerendered empty; the server fills it when a form post
 * without JavaScript is refused (server/http/forms/refusal.ts), the interactive form renders into it.
 */
export function FormStatus({ error }: { error?: string }) {
  return (
    <div className="form-status" data-form-status="true">
      {error && (
        <Banner>
          <TextWithLinks text={error} />
        </Banner>
      )}
    </div>
  );
}

/** A refusal's words, the site paths among them as links (core/paths-in-text.ts). */
function TextWithLinks({ text }: { text: string }) {
  return (
    <>
      {piecesOfText(text).map((piece, index) =>
        'path' in piece ? (
          <a key={index} href={piece.path}>
            {piece.path}
          </a>
        ) : (
          piece.text
        ),
      )}
    </>
  );
}
