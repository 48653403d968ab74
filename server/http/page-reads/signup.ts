// The prerendered /signup page, rendered on request when it carries where to go afterwards
// (`?next=`, a path of this site): its form posts it on, without JavaScript too. Nothing to read.
import { pageRead } from '../page-read.ts';
import { localPath } from '../../../core/local-path.ts';

export const read = pageRead<never>({
  for: 'anyone',
  onRequestWhen: (query) => localPath(query.next) !== undefined,
});
