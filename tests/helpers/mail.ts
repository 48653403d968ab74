// Mail in tests: a mailer writing to a temp outbox, one whose mail server is down, and a small reader of the .eml files it writes
// (and of messages smtp-server receives): headers, the plain-text and HTML parts, and the links.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMailer, type Mailer } from '../../server/mail/mailer.ts';
import type { MailSite } from '../../server/mail/messages.ts';

export const TEST_MAIL_SITE: MailSite = { brand: 'Localboard', baseUrl: 'http://localhost' };

export function testMailer(outboxDir: string, log: (line: string) => void = () => {}): Mailer {
  return createMailer({ outboxDir, from: '"Localboard" <no-reply@localhost>', log });
}

/** A mailer whose SMTP server is down (nothing listens on port 1): every mail fails. */
export function unreachableMailer(outboxDir: string): Mailer {
  return createMailer({
    smtpUrl: 'smtp://127.0.0.1:1',
    outboxDir,
    from: 'no-reply@localhost',
    log: () => {},
  });
}

export interface ReadMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  /** The whole message as sent. */
  raw: string;
}

/** Every mail in the outbox folder, oldest first. */
export function outboxMails(outboxDir: string): ReadMail[] {
  let names: string[];
  try {
    names = readdirSync(outboxDir).filter((name) => name.endsWith('.eml'));
  } catch {
    return [];
  }
  return names.sort().map((name) => parseMail(readFileSync(join(outboxDir, name), 'utf8')));
}

/** The mails sent to one address, oldest first. */
export const mailsTo = (outboxDir: string, to: string) =>
  outboxMails(outboxDir).filter((mail) => mail.to === to);

/**
 * The mails a member received from the app, oldest first, once its mailer has sent what it was
 * given: everything but the sign-up's "Verify" mail (the decisions, the notices, the outcomes).
 */
export async function mailsOf(
  t: { mailer: Pick<Mailer, 'settled'>; outboxDir: string },
  email: string,
): Promise<ReadMail[]> {
  await t.mailer.settled();
  return mailsTo(t.outboxDir, email).filter((mail) => !mail.subject.startsWith('Verify'));
}

/** The token of the last `/verify` or `/reset` link in a mail's plain text. */
export function linkToken(mail: ReadMail, path: string): string {
  const found = [...mail.text.matchAll(new RegExp(`https?://\\S+${path}\\?token=([\\w-]+)`, 'g'))];
  const token = found.at(-1)?.[1];
  if (!token) throw new Error(`No ${path} link in the mail:\n${mail.text}`);
  return token;
}

function headersOf(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0) headers.set(line.slice(0, at).toLowerCase(), line.slice(at + 1).trim());
  }
  return headers;
}

function decodeBody(body: string, encoding: string | undefined): string {
  if (encoding?.toLowerCase() === 'base64')
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding?.toLowerCase() === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

const ENCODED_WORD = /=\?utf-8\?([BQ])\?([^?]*)\?=/gi;
const ENCODED_RUN = /=\?utf-8\?[BQ]\?[^?]*\?=(?:\s+=\?utf-8\?[BQ]\?[^?]*\?=)*/gi;

/**
 * RFC 2047 encoded words. White space between two of them (a folded header) is not text, and a
 * character may be split across two, so a run of them is decoded to bytes as one.
 */
const decodeWords = (text: string) =>
  text.replace(ENCODED_RUN, (run) =>
    Buffer.concat(
      [...run.matchAll(ENCODED_WORD)].map(([, kind, data]) =>
        kind!.toUpperCase() === 'B'
          ? Buffer.from(data!, 'base64')
          : Buffer.from(
              data!
                .replace(/_/g, ' ')
                .replace(/=([0-9A-F]{2})/gi, (_, hex: string) =>
                  String.fromCharCode(parseInt(hex, 16)),
                ),
              'latin1',
            ),
      ),
    ).toString('utf8'),
  );

export function parseMail(raw: string): ReadMail {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = headersOf(raw.slice(0, split));
  const boundary = /boundary="?([^";]+)"?/.exec(headers.get('content-type') ?? '')?.[1];
  const parts: { type: string; body: string }[] = [];
  if (boundary) {
    for (const chunk of raw.split(`--${boundary}`).slice(1, -1)) {
      const at = chunk.search(/\r?\n\r?\n/);
      const partHeaders = headersOf(chunk.slice(0, at));
      parts.push({
        type: partHeaders.get('content-type') ?? '',
        body: decodeBody(
          chunk
            .slice(at)
            .replace(/^\r?\n\r?\n/, '')
            .replace(/\r?\n$/, ''),
          partHeaders.get('content-transfer-encoding'),
        ),
      });
    }
  }
  const part = (type: string) => parts.find((entry) => entry.type.startsWith(type))?.body ?? '';
  const address = (value = '') => /<([^>]+)>/.exec(value)?.[1] ?? value;
  return {
    to: address(headers.get('to')),
    from: headers.get('from') ?? '',
    subject: decodeWords(headers.get('subject') ?? ''),
    text: part('text/plain').replace(/\r\n/g, '\n'),
    html: part('text/html'),
    raw,
  };
}

/** The path and query of the last `path` link in a mail (`/verify?token=…&next=…`), to open it. */
export function linkPath(mail: ReadMail, path: string): string {
  const found = [...mail.text.matchAll(new RegExp(`https?://[^/\\s]+(${path}\\?\\S+)`, 'g'))];
  const link = found.at(-1)?.[1];
  if (!link) throw new Error(`No ${path} link in the mail:\n${mail.text}`);
  return link;
}
