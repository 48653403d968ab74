import { homePath } from '../../core/paths.ts';

/** A not-found screen: the generic one, or the specific State / City / Ad not found. */
export function NotFound({
  heading,
  message,
  linkText,
}: {
  heading: string;
  message: string;
  linkText: string;
}) {
  return (
    <section className="container status-screen">
      <p className="status-screen__code" aria-hidden="true">
        404
      </p>
      <h1>{heading}</h1>
      <p>{message}</p>
      <a className="button button--primary" href={homePath()}>
        {linkText}
      </a>
    </section>
  );
}
