#!/usr/bin/env python3
"""The page of `damero serve` in headless Chromium: load a position from its URL, read
the value and the moves table (with each move's value under the rules) from the DOM and
compare them with the API, click a move and check the new URL, FEN and value, step back,
the best line numbered in pairs (and under the rules where it differs), edit a position,
a position beyond the tables shown plainly, a bad FEN drawing no board, a pasted PDN game
stepped through with its values, and fit a phone's screen. Screenshots of an 8x8 and the 10x10 board go into ARTIFACTS.

usage: test_serve_page.py DAMERO ARTIFACTS
Exits 77 (skipped) when python3-selenium, chromium or chromium-driver is missing."""
import os
import shutil
import subprocess
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


def api_moves(api, rules):
    """The moves table the page should show: the values of the API, the values under the
    rules of its search (/rules)."""
    dash = lambda n: "-" if n is None else str(n)
    category = {m["after"]: m["category"] for m in rules["moves"]}
    return [[m["move"], m["wdl"], category[m["after"]], dash(m["dtm"]), dash(m["mtc"])]
            for m in api["moves"]]


def api_get(base, variant, fen, kind=""):
    return get_json(f"{base}api/{variant}{kind}?fen={urllib.parse.quote(fen)}")[1]


def wait_for_rules(driver):
    return WebDriverWait(driver, WAIT).until(
        lambda d: d.find_element(By.ID, "rules").get_attribute("data-wdl") and
        d.find_element(By.ID, "rules"))


def numbered(driver, list_id):
    """[(number, [moves]), ...] of a list the page numbers in pairs."""
    return [(li.find_element(By.CLASS_NAME, "move-number").text,
             [m.text for m in li.find_elements(By.CLASS_NAME, "ply")])
            for li in driver.find_elements(By.CSS_SELECTOR, f"#{list_id} li")]


def in_pairs(moves, second_first):
    """What `damero line` writes: [("1.", [a, b]), ("2.", [c, d]), ...], or ("1...", [a])
    first when the side that does not move first in the variant is to move."""
    pairs, rest = ([("1...", moves[:1])], moves[1:]) if second_first else ([], moves)
    first = 2 if second_first else 1
    return pairs + [(f"{first + i // 2}.", rest[i:i + 2]) for i in range(0, len(rest), 2)]


def explore(c, driver, base, variant, fen, artifacts):
    """Loads fen, checks it against the API, plays the best move, comes back."""
    driver.get(f"{base}?variant={variant}&fen={urllib.parse.quote(fen)}")
    api = api_get(base, variant, fen)
    under = api_get(base, variant, fen, "/rules")
    value, rows = wait_for_value(driver, fen)
    c.check(value.get_attribute("data-wdl") == api["wdl"],
            f"{variant} {fen}: the page shows {value.get_attribute('data-wdl')}, the API {api['wdl']}")
    rules = wait_for_rules(driver)
    rows = driver.find_elements(By.CSS_SELECTOR, "#moves tbody tr")
    c.check(moves_of(rows) == api_moves(api, under),
            f"{variant} {fen}: the moves table {moves_of(rows)} != the API's {api_moves(api, under)}")
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
    best_line(c, driver, base, variant, fen)


def best_line(c, driver, base, variant, fen):
    """The best line, numbered in pairs as `damero line` numbers it; under the rules too
    where that line differs, else a sentence that it is the same."""
    driver.find_element(By.ID, "line-button").click()
    line = api_get(base, variant, fen, "/line")
    rules_line = api_get(base, variant, fen, "/rules/line")
    WebDriverWait(driver, WAIT).until(
        lambda d: d.find_element(By.ID, "line-end").text and
        "…" not in d.find_element(By.ID, "rules-line-end").text)
    second_first = not fen.startswith("W")
    shown, want = numbered(driver, "line"), in_pairs(line["moves"], second_first)
    c.check(shown == want, f"{variant} {fen}: best line {shown} != {want}")
    shown = numbered(driver, "rules-line")
    end = driver.find_element(By.ID, "rules-line-end").text
    if rules_line["moves"] == line["moves"] and rules_line["rules_result"] == line["result"]:
        c.check(not shown and "the same line" in end,
                f"{variant} {fen}: the same line under the rules, the page shows {shown} {end!r}")
    else:
        want = in_pairs(rules_line["moves"], second_first)
        c.check(shown == want and rules_line["end"] in end,
                f"{variant} {fen}: under the rules {shown} {end!r} != {want}")


def cursed(c, driver, base):
    """Spanish three kings against one: the position and its winning move are wins that
    the 12-move forzosa makes draws; the moves table says so per move, and the best line
    under the rules (it ends when the count runs out) is shown apart from the plain one."""
    fen = "W:WK1,K5,K10:BK2"
    driver.get(f"{base}?variant=spanish&fen={urllib.parse.quote(fen)}")
    wait_for_value(driver, fen)
    wait_for_rules(driver)
    rows = moves_of(driver.find_elements(By.CSS_SELECTOR, "#moves tbody tr"))
    c.check(["win", "cursed-win"] in [row[1:3] for row in rows],
            f"spanish {fen}: no move shown as a win and a cursed-win: {rows}")
    c.check(all(row[2] == "draw" for row in rows if row[1] == "draw"),
            f"spanish {fen}: a draw shown as more under the rules: {rows}")
    best_line(c, driver, base, "spanish", fen)
    c.check(numbered(driver, "rules-line"), f"spanish {fen}: no line under the rules shown")
    fen = "B:WK1,K5,K10:BK9"  # Black to move: the line starts "1... "
    driver.get(f"{base}?variant=spanish&fen={urllib.parse.quote(fen)}")
    wait_for_value(driver, fen)
    best_line(c, driver, base, "spanish", fen)


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
    api = api_get(base, "russian", "B:WKa1:BKh8")
    under = api_get(base, "russian", "B:WKa1:BKh8", "/rules")
    wait_for_rules(driver)
    rows = driver.find_elements(By.CSS_SELECTOR, "#moves tbody tr")
    c.check(value.get_attribute("data-wdl") == api["wdl"] and
            moves_of(rows) == api_moves(api, under),
            f"editing: B:WKa1:BKh8 shows {value.get_attribute('data-wdl')}, {moves_of(rows)}")
    driver.find_element(By.CSS_SELECTOR, '#board rect[data-square="5"]').click()  # the brush: white man
    driver.find_element(By.CSS_SELECTOR, '#board rect[data-square="6"]').click()
    driver.find_element(By.CSS_SELECTOR, '#board rect[data-square="7"]').click()
    five = "B:WKa1,b2,d2,f2:BKh8"
    WebDriverWait(driver, WAIT).until(
        lambda d: d.find_element(By.ID, "fen").get_attribute("value") == five and
        d.find_element(By.ID, "value").get_attribute("class") == "beyond")
    c.check("no .dtm table" in driver.find_element(By.ID, "value").text,
            f"{five}: the page says {driver.find_element(By.ID, 'value').text!r}")


def bad_fen(c, driver, base):
    """A FEN the server cannot read: its sentence as an error, and no board drawn."""
    fen = "W:WKa1,Kz9:BKh8"
    driver.get(f"{base}?variant=russian&fen={urllib.parse.quote(fen)}")
    value = WebDriverWait(driver, WAIT).until(
        lambda d: d.find_element(By.ID, "value").get_attribute("class") == "error" and
        d.find_element(By.ID, "value"))
    c.check("not a square" in value.text, f"bad FEN: the page says {value.text!r}")
    c.check(not driver.find_elements(By.CSS_SELECTOR, "#board svg"),
            "bad FEN: a board is drawn")


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
    c.check(moves_of(rows) == [[m["move"], "?", "?", "-", "-"] for m in moves],
            f"start: the moves table {moves_of(rows)}")
    value = driver.find_element(By.ID, "value")
    c.check("without their values" in value.text and value.get_attribute("class") == "beyond",
            f"start: the page says {value.text!r} as {value.get_attribute('class')}")
    rows[0].click()
    WebDriverWait(driver, WAIT).until(lambda d: fen_in_url(d) == moves[0]["after"])
    c.check(len(driver.find_elements(By.CSS_SELECTOR, "#board circle.white")) == 12,
            "start: after the first move, 12 white men drawn")


def pasted_game(c, driver, base):
    """A PDN game pasted: followed move by move (tags, comments, a NAG, move numbers and
    the result skipped), each move with its value under the rules as the API gives it;
    a click and the step buttons show its positions; an illegal move is named."""
    start = "W:WKa1,Kc1:BKh8"
    line = api_get(base, "russian", start, "/line")["moves"][:3]
    pdn = (f'[Event "test"]\n[FEN "{start}"]\n1. {line[0]} {{a comment}} {line[1]} $1\n'
           f'2. {line[2]} *\n')
    want, fen = [], start
    for move in line:
        played = next(m for m in api_get(base, "russian", fen)["moves"] if m["move"] == move)
        want.append((move, played["category"], played["after"]))
        fen = played["after"]
    driver.get(f"{base}?variant=russian&fen={urllib.parse.quote(start)}")
    wait_for_value(driver, start)
    driver.find_element(By.CSS_SELECTOR, "#game-box summary").click()
    driver.find_element(By.ID, "pdn").send_keys(pdn)
    driver.find_element(By.ID, "pdn-load").click()
    WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game .ply"))
    plies = driver.find_elements(By.CSS_SELECTOR, "#game button.ply")
    shown = [(p.text, p.get_attribute("data-category")) for p in plies]
    c.check(shown == [(m, cat) for m, cat, _ in want], f"game: {shown} != {want}")
    c.check(numbered(driver, "game") == in_pairs(line, False),
            f"game: numbered {numbered(driver, 'game')}")
    plies[1].click()
    wait_for_value(driver, want[1][2])
    driver.find_element(By.ID, "game-forward").click()
    wait_for_value(driver, want[2][2])
    driver.find_element(By.ID, "game-back").click()
    wait_for_value(driver, want[1][2])
    c.check(fen_in_url(driver) == want[1][2], f"game: stepping back shows {fen_in_url(driver)}")
    driver.find_element(By.ID, "pdn").clear()
    driver.find_element(By.ID, "pdn").send_keys(f'[FEN "{start}"] 1. {line[0]} h8-a1 *')
    driver.find_element(By.ID, "pdn-load").click()
    status = WebDriverWait(driver, WAIT).until(
        lambda d: "not legal" in d.find_element(By.ID, "game-status").text and
        d.find_element(By.ID, "game-status"))
    c.check("h8-a1" in status.text, f"game with an illegal move: {status.text!r}")


def game_of_another_variant(c, driver, base):
    """A pasted game's GameType tag: a russian game (25) pasted on the international page
    switches the page to russian and is followed; an english one (21), whose tables the
    server does not have, is refused, saying so."""
    start = "W:WKa1,Kc1:BKh8"
    line = api_get(base, "russian", start, "/line")["moves"][:2]
    driver.get(f"{base}?variant=international&fen={urllib.parse.quote('W:W28,K46:B7')}")
    wait_for_value(driver, "W:W28,K46:B7")
    driver.find_element(By.CSS_SELECTOR, "#game-box summary").click()
    driver.find_element(By.ID, "pdn").send_keys(
        f'[GameType "25"]\n[FEN "{start}"]\n1. {line[0]} {line[1]} *\n')
    driver.find_element(By.ID, "pdn-load").click()
    WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game .ply"))
    wait_for_value(driver, start)
    status = driver.find_element(By.ID, "game-status").text
    c.check(driver.find_element(By.ID, "variant").get_attribute("value") == "russian" and
            "russian game" in status, f"a russian game on the international page: {status!r}")
    c.check([p.text for p in driver.find_elements(By.CSS_SELECTOR, "#game button.ply")] == line,
            "a russian game on the international page: not followed")
    driver.find_element(By.ID, "pdn").clear()
    driver.find_element(By.ID, "pdn").send_keys('[GameType "21"]\n1. 11-15 23-19 *\n')
    driver.find_element(By.ID, "pdn-load").click()
    status = WebDriverWait(driver, WAIT).until(
        lambda d: "GameType 21" in d.find_element(By.ID, "game-status").text and
        d.find_element(By.ID, "game-status"))
    c.check("no tables" in status.text and "25 russian" in status.text,
            f"an english game: {status.text!r}")


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
    subprocess.run([damero, "gen", "--variant", "spanish", "--dir", tables, "KKKvK"],
                   capture_output=True, check=True)
    driver = browser()
    try:
        with server(damero, tables) as base:
            explore(c, driver, base, "russian", "W:WKa1,Kc1:BKh8", artifacts)
            explore(c, driver, base, "international", "W:W28,K46:B7", artifacts)
            cursed(c, driver, base)
            edit(c, driver, base)
            bad_fen(c, driver, base)
            from_the_start(c, driver, base)
            pasted_game(c, driver, base)
            game_of_another_variant(c, driver, base)
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
