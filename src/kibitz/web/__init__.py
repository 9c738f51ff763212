"""The browser player: ``kibitz serve`` runs a local web server that referees games.

The server holds the true state of every game and sends the browser only what a
player may see (:meth:`kibitz.state.State.view`), the legal moves as text and the
counts. Games in progress and finished games live in an SQLite file in the
player's data directory (see :mod:`kibitz.web.store`).
"""
