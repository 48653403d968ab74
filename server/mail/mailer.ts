// Sends the site's mail with nodemailer (docs/product.md section 6): over SMTP when SMTP_URL is set,
// otherwise each message is written as an .eml file to the outbox folder (default data/outbox/)
// and one log line names its recipient, subject and file. Sending never holds up an answer: a
// reply must not take longer when an address has an account (/forgot), so mail goes out in the
// background and a failure is logged; `settled()` lets tests and shutdown wait for it.
//
// The outbox keeps every mail's address in a file, so when a member deletes their account the
// files addressed to them go too (`removeOutboxMailsTo`, docs/product.md section 8): this module
// is the only one that knows where and how mail is written, so it is the one that removes it.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { createTransport } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  /** The plain-text part, with full URLs. */
  text: string;
  html: string;
  /** Extra headers (a digest's List-Unsubscribe and List-Unsubscribe-Post, RFC 8058). */
  headers?: Record<string, string>;
}

export interface MailSettings {
  /** smtp://user:pass@host:587 or smtps://…; without it, mail goes to the outbox folder. */
  smtpUrl?: string;
  /** Where .eml files are written when there is no SMTP_URL. */
  outboxDir: string;
  /** The From address, e.g. `"Localboard" <no-reply@localboard.example>`. */
  from: string;
  /** Where the outbox line and send failures go; default console. */
  log?: (line: string) => void;
  /**
   * Over SMTP: send through up to this many connections kept open (a digest run's thousands of
   * mails), instead of a connection a message; `close()` them when done.
   */
  pooledConnections?: number;
}

export interface Mailer {
  /** Queues a message; returns at once (a failure is logged). */
  send(message: MailMessage): void;
  /**
   * Sends a message and resolves when it is sent (written, in outbox mode); rejects when it
   * fails, for a sender that must know (a digest, whose claim is given back). Nothing is logged.
   */
  deliver(message: MailMessage): Promise<void>;
  /**
   * Outbox mode: removes the outbox's .eml files addressed to `address` and to nobody else, those
   * written already and those on their way now; a message sent to it after this call waits until
   * they are gone and is kept. Other files are never touched. Over SMTP, nothing: what was sent
   * has left this machine. Returns at once; a failure is logged.
   */
  removeOutboxMailsTo(address: string): void;
  /** Resolves when every message queued so far has been sent (or has failed and been logged). */
  settled(): Promise<void>;
  /** Closes the pooled connections, if any, once every message queued so far is settled. */
  close(): Promise<void>;
  /** `smtp` or `outbox`, for the start-up line. */
  readonly kind: 'smtp' | 'outbox';
}

export function createMailer(settings: MailSettings): Mailer {
  const log = settings.log ?? ((line: string) => console.log(line));
  const pending = new Set<Promise<void>>();
  /** Removals under way, by address: mail to it sent meanwhile waits for them. */
  const removals = new Map<string, Promise<void>>();
  const smtp = settings.smtpUrl
    ? smtpDelivery(settings.smtpUrl, settings.from, settings.pooledConnections)
    : undefined;
  const deliver = smtp?.deliver ?? outboxDelivery(settings.outboxDir, settings.from, log);
  const track = (work: Promise<void>) => {
    const tracked = work.finally(() => pending.delete(tracked));
    pending.add(tracked);
  };
  const settled = async () => {
    while (pending.size > 0) await Promise.all([...pending]);
  };
  /** Delivers a message once the removals of its address's mail are done. */
  const start = (message: MailMessage) => {
    const removing = removals.get(addressKey(message.to));
    return removing ? removing.then(() => deliver(message)) : deliver(message);
  };
  return {
    kind: settings.smtpUrl ? 'smtp' : 'outbox',
    send(message) {
      track(
        start(message).catch((error: unknown) =>
          log(`Mail to ${message.to} (${message.subject}) failed: ${(error as Error).message}`),
        ),
      );
    },
    deliver(message) {
      const sent = start(message);
      track(sent.catch(() => undefined));
      return sent;
    },
    removeOutboxMailsTo(address) {
      if (settings.smtpUrl) return;
      const key = addressKey(address);
      // Mail already queued for the address is written first, then removed with the rest.
      const earlier = [...pending];
      const removing = Promise.allSettled(earlier)
        .then(() => {
          const removed = removeMailsTo(settings.outboxDir, key);
          // Not the address: the log outlives the account.
          if (removed > 0) log(`Removed ${removed} mail(s) of a deleted account from the outbox`);
        })
        .catch((error: unknown) =>
          log(
            `Removing a deleted account's mail from the outbox failed: ${(error as Error).message}`,
          ),
        )
        .finally(() => {
          if (removals.get(key) === removing) removals.delete(key);
        });
      removals.set(key, removing);
      track(removing);
    },
    settled,
    async close() {
      await settled();
      smtp?.close();
    },
  };
}

const addressKey = (address: string) => address.trim().toLowerCase();

/** Bytes read from the start of an .eml file to find its headers (ours are well under 2 KB). */
const HEAD_BYTES = 16 * 1024;

/** Removes the .eml files of `dir` whose every recipient (To) is `address`; how many. */
function removeMailsTo(dir: string, address: string): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith('.eml')) continue;
    const file = join(dir, name);
    const recipients = recipientsOf(file);
    if (recipients.length > 0 && recipients.every((to) => to === address)) {
      rmSync(file, { force: true });
      removed += 1;
    }
  }
  return removed;
}

/** The addresses of a mail file's To header, lower-cased; none when it cannot be read. */
function recipientsOf(file: string): string[] {
  const head = Buffer.alloc(HEAD_BYTES);
  let read: number;
  try {
    const fd = openSync(file, 'r');
    try {
      read = readSync(fd, head, 0, HEAD_BYTES, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return [];
  }
  const text = head.toString('utf8', 0, read);
  const end = text.search(/\r?\n\r?\n/);
  if (end === -1) return [];
  // Folded header lines go on with white space.
  const to = text
    .slice(0, end)
    .replace(/\r?\n[ \t]+/g, ' ')
    .split(/\r?\n/)
    .find((line) => /^to:/i.test(line));
  if (!to) return [];
  return to
    .slice(3)
    .split(',')
    .map((part) => (/<([^>]*)>/.exec(part)?.[1] ?? part).trim().toLowerCase())
    .filter((part) => part !== '');
}

function smtpDelivery(smtpUrl: string, from: string, pooledConnections: number | undefined) {
  const transport = pooledConnections
    ? createTransport({ url: smtpUrl, pool: true, maxConnections: pooledConnections })
    : createTransport(smtpUrl);
  return {
    async deliver(message: MailMessage) {
      await transport.sendMail({ from, ...message });
    },
    close: () => transport.close(),
  };
}

function outboxDelivery(outboxDir: string, from: string, log: (line: string) => void) {
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return async (message: MailMessage) => {
    const info = await transport.sendMail({ from, ...message });
    mkdirSync(outboxDir, { recursive: true, mode: 0o700 });
    // Sortable by time, unique within the millisecond.
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
    const file = join(outboxDir, name);
    writeFileSync(file, info.message as Buffer, { mode: 0o600 });
    const shown = relative(process.cwd(), file);
    log(
      `Mail to ${message.to}: "${message.subject}" written to ${shown.startsWith('..') ? file : shown}`,
    );
  };
}
