"""``python -m aids.cli``: the ``aids`` command."""

from aids.cli import main

raise SystemExit(main())
