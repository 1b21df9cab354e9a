// The refusals the signed-in account's routes document: no session (401), and for a POST also a
// missing or wrong CSRF token (403).
import { errorResponses } from '../../schemas/common.js';

export const signedIn = errorResponses(401);
export const posted = errorResponses(401, 403);
