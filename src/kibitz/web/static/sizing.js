// The card size of a round: chosen when a round begins (a game shown, a redeal) or the room
// for the table changes, and then kept move after move, so that no card moves or shrinks
// under the player's pointer as the piles grow. It makes room for the longest each fanned
// pile may get before the round ends, which the view foresees from the rules (``longest``);
// the fans spread for that many cards, kept for the round too.

import {cardSize} from './layout.js';

export class RoundSize {
  constructor() {
    this.key = null;     // the game, its round and the room the size was chosen for
    this.width = null;   // the card width chosen
    this.longest = {};   // the most cards each fanned pile may hold, as foreseen when it was chosen
  }

  /**
   * The card width for the table of ``play`` (a view payload) on ``table`` (as /api/games
   * declares it) in ``width`` x ``height`` pixels: the one chosen for this round and room. A
   * pile grown past what was foreseen (a build longer than the table plans for) makes the
   * cards smaller then, rather than leave the table or hide an index.
   */
  cardWidth(table, play, width, height) {
    const key = `${play.id}:${play.round}:${width}x${height}`;
    const fits = cardSize(table, play.piles, width, height, play.longest || {});
    if (key !== this.key || fits < this.width) {
      this.key = key;
      this.width = fits;
      this.longest = {...(play.longest || {})};
    }
    return this.width;
  }
}
