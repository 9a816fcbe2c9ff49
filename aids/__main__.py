"""``python -m aids`` is the ``aids`` command."""

from aids.cli import main

raise SystemExit(main())
