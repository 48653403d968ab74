// The mails the site sends. Each has a plain-text part with full URLs and an HTML part, says what
// happened and links to it, and holds nothing about any other member.
import type { MailMessage } from './mailer.ts';
import { resetPath, verifyPath } from '../../core/paths.ts';

export interface MailSite {
  brand: string;
  /** https://localboard.example, no trailing slash. */
  baseUrl: string;
}

export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function mail(
  site: MailSite,
  to: string,
  subject: string,
  lines: { intro: string; action: string; url: string; after: string[] },
): MailMessage {
  const text = [
    lines.intro,
    '',
    `${lines.action}:`,
    lines.url,
    '',
    ...lines.after,
    '',
    `— ${site.brand}`,
    site.baseUrl,
    '',
  ].join('\n');
  const paragraph = (line: string) =>
    `<p style="margin:0 0 16px;font:16px/1.5 system-ui,sans-serif;color:#14212b">${escapeHtml(line)}</p>`;
  const html =
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:24px;background:#f4f7f9">` +
    `<div style="max-width:560px;margin:0 auto;padding:24px;background:#fff;border-radius:14px">` +
    paragraph(lines.intro) +
    `<p style="margin:0 0 16px"><a href="${escapeHtml(lines.url)}" style="display:inline-block;padding:12px 20px;background:#b4410c;color:#fff;border-radius:999px;font:600 16px system-ui,sans-serif;text-decoration:none">${escapeHtml(lines.action)}</a></p>` +
    paragraph(`Or copy this address into your browser: ${lines.url}`) +
    lines.after.map(paragraph).join('') +
    `<p style="margin:0;font:14px system-ui,sans-serif;color:#4a5a66">${escapeHtml(site.brand)} · <a href="${escapeHtml(site.baseUrl)}">${escapeHtml(site.baseUrl)}</a></p>` +
    `</div></body></html>`;
  return { to, subject, text, html };
}

/** `next`: where the member was going when they signed up (a path of this site), kept in the link. */
export function verificationMail(
  site: MailSite,
  to: string,
  token: string,
  next?: string,
): MailMessage {
  const query = new URLSearchParams({ token, ...(next ? { next } : {}) });
  return mail(site, to, `Verify your email for ${site.brand}`, {
    intro: `Thanks for joining ${site.brand}. Please confirm that this is your email address.`,
    action: 'Verify my email',
    url: `${site.baseUrl}${verifyPath()}?${query}`,
    after: [
      'The link works once and expires in 24 hours. You can ask for a new one on your account page.',
      'If you did not create an account, you can ignore this mail: nothing happens without the link.',
    ],
  });
}

export function passwordResetMail(site: MailSite, to: string, token: string): MailMessage {
  return mail(site, to, `Reset your ${site.brand} password`, {
    intro: `Someone (we hope you) asked to reset the password of your ${site.brand} account.`,
    action: 'Choose a new password',
    url: `${site.baseUrl}${resetPath()}?token=${token}`,
    after: [
      'The link works once and expires in 1 hour. Choosing a new password signs you out everywhere.',
      'If you did not ask for this, ignore this mail: your password stays as it is.',
    ],
  });
}
