"""The ``fuyuki`` command: one sub-command per job, each thin over an engine."""
