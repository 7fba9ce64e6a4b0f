"""Tests of the Python binding (damero.py), run by ctest with the standard library's
unittest: DAMERO_LIBRARY names the libdamero.so.0 built, DAMERO_COMMAND the damero command,
which builds russian tables of up to 3 pieces in a temporary directory first."""
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


if __name__ == "__main__":
    unittest.main()
