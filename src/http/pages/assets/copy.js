// Copy buttons: <button data-copy="FIELD_ID" data-copy-status="STATUS_ID"> copies the field's value
// (an API key or a webhook secret shown once) and says so in the status element.
for (const button of document.querySelectorAll('button[data-copy]')) {
  button.addEventListener('click', async () => {
    const field = document.getElementById(button.dataset.copy);
    const status = document.getElementById(button.dataset.copyStatus);
    if (!field) return;
    const say = (text) => {
      if (status) status.textContent = text;
    };
    field.select?.();
    try {
      await navigator.clipboard.writeText(field.value ?? field.textContent);
      say('Copied.');
    } catch {
      // Without the asynchronous clipboard (plain http on another host), the selection is copied.
      say(document.execCommand('copy') ? 'Copied.' : 'Select the text and copy it yourself.');
    }
  });
}
