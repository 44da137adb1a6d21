"""Letters: parsing rules and every bad file, then sync against the real database and the fake GitHub."""

from __future__ import annotations

from datetime import date

import pytest

from core.errors import GitHubPermanentError, GitHubTransientError, PermanentError
from core.github.client import GitHubApp
from core.memory.entries import Entries
from core.memory.letters import (
    DEFAULT_TAGS,
    MAX_LETTER_BYTES,
    LetterError,
    LetterSync,
    SyncReport,
    is_letter_path,
    parse_letter,
)
from core.wire import PushJob
from tests.fakes.github import fake_github_settings

REPO = "acme/widgets"
PATH = ".memory/letter_20240315_a1B2.md"


def parse(text: str | bytes, path: str = PATH):
    return parse_letter(REPO, path, text.encode() if isinstance(text, str) else text)


def reason(text: str | bytes, path: str = PATH) -> str:
    with pytest.raises(LetterError) as caught:
        parse(text, path)
    assert caught.value.path == path
    return caught.value.reason


# ---- paths ----

@pytest.mark.parametrize(("path", "expected"), [
    (PATH, True),
    (".memory/letter_2024.md", True),  # misnamed: reported, not ignored
    (".memory/LETTER_20240315_abcd.MD", True),
    (".memory/drafts/letter_20240315_abcd.md", True),  # misplaced: reported
    (".memory/notes.md", False),
    (".memory/letter_20240315_abcd.txt", False),
    ("docs/.memory/letter_20240315_abcd.md", False),
    ("letter_20240315_abcd.md", False),
    (".memory", False),
])
def test_is_letter_path(path, expected):
    assert is_letter_path(path) is expected


# ---- parsing ----

def test_a_plain_letter_becomes_an_entry():
    entry = parse("# Use UTC everywhere\n\nLocal times broke the nightly job.\n")
    assert entry.title == "Use UTC everywhere"
    assert entry.content == "# Use UTC everywhere\n\nLocal times broke the nightly job."
    assert entry.tags == DEFAULT_TAGS == ("memory", "imported")
    assert entry.letter_date == date(2024, 3, 15)
    assert (entry.source, entry.repository) == ("github", REPO)
    assert entry.source_ref == f"github://{REPO}/{PATH}"


def test_the_first_heading_wins_over_yaml_title_and_front_matter_is_stripped():
    entry = parse("---\ntitle: From YAML\ntags: [db, ops]\n---\nIntro.\n\n## Sub\n# Heading ##\n# Second\n")
    assert entry.title == "Heading"
    assert entry.content == "Intro.\n\n## Sub\n# Heading ##\n# Second"
    assert entry.tags == ("db", "ops")


def test_yaml_title_when_there_is_no_heading():
    assert parse("---\ntitle: '  Retry budgets '\n---\nKeep them small.\n").title == "Retry budgets"


def test_file_name_when_there_is_neither_heading_nor_yaml_title():
    entry = parse("---\ntags: x\n---\n#hashtag is not a heading\n## nor is a level two\n")
    assert entry.title == "letter_20240315_a1B2"


def test_a_comment_in_a_code_block_is_not_the_title():
    entry = parse("```bash\n# install first\nmake\n```\n~~~\n# nor this\n~~~\n# Real title\n")
    assert entry.title == "Real title"


@pytest.mark.parametrize(("heading", "title"), [
    ("# Retry" + " " * 50_000 + "budgets", "Retry" + " " * 50_000 + "budgets"),  # a lazy match re-read the run
    ("# Retry budgets" + " " * 50_000 + "##" + " " * 50_000, "Retry budgets"),  # closing #s dropped
    ("#" + " " * 50_000 + "##", "##"), ("# #", "#"), ("#  ##  ", "##"), ("# a#", "a#"), ("# a #\t", "a #"),
])
def test_a_heading_is_read_once_however_long_its_runs_of_spaces(heading, title):
    assert parse(f"{heading}\nbody\n").title == title


@pytest.mark.parametrize(("front", "tags"), [
    ("tags: [Security, ' api ', Security, 3]", ("Security", "api", "3")),
    ("tags: 'db, ops ,, db'", ("db", "ops")),
    ("tags: []", DEFAULT_TAGS),
    ("tags:", DEFAULT_TAGS),
    ("title: only a title", DEFAULT_TAGS),
])
def test_tags(front, tags):
    assert parse(f"---\n{front}\n---\nbody\n").tags == tags


def test_windows_line_endings_and_a_bom_are_accepted():
    entry = parse(b"\xef\xbb\xbf---\r\ntags: [a]\r\n---\r\n# Title\r\nbody\r\n")
    assert (entry.title, entry.tags, entry.content) == ("Title", ("a",), "# Title\nbody")


def test_the_suffix_is_case_insensitive_alphanumerics():
    for name in ("letter_20240229_ABCD.md", "letter_20240229_ab12.md", "letter_20240229_0000.md"):
        assert parse("x", f".memory/{name}").letter_date == date(2024, 2, 29)


@pytest.mark.parametrize("name", [
    "letter_2024.md", "letter_2024031_abcd.md", "letter_20240315_abc.md", "letter_20240315_abcde.md",
    "letter_20240315_ab-d.md", "letter_20240315_abcd.MD", "Letter_20240315_abcd.md", "letter_20240315abcd.md",
    "letter_20240315_abçd.md",
])
def test_misnamed_files_are_reported(name):
    assert "does not match letter_YYYYMMDD_XXXX.md" in reason("# ok\n", f".memory/{name}")


@pytest.mark.parametrize("digits", ["20231345", "20230230", "20230001", "00000101"])
def test_impossible_dates_are_reported(digits):
    expected = f"{digits} in the file name is not a real date (YYYYMMDD)"
    assert reason("# ok\n", f".memory/letter_{digits}_abcd.md") == expected


def test_a_letter_in_a_subfolder_is_reported():
    assert "directly in the .memory/ folder" in reason("# ok\n", ".memory/drafts/letter_20240315_abcd.md")


@pytest.mark.parametrize(("front", "problem"), [
    ("title: ok\ntags: a: b\nz: 1", "mapping values are not allowed here (line 3 of the file)"),
    ("title: ok\ntags: [a, b", "expected ',' or ']', but got '<stream end>' (line 3 of the file)"),
])
def test_malformed_yaml_is_reported_with_its_line(front, problem):
    assert reason(f"---\n{front}\n---\nbody\n") == f"front matter is not valid YAML: {problem}"


def test_front_matter_that_never_closes_is_reported():
    assert "no closing '---'" in reason("---\ntitle: x\nbody\n")


@pytest.mark.parametrize(("front", "kind"), [("- a\n- b", "a list"), ("just words", "plain text"), ("42", "a number")])
def test_yaml_that_is_not_a_mapping_is_reported(front, kind):
    assert reason(f"---\n{front}\n---\nbody\n") == f"front matter must be 'key: value' lines, not {kind}"


@pytest.mark.parametrize(("front", "expected"), [
    ("tags: {a: 1}", "YAML tags must be a list or a comma-separated string, not a mapping"),
    ("tags: [[a]]", "YAML tags must be a list or a comma-separated string, not a list"),
    ("title: [a, b]", "YAML title must be text, not a list"),
])
def test_wrongly_typed_yaml_fields_are_reported(front, expected):
    assert reason(f"---\n{front}\n---\nno heading here\n") == expected


def test_non_utf8_is_reported():
    assert reason(b"# Caf\xe9\n") == "file is not UTF-8 text (invalid byte at offset 5)"


def test_oversized_is_reported_and_the_limit_itself_is_allowed():
    body = b"# big\n" + b"x" * (MAX_LETTER_BYTES - 6)
    assert len(parse(body).content) == MAX_LETTER_BYTES
    assert reason(body + b"x") == "file is larger than 256 KiB, the limit for a letter"


@pytest.mark.parametrize("text", [b"", b"  \n\n\t\n", b"\xef\xbb\xbf"])
def test_empty_file_is_reported(text):
    assert reason(text) == "file is empty"


def test_front_matter_without_a_body_is_reported():
    assert reason("---\ntitle: x\n---\n\n") == "letter has front matter but no text after it"


def test_a_letter_error_reads_as_path_and_reason():
    err = LetterError(PATH, "file is empty")
    assert str(err) == f"{PATH}: file is empty"
    assert isinstance(err, PermanentError)


# ---- sync ----

def letter(n: int, day: str = "20240315") -> str:
    return f".memory/letter_{day}_{n:04d}.md"


@pytest.fixture
def entries(db) -> Entries:
    return Entries(db)


@pytest.fixture
def letters(entries) -> LetterSync:
    return LetterSync(entries)


def test_sync_creates_updates_and_deletes_by_source_ref(letters, entries, tenant_id):
    first = letters.sync(tenant_id, REPO, added_or_modified={letter(1): b"# Alpha\nfirst"}, removed=[])
    assert (first.created, first.updated) == ([letter(1)], [])
    [(entry, _)] = entries.search(tenant_id, "alpha")

    again = letters.sync(tenant_id, REPO, added_or_modified={letter(1): b"# Alpha two\nsecond"}, removed=[])
    assert (again.created, again.updated) == ([], [letter(1)])
    assert entries.count(tenant_id) == 1
    updated = entries.get(tenant_id, entry.id)
    assert (updated.title, updated.content) == ("Alpha two", "# Alpha two\nsecond")

    gone = letters.sync(tenant_id, REPO, added_or_modified={}, removed=[letter(1), letter(9)])
    assert gone.deleted == [letter(1)]  # letter 9 was never imported: nothing to report
    assert entries.count(tenant_id) == 0


def test_one_bad_file_among_good_ones(letters, entries, tenant_id):
    report = letters.sync(
        tenant_id, REPO,
        added_or_modified={
            letter(1): b"# One\nok",
            letter(2): b"---\ntags: [a\n---\nbroken",
            letter(3): OSError("connection reset"),
            ".memory/letter_2024.md": b"# misnamed",
            letter(4): b"# Four\nok",
        },
        removed=[],
    )
    assert report.created == [letter(1), letter(4)]
    assert [path for path, _ in report.skipped] == [letter(2), letter(3), ".memory/letter_2024.md"]
    assert report.skipped[0][1].startswith("front matter is not valid YAML")
    assert report.skipped[1][1] == "could not be read: connection reset"
    assert "does not match" in report.skipped[2][1]
    assert entries.count(tenant_id) == 2


def test_letters_of_two_repositories_do_not_collide(letters, entries, tenant_id):
    for repo in (REPO, "acme/other"):
        letters.sync(tenant_id, repo, added_or_modified={letter(1): b"# Same path"}, removed=[])
    assert entries.count(tenant_id) == 2
    assert entries.count(tenant_id, REPO) == 1
    letters.sync(tenant_id, "acme/other", added_or_modified={}, removed=[letter(1)])
    assert [e.repository for e, _ in entries.search(tenant_id, "same path")] == [REPO]


def test_report_markdown():
    report = SyncReport(created=["a"], deleted=["b"], skipped=[("c", "file is empty")])
    assert report.markdown() == (
        "**Memory letters:** 1 created, 0 updated, 1 deleted, 1 skipped\n"
        "- created `a`\n- deleted `b`\n- skipped `c`: file is empty"
    )
    assert SyncReport().empty and not report.empty


def push_job(tenant_id, **files) -> PushJob:
    return PushJob(tenant_id=tenant_id, delivery_id="d", repo=REPO, after="abc1234def", **files)


def test_sync_push_reads_letters_through_github(letters, entries, tenant_id, fake_github):
    fake_github.add_repo(REPO, {"README.md": "hi", letter(1): "# Old\nold"})
    after = fake_github.push(REPO, "main", {
        letter(1): None, letter(2): "# Deploys\nfreeze on Fridays", ".memory/notes.md": "not a letter",
        "src/app.py": "print()",
    })
    letters.sync(tenant_id, REPO, added_or_modified={letter(1): b"# Old\nold"}, removed=[])
    job = PushJob(tenant_id=tenant_id, delivery_id="d", repo=REPO, after=after,
                  added=(letter(2), ".memory/notes.md", "src/app.py", letter(3)), removed=(letter(1),))
    app = GitHubApp(fake_github_settings(fake_github))
    try:
        gh = app.for_installation(tenant_id)
        report = letters.sync_push(tenant_id, job, lambda p: (text := gh.get_file(REPO, p, after)) and text.encode())
    finally:
        app.close()
    assert report.created == [letter(2)]
    assert report.deleted == [letter(1)]
    assert report.skipped == [(letter(3), f"could not be read: not found at commit {after[:7]}")]
    assert [e.title for e, _ in entries.search(tenant_id, "fridays")] == ["Deploys"]


def test_sync_push_reports_a_file_that_cannot_be_fetched_and_goes_on(letters, entries, tenant_id):
    def fetch(path):
        if path == letter(2):
            raise GitHubPermanentError(f"{REPO}:{path} is not UTF-8 text")
        return b"# fine"

    job = push_job(tenant_id, added=(letter(1), letter(2)), modified=(letter(3),))
    report = letters.sync_push(tenant_id, job, fetch)
    assert report.created == [letter(1), letter(3)]
    assert report.skipped == [(letter(2), f"could not be read: {REPO}:{letter(2)} is not UTF-8 text")]


def test_sync_push_lets_a_transient_error_retry_the_job(letters, entries, tenant_id):
    def fetch(path):
        raise GitHubTransientError("GitHub is having a moment", 502)

    with pytest.raises(GitHubTransientError):
        letters.sync_push(tenant_id, push_job(tenant_id, added=(letter(1),)), fetch)


def test_sync_push_ignores_pushes_without_letters(letters, tenant_id):
    fetched = []
    report = letters.sync_push(tenant_id, push_job(tenant_id, added=("README.md",), removed=("x.md",)), fetched.append)
    assert report.empty and fetched == []


def test_import_directory_from_a_checkout_or_the_folder_itself(letters, entries, tenant_id, tmp_path):
    memory = tmp_path / ".memory"
    (memory / "drafts").mkdir(parents=True)
    (memory / "letter_20240101_aaaa.md").write_text("# Imported one\nbody")
    (memory / "letter_20240102_bbbb.md").write_bytes(b"\xff\xfe")
    (memory / "letter_20241301_cccc.md").write_text("# bad date")
    (memory / "drafts" / "letter_20240103_dddd.md").write_text("# nested")
    (memory / "notes.md").write_text("# not a letter")
    (tmp_path / "letter_20240104_eeee.md").write_text("# outside .memory")

    report = letters.import_directory(tenant_id, REPO, tmp_path)
    assert report.created == [".memory/letter_20240101_aaaa.md"]
    assert sorted(path for path, _ in report.skipped) == [
        ".memory/drafts/letter_20240103_dddd.md", ".memory/letter_20240102_bbbb.md", ".memory/letter_20241301_cccc.md",
    ]
    [(entry, _)] = entries.search(tenant_id, "imported one")
    assert (entry.source, entry.source_ref) == ("import", f"github://{REPO}/.memory/letter_20240101_aaaa.md")

    assert letters.import_directory(tenant_id, REPO, memory).updated == [".memory/letter_20240101_aaaa.md"]
    assert entries.count(tenant_id) == 1


def test_import_directory_reads_no_more_than_the_limit(letters, tenant_id, tmp_path):
    (tmp_path / ".memory").mkdir()
    (tmp_path / ".memory" / "letter_20240101_aaaa.md").write_bytes(b"x" * (MAX_LETTER_BYTES * 4))
    report = letters.import_directory(tenant_id, REPO, tmp_path)
    too_large = "file is larger than 256 KiB, the limit for a letter"
    assert report.skipped == [(".memory/letter_20240101_aaaa.md", too_large)]


def test_import_directory_refuses_a_missing_folder_or_a_bad_repository(letters, tenant_id, tmp_path):
    with pytest.raises(PermanentError, match="is not a folder"):
        letters.import_directory(tenant_id, REPO, tmp_path)
    with pytest.raises(PermanentError, match="not owner/name"):
        letters.import_directory(tenant_id, "widgets", tmp_path)
