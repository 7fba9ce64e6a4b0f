"""What the Python tests share: tables built for them, a `damero serve` started
on a free loopback port and stopped at the end."""
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

# The tables the tests probe: small, so that they build in seconds.
TABLES = [("russian", 3), ("international", 3)]


def build_tables(damero, root, tables=TABLES):
    for variant, pieces in tables:
        subprocess.run([damero, "gen", "--variant", variant, "--pieces", str(pieces),
                        "--dir", root], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=300)


@contextlib.contextmanager
def server(damero, tables, *extra):
    """Starts `damero serve --port 0` (a free port) on tables; yields its base URL."""
    with server_process(damero, tables, *extra) as (base, _):
        yield base


@contextlib.contextmanager
def server_process(damero, tables, *extra):
    """As server(), yielding (base URL, the server's subprocess.Popen): its pid, its
    standard output past the first line."""
    proc = subprocess.Popen([damero, "serve", "--dir", tables, "--port", "0", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline()
        found = re.search(r"(http://\S+/)", first)
        if not found:
            proc.kill()
            raise RuntimeError(f"damero serve did not start: {first!r} {proc.stderr.read()!r}")
        yield found.group(1), proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                raise RuntimeError("damero serve did not stop on SIGTERM")
        if proc.returncode != 0:
            raise RuntimeError(f"damero serve exited with {proc.returncode}: "
                               f"{proc.stderr.read()!r}")


def get(url):
    """(status, content type, body) of GET url; errors are answers too."""
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, r.headers.get("Content-Type"), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type"), e.read()


def get_json(url):
    status, _, body = get(url)
    return status, json.loads(body)


class Checks:
    """Counts failed checks; each prints what went wrong."""

    def __init__(self):
        self.failed = 0
        self.passed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL: {what}", file=sys.stderr)
        return ok

    def finish(self):
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


def temp_tables(damero, tables=TABLES):
    """A temporary directory holding the test tables (remove with .cleanup())."""
    tmp = tempfile.TemporaryDirectory(prefix="damero-test-")
    build_tables(damero, os.path.join(tmp.name, "tables"), tables)
    return tmp, os.path.join(tmp.name, "tables")


def sets_without_dtm(damero, tables, root, variant="russian", pieces=3):
    """Two sets of the variant's tables without DTM under root: root/wdl, built WDL-only
    (damero gen --metrics wdl), and root/wdl_mtc, a copy of those in `tables` without
    their .dtm files. Returns the two roots."""
    wdl, wdl_mtc = os.path.join(root, "wdl"), os.path.join(root, "wdl_mtc")
    subprocess.run([damero, "gen", "--variant", variant, "--pieces", str(pieces), "--metrics",
                    "wdl", "--dir", wdl], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=300)
    shutil.copytree(os.path.join(tables, variant), os.path.join(wdl_mtc, variant),
                    ignore=shutil.ignore_patterns("*.dtm"))
    return wdl, wdl_mtc
