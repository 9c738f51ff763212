// The options on a small window (a phone, upright or on its side): the new game's form, saving
// and opening a game, the settings and the links to the other pages, which lie in the header and
// the toolbar of a wide window, move into one panel behind the Menu button (a disclosure: Esc or
// a click elsewhere closes it), so that the header takes one line and the table gets the height.

const NARROW = '(max-width: 600px), (max-height: 500px)';

const $ = (id) => document.getElementById(id);

/** What the panel holds, in its order. */
function parts() { return [$('newgame'), $('files'), $('settings'), document.querySelector('header nav')]; }

/** Whether the menu's panel is open. */
export function isMenuOpen() { return !$('options').hidden; }

/** Opens (``open``) or closes the menu's panel. */
export function openMenu(open) {
  const button = $('menubutton');
  button.setAttribute('aria-expanded', String(open));
  $('options').hidden = !open;
}

/** Puts the options where the window's width wants them, and makes the Menu button work. */
export function bindMenu() {
  const button = $('menubutton'), panel = $('options');
  // Each part keeps a mark of its place on a wide window, to go back to.
  const homes = parts().map((element) => {
    const home = document.createComment(' a place of the options on a wide window ');
    element.before(home);
    return {element, home};
  });
  const narrow = matchMedia(NARROW);
  const place = () => {
    for (const {element, home} of homes) {
      if (narrow.matches) panel.append(element);
      else home.after(element);
    }
    button.hidden = !narrow.matches;
    openMenu(false);
  };
  button.addEventListener('click', () => openMenu(!isMenuOpen()));
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !isMenuOpen()) return;
    event.stopPropagation();
    openMenu(false);
    button.focus();
  }, true);
  document.addEventListener('pointerdown', (event) => {
    if (isMenuOpen() && !panel.contains(event.target) && !button.contains(event.target)) openMenu(false);
  });
  // A new deal or another page asked for from the panel closes it.
  $('newgame').addEventListener('submit', () => openMenu(false));
  panel.addEventListener('click', (event) => {
    if (event.target.closest('a, button')) openMenu(false);
  });
  narrow.addEventListener('change', place);
  place();
}
