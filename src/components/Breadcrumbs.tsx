export interface Crumb {
  label: string;
  /** Omitted for the current page. */
  href?: string;
}

/** Where this page sits: Home › State › City. */
export function Breadcrumbs({ trail }: { trail: readonly Crumb[] }) {
  return (
    <nav className="breadcrumbs" aria-label="Breadcrumb">
      <ol>
        {trail.map((crumb) => (
          <li key={crumb.label}>
            {crumb.href ? (
              <a href={crumb.href}>{crumb.label}</a>
            ) : (
              <span aria-current="page">{crumb.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
