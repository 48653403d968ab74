/** The logo mark: a map pin holding a speech bubble. Decorative; the brand name sits beside it. */
export function Logo() {
  return (
    <svg className="logo__mark" aria-hidden="true" viewBox="0 0 32 32" width="32" height="32">
      <rect width="32" height="32" rx="9" fill="currentColor" />
      <path
        d="M16 6.5c-4.4 0-8 3.3-8 7.4 0 4.9 6.1 10.5 7.3 11.5.4.4 1 .4 1.4 0 1.2-1 7.3-6.6 7.3-11.5 0-4.1-3.6-7.4-8-7.4Z"
        fill="#fff"
      />
      <path
        d="M12.2 11.6h7.6M12.2 14.8h5"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
    </svg>
  );
}
