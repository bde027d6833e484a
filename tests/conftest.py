"""Test-wide settings: Qt renders offscreen, Hypothesis runs reproducibly."""

from __future__ import annotations

import os

from hypothesis import settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

settings.register_profile("ci", deadline=None, derandomize=True)
settings.load_profile("ci")
