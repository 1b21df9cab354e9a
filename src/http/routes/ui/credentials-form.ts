// The e-mail and password form of the sign-up and sign-in pages.
import { csrfField, html, message } from '../../pages/html.js';
import type { PageContext } from './forms.js';

export function credentialsForm(
  context: PageContext,
  action: string,
  submit: string,
  email: string,
  error?: string,
) {
  return html`${message('error', error)}
<form method="post" action="${action}">
${csrfField(context.csrf)}
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${email}" size="40">
<label for="password">Password${action === '/ui/signup' ? ' (at least 10 characters)' : ''}</label>
<input id="password" name="password" type="password" autocomplete="${action === '/ui/signup' ? 'new-password' : 'current-password'}" required minlength="${action === '/ui/signup' ? 10 : 1}" size="40">
<div><button type="submit">${submit}</button></div>
</form>`;
}
