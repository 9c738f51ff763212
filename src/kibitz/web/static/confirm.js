// A question asked before something that cannot be taken back (giving up a game for a new deal
// or from the list, resetting the statistics): a dialog of the page, not the browser's.

const $ = (id) => document.getElementById(id);

/** The answer of the question still waiting for its dialog's close event, if any. */
let pending = null;

/**
 * Asks a question in the page's dialog ``dialog`` (an id: its h2 the title, its p the text,
 * its buttons valued yes and no); resolves true when the player chooses yes. ``title``,
 * ``yes`` and ``no``, when given, replace what the dialog says. Esc or no say no. The
 * dialog's close event comes a moment after it closes: a question asked again in that moment
 * answers the earlier one no, and the late event of the earlier close is ignored.
 */
export function askFirst({dialog: id = 'confirm', title, text, yes, no}) {
  const dialog = $(id);
  const words = {h2: title, p: text, 'button[value="yes"]': yes, 'button[value="no"]': no};
  for (const [selector, value] of Object.entries(words)) {
    if (value !== undefined) dialog.querySelector(selector).textContent = value;
  }
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
