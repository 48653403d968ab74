// The texts of the not-found screens (docs/product.md section 3).
export const NOT_FOUND = {
  page: {
    heading: 'Page Not Found',
    message: "The page you're looking for doesn't exist.",
    linkText: 'Return Home',
  },
  state: {
    heading: 'State not found',
    message: 'We could not find that state. Browse all 50 states from the home page.',
    linkText: 'Return to home',
  },
  city: {
    heading: 'City not found',
    message: 'We could not find that city in this state. Browse its cities from the home page.',
    linkText: 'Return to home',
  },
  ad: {
    heading: 'Ad not found',
    message: 'This ad does not exist or is no longer listed.',
    linkText: 'Return to home',
  },
} as const;

export type NotFoundKind = keyof typeof NOT_FOUND;

export function notFoundKindOf(reason: unknown): NotFoundKind {
  const match = Object.entries(NOT_FOUND).find(([, screen]) => screen.heading === reason);
  return (match?.[0] as NotFoundKind | undefined) ?? 'page';
}
