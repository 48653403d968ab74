import { verificationBadge, type AdVerification } from '../../core/schemas/verification.ts';
import { Badge } from './Badge.tsx';

/**
 * A verified member's badge (docs/product.md section 6, "Verified members"), in words: "Photos
 * verified", "Photos verified: 2 of 3" or "Real person", with what it means for a screen reader
 * and on hover; never colour alone.
 */
export function VerifiedBadge({ verification }: { verification: AdVerification }) {
  const { label, detail } = verificationBadge(verification);
  return (
    <Badge tone="verified" title={detail}>
      <span aria-hidden="true">✓ </span>
      {label}
      <span className="visually-hidden">: {detail}</span>
    </Badge>
  );
}
