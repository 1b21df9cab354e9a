// Mail for e-mail verification and password resets, behind one interface: SMTP (nodemailer) when
// DCLEDGER_SMTP_URL is set, otherwise the `mail_outbox` table, which development setups and tests
// read (`dcledger accounts outbox <email>` prints it).
import type { Kysely } from 'kysely';
import nodemailer from 'nodemailer';
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
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.body });
    },
  };
}
