// The error page: the not-found screens (generic or State / City / Ad not found) and the
// screen for an unexpected rendering failure.
import { pageShell } from '../../renderer/shell.ts';
import { NOT_FOUND, notFoundKindOf, type NotFoundKind } from './not-found.ts';

export interface ErrorPageInput {
  is404: boolean;
  /** What `throw render(404, reason)` said: a not-found heading. */
  abortReason?: unknown;
  /** The failure behind a 500. */
  errorWhileRendering?: unknown;
  /** Path the visitor asked for (the canonical URL of an error page is the site root). */
}

export function errorPageData(input: ErrorPageInput) {
  if (input.is404) return notFoundData(notFoundKindOf(input.abortReason));
  const error = input.errorWhileRendering;
  const message =
    error instanceof Error
      ? error.message
      : typeof error === 'string'
        ? error
        : 'An unknown error occurred.';
  return {
    ...pageShell({
      title: 'Unexpected Application Error!',
      description: message,
      path: '/',
      robots: 'noindex, nofollow',
    }),
    screen: { kind: 'error' as const, message },
  };
}

export function notFoundData(kind: NotFoundKind) {
  const screen = NOT_FOUND[kind];
  return {
    ...pageShell({
      title: screen.heading,
      description: screen.message,
      path: '/',
      robots: 'noindex, nofollow',
    }),
    screen: { kind, ...screen },
  };
}
