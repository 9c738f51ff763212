// Saving a game as a record file (the same checksummed text as the terminal's ``save``), and
// opening one: the file is sent as it is, and the server checks it as ``kibitz replay`` does.

/** The largest record file sent to the server, in bytes (the server's own limit). */
export const MAX_OPEN_BYTES = 1_000_000;

/** Why ``play``'s record cannot be saved yet, or '' when it can. */
export function whyNotSaved(play) {
  if (!play) return 'there is no game to save';
  if (play.deal === null) return "a random deal's record holds its number, which is shown when the game ends: save it then";
  return '';
}

/** Downloads the record of ``play`` (the server names the file after its game and deal). */
export function downloadRecord(play) {
  const link = document.createElement('a');
  link.href = `/api/play/${encodeURIComponent(play.id)}/record`;
  link.download = '';
  document.body.append(link);
  link.click();
  link.remove();
}

function base64Of(buffer) {
  const bytes = new Uint8Array(buffer);
  let binary = '';
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}

/**
 * The request body that opens record file ``file`` (its bytes as they are, in base64, and its
 * name); ``leaving``: the game the page leaves. Throws an error saying why for a file too large.
 */
export async function openingBody(file, leaving) {
  if (file.size > MAX_OPEN_BYTES) {
    throw new Error(`${file.name}: ${file.size.toLocaleString('en')} bytes, larger than a record file can be here ` +
      `(at most ${MAX_OPEN_BYTES.toLocaleString('en')} bytes)`);
  }
  const body = {name: file.name, data: base64Of(await file.arrayBuffer())};
  if (leaving) body.leaving = leaving;
  return body;
}

/** What the page says of game ``data`` opened from file ``name``. */
export function openedWords(name, data, deal) {
  const where = data.status === 'won' ? `won in ${data.moves} moves (undo or restart to replay it)`
    : data.status === 'over' ? `over after ${data.moves} moves (undo or restart to replay it)`
    : `${data.moves} move${data.moves === 1 ? '' : 's'} played`;
  return `opened ${name}: ${data.name}, ${deal}, ${where}; an opened game is a practice game and never counts`;
}
