// Mail for e-mail verification and password resets, behind one interface: SMTP (nodemailer) when
// DCLEDGER_SMTP_URL is set, otherwise the `mail_outbox` table, which development setups and tests
// read (`dcledger accounts outbox <email>` prints it). nodemailer is loaded with the first mail
// sent over SMTP: a server with the outbox, or one that sends nothing, never holds it.
import type { Kysely } from 'kysely';
import type { Transporter } from 'nodemailer';
import { insertMail } from '../storage/repositories/self-service.js';
import type { Database } from '../storage/schema.js';

export interface Mail {
  to: string;
  subject: string;
  body: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: Mail): Promise<void>;
}

export function outboxMailer(db: Kysely<Database>, clock: () => Date): Mailer {
  return {
    kind: 'outbox',
    send: (mail) => insertMail(db, mail, clock().toISOString()),
  };
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  let transport: Promise<Transporter> | undefined;
  return {
    kind: 'smtp',
    async send(mail) {
      transport ??= import('nodemailer').then((module) => module.default.createTransport(smtpUrl));
      await (await transport).sendMail({ from, to: mail.to, subject: mail.subject, text: mail.body });
    },
  };
}
