#!/usr/bin/env python3
"""The speed of `damero serve` (the figures bench/RESULTS.md records), against a server
already running at URL on loopback:
  - the API's latency for one position with all its moves, warm (each asked once before);
  - the page: from clicking a move in headless Chromium to its answer shown, timed in
    the page (when python3-selenium is there);
  - requests per second under wrk (Debian's wrk), 10 seconds, over 500 positions;
  - `damero annotate` on a game of 200 plies inside the tables, walked through the API
    by a fixed seed (quiet moves that leave no capture, where there are some).

usage: bench_serve.py URL DAMERO TABLE_DIR VARIANT SEED_FEN..."""
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

POSITIONS = 500


def api_path(variant, fen):
    return f"/api/{variant}?fen={urllib.parse.quote(fen)}"


def get(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.loads(r.read())


def collect(base, variant, seeds):
    """Up to POSITIONS positions, the seeds and the ones their moves lead to, breadth first."""
    seen, queue = [], list(seeds)
    while queue and len(seen) < POSITIONS:
        fen = queue.pop(0)
        if fen in seen:
            continue
        seen.append(fen)
        queue += [m["after"] for m in get(base + api_path(variant, fen).lstrip("/"))["moves"]]
    return seen


def latency(base, variant, fens):
    times = []
    for fen in fens:
        url = base + api_path(variant, fen).lstrip("/")
        get(url)  # warm: the blocks in the cache
        start = time.perf_counter()
        get(url)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95)], times[-1]


# Clicks a move and resolves with the milliseconds until the page shows the answer for
# the position it leads to, timed inside the page (no WebDriver round trip in it).
CLICK_SCRIPT = """
const done = arguments[arguments.length - 1];
const rows = document.querySelectorAll("#moves tbody tr");
const row = rows[arguments[0] % rows.length];
const value = document.getElementById("value");
const observer = new MutationObserver(() => {
  if (value.dataset.wdl && document.getElementById("fen").value === row.dataset.after) {
    observer.disconnect();
    done(performance.now() - start);
  }
});
observer.observe(value, { attributes: true, childList: true, subtree: true });
const start = performance.now();
row.click();
"""


def page(base, variant, fen, clicks=30):
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait
    except ImportError:
        return None
    options = webdriver.ChromeOptions()
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.set_script_timeout(30)
    start_url = f"{base}?variant={variant}&fen={urllib.parse.quote(fen)}"
    times = []
    try:
        driver.get(start_url)
        for k in range(clicks):
            WebDriverWait(driver, 30).until(
                lambda d: d.find_element(By.ID, "value").get_attribute("data-wdl"))
            if not driver.find_elements(By.CSS_SELECTOR, "#moves tbody tr"):
                driver.get(start_url)  # the game is over: from the start again
                continue
            times.append(driver.execute_async_script(CLICK_SCRIPT, k))
    finally:
        driver.quit()
    times.sort()
    return statistics.median(times), times[-1], len(times)


def wrk(base, variant, fens):
    paths = ",\n".join(json.dumps(api_path(variant, f)) for f in fens)
    script = f"""paths = {{{paths}}}
i = 0
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
"""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(script)
    try:
        out = subprocess.run(["wrk", "-t2", "-c16", "-d10s", "-s", f.name, base],
                             capture_output=True, text=True, timeout=60).stdout
    finally:
        os.unlink(f.name)
    return out


def long_game(base, variant, start, plies):
    """The moves of a game from start: quiet moves after which the other side has no
    capture, where there are some, so that the game lasts."""
    rng = random.Random(17)
    fen, moves = start, []
    while len(moves) < plies:
        options = get(base + api_path(variant, fen).lstrip("/"))["moves"]
        if not options:
            break
        quiet = [m for m in options if "-" in m["move"] and all(
            "-" in reply["move"] for reply in
            get(base + api_path(variant, m["after"]).lstrip("/"))["moves"])]
        move = rng.choice(quiet or options)
        moves.append(move["move"])
        fen = move["after"]
    return moves


def annotate(damero, tables, variant, start, moves):
    """(wall, CPU) ms of damero annotate on the game, the best of 5 runs, and of one run
    on the game without its moves (the start-up: tables opened, one position probed)."""
    def timed(text):
        with tempfile.NamedTemporaryFile("w", suffix=".pdn") as f:
            f.write(f'[FEN "{start}"]\n\n{text} *\n')
            f.flush()
            cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
            start_time = time.perf_counter()
            subprocess.run([damero, "annotate", "--dir", tables, "--variant", variant, f.name],
                           check=True, stdout=subprocess.DEVNULL)
            wall = (time.perf_counter() - start_time) * 1000
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            return wall, (after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime) * 1000
    return min(timed(" ".join(moves)) for _ in range(5)), timed("")


def main():
    base, damero, tables, variant, seeds = (sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4],
                                            sys.argv[5:])
    fens = collect(base, variant, seeds)
    print(f"{len(fens)} positions of {variant}, from {len(seeds)} seeds and their moves")
    med, p95, worst = latency(base, variant, fens)
    print(f"API, one position with all its moves, warm: median {med:.2f} ms, "
          f"95% {p95:.2f} ms, max {worst:.2f} ms")
    shown = page(base, variant, seeds[0])
    if shown:
        print(f"page, click on a move to its answer shown: median {shown[0]:.1f} ms, "
              f"max {shown[1]:.1f} ms ({shown[2]} clicks)")
    else:
        print("page: skipped (no python3-selenium)")
    if shutil.which("wrk"):
        print("wrk -t2 -c16 -d10s over those positions:")
        print(wrk(base, variant, fens))
    else:
        print("wrk: skipped (apt-get install wrk)")
    moves = long_game(base, variant, seeds[0], 200)
    game, alone = annotate(damero, tables, variant, seeds[0], moves)
    print(f"damero annotate, a game of {len(moves)} plies inside the tables, best of 5: "
          f"{game[0]:.0f} ms wall, {game[1]:.0f} ms CPU; without its moves (start-up): "
          f"{alone[0]:.0f} ms wall, {alone[1]:.0f} ms CPU")


if __name__ == "__main__":
    main()
