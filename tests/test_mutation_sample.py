"""tools/mutation_sample.py: the sampled mutation check. Only its command line is tested here (a
real run takes minutes and needs mutmut): ``--modules`` samples other modules than the record's,
as a look that is never recorded."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "mutation_sample.py"


def load_tool():
    spec = importlib.util.spec_from_file_location("mutation_sample", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_look_at_other_modules_is_never_recorded(capsys):
    with pytest.raises(SystemExit) as exc:
        load_tool().main(["--modules", "fate_royal/cards/*.py", "--record"])
    assert exc.value.code == 2
    assert "cannot --record" in capsys.readouterr().err


def test_modules_that_match_nothing_are_an_error(capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        load_tool().main(["--modules", "fate_royal/nowhere/*.py", "--work", str(tmp_path / "w")])
    assert exc.value.code == 2
    assert "no module matches fate_royal/nowhere/*.py" in capsys.readouterr().err
    assert not (tmp_path / "w").exists()  # refused before anything was copied
