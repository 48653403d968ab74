/**
 * The visible link to a page's Atom feed (docs/product.md section 11), small, beside its list:
 * the usual feed icon, drawn inline, then the words.
 */
export function FeedLink({ href, label }: { href: string; label: string }) {
  return (
    <a className="feed-link" href={href} type="application/atom+xml">
      <svg
        className="feed-link__icon"
        viewBox="0 0 16 16"
        width="14"
        height="14"
        aria-hidden="true"
      >
        <circle cx="3" cy="13" r="2" />
        <path d="M1 6.5a8.5 8.5 0 0 1 8.5 8.5h-2.2A6.3 6.3 0 0 0 1 8.7Z" />
        <path d="M1 1.5A13.5 13.5 0 0 1 14.5 15h-2.2A11.3 11.3 0 0 0 1 3.7Z" />
      </svg>
      {label}
    </a>
  );
}
