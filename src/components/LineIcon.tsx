/**
 * A decorative icon on a 20×20 grid, drawn with round-capped lines in the text's colour (the
 * dialog's close cross, the menu's bars), shown `size` pixels square.
 */
export function LineIcon({ d, size = 20 }: { d: string; size?: number }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" width={size} height={size}>
      <path d={d} stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}
