"""Build the standalone app (one folder, runs without a Python install) with PyInstaller.

    pip install 'pyinstaller>=6.10,<7'
    python packaging/build.py [--smoke OUT.png]

from the repository root, in the environment where fate_royal and its dependencies are installed
(the development venv). The result is ``dist/fate-royal/``: start ``dist/fate-royal/fate-royal``
(``fate-royal.exe`` on Windows); copy or zip the whole folder to hand it on. Prints the build time
and the bundle's size. ``--smoke OUT.png`` then runs the bundle once with ``--screenshot OUT.png``
(on the offscreen platform unless QT_QPA_PLATFORM is set) and fails unless it wrote the image.

A bundle is built for the system it is built on: build on Linux for Linux, on Windows for Windows.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "packaging" / "fate-royal.spec"
NAME = "fate-royal"


def folder_size(folder: Path) -> tuple[int, int]:
    """(bytes, files) under ``folder``, symlinks not followed."""
    total = files = 0
    for dirpath, _, names in os.walk(folder):
        for name in names:
            path = Path(dirpath) / name
            if not path.is_symlink():
                total += path.stat().st_size
                files += 1
    return total, files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", default=str(ROOT / "dist"), help="output folder (default: dist/)")
    parser.add_argument("--work", default=str(ROOT / "build" / "pyinstaller"),
                        help="PyInstaller's work folder (default: build/pyinstaller/)")
    parser.add_argument("--smoke", metavar="OUT.png", help="run the bundle once with --screenshot OUT.png")
    args = parser.parse_args(argv)
    try:
        import PyInstaller  # noqa: F401
    except ImportError:
        print("build: PyInstaller is not installed here: pip install 'pyinstaller>=6.10,<7'",
              file=sys.stderr)
        return 1
    command = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
               "--distpath", args.dist, "--workpath", args.work, str(SPEC)]
    print("build:", " ".join(command), flush=True)
    started = time.perf_counter()
    status = subprocess.call(command, cwd=ROOT)
    seconds = time.perf_counter() - started
    if status != 0:
        print(f"build: PyInstaller failed with status {status}", file=sys.stderr)
        return status
    bundle = Path(args.dist) / NAME
    program = bundle / (NAME + (".exe" if os.name == "nt" else ""))
    if not program.is_file():
        print(f"build: {program} was not made", file=sys.stderr)
        return 1
    size, files = folder_size(bundle)
    print(f"build: {bundle} in {seconds:.0f} s: {size / 2**20:.1f} MiB in {files} files")
    if args.smoke:
        return smoke(program, Path(args.smoke))
    return 0


def smoke(program: Path, out: Path) -> int:
    """Run the bundle with --screenshot from outside the repository, without Python's variables."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "FATE_ROYAL_DATA")}
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    if out.exists():
        out.unlink()
    started = time.perf_counter()
    proc = subprocess.run([str(program), "--players", "4", "--seed", "1", "--screenshot",
                           str(out.resolve())], env=env, cwd=out.resolve().parent,
                          stdin=subprocess.DEVNULL, timeout=300)
    seconds = time.perf_counter() - started
    if proc.returncode != 0 or not out.is_file() or out.stat().st_size == 0:
        print(f"build: the bundle did not write {out} (status {proc.returncode})", file=sys.stderr)
        return 1
    print(f"build: the bundle wrote {out} ({out.stat().st_size} bytes) in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
