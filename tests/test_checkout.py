"""The check that the suite leaves the checkout as it found it (tests/checkout.py) sees what a stray test writes."""

from __future__ import annotations

import os

from tests.checkout import changes, snapshot


def test_a_new_file_a_rewritten_one_and_a_removed_one_are_named(tmp_path):
    # Given a checkout with a source file, an ignored data folder, and the suite's scratch folders
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "app.py").write_text("x = 1\n")
    (tmp_path / ".memfix").mkdir()
    beat = tmp_path / ".memfix" / "worker-host.beat"
    beat.touch()
    os.utime(beat, ns=(1, 1))
    (tmp_path / "gone.txt").write_text("bye")
    before = snapshot(tmp_path)
    # When a test refreshes the heartbeat, writes a file, removes one and fills the scratch folders
    beat.touch()
    (tmp_path / "test-output").mkdir()
    (tmp_path / "test-output" / "shot.png").write_bytes(b"png")
    (tmp_path / "gone.txt").unlink()
    for scratch in ("build/pytest", ".venv/lib", "core/__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"):
        (tmp_path / scratch).mkdir(parents=True, exist_ok=True)
        (tmp_path / scratch / "f").write_text("scratch")
    # Then exactly those three are named, the scratch folders not
    assert changes(before, snapshot(tmp_path)) == ["+ test-output/shot.png", "- gone.txt",
                                                   "~ .memfix/worker-host.beat"]


def test_an_untouched_checkout_has_no_changes(tmp_path):
    (tmp_path / "README.md").write_text("# x\n")
    assert changes(snapshot(tmp_path), snapshot(tmp_path)) == []
