"""Winnability studies: solve ranges of deals in parallel and keep one row per deal.

:mod:`kibitz.study.store` is the SQLite result store, :mod:`kibitz.study.runner` runs
batches of deals on a local process pool or a Ray cluster, :mod:`kibitz.study.report`
turns the rows into the winnability table.
"""
