"""``python -m fuyuki``: the same as the ``fuyuki`` command."""

from fuyuki.cli.main import main

main()
