"""Lambda package sizes: the webhook, worker and migration bundles built exactly as `sam build` builds them.

Run: `python -m benchmarks.package_size [--platform manylinux2014_x86_64]`. Each bundle is made by the
Makefile target SAM calls (`make build-<Function> ARTIFACTS_DIR=...`) into a temporary directory, with
wheels for the Lambda platform (default: x86_64, as template.yaml says); if pip cannot get wheels for it,
the local platform is used instead and the table says so. Prints unzipped sizes against Lambda's 250 MB
limit (code and layers, unzipped), the zipped size, and the largest parts. Asserts nothing.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT_BYTES = 250 * 1024 * 1024  # unzipped deployment package, including layers
FUNCTIONS = ("WebhookFunction", "WorkerFunction", "MigrateFunction")
MB = 1024 * 1024


def build(function: str, target: Path, platform: str) -> str:
    """Run the Makefile target; the platform it was built for ("local" after a fallback)."""
    base = ["make", "--no-print-directory", "-C", str(ROOT), f"build-{function}", f"ARTIFACTS_DIR={target}",
            f"PYTHON={sys.executable}"]
    attempts = [(platform, [f"LAMBDA_PLATFORM={platform}"]), ("local", ["LAMBDA_PIP_FLAGS="])]
    for name, extra in attempts:
        proc = subprocess.run(base + extra, capture_output=True, text=True)
        if proc.returncode == 0:
            return name
        print(f"  {function}: build for {name} failed: {proc.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        subprocess.run(["rm", "-rf", str(target)], check=False)
    raise SystemExit(f"{function} could not be built")


def tree_size(path: Path) -> int:
    return sum(p.lstat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def zipped_size(path: Path) -> int:
    with tempfile.TemporaryFile() as raw:
        with zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as zf:
            for p in sorted(path.rglob("*")):
                if p.is_file():
                    zf.write(p, p.relative_to(path))
        return raw.tell()


def largest(path: Path, n: int = 5) -> list[tuple[str, int]]:
    parts = [(p.name, tree_size(p) if p.is_dir() else p.stat().st_size) for p in path.iterdir()
             if not p.name.endswith(".dist-info")]
    return sorted(parts, key=lambda x: -x[1])[:n]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--platform", default="manylinux2014_x86_64",
                        help="pip platform tag (template.yaml deploys x86_64; manylinux2014_aarch64 for arm64)")
    parser.add_argument("--functions", nargs="*", default=list(FUNCTIONS), choices=FUNCTIONS)
    args = parser.parse_args(argv)
    print(f"Lambda bundles (python3.11), wheels for {args.platform}; limit 250 MB unzipped")
    print(f"{'function':<18}{'platform':<24}{'unzipped':>11}{'of limit':>10}{'zipped':>10}  largest parts")
    with tempfile.TemporaryDirectory(prefix="memfix-bundles-") as tmp:
        for function in args.functions:
            target = Path(tmp) / function
            built_for = build(function, target, args.platform)
            size = tree_size(target)
            parts = ", ".join(f"{name} {value / MB:.1f}" for name, value in largest(target))
            print(f"{function:<18}{built_for:<24}{size / MB:>8.1f} MB{size / LIMIT_BYTES:>9.0%}"
                  f"{zipped_size(target) / MB:>7.1f} MB  {parts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
