// The bodies and answers the sign-up, sign-in and reset routes share.
import { Type } from 'typebox';
import { MessageSchema } from '../../../resources/account.js';
import { documented } from '../../schemas/common.js';
import { CsrfField } from './csrf-field.js';

export const Credentials = Type.Object({
  email: Type.String({ minLength: 3, maxLength: 254, description: 'Your e-mail address' }),
  password: Type.String({ minLength: 1, maxLength: 200, description: 'At least 10 characters' }),
});

/** A mailed token sent back (sign-up, e-mail confirmation, password reset). */
export const Token = Type.Object({ token: Type.String({ minLength: 10, maxLength: 200 }), _csrf: CsrfField });

/** A `{ status, detail }` answer, documented with this example. */
export const messageResponse = (status: string, detail: string) =>
  documented(MessageSchema, { status, detail });
