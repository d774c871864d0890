"""The programs people run, above the library they use (``docs/architecture.md``, "Layers"):
the terminal game (``play``), the browser game (``web``), the record viewer (``view``, with the
page's scripts in ``view_assets/``), the demo (``demo``), the table picture command
(``picture``) and the event log (``events``: the sentences they all tell), with the card choices
of human play (``card_sets``). ``python -m cardenvs.play``, ``cardenvs.view``, ``cardenvs.demo``
and the documented ``cardenvs.view`` and ``cardenvs.web`` imports stay at the package's top."""
