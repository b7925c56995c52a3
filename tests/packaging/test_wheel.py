"""What users install is the wheel: it must carry every zoo artifact and data file the code loads at run time."""

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "interpeval"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out),
                    str(ROOT)], check=True, capture_output=True)
    (path,) = out.glob("interpeval-*.whl")
    return zipfile.ZipFile(path)


def test_wheel_carries_every_zoo_artifact(wheel):
    names = set(wheel.namelist())
    artifacts = sorted(p for p in (PACKAGE / "models" / "artifacts").iterdir() if p.is_dir())
    assert artifacts, "the zoo ships trained heads"
    for folder in artifacts:
        for file in folder.iterdir():
            assert f"interpeval/models/artifacts/{folder.name}/{file.name}" in names, file


def test_every_zoo_name_the_code_mentions_is_in_the_wheel(wheel):
    """Zoo names written in the source (defaults of commands and benchmarks) must resolve in an installed wheel."""
    shipped = {n.split("/")[3] for n in wheel.namelist() if n.startswith("interpeval/models/artifacts/")}
    mentioned = set()
    for source in PACKAGE.rglob("*.py"):
        if source.name == "recipes.py":  # recipe names are what training writes, not what the code loads
            continue
        mentioned |= set(re.findall(r"[\"'`]((?:minilm|me5-small|mpnet)-[a-z0-9-]+)[\"'`]", source.read_text()))
    mentioned -= {"me5-small-q4", "minilm-uncased", "minilm-l6-v2", "mpnet-base"}  # a file, a tokenizer folder,
    # a package, an encoder
    missing = sorted(name for name in mentioned if name not in shipped)
    assert not missing, f"named in the code but not shipped: {missing}"


def test_wheel_carries_package_data_but_no_non_commercial_treebank(wheel):
    names = set(wheel.namelist())
    for file in (PACKAGE / "data").rglob("*"):
        if file.is_file() and "__pycache__" not in file.parts:
            assert f"interpeval/{file.relative_to(PACKAGE).as_posix()}" in names, file
    assert not any("Turkish-IMST" in n for n in names)  # CC BY-NC-SA: a test fixture, not shipped


def test_wheel_fits_pypis_default_file_size_limit(wheel):
    """PyPI refuses files over 100 MB unless the project is granted more: the zoo's heads must fit under it."""
    assert Path(wheel.filename).stat().st_size < 100 * 1000 * 1000


def test_wheel_carries_the_renderers_templates_and_assets(wheel):
    """report/ owns the one Jinja2 environment: every template and asset it loads at run time is in the wheel."""
    from interpeval.report.render import ASSETS

    names = set(wheel.namelist())
    templates = sorted((PACKAGE / "report" / "templates").glob("*.html"))
    assert len(templates) > 10
    for file in templates:
        assert f"interpeval/report/templates/{file.name}" in names, file
    for name in ASSETS:
        assert f"interpeval/report/assets/{name}" in names, name
