"""platform/ is a source root, never a package: the standard library keeps the name."""

import platform
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_platform_is_the_standard_library() -> None:
    assert Path(platform.__file__).resolve().parent == Path(sysconfig.get_paths()["stdlib"]).resolve()
    assert callable(platform.python_version)


def test_platform_source_root_is_on_the_path_but_has_no_init() -> None:
    assert str(ROOT / "platform") in [str(Path(p).resolve()) for p in sys.path if p]
    assert not (ROOT / "platform" / "__init__.py").exists()


def test_no_app_inside_platform_shadows_a_stdlib_module() -> None:
    for child in (ROOT / "platform").iterdir():
        if child.is_dir() and (child / "__init__.py").exists():
            assert child.name not in sys.stdlib_module_names, child.name
