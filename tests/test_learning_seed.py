"""The learning benchmark's seed: one archive that unpacks once into .memfix/bench/ and repacks to the same bytes."""

from __future__ import annotations

import shutil

from benchmarks import learning


def test_the_seed_archive_unpacks_once_and_repacks_to_the_same_bytes(tmp_path, monkeypatch):
    archive = tmp_path / "benchmarks" / "learning_repo.tar.xz"
    archive.parent.mkdir()
    shutil.copyfile(learning.ARCHIVE, archive)
    committed = archive.read_bytes()
    monkeypatch.setattr(learning, "ARCHIVE", archive)  # unpacks under tmp_path, not this checkout
    seed = learning.unpacked()
    assert list((tmp_path / ".memfix" / "bench").iterdir()) == [seed]  # no staging folder left behind
    assert len(learning.seed_files(seed)) == 40 and (seed / "LICENSE.txt").is_file() and (seed / "SOURCE.md").is_file()
    assert learning.unpacked() == seed
    learning.pack(seed)
    assert archive.read_bytes() == committed  # sorted members, fixed times and owners: a rebuild is byte-identical
