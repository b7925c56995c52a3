"""``interpeval attribute --executor ray``: the shared executor options reach the run (its own module: the
command starts its own worker, which needs a CPU that no module-wide worker holds)."""

import json

import pytest

from interpeval.store import Store

pytestmark = pytest.mark.slow
TEXTS = ["a fine film", "dull and long", "it works well enough", "not my kind of story"]


def _stored(path):
    with Store(path) as store:
        return {json.dumps(r.config, sort_keys=True): store.instances(r.id) for r in store.runs()}


def test_cli_attribute_on_ray_equals_local(tmp_path, ray_cluster):
    from typer.testing import CliRunner

    from interpeval.cli import app

    file = tmp_path / "lines.txt"
    file.write_text("\n".join(TEXTS) + "\n")
    runner = CliRunner()
    for name, extra in (("local", []), ("ray", ["--executor", "ray", "--workers", "1"])):
        result = runner.invoke(app, ["attribute", str(file), "--method", "saliency", "--chunk", "2", "--store",
                                     str(tmp_path / f"{name}.sqlite"), *extra])
        assert result.exit_code == 0, result.output
        assert f"{len(TEXTS)} explained now" in result.output
    assert _stored(tmp_path / "local.sqlite") == _stored(tmp_path / "ray.sqlite") != {}
    assert ray_cluster.is_initialized()  # the command joined the running cluster and left it running
