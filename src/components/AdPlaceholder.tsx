/** Neutral picture for an ad without photos: a soft pattern tinted from the ad id. No people. */
export function AdPlaceholder({ adId }: { adId: number }) {
  const hues = [186, 200, 214, 168, 228, 156];
  const hue = hues[adId % hues.length] ?? 186;
  const id = `ph-${adId}`;
  return (
    <svg className="ad-placeholder" viewBox="0 0 120 120" role="img" aria-label="No photo">
      <defs>
        <linearGradient id={id} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={`hsl(${hue} 45% 92%)`} />
          <stop offset="1" stopColor={`hsl(${hue} 40% 82%)`} />
        </linearGradient>
      </defs>
      <rect width="120" height="120" fill={`url(#${id})`} />
      <path
        d="M38 44h44a8 8 0 0 1 8 8v20a8 8 0 0 1-8 8H58l-12 10v-10h-8a8 8 0 0 1-8-8V52a8 8 0 0 1 8-8Z"
        fill={`hsl(${hue} 35% 62%)`}
        opacity=".55"
      />
    </svg>
  );
}
