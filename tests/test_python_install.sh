#!/usr/bin/env bash
# The Python binding as a user installs it: a fresh virtual environment (python3 -m venv),
# libdamero installed into the environment's prefix with `cmake --install`, the binding
# with `pip install ./python` (offline: --no-build-isolation --no-index, with the
# system's setuptools and wheel), then a probe from a folder away from the source, with
# no DAMERO_LIBRARY: the module must find the library in the prefix by itself. The
# module `cmake --install` puts in share/damero/python/ must find it there too.
#
# Usage: test_python_install.sh BUILD_DIR SOURCE_DIR PYTHON3
#   Exits 77 (skipped) when PYTHON3 lacks venv, setuptools or wheel (Debian:
#   python3-venv, python3-setuptools, python3-wheel). $CMAKE: the cmake to install with.
set -u
export LC_ALL=C
build=$1 src=$2 python=$3 cmake=${CMAKE:-cmake}
. "$(dirname "$0")/cli_harness.sh"

if ! "$python" -c 'import ensurepip, venv, setuptools, wheel' 2>/dev/null; then
  echo "SKIP: $python lacks venv, setuptools or wheel (python3-venv, python3-setuptools, python3-wheel)"
  exit 77
fi
make_tmp python-install
unset DAMERO_LIBRARY PYTHONPATH

venv=$tmp/venv
# The system's site-packages give the environment setuptools and wheel without a network.
check_quiet "python3 -m venv" "$python" -m venv --system-site-packages "$venv" &&
check_quiet "cmake --install $build --prefix $venv" "$cmake" --install "$build" --prefix "$venv" &&
# from a copy: setuptools writes build/ and *.egg-info beside the sources it installs
cp -r "$src/python" "$tmp/python-src"
check_quiet "pip install $src/python" "$venv/bin/python" -m pip install --quiet \
  --no-build-isolation --no-index "$tmp/python-src" &&
check_quiet "damero gen (2 pieces)" "$venv/bin/damero" gen --variant russian --pieces 2 \
  --dir "$tmp/tables" || { summary; exit 1; }

# probe_from DESCRIPTION PYTHON [PYTHONPATH]: imports damero from the folder of the test's
# tables, probes, and checks the module's version and where it found the library.
probe_from() {
  local what=$1 py=$2 path=${3:-} out
  checks=$((checks + 1))
  if ! out=$(cd "$tmp" && env ${path:+PYTHONPATH="$path"} "$py" -c '
import os, sys, damero
prefix = sys.argv[1]
library = os.path.realpath(damero._lib._name)
assert library.startswith(os.path.realpath(prefix) + "/"), library + " is not under " + prefix
assert damero.__version__ == damero.version(), (damero.__version__, damero.version())
with damero.Tables("russian", "tables") as tb:
    assert tb.probe("W:WKa1:BKh8") == damero.Value(damero.LOSS, 2, 2), tb.probe("W:WKa1:BKh8")
print(damero.__file__)
' "$venv" 2>&1); then
    fail "$what:"
    echo "$out" | sed 's/^/    /'
    return
  fi
  case $out in
    "$venv"/*) ;;
    *) fail "$what: imported $out, not the installed module" ;;
  esac
}
probe_from "the pip-installed module probing" "$venv/bin/python"
probe_from "the module cmake installed probing" "$python" "$venv/share/damero/python"

# pip knows the package by the library's version.
checks=$((checks + 1))
shown=$("$venv/bin/python" -m pip show damero 2>/dev/null | sed -n 's/^Version: //p')
header=$(sed -n 's/^#define DAMERO_VERSION_\(MAJOR\|MINOR\|PATCH\) //p' "$src/probe/damero.h" | paste -sd.)
[ -n "$shown" ] && [ "$shown" = "$header" ] ||
  fail "pip show damero says version '$shown', damero.h '$header'"

summary
