"""The programs people run, above the library they use: the event log (``events``), the
sentences that tell what happened in a step."""
