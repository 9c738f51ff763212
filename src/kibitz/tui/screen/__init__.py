"""The full-screen terminal table (Textual): the layout in cells, the table widget and the app.

:mod:`kibitz.tui.screen.layout` and :mod:`kibitz.tui.screen.paint` are pure; only the widget
and the app import Textual, so the line player never loads it.
"""
