// Sends the site's mail with nodemailer (docs/product.md section 6): over SMTP when SMTP_URL is set,
// otherwise each message is written as an .eml file to the outbox folder (default data/outbox/)
// and one log line names its recipient, subject and file. Sending never holds up an answer: a
// reply must not take longer when an address has an account (/forgot), so mail goes out in the
// background and a failure is logged; `settled()` lets tests and shutdown wait for it.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createTransport } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  /** The plain-text part, with full URLs. */
  text: string;
  html: string;
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
}

export interface Mailer {
  /** Queues a message; returns at once. */
  send(message: MailMessage): void;
  /** Resolves when every message queued so far has been sent (or has failed and been logged). */
  settled(): Promise<void>;
  /** `smtp` or `outbox`, for the start-up line. */
  readonly kind: 'smtp' | 'outbox';
}

export function createMailer(settings: MailSettings): Mailer {
  const log = settings.log ?? ((line: string) => console.log(line));
  const pending = new Set<Promise<void>>();
  const deliver = settings.smtpUrl
    ? smtpDelivery(settings.smtpUrl, settings.from)
    : outboxDelivery(settings.outboxDir, settings.from, log);
  return {
    kind: settings.smtpUrl ? 'smtp' : 'outbox',
    send(message) {
      const sending = deliver(message)
        .catch((error: unknown) =>
          log(`Mail to ${message.to} (${message.subject}) failed: ${(error as Error).message}`),
        )
        .finally(() => pending.delete(sending));
      pending.add(sending);
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}

function smtpDelivery(smtpUrl: string, from: string) {
  const transport = createTransport(smtpUrl);
  return async (message: MailMessage) => {
    await transport.sendMail({ from, ...message });
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
