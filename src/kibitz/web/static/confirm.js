// A question asked before something that cannot be taken back (giving up a game from the list,
// resetting the statistics): a dialog of the page, not the browser's.

const $ = (id) => document.getElementById(id);

/** The answer of the question still waiting for its dialog's close event, if any. */
let pending = null;

/**
 * Asks ``title`` with ``text`` in the page's question dialog; resolves true when the player
 * chooses ``yes``. Esc or ``no`` say no; a question asked again before the first is answered
 * answers the first no.
 */
export function askFirst({title, text, yes, no = 'Cancel'}) {
  const dialog = $('confirm');
  $('confirmtitle').textContent = title;
  $('confirmtext').textContent = text;
  $('confirmyes').textContent = yes;
  $('confirmno').textContent = no;
  if (pending) pending(false);
  dialog.returnValue = '';
  return new Promise((resolve) => {
    const onClose = () => { if (!dialog.open) answer(dialog.returnValue === 'yes'); };
    const answer = (isYes) => {
      if (pending === answer) pending = null;
      dialog.removeEventListener('close', onClose);
      resolve(isYes);
    };
    pending = answer;
    dialog.addEventListener('close', onClose);
    if (!dialog.open) dialog.showModal();
  });
}
