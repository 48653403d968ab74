/** The green tick of a finished step (account created, email verified, password changed). */
export function DoneMark() {
  return (
    <svg className="success__mark" aria-hidden="true" viewBox="0 0 48 48" width="48" height="48">
      <circle cx="24" cy="24" r="24" fill="currentColor" />
      <path
        d="m14 24.5 6.5 6.5L34 17.5"
        fill="none"
        stroke="#fff"
        strokeWidth="4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
