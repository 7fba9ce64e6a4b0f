"""Tests of the Python binding (damero.py), run by ctest with the standard library's
unittest: DAMERO_LIBRARY names the libdamero.so.0 built, DAMERO_COMMAND the damero command,
which builds russian tables of up to 3 pieces in a temporary directory first."""
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import damero

FEN = "W:WKc3:Bd8,f6"  # a king against two men: White wins in 9 plies, capturing at once


class BindingTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.root = tempfile.mkdtemp(prefix="damero-python-")
        cls.tables = os.path.join(cls.root, "tables")
        subprocess.run([os.environ.get("DAMERO_COMMAND", "damero"), "gen", "--variant",
                        "russian", "--pieces", "3", "--dir", cls.tables],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.root)

    def setUp(self):
        self.tb = damero.Tables("russian", self.tables)

    def tearDown(self):
        self.tb.close()

    def assertFails(self, status, call, *args, words=""):
        with self.assertRaises(damero.DameroError) as caught:
            call(*args)
        self.assertEqual(caught.exception.status, status, caught.exception.message)
        self.assertIn(words, caught.exception.message)

    def test_version_and_variants(self):
        self.assertRegex(damero.version(), r"^\d+\.\d+\.\d+$")
        self.assertIn("russian", damero.variants())
        self.assertEqual(damero.variants()[0], "international")

    def test_probe(self):
        self.assertEqual(self.tb.max_pieces, 3)
        self.assertEqual(self.tb.probe(FEN), damero.Value(damero.WIN, 9, 1))
        self.assertEqual(self.tb.probe_wdl(FEN), damero.WIN)
        self.assertEqual(self.tb.probe("W:WKa1:BKh8"), damero.Value(damero.LOSS, 2, 2))
        draw = self.tb.probe("W:WKa1:BKh2")
        self.assertEqual(draw, damero.Value(damero.DRAW, None, None))

    def test_probe_without_dtm(self):
        # a WDL-only set (gen --metrics wdl), and the same tables with MTC but no DTM
        wdl_only = os.path.join(self.root, "wdl-only")
        subprocess.run([os.environ.get("DAMERO_COMMAND", "damero"), "gen", "--variant",
                        "russian", "--pieces", "3", "--metrics", "wdl", "--dir", wdl_only],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wdl_mtc = os.path.join(self.root, "wdl-mtc")
        shutil.copytree(self.tables, wdl_mtc)
        for name in os.listdir(os.path.join(wdl_mtc, "russian")):
            if name.endswith(".dtm"):
                os.remove(os.path.join(wdl_mtc, "russian", name))
        whole = self.tb.probe(FEN)
        with damero.Tables("russian", wdl_only) as tb:
            self.assertEqual(tb.probe(FEN),
                             damero.Value(whole.wdl, damero.NOT_BUILT, damero.NOT_BUILT))
            self.assertEqual(tb.probe("W:WKa1:BKh2").dtm, damero.NOT_BUILT)
            self.assertFails(damero.ERR_MISSING, tb.best_move, "W:WKa1:BKh8",
                             words="needs DTM or MTC")
        with damero.Tables("russian", wdl_mtc) as tb:
            self.assertEqual(tb.probe(FEN), damero.Value(whole.wdl, damero.NOT_BUILT, whole.mtc))
            self.assertEqual(tb.best_move(FEN).value.mtc, 1)

    def test_probe_wdl_many(self):
        fens = [FEN, "W:WKa1:BKh8", "W:WKa1:BKh2", "B:WKc3:Bd8,f6"]
        self.assertEqual(self.tb.probe_wdl_many(fens), [self.tb.probe_wdl(f) for f in fens])
        self.assertEqual(self.tb.probe_wdl_many([]), [])
        # four pieces: no table; the error names the position
        self.assertFails(damero.ERR_MISSING, self.tb.probe_wdl_many,
                         [FEN, "W:WKa1,Kb2:BKh8,Kg7"], words="W:WKa1,Kb2:BKh8,Kg7")

    def test_moves(self):
        moves = self.tb.root_moves(FEN)
        self.assertEqual([m.text for m in moves[:2]], ["c3:g7", "c3:h8"])
        self.assertEqual(self.tb.best_move(FEN), moves[0])
        for m in moves:
            # each move's value is what its position is worth, one ply further, seen
            # from the other side
            after = self.tb.probe(m.after)
            self.assertEqual(m.value.wdl, -after.wdl)
            if after.dtm is not None:
                self.assertEqual(m.value.dtm, after.dtm + 1)
        self.assertEqual(moves[0].captures, 1)

    def test_fen_in_and_out(self):
        self.assertEqual(self.tb.fen(FEN), "W:WKc3:Bf6,d8")
        self.assertFails(damero.ERR_POSITION, self.tb.fen, "W:WKz9:BKh8", words="z9")

    def test_game_end(self):
        self.assertEqual(self.tb.game_end(FEN), (damero.PLAYING, None))
        self.assertEqual(self.tb.game_end("W:Wa1:Bb2,c3")[0], damero.NO_MOVE)
        self.assertEqual(self.tb.root_moves("W:Wa1:Bb2,c3"), [])
        self.assertFails(damero.ERR_GAME_OVER, self.tb.best_move, "W:Wa1:Bb2,c3")

    def test_errors(self):
        self.assertFails(damero.ERR_VARIANT, damero.Tables, "chess", self.tables)
        self.assertFails(damero.ERR_IO, damero.Tables, "russian",
                         os.path.join(self.root, "none"))
        self.assertFails(damero.ERR_MISSING, self.tb.probe, "W:WKa1,Kc1,Ke1:BKh8",
                         words="damero gen --variant russian")
        self.tb.close()
        self.assertFails(damero.ERR_ARGUMENT, self.tb.probe, FEN, words="closed")

    def test_damaged_file_and_check(self):
        copy = os.path.join(self.root, "damaged")
        shutil.copytree(self.tables, copy)
        with open(os.path.join(copy, "russian", "KvK.dtm"), "r+b") as f:
            f.truncate(100)
        with damero.Tables("russian", copy) as tb:
            self.assertFails(damero.ERR_TRUNCATED, tb.probe, "W:WKa1:BKh8", words="KvK.dtm")
            self.assertEqual(tb.probe(FEN).wdl, damero.WIN)  # every other table answers
            problems = tb.check()
        self.assertEqual([(p.file, p.status) for p in problems],
                         [("KvK.dtm", damero.ERR_TRUNCATED)])
        self.assertEqual(self.tb.check(), [])

    def test_default_directory(self):
        saved = os.environ.get("DAMERO_TABLES")
        os.environ["DAMERO_TABLES"] = self.tables
        try:
            with damero.Tables("russian") as tb:
                self.assertEqual(tb.directory, self.tables)
                self.assertEqual(tb.probe_wdl(FEN), damero.WIN)
        finally:
            if saved is None:
                del os.environ["DAMERO_TABLES"]
            else:
                os.environ["DAMERO_TABLES"] = saved


# The examples of the rule-aware probe: the spanish forzosa (a draw under its 12-move
# reading, a win under the 13-move one) and a russian win the main-road rule makes a draw.
RULES_EXAMPLES = [("spanish", "W:WK1,K5,K10:BK2", 0), ("spanish", "W:WK1,K5,K10:BK2", 1),
                  ("russian", "B:WKa1,Kb2,Kc3:BKe5", 0), ("russian", "B:WKa1,Kb2,Kc3:BKe5", 1)]


class RulesTest(unittest.TestCase):
    """The calls under the move-limit rules, against `damero probe --rules --json`."""

    @classmethod
    def setUpClass(cls):
        cls.root = tempfile.mkdtemp(prefix="damero-python-rules-")
        cls.command = os.environ.get("DAMERO_COMMAND", "damero")
        for variant in ("spanish", "russian"):
            for what in (["--pieces", "3"], ["KKKvK"]):
                subprocess.run([cls.command, "gen", "--variant", variant, *what, "--dir",
                                cls.root], check=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.root)

    def command_json(self, variant, fen, reading, *extra):
        out = subprocess.run([self.command, "probe", "--variant", variant, "--dir", self.root,
                              "--json", "--reading", str(reading + 1), *extra, fen],
                             check=True, capture_output=True, text=True).stdout
        return json.loads(out)

    def assertSameValue(self, tb, value, printed, where):
        """value (a RulesValue) says what the command's "rules" object says."""
        words = {damero.WIN: "win", damero.DRAW: "draw", damero.LOSS: "loss"}
        names = [tb.rule(k).name for k in range(tb.rule_count())]
        self.assertEqual(words[value.wdl], printed["wdl"], where)
        self.assertEqual(value.plies, printed["plies"], where)
        self.assertEqual(value.dtz, printed["dtz"], where)
        if value.dtz is not None:
            self.assertLessEqual(value.dtz, value.plies, where)
        self.assertEqual(value.wdl == damero.DRAW and value.plain.wdl == damero.WIN,
                         printed["cursed"], where)
        self.assertEqual(value.wdl == damero.DRAW and value.plain.wdl == damero.LOSS,
                         printed["blessed"], where)
        self.assertEqual(not value.tables_beyond, printed["exact"], where)
        self.assertEqual(None if value.rule is None else names[value.rule], printed["binding"],
                         where)
        self.assertEqual(dict(zip(names, value.counts)), printed["counts"], where)
        self.assertEqual({name: c.strong for name, c in zip(names, value.counts)
                          if c is not None and c.strong is not None}, printed["strong"], where)

    def test_examples_as_the_command(self):
        for variant, fen, reading in RULES_EXAMPLES:
            where = f"{variant} {fen} reading {reading + 1}"
            printed = self.command_json(variant, fen, reading)
            with damero.Tables(variant, self.root) as tb:
                value = tb.probe_rules(fen, reading=reading)
                self.assertEqual(value.plain, tb.probe(fen), where)
                self.assertSameValue(tb, value, printed["rules"], where)
                moves = tb.root_moves_rules(fen, reading=reading)
                self.assertEqual([m.move.text for m in moves],
                                 [m["move"] for m in printed["moves"]], where)
                for m, p in zip(moves, printed["moves"]):
                    self.assertEqual(m.move.after, p["after"], where)
                    self.assertSameValue(tb, m.value, p["rules"], f"{where} {m.move.text}")

    def test_the_examples_answers(self):
        with damero.Tables("spanish", self.root) as tb:
            fen = "W:WK1,K5,K10:BK2"
            twelve, thirteen = tb.probe_rules(fen), tb.probe_rules(fen, reading=1)
            self.assertEqual((twelve.plain.wdl, twelve.wdl), (damero.WIN, damero.DRAW))
            self.assertEqual(tb.rule(twelve.rule).name, "forzosa")
            self.assertEqual(tb.rule(twelve.rule).limit, (12, 13))
            self.assertEqual(thirteen.wdl, damero.WIN)
        with damero.Tables("russian", self.root) as tb:
            value = tb.probe_rules("B:WKa1,Kb2,Kc3:BKe5")
            self.assertEqual((value.plain.wdl, value.wdl), (damero.LOSS, damero.DRAW))
            self.assertEqual(tb.rule(value.rule).name, "main road")

    def test_counts(self):
        fen = "W:WKa1,Kb2,Kc3:BKh6"
        with damero.Tables("russian", self.root) as tb:
            names = [tb.rule(k).name for k in range(tb.rule_count())]
            start = tb.counts_start(fen)
            self.assertEqual(len(start), tb.rule_count())
            self.assertEqual(start[names.index("3 kings v 1")], 0)
            self.assertEqual(tb.probe_rules(fen, start), tb.probe_rules(fen))
            # the counts after a move are those root_moves_rules gives with it
            for m in tb.root_moves_rules(fen, start):
                self.assertEqual(tb.counts_after(fen, start, m.move), m.value.counts,
                                 m.move.text)
            # a count given as the command's --count gives it
            late = list(start)
            late[names.index("3 kings v 1")] = 28
            printed = self.command_json("russian", fen, 0, "--count", "1=28")
            self.assertSameValue(tb, tb.probe_rules(fen, late), printed["rules"], "1=28")
            self.assertIsNone(tb.counts_run_out(fen, start))
            late[names.index("3 kings v 1")] = 120
            self.assertEqual(tb.counts_run_out(fen, late), names.index("3 kings v 1"))

    def test_count_side(self):
        """A running forzosa count keeps its side where captures leave one king each."""
        with damero.Tables("spanish", self.root) as tb:
            # 4 plies played, Black to move: 26 - 4 = 22 plies left, DTM 22
            value = tb.probe_rules("B:WK5,K14,K16:BK6", [4], reading=1)
            self.assertEqual((value.wdl, value.plies), (damero.LOSS, 22))
            self.assertEqual(value.counts[0].strong, "white")
            one_each = "W:WK31:BK18"
            with self.assertRaises(damero.DameroError) as caught:
                tb.probe_rules(one_each, [21], reading=1)
            self.assertEqual(caught.exception.status, damero.ERR_ARGUMENT)
            value = tb.probe_rules(one_each, [damero.Count(25, "white")], reading=1)
            self.assertEqual((value.wdl, value.plies), (damero.WIN, 1))
            printed = self.command_json("spanish", one_each, 1, "--count", "forzosa=25:white")
            self.assertSameValue(tb, value, printed["rules"], "forzosa=25:white")
            value = tb.probe_rules(one_each, [damero.Count(25, "black")], reading=1)
            self.assertEqual(value.wdl, damero.DRAW)

    def test_errors(self):
        with damero.Tables("russian", self.root) as tb:
            with self.assertRaises(damero.DameroError) as caught:
                tb.rule(tb.rule_count())
            self.assertEqual(caught.exception.status, damero.ERR_ARGUMENT)
            with self.assertRaises(damero.DameroError) as caught:
                tb.probe_rules("W:WKa1,Kb2,Kc3:BKh6", reading=2)
            self.assertEqual(caught.exception.status, damero.ERR_ARGUMENT)
            with self.assertRaises(damero.DameroError) as caught:
                tb.probe_rules("W:WKa1,Kb2,Kc3,Kd4:BKh6")
            self.assertEqual(caught.exception.status, damero.ERR_MISSING)
            with self.assertRaises(damero.DameroError) as caught:
                tb.probe_rules("W:WKa1,Kb2,Kc3:BKh6", [0] * (damero.MAX_RULES + 1))
            self.assertEqual(caught.exception.status, damero.ERR_ARGUMENT)


if __name__ == "__main__":
    unittest.main()
