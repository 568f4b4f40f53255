"""A report folder is always one complete report: the new one is written beside it and
swapped in whole, so a failure or a kill mid-write leaves the old one as it was (never an
old README beside new charts), a user's own files in it are kept, and the default folder
is never the project's committed ``reports/`` unless asked for by name."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import analyzer.present.files as files_module
from analyzer.present.files import write_folder
from analyzer.reporting.write import report_owns

OLD = {"README.md": "old report", "sweep-a.png": b"old a", "sweep-b.png": b"old b"}
NEW = {"sweep-a.png": b"new a", "sweep-c.png": b"new c", "README.md": "new report"}


def contents(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def old_report(folder: Path) -> Path:
    write_folder(folder, OLD, report_owns)
    return folder


def test_a_new_report_replaces_the_old_one_whole_and_keeps_the_users_files(tmp_path):
    folder = old_report(tmp_path / "chase-ace")
    (folder / "my-notes.txt").write_text("mine")
    (folder / "drafts").mkdir()
    (folder / "drafts" / "d.md").write_text("draft")
    written = write_folder(folder, NEW, report_owns)
    assert written == [folder / "sweep-a.png", folder / "sweep-c.png", folder / "README.md"]
    assert sorted(p.name for p in folder.iterdir()) == [
        "README.md",
        "drafts",
        "my-notes.txt",
        "sweep-a.png",
        "sweep-c.png",
    ]
    assert (folder / "README.md").read_text() == "new report" and (folder / "sweep-c.png").read_bytes() == b"new c"
    assert (folder / "my-notes.txt").read_text() == "mine" and (folder / "drafts" / "d.md").read_text() == "draft"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chase-ace"]  # no temporary folder left


def test_an_html_report_replaces_a_markdown_one(tmp_path):
    folder = old_report(tmp_path / "fan-tan")
    write_folder(folder, {"report.html": "<html>"}, report_owns)
    assert sorted(p.name for p in folder.iterdir()) == ["report.html"]


@pytest.mark.parametrize("exchange", [True, False], ids=["exchange", "two-renames"])
def test_a_failure_mid_write_leaves_the_old_report_intact(tmp_path, monkeypatch, exchange):
    folder = old_report(tmp_path / "chase-ace")
    if not exchange:  # a system without renameat2's exchange swaps with two renames
        monkeypatch.setattr(files_module, "_exchange", lambda first, second: False)
    written = []

    def failing(path, content):
        if written:
            raise OSError(28, "No space left on device")
        written.append(path)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())

    monkeypatch.setattr(files_module, "_write_file", failing)
    with pytest.raises(OSError, match="No space left"):
        write_folder(folder, NEW, report_owns)
    assert contents(folder) == {name: v if isinstance(v, bytes) else v.encode() for name, v in OLD.items()}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chase-ace"]
    monkeypatch.undo()
    if not exchange:
        monkeypatch.setattr(files_module, "_exchange", lambda first, second: False)
    write_folder(folder, NEW, report_owns)
    assert sorted(p.name for p in folder.iterdir()) == ["README.md", "sweep-a.png", "sweep-c.png"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chase-ace"]


def test_a_folder_is_created_with_the_usual_permissions(tmp_path):
    write_folder(tmp_path / "new" / "spoil-five", {"README.md": "x"}, report_owns)
    umask = os.umask(0)
    os.umask(umask)
    assert (tmp_path / "new" / "spoil-five").stat().st_mode & 0o777 == 0o777 & ~umask


KILLED_WRITER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    import analyzer.present.files as files
    from analyzer.reporting.write import report_owns

    def slow(path, content):  # each chart takes a while, as drawing one does
        path.write_bytes(content)
        print(path.name, flush=True)
        time.sleep(0.2)

    files._write_file = slow
    files.write_folder(Path(sys.argv[1]), {f"chart-{i}.png": b"new" for i in range(50)} | {"README.md": b"new"}, report_owns)
    """
)


def test_a_writer_killed_mid_write_leaves_the_old_report_and_the_next_write_cleans_up(tmp_path):
    folder = old_report(tmp_path / "ace-chasing")
    writer = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(folder)], stdout=subprocess.PIPE, text=True, cwd=Path.cwd()
    )
    for _ in range(3):  # three charts of the new report are written
        assert writer.stdout.readline().strip().startswith("chart-")
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait()
    writer.stdout.close()
    assert contents(folder) == {name: v if isinstance(v, bytes) else v.encode() for name, v in OLD.items()}
    left = [p.name for p in tmp_path.iterdir() if p.name != "ace-chasing"]
    assert len(left) == 1 and left[0].startswith(f".ace-chasing.partial-{writer.pid}-")  # the killed writer's
    time.sleep(0.05)
    write_folder(folder, NEW, report_owns)  # the next write removes it: its process is gone
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ace-chasing"]
    assert (folder / "README.md").read_text() == "new report"


@pytest.fixture
def quick_reports(monkeypatch):
    """``write_report`` writes a one-line page at once (no hand played)."""
    import analyzer.reporting.write as write_module

    def quick(spec, directory, count, seed, report_format, context):
        page = write_module.REPORT_FILES[report_format]
        write_folder(directory, {page: f"new {spec.name}"}, report_owns)
        return directory / page

    monkeypatch.setattr(write_module, "write_report", quick)


def project_folder(path: Path) -> Path:
    path.mkdir(exist_ok=True)
    (path / "pyproject.toml").write_text('[project]\nname = "card-analyzer"\nversion = "0.1.0"\n')
    (path / "reports" / "chase-ace").mkdir(parents=True)
    (path / "reports" / "chase-ace" / "README.md").write_text("committed")
    return path


def test_a_report_inside_the_project_folder_leaves_the_committed_reports_alone(
    cli, tmp_path, monkeypatch, quick_reports
):
    monkeypatch.chdir(project_folder(tmp_path))
    shown = cli("report", "chase-ace", "--hands", "1000", "--no-store")
    assert shown.exit_code == 0, shown.output
    assert (tmp_path / "reports" / "chase-ace" / "README.md").read_text() == "committed"
    assert (tmp_path / "out" / "reports" / "chase-ace" / "README.md").read_text() == "new chase-ace"
    assert shown.stdout.splitlines() == [
        "wrote out/reports/chase-ace/README.md",
        "this is the card-analyzer project folder: the report went to out/reports/, and the committed reports/ "
        "are as they were (--out reports replaces them)",
    ]
    shown = cli("report", "chase-ace", "--hands", "1000", "--no-store", "--out", "reports")  # asked by name
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.splitlines() == ["wrote reports/chase-ace/README.md"]
    assert (tmp_path / "reports" / "chase-ace" / "README.md").read_text() == "new chase-ace"


def test_elsewhere_a_report_goes_to_reports_and_the_api_follows_the_same_rule(
    cli, tmp_path, monkeypatch, quick_reports
):
    import analyzer as ca

    (tmp_path / "pyproject.toml").write_text('[project]\nname = "someone-elses"\n')
    monkeypatch.chdir(tmp_path)
    shown = cli("report", "fan-tan", "--hands", "1000", "--no-store")
    assert shown.stdout.splitlines() == ["wrote reports/fan-tan/README.md"]
    monkeypatch.chdir(project_folder(tmp_path / "project"))
    result = ca.report("fan-tan", hands=1000, store=False)
    assert result.paths == [("fan-tan", Path("out/reports/fan-tan/README.md"))]
    assert not (tmp_path / "project" / "reports" / "fan-tan").exists()
