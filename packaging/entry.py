"""The packaged executable's entry script (PyInstaller freezes this file as ``blacksalt``)."""

from desktop.__main__ import main

raise SystemExit(main())
