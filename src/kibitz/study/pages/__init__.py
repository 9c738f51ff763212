"""The reference pages (``docs/winnability.md``, ``docs/odds.md``, ``docs/difficulty.md``,
``docs/benchmarks.md``): their tables and figures, written from the results kept in the
repository, never typed.

- :mod:`~kibitz.study.pages.kept` reads the kept rows (``docs/winnability/``, ``docs/odds/``,
  ``docs/benchmarks/``);
- :mod:`~kibitz.study.pages.tables` writes each generated table as Markdown;
- :mod:`~kibitz.study.pages.figures` draws the figures as SVG (matplotlib, the extra
  ``figures``);
- :mod:`~kibitz.study.pages.blocks` puts the tables between each page's marker lines and
  finds the ones that disagree with the rows;
- :mod:`~kibitz.study.pages.commands` is ``kibitz report --pages`` and ``--figures``.
"""
