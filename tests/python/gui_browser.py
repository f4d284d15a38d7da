#!/usr/bin/env python3
"""A real browser drives `tiao gui`: Debian's headless Chromium, through
Selenium and the system chromedriver, plays a short international game by
clicking (and once by dragging) against Tiao, checks the board the page
draws after every move against pydraughts' own rules, runs a multi-PV
analysis, checks that its lines arrive and the evaluation graph has
points, saves a screenshot, and checks every variant's board and the
notation on its edges.

Usage: gui_browser.py PATH_TO_TIAO [SCREENSHOT.png]
(the screenshot goes to a temporary folder unless a path is given).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from draughts import Board
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WAIT = 30  # seconds for anything the page should show
MY_MOVES = 3


def start_server(binary):
    proc = subprocess.Popen(
        [binary, "gui", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    line = proc.stdout.readline()
    m = re.fullmatch(r"tiao gui: (http://127\.0\.0\.1:\d+/)\n", line)
    assert m, f"unexpected first line {line!r}"
    return proc, m.group(1)


def browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--window-size=1400,950",
    ]:
        options.add_argument(flag)
    # The driver is named, so Selenium never looks for one to download.
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)


def board_of_fen(fen):
    """Square number -> (colour, king) from a pydraughts FEN."""
    pieces = {}
    for part in fen.split(":")[1:]:
        colour = {"W": "white", "B": "black"}[part[0]]
        for item in filter(None, part[1:].split(",")):
            king = item.startswith("K")
            pieces[int(item.lstrip("K"))] = (colour, king)
    return pieces


def page_board(driver):
    """Square number -> (colour, king) as the page's SVG draws it."""
    rows = driver.execute_script(
        "return [...document.querySelectorAll('#board g.piece')]"
        ".map(g => [g.dataset.square, g.dataset.colour, g.dataset.king]);"
    )
    return {int(s): (c, k == "1") for s, c, k in rows}


def history_length(driver):
    return driver.execute_script(
        "return document.querySelectorAll('#history li').length === 0 ? 0 :"
        " [...document.querySelectorAll('#history li')]"
        ".map(li => li.textContent.trim().split(/\\s+/).length - 1)"
        ".reduce((a, b) => a + b, 0);"
    )


def square(driver, number):
    return driver.find_element(By.CSS_SELECTOR, f'#board rect.dark[data-square="{number}"]')


def click_square(driver, number):
    # Clicked where a person clicks: the middle of the square, whatever is
    # drawn on it (a piece, a destination mark).
    ActionChains(driver).move_to_element(square(driver, number)).click().perform()


def play_my_move(driver, board, move, drag):
    path = move.steps_move
    if drag and len(path) == 2:
        src = driver.find_element(By.CSS_SELECTOR, f'#board g.piece[data-square="{path[0]}"]')
        ActionChains(driver).click_and_hold(src).pause(0.1).move_to_element(
            square(driver, path[1])
        ).pause(0.1).release().perform()
        return
    click_square(driver, path[0])
    WebDriverWait(driver, WAIT, ignored_exceptions=[StaleElementReferenceException]).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#board circle.dest")
    )
    dests = {
        int(c.get_attribute("data-square"))
        for c in driver.find_elements(By.CSS_SELECTOR, "#board circle.dest")
    }
    assert path[-1] in dests, f"destination {path[-1]} not shown (shown: {sorted(dests)})"
    # Through the path: each landing square, the destination last.
    for number in path[1:]:
        click_square(driver, number)


def main():
    binary = os.path.abspath(sys.argv[1])
    shot_to = sys.argv[2] if len(sys.argv) > 2 else None
    started = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="tiao-gui-")
    proc, url = start_server(binary)
    driver = None
    try:
        driver = browser(os.path.join(tmp, "profile"))
        # The page redraws from every message: an element found may be
        # replaced before it is read, and is then looked up again.
        wait = WebDriverWait(driver, WAIT, ignored_exceptions=[StaleElementReferenceException])
        driver.get(url)
        wait.until(lambda d: len(page_board(d)) == 40)
        assert d_text(driver, "connection") == "connected"
        assert d_text(driver, "turn").startswith("White to move")
        Select(driver.find_element(By.ID, "limit-kind")).select_by_value("depth")
        limit = driver.find_element(By.ID, "limit-value")
        limit.clear()
        limit.send_keys("4")
        Select(driver.find_element(By.ID, "tiao-side")).select_by_value("black")

        board = Board(variant="standard")
        assert page_board(driver) == board_of_fen(board.fen)
        for turn in range(MY_MOVES):
            legal = sorted(board.legal_moves(), key=lambda m: m.steps_move)
            move = legal[len(legal) // 2]
            play_my_move(driver, board, move, drag=(turn == 1))
            board.push(move)
            mine = board_of_fen(board.fen)
            # Tiao answers at once: the page shows my move, or already Tiao's answer to it.
            replies = {}
            for reply in board.legal_moves():
                after = board.copy()
                after.push(reply)
                replies[reply.pdn_move] = after
            wait.until(
                lambda d: page_board(d) == mine
                or any(page_board(d) == board_of_fen(a.fen) for a in replies.values())
            )
            wait.until(lambda d: history_length(d) == 2 * turn + 2)
            shown = page_board(driver)
            answers = [r for r, a in replies.items() if board_of_fen(a.fen) == shown]
            assert len(answers) == 1, f"the board after Tiao's move matches {answers}"
            board = replies[answers[0]]
            print(f"move {turn + 1}: {move.pdn_move} {answers[0]}")

        # Undo takes back Tiao's answer; redo plays it again.
        Select(driver.find_element(By.ID, "tiao-side")).select_by_value("none")
        driver.find_element(By.ID, "undo").click()
        wait.until(lambda d: history_length(d) == 2 * MY_MOVES - 1)
        driver.find_element(By.ID, "redo").click()
        wait.until(lambda d: history_length(d) == 2 * MY_MOVES)
        assert page_board(driver) == board_of_fen(board.fen)

        # The whole game on the graph: a point for every position.
        driver.find_element(By.ID, "eval-game").click()
        wait.until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#graph circle.pt")) == 2 * MY_MOVES + 1
        )
        wait.until(lambda d: d.find_element(By.ID, "stop").get_attribute("disabled"))

        # Analysis: three lines, streamed, and points on the graph.
        multipv = driver.find_element(By.ID, "multipv")
        multipv.clear()
        multipv.send_keys("3")
        driver.find_element(By.ID, "analyse").click()
        expected = min(3, len(board.legal_moves()))
        wait.until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lines tr.line")) == expected
        )
        wait.until(
            lambda d: min(
                int(r.find_elements(By.TAG_NAME, "td")[1].text)
                for r in d.find_elements(By.CSS_SELECTOR, "#lines tr.line")
            )
            >= 6
        )
        assert driver.find_elements(By.CSS_SELECTOR, "#graph polyline.curve")
        driver.execute_script("window.scrollTo(0, 0);")
        shot = shot_to or os.path.join(tmp, "gui.png")
        driver.save_screenshot(shot)
        assert os.path.getsize(shot) > 10_000, "the screenshot is suspiciously small"
        driver.find_element(By.ID, "analyse").click()  # stop
        wait.until(lambda d: d.find_element(By.ID, "stop").get_attribute("disabled"))
        # The game as PDN.
        driver.find_element(By.ID, "save-pdn").click()
        wait.until(lambda d: "[GameType" in d.find_element(By.ID, "pdn").get_attribute("value"))

        # Every variant's board, with its notation on the edges.
        for variant, pieces, edges in [
            ("russian", 24, set("abcdefgh12345678")),
            ("brazilian", 24, set("abcdefgh12345678")),
            ("canadian", 60, {"1", "6", "67", "72"}),
            ("international", 40, {"1", "5", "46", "50"}),
        ]:
            Select(driver.find_element(By.ID, "variant")).select_by_value(variant)
            wait.until(
                lambda d: d.find_element(By.ID, "board").get_attribute("data-variant") == variant
                and len(page_board(d)) == pieces
            )
            shown = set(
                driver.execute_script(
                    "return [...document.querySelectorAll('#board text.edge')]"
                    ".map(t => t.textContent);"
                )
            )
            assert edges <= shown, f"{variant}: edges {sorted(shown)}"

        assert proc.poll() is None, "the server stopped"
        print(f"gui_browser: 1 passed, 0 failed ({time.monotonic() - started:.1f} s, screenshot {shot})")
    finally:
        if driver is not None:
            driver.quit()
        proc.terminate()
        proc.wait(timeout=10)
        proc.stdout.close()
        shutil.rmtree(tmp, ignore_errors=True)


def d_text(driver, element_id):
    return driver.find_element(By.ID, element_id).text


if __name__ == "__main__":
    main()
