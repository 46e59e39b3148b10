"""Builds killed with SIGKILL at seeded random points of the swap (issue 43): once the next
command has begun, the outputs are all-old or all-new, the manifest describes them, and the
next build leaves no temporary file. benchmarks/kill_builds.py kills a full build 20 times."""

from __future__ import annotations

import random

from build_edits import _sub
from build_kills import Killer

QUICK = ("--only", "validate", "--only", "engine", "--only", "notes", "--paper", "a4")


def _edit(content):
    _sub(content / "cards" / "starter.yaml", r'^(    text: "[^"\n]*?)\."$', r'\1. At once."')


def test_builds_killed_at_random_points_leave_all_old_or_all_new(tmp_path):
    killer = Killer(tmp_path / "project", QUICK, _edit, slow=0.15)
    rng = random.Random(43)
    kills = [killer.trial(rng, max_delay=1.2, last=True) for _ in range(3)]
    for kill in kills:
        assert kill.verdict in ("old", "new"), kill
        assert not kill.differs and not kill.left, kill
    assert {k.in_swap for k in kills} & {"staged", "decided"}, kills  # the swap was hit
