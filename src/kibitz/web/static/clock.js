// The clock of active play: it runs only while the player can see the game being played
// (the tab shown, the table on screen, the game not over) and starts again from the time the
// server kept (the view's ``elapsed``), so a reload, a closed tab or a server restart adds
// nothing. The page reports it with every request about the game; the server never takes a
// report ahead of the wall time gone by.

export class ActiveClock {
  constructor() {
    this.base = 0;        // seconds counted up to ``since``
    this.since = null;    // performance.now() when it last started running, null while paused
  }

  /** Start again from ``seconds`` (the server's count), running or not as before. */
  set(seconds) {
    this.base = Math.max(0, Number(seconds) || 0);
    if (this.since !== null) this.since = performance.now();
  }

  /** Run (``true``) or pause (``false``); running twice or pausing twice changes nothing. */
  run(on) {
    if (on && this.since === null) this.since = performance.now();
    else if (!on && this.since !== null) {
      this.base = this.seconds();
      this.since = null;
    }
  }

  get running() { return this.since !== null; }

  /** The seconds of active play so far. */
  seconds() {
    return this.base + (this.since === null ? 0 : (performance.now() - this.since) / 1000);
  }
}

/** ``seconds`` as the page shows them: m:ss, or h:mm:ss past the hour. */
export function formatClock(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  const s = String(whole % 60).padStart(2, '0');
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes}:${s}`;
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}:${s}`;
}
