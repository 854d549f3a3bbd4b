#!/usr/bin/python3
"""The web playground in a real browser: starts `troyka serve` on a free port and drives headless
Chromium through Selenium as a class would use the page. It picks Breakthrough, makes a mistake in
the rules and sees the diagnostic at its line, fixes it, plays moves by clicking cells against an
agent, steps through a game record, and analyses the game against its 7x7 variant; then it plays
Breakthrough for three players, a seat a row, and steps through a three-player record to its
ranking. Screenshots go to --screenshots.

    tests/browser/playground_test.py --troyka build/troyka --screenshots build/browser-screenshots

Needs python3-selenium, chromium and chromium-driver (scripts/setup installs them); without them
the test fails, it does not skip.
"""
import argparse
import os
import re
import subprocess
import sys
import unittest

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RECORD = os.path.join(ROOT, "tests", "data", "records", "breakthrough-mcts-vs-random.record")
# A random game of Breakthrough for three players on 8x8 that Black won: ranks 2-2-1.
THREE_PLAYER_RECORD = os.path.join(ROOT, "tests", "data", "records", "breakthrough-3-players-random.record")
BREAKTHROUGH = os.path.join(ROOT, "games", "breakthrough.game")
OPTIONS = None  # the command line's --troyka and --screenshots


def read_text(path):
    with open(path, encoding="utf-8") as file:
        return file.read()


def start_server():
    """Starts `troyka serve` on a port the system picks; returns the process and the page's URL."""
    server = subprocess.Popen(
        [OPTIONS.troyka, "serve", "--bind", "127.0.0.1:0", "--games-dir", os.path.join(ROOT, "games")],
        stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    found = re.search(r"http://[0-9.]+:[0-9]+/", line)
    if not found:
        server.kill()
        raise RuntimeError(f"troyka serve did not say where it listens: {line!r}")
    return server, found.group(0)


def start_browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1500,1100"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


class Playground(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        os.makedirs(OPTIONS.screenshots, exist_ok=True)
        cls.server, cls.url = start_server()
        try:
            cls.browser = start_browser()
        except Exception:
            cls.server.kill()
            raise
        cls.wait = WebDriverWait(cls.browser, 30)

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        cls.server.terminate()
        cls.server.wait(timeout=10)
        cls.server.stdout.close()

    def screenshot(self, name):
        self.browser.save_screenshot(os.path.join(OPTIONS.screenshots, name))

    def find(self, css):
        return self.browser.find_element(By.CSS_SELECTOR, css)

    def set_rules(self, text):
        """Replaces the editor's text as typing would: the page hears an input event."""
        self.browser.execute_script(
            "const editor = document.getElementById('rules'); editor.value = arguments[0];"
            "editor.dispatchEvent(new Event('input'));", text)

    def wait_for_text(self, css, pattern):
        self.wait.until(lambda browser: re.search(pattern, browser.find_element(By.CSS_SELECTOR, css).text),
                        f"{css} never matched {pattern!r}")
        return self.find(css).text

    def test_1_edit_rules_and_see_the_diagnostic(self):
        self.browser.get(self.url)
        self.wait.until(lambda browser: len(Select(self.find("#game-list")).options) > 5)
        Select(self.find("#game-list")).select_by_value("breakthrough.game")
        self.wait_for_text("#diagnostic", r"✔ Breakthrough: 8x8 rectangle")
        original = read_text(BREAKTHROUGH)
        broken = original.replace("(step (forward forward-left", "(step (foward forward-left", 1)
        line = broken[:broken.index("foward")].count("\n") + 1
        column = broken.index("foward") - broken.rfind("\n", 0, broken.index("foward"))
        self.set_rules(broken)
        message = self.wait_for_text("#diagnostic", r"✖")
        self.assertIn(f"line {line}, column {column}: unknown direction 'foward'", message)
        self.assertIn("did you mean 'forward'?", message)
        self.assertEqual(self.find("#gutter .bad-line").text, str(line))
        self.screenshot("1-diagnostic.png")
        # Kings that may only step sideways: the rules check, with a warning that a game may never end.
        sideways = original.replace("(step (forward forward-left forward-right) (to empty))",
                                    "(step (left right) (to empty))", 1)
        self.set_rules(sideways)
        warning = self.wait_for_text("#diagnostic .warning", r"no end rule bounds this game.s length")
        self.assertIn("⚠ line", warning)
        self.assertIn("neither captures nor always goes forward", warning)
        self.set_rules(original)
        # The sideways rules also checked, so wait for the warning to go, not for the tick.
        self.wait.until(lambda browser: not browser.find_elements(By.CSS_SELECTOR, "#diagnostic .warning"),
                        "the warning stayed after the rules were fixed")
        self.wait_for_text("#diagnostic", r"✔ Breakthrough")
        self.assertEqual(self.browser.find_elements(By.CSS_SELECTOR, "#gutter .bad-line"), [])

    def test_2_play_by_clicking_against_an_agent(self):
        Select(self.find("#first-kind")).select_by_value("you")
        Select(self.find("#second-kind")).select_by_value("agent")
        agent = self.find("#second-agent")
        agent.clear()
        agent.send_keys("mcts:time=200ms")
        self.find("#new-game").click()
        self.wait_for_text("#status", r"White to move")
        self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, "#board [data-cell]")), 64)
        self.find("#board [data-cell='b2']").click()
        self.wait.until(expected_conditions.presence_of_element_located(
            (By.CSS_SELECTOR, "#board [data-cell='b2'].selected")))
        targets = {cell.get_attribute("data-cell")
                   for cell in self.browser.find_elements(By.CSS_SELECTOR, "#board .target")}
        self.assertEqual(targets, {"a3", "b3", "c3"})
        self.find("#board [data-cell='b3']").click()
        self.wait_for_text("#moves", r"b2-b3 White, you\n.*Black, mcts:time=200ms\n\(mcts:time=200ms: \d+ iterations")
        self.assertEqual(self.find("#board [data-cell='b3']").get_attribute("data-player"), "0")
        self.assertIsNone(self.find("#board [data-cell='b2']").get_attribute("data-player"))
        self.wait_for_text("#status", r"White to move")
        self.assertIn("iterations", self.find("#report").get_attribute("textContent"))
        # A second move, and the agent's second reply.
        self.find("#board [data-cell='g2']").click()
        self.wait.until(expected_conditions.presence_of_element_located(
            (By.CSS_SELECTOR, "#board [data-cell='g3'].target")))
        self.find("#board [data-cell='g3']").click()
        self.wait.until(lambda browser: len(browser.find_elements(By.CSS_SELECTOR, "#moves li")) == 4)
        self.wait_for_text("#status", r"White to move")
        self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, "#board .last")), 2)
        self.screenshot("2-play.png")

    def test_3_step_through_a_record(self):
        self.find("#tab-replay").click()
        record = read_text(RECORD)
        moves = re.findall(r"[a-h][1-8][-x][a-h][1-8]", record)
        self.browser.execute_script("document.getElementById('record').value = arguments[0];", record)
        self.find("#load-record").click()
        self.wait_for_text("#status", rf"\(ply 0 of {len(moves)}\)")
        for _ in range(3):
            self.find("#next-ply").click()
        self.wait_for_text("#status", rf"\(ply 3 of {len(moves)}\)")
        self.assertTrue(self.find("#moves li.current").text.startswith(moves[2]))
        last = sorted(cell.get_attribute("data-cell") for cell in self.browser.find_elements(By.CSS_SELECTOR, "#board .last"))
        self.assertEqual(last, sorted([moves[2][:2], moves[2][3:]]))
        self.screenshot("3-replay.png")
        self.find("#last-ply").click()
        self.wait_for_text("#status", r"Game over: White wins")
        self.find("#previous-ply").click()
        self.wait_for_text("#status", rf"\(ply {len(moves) - 1} of {len(moves)}\)")

    def test_4_analyse_two_versions(self):
        self.find("#tab-analyze").click()
        games = self.find("#analysis-games")
        games.clear()
        games.send_keys("10")
        Select(self.find("#compare-kind")).select_by_value("variant")
        self.find("#compare-variant").send_keys("zillions-7x7")
        self.find("#analyze").click()
        self.wait_for_text("#status", r"Analysis done")
        headings = [heading.text for heading in self.browser.find_elements(By.CSS_SELECTOR, "#analysis .version h3")]
        self.assertEqual(headings, ["edited: Breakthrough", 'zillions-7x7: Breakthrough (variant "zillions-7x7")'])
        # Per version: win rates and game lengths for random and agent self-play, and the branching factor.
        self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, "#analysis .version svg.chart")), 2 * 5)
        self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, "#analysis .version polyline")), 2 * 2)
        rows = self.browser.find_elements(By.CSS_SELECTOR, "#analysis table.metrics tbody tr")
        self.assertGreaterEqual(len(rows), 10)
        self.assertTrue(rows[0].text.startswith("first player wins"), rows[0].text)
        self.screenshot("4-analysis.png")

    def test_5_three_players_a_seat_each_and_the_ranking(self):
        self.find("#tab-play").click()
        Select(self.find("#game-list")).select_by_value("breakthrough-3-players.game")
        self.wait_for_text("#diagnostic", r"✔ Breakthrough for three players: 10x10 rectangle, White against Red "
                           r"against Black")
        seats = [name.text for name in self.browser.find_elements(By.CSS_SELECTOR, "#sides .player-name")]
        self.assertEqual(seats, ["White", "Red", "Black"])
        Select(self.find("#first-kind")).select_by_value("you")
        for seat in ("#second", "#seat-3"):
            Select(self.find(f"{seat}-kind")).select_by_value("agent")
            agent = self.find(f"{seat}-agent")
            agent.clear()
            agent.send_keys("mcts:iterations=50")
        self.find("#new-game").click()
        # The last test's game also had White to move: wait for the new game's 10x10 board.
        self.wait.until(lambda browser: len(browser.find_elements(By.CSS_SELECTOR, "#board [data-cell]")) == 100
                        and not browser.find_elements(By.CSS_SELECTOR, "#moves li"), "the new game never showed")
        self.wait_for_text("#status", r"White to move")
        self.find("#board [data-cell='d2']").click()
        self.wait.until(expected_conditions.presence_of_element_located(
            (By.CSS_SELECTOR, "#board [data-cell='d3'].target")))
        self.find("#board [data-cell='d3']").click()
        # Red and Black answer, each on its own seat, and the turn comes back to White.
        self.wait_for_text("#moves", r"d2-d3 White, you\n.*Red, mcts:iterations=50\n(.*\n)*.*Black, mcts:iterations=50")
        self.wait_for_text("#status", r"White to move")
        self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, "#moves li")), 3)
        self.assertEqual(self.find("#board [data-cell='d3']").get_attribute("data-player"), "0")
        self.screenshot("5-three-players.png")
        # A finished three-player game ends with the players' ranking, the tied ones sharing a place.
        self.find("#tab-replay").click()
        self.browser.execute_script("document.getElementById('record').value = arguments[0];",
                                    read_text(THREE_PLAYER_RECORD))
        self.find("#load-record").click()
        self.wait_for_text("#status", r"\(ply 0 of 54\)")
        self.find("#last-ply").click()
        self.wait_for_text("#status", r"Game over: ranking 1\. Black, 2\. White, 2\. Red\. "
                           r"Black wins by \(reach Pawn far-row\) \(ply 54 of 54\)")
        self.screenshot("5-three-player-ranking.png")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--troyka", required=True, help="the troyka binary")
    parser.add_argument("--screenshots", required=True, help="the directory the screenshots are saved in")
    OPTIONS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
