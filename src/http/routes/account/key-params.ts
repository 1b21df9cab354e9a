// What the operations on one key (revoke, rotate, cap) take: the key id in the path, and a body
// that may carry only the CSRF token.
import { Type } from 'typebox';
import { CsrfField } from './csrf-field.js';

export const KeyId = Type.Object({ id: Type.Integer({ minimum: 1, description: 'The key id' }) });

export const NoBody = Type.Optional(Type.Object({ _csrf: CsrfField }));
