#!/usr/bin/env python3
"""The page of `damero serve` in headless Chromium: load a position from its URL, read
the value and the moves table from the DOM and compare them with the API, click a move
and check the new URL, FEN and value, step back, edit a position, and fit a phone's
screen. Screenshots of an 8x8 and the 10x10 board go into ARTIFACTS.

usage: test_serve_page.py DAMERO ARTIFACTS
Exits 77 (skipped) when python3-selenium, chromium or chromium-driver is missing."""
import os
import shutil
import sys
import urllib.parse

from py_harness import Checks, get_json, server, temp_tables

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    print("skipped: python3-selenium is not installed (./run.sh installs it)")
    sys.exit(77)

WAIT = 30  # seconds for the page to show an answer


def browser():
    driver_path = shutil.which("chromedriver")
    if not driver_path:
        print("skipped: chromium-driver is not installed (./run.sh installs it)")
        sys.exit(77)
    options = webdriver.ChromeOptions()
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1000,900"]:
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(driver_path), options=options)


def fen_in_url(driver):
    return urllib.parse.parse_qs(urllib.parse.urlsplit(driver.current_url).query).get("fen", [""])[0]


def wait_for_value(driver, fen):
    """Waits until the page shows the answer for fen; returns (value element, move rows)."""
    def shown(d):
        value = d.find_element(By.ID, "value")
        return (d.find_element(By.ID, "fen").get_attribute("value") == fen and
                value.get_attribute("data-wdl") and value)
    value = WebDriverWait(driver, WAIT).until(shown)
    return value, driver.find_elements(By.CSS_SELECTOR, "#moves tbody tr")


def moves_of(rows):
    return [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")] for row in rows]


def api_moves(api):
    dash = lambda n: "-" if n is None else str(n)
    return [[m["move"], m["wdl"], dash(m["dtm"]), dash(m["mtc"])] for m in api["moves"]]


def explore(c, driver, base, variant, fen, artifacts):
    """Loads fen, checks it against the API, plays the best move, comes back."""
    driver.get(f"{base}?variant={variant}&fen={urllib.parse.quote(fen)}")
    _, api = get_json(f"{base}api/{variant}?fen={urllib.parse.quote(fen)}")
    value, rows = wait_for_value(driver, fen)
    c.check(value.get_attribute("data-wdl") == api["wdl"],
            f"{variant} {fen}: the page shows {value.get_attribute('data-wdl')}, the API {api['wdl']}")
    c.check(moves_of(rows) == api_moves(api),
            f"{variant} {fen}: the moves table {moves_of(rows)} != the API's {api_moves(api)}")
    _, under = get_json(f"{base}api/{variant}/rules?fen={urllib.parse.quote(fen)}")
    rules = WebDriverWait(driver, WAIT).until(
        lambda d: d.find_element(By.ID, "rules").get_attribute("data-wdl") and
        d.find_element(By.ID, "rules"))
    c.check(rules.get_attribute("data-wdl") == under["rules"]["wdl"] and
            rules.text.startswith("Under the move-limit rules:"),
            f"{variant} {fen}: the page shows {rules.text!r} under the rules, the API "
            f"{under['rules']['wdl']}")
    squares = driver.find_elements(By.CSS_SELECTOR, "#board rect[data-square]")
    pieces = driver.find_elements(By.CSS_SELECTOR, "#board circle.white, #board circle.black")
    c.check(len(squares) == (50 if variant == "international" else 32),
            f"{variant}: {len(squares)} playable squares drawn")
    c.check(len(pieces) == 3, f"{variant} {fen}: {len(pieces)} pieces drawn, want 3")
    driver.save_screenshot(os.path.join(artifacts, f"page-{variant}.png"))

    best = api["moves"][0]
    rows[0].click()
    value, rows = wait_for_value(driver, best["after"])
    c.check(fen_in_url(driver) == best["after"],
            f"{variant}: after clicking {best['move']} the URL holds {fen_in_url(driver)!r}, want {best['after']!r}")
    _, after = get_json(f"{base}api/{variant}?fen={urllib.parse.quote(best['after'])}")
    c.check(value.get_attribute("data-wdl") == after["wdl"],
            f"{variant}: after {best['move']} the page shows {value.get_attribute('data-wdl')}, want {after['wdl']}")
    driver.find_element(By.ID, "back").click()
    wait_for_value(driver, fen)
    c.check(fen_in_url(driver) == fen, f"{variant}: back did not return to {fen}")
    driver.find_element(By.ID, "forward").click()
    wait_for_value(driver, best["after"])
    c.check(fen_in_url(driver) == best["after"], f"{variant}: forward did not return")

    driver.get(f"{base}?variant={variant}&fen={urllib.parse.quote(fen)}")
    wait_for_value(driver, fen)
    driver.find_element(By.ID, "line-button").click()
    _, line = get_json(f"{base}api/{variant}/line?fen={urllib.parse.quote(fen)}")
    WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "line-end").text)
    shown = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#line li")]
    c.check(shown == line["moves"], f"{variant}: best line {shown} != the API's {line['moves']}")


def edit(c, driver, base):
    """Sets up W:WKa1:BKh8 on an empty russian board, then gives Black the move."""
    driver.get(f"{base}?variant=russian&fen={urllib.parse.quote('W:WKa1,Kc1:BKh8')}")
    wait_for_value(driver, "W:WKa1,Kc1:BKh8")
    driver.find_element(By.ID, "edit").click()
    driver.find_element(By.ID, "clear").click()
    WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "fen").get_attribute("value") == "W:W:B")
    for piece, square in [("wk", 1), ("bk", 32), ("wm", 10), ("wm", 10)]:  # the 2nd click removes
        driver.find_element(By.CSS_SELECTOR, f'#palette [data-piece="{piece}"]').click()
        driver.find_element(By.CSS_SELECTOR, f'#board rect[data-square="{square}"]').click()
    wait_for_value(driver, "W:WKa1:BKh8")
    c.check(fen_in_url(driver) == "W:WKa1:BKh8", f"editing: the URL holds {fen_in_url(driver)!r}")
    driver.find_element(By.ID, "side").click()
    value, rows = wait_for_value(driver, "B:WKa1:BKh8")
    _, api = get_json(f"{base}api/russian?fen={urllib.parse.quote('B:WKa1:BKh8')}")
    c.check(value.get_attribute("data-wdl") == api["wdl"] and moves_of(rows) == api_moves(api),
            f"editing: B:WKa1:BKh8 shows {value.get_attribute('data-wdl')}, {moves_of(rows)}")
    driver.find_element(By.CSS_SELECTOR, '#board rect[data-square="5"]').click()  # the brush: white man
    driver.find_element(By.CSS_SELECTOR, '#board rect[data-square="6"]').click()
    driver.find_element(By.CSS_SELECTOR, '#board rect[data-square="7"]').click()
    five = "B:WKa1,b2,d2,f2:BKh8"
    WebDriverWait(driver, WAIT).until(
        lambda d: d.find_element(By.ID, "fen").get_attribute("value") == five and
        d.find_element(By.ID, "value").get_attribute("class") == "error")
    c.check("no .dtm table" in driver.find_element(By.ID, "value").text,
            f"{five}: the page says {driver.find_element(By.ID, 'value').text!r}")


def from_the_start(c, driver, base):
    """The start button, a position outside the tables: its moves without values, and
    playing one."""
    start = get_json(f"{base}api/russian/start")[1]["fen"]
    moves = get_json(f"{base}api/russian/moves?fen={urllib.parse.quote(start)}")[1]["moves"]
    driver.get(f"{base}?variant=russian&fen={urllib.parse.quote('W:WKa1,Kc1:BKh8')}")
    wait_for_value(driver, "W:WKa1,Kc1:BKh8")
    driver.find_element(By.ID, "start").click()
    WebDriverWait(driver, WAIT).until(
        lambda d: d.find_element(By.ID, "fen").get_attribute("value") == start and
        len(d.find_elements(By.CSS_SELECTOR, "#moves tbody tr")) == len(moves))
    rows = driver.find_elements(By.CSS_SELECTOR, "#moves tbody tr")
    c.check(fen_in_url(driver) == start, f"start: the URL holds {fen_in_url(driver)!r}")
    c.check(moves_of(rows) == [[m["move"], "?", "-", "-"] for m in moves],
            f"start: the moves table {moves_of(rows)}")
    c.check("without their values" in driver.find_element(By.ID, "value").text,
            f"start: the page says {driver.find_element(By.ID, 'value').text!r}")
    rows[0].click()
    WebDriverWait(driver, WAIT).until(lambda d: fen_in_url(d) == moves[0]["after"])
    c.check(len(driver.find_elements(By.CSS_SELECTOR, "#board circle.white")) == 12,
            "start: after the first move, 12 white men drawn")


def phone(c, driver, base, artifacts):
    driver.set_window_size(390, 844)
    fen = "W:WKa1,Kc1:BKh8"
    driver.get(f"{base}?variant=russian&fen={urllib.parse.quote(fen)}")
    wait_for_value(driver, fen)
    overflow = driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    c.check(overflow <= 0, f"on a phone-sized screen the page is {overflow} px too wide")
    board = driver.find_element(By.CSS_SELECTOR, "#board svg").size
    c.check(board["width"] >= 300, f"on a phone the board is {board['width']} px wide")
    driver.save_screenshot(os.path.join(artifacts, "page-russian-phone.png"))


def main():
    damero, artifacts = sys.argv[1], sys.argv[2]
    os.makedirs(artifacts, exist_ok=True)
    c = Checks()
    tmp, tables = temp_tables(damero)
    driver = browser()
    try:
        with server(damero, tables) as base:
            explore(c, driver, base, "russian", "W:WKa1,Kc1:BKh8", artifacts)
            explore(c, driver, base, "international", "W:W28,K46:B7", artifacts)
            edit(c, driver, base)
            from_the_start(c, driver, base)
            phone(c, driver, base, artifacts)
            # the answers with an error status (a half-edited position) are expected
            logs = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"
                    and e["source"] != "network"]
            c.check(not logs, f"the browser's console: {logs}")
    finally:
        driver.quit()
        tmp.cleanup()
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
