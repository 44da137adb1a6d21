"""An unpinned or ranged tool is the release current at the run's time: the newest version its index had published
then (PEP 691's JSON listing with PEP 700's upload times), with a wheel this machine's Python installs, never yanked.
Read from a fake index over real HTTP on 127.0.0.1; the end-to-end test installs the chosen release with pip."""

from __future__ import annotations

import platform
import shutil
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.tools import releases
from core.tools.install import ToolCache
from core.tools.pins import Pin
from core.tools.releases import dated, released_by
from tests.fakes.registry import FakePyPI

PY311 = (3, 11)
ARCH = platform.machine()


@pytest.fixture(autouse=True)
def _fresh_listings():
    releases._listings.clear()  # each test's fake index is another server: nothing read before stands
    yield
    releases._listings.clear()


def _index(tmp_path: Path, uploaded: dict[str, str], **kwargs) -> FakePyPI:
    for name in uploaded:
        (tmp_path / name).write_bytes(b"never fetched: only the listing is read")
    return FakePyPI(tmp_path, uploaded, **kwargs)


BLACK = {"black-23.1.0-py3-none-any.whl": "2023-02-01T10:00:00Z",
         "black-23.12.1-py3-none-any.whl": "2023-12-22T10:00:00Z",
         "black-24.1.0-py3-none-any.whl": "2024-01-26T10:00:00Z"}


def test_an_unpinned_tool_is_the_newest_release_at_the_runs_time(tmp_path):
    with _index(tmp_path, BLACK) as fake:
        pin = Pin("black", "pypi", "black", None, source="black in the CI's `pip install`")
        assert dated(pin, fake.index, PY311).version == "24.1.0"  # now
        with released_by(datetime(2023, 6, 1, tzinfo=UTC)):
            old = dated(pin, fake.index, PY311)
        assert (old.version, old.specifier) == ("23.1.0", "")
        assert old.source == "black in the CI's `pip install`; black 23.1.0 as released by 2023-06-01"
        assert sum(path.startswith("/simple/black") for path in fake.requests) == 1  # the listing read once


def test_a_range_is_resolved_within_it_and_a_pinned_version_is_left_alone(tmp_path):
    with _index(tmp_path, BLACK) as fake:
        ranged = dated(Pin("black", "pypi", "black", None, specifier=">=23,<24"), fake.index, PY311)
        assert (ranged.version, ranged.specifier) == ("23.12.1", "")
        pinned = Pin("black", "pypi", "black", "23.1.0")
        assert dated(pinned, fake.index, PY311) is pinned


def test_only_wheels_this_python_installs_count_and_yanked_ones_never(tmp_path):
    uploaded = {"flake8-6.0.0-py2.py3-none-any.whl": "2022-11-23T10:00:00Z",
                "flake8-6.1.0-py2.py3-none-any.whl": "2023-07-29T10:00:00Z",  # yanked
                "flake8-7.0.0-py2.py3-none-any.whl": "2024-01-04T10:00:00Z",  # needs a newer Python
                f"flake8-7.1.0-cp313-cp313-manylinux_2_17_{ARCH}.whl": "2024-06-15T10:00:00Z",  # another CPython
                "flake8-7.2.0-py3-none-win_amd64.whl": "2024-07-15T10:00:00Z",  # another system
                "flake8-8.0.0.tar.gz": "2024-09-01T10:00:00Z"}  # a source archive: memfix builds none
    with _index(tmp_path, uploaded, requires={"flake8-7.0.0-py2.py3-none-any.whl": ">=3.12"},
                yanked=("flake8-6.1.0-py2.py3-none-any.whl",)) as fake:
        assert dated(Pin("flake8", "pypi", "flake8", None), fake.index, PY311).version == "6.0.0"
        assert dated(Pin("flake8", "pypi", "flake8", None), fake.index, (3, 13)).version == "7.1.0"


def test_a_compiled_wheel_of_this_python_or_its_stable_abi_counts(tmp_path):
    uploaded = {f"ruff-0.5.0-py3-none-manylinux_2_17_{ARCH}.whl": "2024-06-27T10:00:00Z",
                f"mypy-1.10.0-cp311-cp311-manylinux_2_17_{ARCH}.manylinux2014_{ARCH}.whl": "2024-04-24T10:00:00Z",
                f"mypy-1.11.0-cp38-abi3-manylinux_2_17_{ARCH}.whl": "2024-07-19T10:00:00Z"}
    with _index(tmp_path, uploaded) as fake:
        assert dated(Pin("ruff", "pypi", "ruff", None), fake.index, PY311).version == "0.5.0"
        assert dated(Pin("mypy", "pypi", "mypy", None), fake.index, PY311).version == "1.11.0"


def test_unpinned_plugins_are_dated_too_and_pinned_ones_kept(tmp_path):
    uploaded = {**{"flake8-3.8.4-py2.py3-none-any.whl": "2020-10-02T10:00:00Z"},
                "flake8_string_format-0.3.0-py2.py3-none-any.whl": "2020-03-01T10:00:00Z",
                "flake8_string_format-0.4.0-py3-none-any.whl": "2024-05-01T10:00:00Z"}
    with _index(tmp_path, uploaded) as fake:
        pin = Pin("flake8", "pypi", "flake8", "3.8.4", ("flake8-string-format", "flake8-bugbear==20.1.4"))
        with released_by(datetime(2021, 1, 1, tzinfo=UTC)):
            plugins = dated(pin, fake.index, PY311).plugins
        assert plugins == ("flake8-string-format==0.3.0", "flake8-bugbear==20.1.4")


def test_an_index_without_json_or_out_of_reach_leaves_the_pin_to_the_installer(tmp_path):
    (tmp_path / "black-24.1.0-py3-none-any.whl").write_bytes(b"x")
    pin = Pin("black", "pypi", "black", None)
    with FakePyPI(tmp_path) as html_only:  # PEP 503's HTML: no upload times
        assert dated(pin, html_only.index, PY311) is pin
    assert dated(pin, "http://127.0.0.1:9/simple", PY311) is pin
    assert ToolCache(tmp_path, pypi_index="http://127.0.0.1:9/simple").dated(
        Pin("eslint", "npm", "eslint", None)).version is None  # npm ranges are npm's


WHEELHOUSE = Path(__file__).resolve().parents[1] / ".venv" / "wheelhouse"


def test_pip_installs_the_release_current_at_the_runs_time(tmp_path):
    """The real flake8 7.1.1 wheel, listed as uploaded before the push, and a newer release after it: the unpinned
    tool installed for the push is 7.1.1, and the newer file is never fetched."""
    if not (WHEELHOUSE / ".complete").is_file():
        pytest.skip(f"NO WHEELHOUSE: {WHEELHOUSE} is missing; `make setup` downloads it")
    folder = tmp_path / "index"
    folder.mkdir()
    for wheel in WHEELHOUSE.glob("*.whl"):
        shutil.copy(wheel, folder)
    (folder / "flake8-9.0.0-py2.py3-none-any.whl").write_bytes(b"released after the push: never fetched")
    uploaded = {p.name: "2024-08-04T10:00:00Z" for p in folder.iterdir()}
    uploaded["flake8-9.0.0-py2.py3-none-any.whl"] = "2025-01-01T10:00:00Z"
    tools = Path(tempfile.mkdtemp(prefix="memfix-tools-test-"))  # open to the sandbox's user, as the cache must be
    tools.chmod(0o755)
    try:
        with FakePyPI(folder, uploaded) as fake:
            cache = ToolCache(tools / "tools", pypi_index=fake.index)
            with released_by(datetime(2024, 9, 1, tzinfo=UTC)):
                pin = cache.dated(Pin("flake8", "pypi", "flake8", None, source="unpinned"))
            installed = cache.ensure(pin)
            assert (pin.version, installed.version) == ("7.1.1", "7.1.1")
            assert (installed.folder / "bin" / "flake8").is_file()
            assert fake.downloads("flake8-9.0.0-py2.py3-none-any.whl") == 0
    finally:
        shutil.rmtree(tools, ignore_errors=True)
