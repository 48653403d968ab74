// The mail that confirms Delete my account. Sent because a deletion cannot be undone and needs only
// a session and the password: if it was not the owner, this is how they learn of it, at the one
// address we had. It names nobody else and nothing of the account but that it is gone.
import type { MailMessage } from './mailer.ts';
import { mail, type MailSite } from './messages.ts';

export function accountDeletedMail(site: MailSite, to: string): MailMessage {
  return mail(site, to, `Your ${site.brand} account has been deleted`, {
    intro: `Your ${site.brand} account for this address has been deleted, as was asked on the site with its password. Your ads have left the site, your messages are removed and you are signed out everywhere.`,
    action: 'What we keep, and why',
    url: `${site.baseUrl}/privacy`,
    after: [
      'This was the last mail we send to this address. You can sign up again with it whenever you like; nothing of the old account comes back.',
      `If you did not delete your account, someone who knew your password did: we cannot restore it, but please change that password wherever else you use it, and tell us at the address on the ${site.brand} About page.`,
    ],
  });
}
