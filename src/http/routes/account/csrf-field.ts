// The CSRF token field every account POST body may carry (the header is the other way to send it).
import { Type } from 'typebox';

export const CsrfField = Type.Optional(
  Type.String({ description: 'The CSRF token (or send the X-CSRF-Token header)' }),
);
