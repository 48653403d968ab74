// Where a member with nothing to do on a page goes next (no conversation yet, an ad that takes no
// replies): back to the ads, from the home page.
import { homePath } from '../../core/paths.ts';
import { ButtonLink } from './Button.tsx';

export function BrowseAdsButton() {
  return (
    <p className="button-row">
      <ButtonLink kind="primary" href={homePath()}>
        Browse ads
      </ButtonLink>
    </p>
  );
}
