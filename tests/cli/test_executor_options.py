"""The shared executor options: on every per-input command, checked before any work starts."""

import pytest
from typer.testing import CliRunner

from interpeval.cli import app

COMMANDS = [["attribute", "--help"], ["evaluate", "--help"], ["quackie", "run", "--help"],
            ["expmrc", "baselines", "--help"], ["plm", "run", "--help"], ["plm", "bench", "--help"],
            ["iqs", "study", "create", "--help"]]


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c[:-1]) for c in COMMANDS])
def test_every_per_input_command_has_the_executor_options(command):
    result = CliRunner().invoke(app, command, env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for option in ("--executor", "--address", "--workers", "--gpus-per-worker"):
        assert option in result.output


@pytest.mark.parametrize("args, option, problem", [
    (["--executor", "spark"], "--executor", "'spark' is not one of local, ray"),
    (["--workers", "2"], "--workers", "needs --executor ray"),
    (["--address", "10.0.0.1:6379"], "--address", "needs --executor ray"),
    (["--executor", "ray", "--workers", "0"], "--workers", ">= 1"),
    (["--executor", "ray", "--gpus-per-worker", "-1"], "--gpus-per-worker", ">= 0"),
])
def test_bad_executor_options_are_one_clear_line(tmp_path, capsys, args, option, problem):
    from interpeval.cli import main

    file = tmp_path / "lines.txt"
    file.write_text("a fine film\n")
    with pytest.raises(SystemExit) as exit_info:
        main(["attribute", str(file), "--store", str(tmp_path / "s.sqlite"), *args])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert f"{option}: " in err and problem in err and "Traceback" not in err
    assert not (tmp_path / "s.sqlite").exists()  # nothing started
