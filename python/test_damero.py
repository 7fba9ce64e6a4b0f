"""Tests of the Python binding (damero.py), run by ctest with the standard library's
unittest: DAMERO_LIBRARY names the libdamero.so.0.3 built, DAMERO_COMMAND the damero command,
which builds russian tables of up to 3 pieces in a temporary directory first."""
import json
import os
import re
import shutil
import subprocess
import sys
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

    def test_probe_wdl_cached_and_statistics(self):
        quiet = "W:WKa1,Kc1:BKh8"
        self.assertEqual(self.tb.cache_stats(), damero.CacheStats(0, 0, 0, 0, 0))
        self.assertIsNone(self.tb.probe_wdl_cached(quiet))  # nothing read yet
        self.assertEqual(self.tb.cache_stats().blocks_read, 0)
        wdl = self.tb.probe_wdl(quiet)
        read = self.tb.cache_stats()
        self.assertEqual((read.hits, read.misses, read.blocks_read), (0, 1, 1))
        self.assertGreater(read.bytes_decompressed, 0)
        self.assertGreater(read.bytes_read, 0)
        self.assertEqual(self.tb.probe_wdl_cached(quiet), wdl)
        self.assertEqual(self.tb.cache_stats(), read._replace(hits=1))
        self.tb.reset_cache_stats()
        self.assertEqual(self.tb.cache_stats(), damero.CacheStats(0, 0, 0, 0, 0))
        self.assertFails(damero.ERR_MISSING, self.tb.probe_wdl_cached, "W:WKa1,Kb2:BKh8,Kg7")
        with damero.Tables("russian", self.tables, 0) as uncached:
            uncached.probe_wdl(quiet)
            self.assertIsNone(uncached.probe_wdl_cached(quiet))

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

    def assertRefused(self, call, *args):
        """call(*args) raises ArgumentError (a ValueError too) before reaching C."""
        with self.assertRaises(damero.ArgumentError) as caught:
            call(*args)
        self.assertIsInstance(caught.exception, ValueError)
        self.assertEqual(caught.exception.status, damero.ERR_ARGUMENT)

    def test_numbers_beyond_their_c_type_are_refused_not_wrapped(self):
        int_max = 2**31 - 1
        start = self.tb.counts_start("W:WKa1,Kb2:BKh8")
        move = self.tb.root_moves("W:WKa1,Kb2:BKh8")[0]
        self.assertRefused(self.tb.rule, 2**32)  # ctypes would make it rule 0
        self.assertRefused(self.tb.rule, -int_max - 2)
        self.assertRefused(damero.Tables, "russian", self.tables, 2**44)  # else no cache
        self.assertRefused(damero.Tables, "russian", self.tables, 2**20 + 1)  # > 1 TiB
        self.assertRefused(damero.Tables, "russian", self.tables, -1)
        self.assertRefused(self.tb.probe_rules, FEN, [2**32])  # ctypes would read 0
        self.assertRefused(self.tb.probe_rules, FEN, [-1])  # None says "not started"
        self.assertRefused(self.tb.probe_rules, FEN, None, 2**32)
        self.assertRefused(self.tb.counts_run_out, FEN, None, -2**40)
        self.assertRefused(self.tb.counts_after, "W:WKa1,Kb2:BKh8", start,
                           move._replace(from_square=2**32 + move.from_square))
        self.assertRaises(TypeError, self.tb.rule, 0.5)
        # the largest values C takes reach it: the library answers for itself
        with damero.Tables("russian", self.tables, 2**20) as tb:  # 1 TiB, taken as used
            self.assertEqual(tb.probe_wdl(FEN), damero.WIN)
        with self.assertRaises(damero.DameroError) as caught:
            self.tb.rule(int_max)
        self.assertNotIsInstance(caught.exception, damero.ArgumentError)
        self.assertEqual(caught.exception.status, damero.ERR_ARGUMENT)
        with self.assertRaises(damero.DameroError) as caught:
            self.tb.counts_run_out("W:WKa1,Kb2:BKh8", [int_max] * self.tb.rule_count())
        self.assertNotIsInstance(caught.exception, damero.ArgumentError)
        self.assertIn("plies", caught.exception.message)

    def test_a_nul_in_a_string_is_refused_not_cut(self):
        self.assertRefused(self.tb.probe, FEN + "\0:Bh8")  # C would read FEN alone
        self.assertRefused(self.tb.probe_wdl_many, [FEN, "W:WKa1\0:BKh8"])
        self.assertRefused(damero.Tables, "russian\0x", self.tables)
        self.assertRefused(damero.Tables, "russian", self.tables + "\0/elsewhere")
        move = self.tb.root_moves(FEN)[0]
        self.assertRefused(self.tb.counts_after, FEN, None, move._replace(text="c3\0"))


class LibraryTest(unittest.TestCase):
    """Where damero.py finds libdamero, each case in a fresh interpreter: a copy of the
    module with a copy of the library built (DAMERO_LIBRARY in ctest) laid out as each
    way of installing lays them out."""

    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="damero-python-library-")
        self.built = os.environ["DAMERO_LIBRARY"]
        self.module = os.path.join(os.path.dirname(os.path.abspath(__file__)), "damero.py")

    def tearDown(self):
        shutil.rmtree(self.root)

    def place(self, module_dir, library_dir=None):
        """damero.py into module_dir, the library (as damero._SONAME) into library_dir (under
        root)."""
        os.makedirs(os.path.join(self.root, module_dir), exist_ok=True)
        shutil.copy(self.module, os.path.join(self.root, module_dir))
        if library_dir is not None:
            os.makedirs(os.path.join(self.root, library_dir), exist_ok=True)
            shutil.copy(self.built, os.path.join(self.root, library_dir, damero._SONAME))
        return os.path.join(self.root, module_dir)

    def run_import(self, module_dir, **env):
        """Imports damero from module_dir; (exit code, what it printed: the library
        loaded and __version__, or the error)."""
        environment = {k: v for k, v in os.environ.items()
                       if k not in ("DAMERO_LIBRARY", "LD_LIBRARY_PATH")}
        environment.update(env, PYTHONPATH=module_dir, PYTHONDONTWRITEBYTECODE="1")
        done = subprocess.run([sys.executable, "-c", "import damero; print(damero._lib._name, "
                               "damero.__version__, damero.version())"],
                              env=environment, cwd=module_dir, capture_output=True,
                              text=True)
        return done.returncode, done.stdout + done.stderr

    def test_the_version_is_the_library_s(self):
        self.assertEqual(damero.__version__, damero.version())

    def test_beside_the_module(self):
        where = self.place("bundle", "bundle")
        code, out = self.run_import(where)
        self.assertEqual(code, 0, out)
        self.assertIn(os.path.join(where, damero._SONAME), out)

    def test_in_the_prefix_cmake_installed_into(self):
        where = self.place(os.path.join("share", "damero", "python"), "lib")
        code, out = self.run_import(where)
        self.assertEqual(code, 0, out)
        self.assertIn(os.path.join(self.root, "lib", damero._SONAME), out)

    def test_through_the_system_loader(self):
        where = self.place("module_only", "elsewhere")
        code, out = self.run_import(where, LD_LIBRARY_PATH=os.path.join(self.root, "elsewhere"))
        self.assertEqual(code, 0, out)
        self.assertTrue(out.startswith(damero._SONAME + " "), out)

    def test_not_found_says_where_it_looked(self):
        where = self.place(os.path.join("share", "damero", "python"))
        code, out = self.run_import(where)
        if code == 0:
            self.skipTest(f"a {damero._SONAME} is installed system-wide: " + out)
        self.assertIn("ImportError: libdamero not found", out)
        for place in (os.path.join(where, damero._SONAME), "DAMERO_LIBRARY",
                      os.path.join(self.root, "lib", damero._SONAME), "system's loader"):
            self.assertIn(place, out)

    def fake_library(self, version):
        """A library named damero._SONAME of nothing but damero_version (saying `version`)
        beside a copy of the module; its folder, or None without a C compiler."""
        where = self.place("fake")
        source = os.path.join(where, "fake.c")
        with open(source, "w") as f:
            f.write('const char *damero_version(void) { return "%s"; }\n' % version)
        compiler = shutil.which(os.environ.get("CC", "cc"))
        if compiler is None:
            return None
        subprocess.run([compiler, "-shared", "-fPIC", "-o",
                        os.path.join(where, damero._SONAME), source], check=True)
        return where

    def test_a_library_of_another_version_is_refused(self):
        major, minor, _ = (int(n) for n in damero.__version__.split("."))
        # while the major version is 0, a minor one may break programs: only its own loads
        other_minors = [f"0.{minor + 1}.0"] + ([f"0.{minor - 1}.0"] if minor else [])
        refused = [f"{major + 1}.0.0"] + (other_minors if major == 0 else [])
        for version, words in ([(v, "but this damero.py is for") for v in refused] +
                               [(damero.__version__, "has no damero_error_message")]):
            where = self.fake_library(version)
            if where is None:
                self.skipTest("no C compiler to make a library with")
            code, out = self.run_import(where)
            self.assertNotEqual(code, 0, out)
            self.assertIn("ImportError", out)
            self.assertIn(words, out)
            shutil.rmtree(where)

    def test_a_wrong_damero_library_is_not_passed_over(self):
        where = self.place("bundle", "bundle")
        missing = os.path.join(self.root, "missing.so")
        code, out = self.run_import(where, DAMERO_LIBRARY=missing)
        self.assertNotEqual(code, 0, out)
        self.assertIn("DAMERO_LIBRARY=" + missing, out)


# The examples of the rule-aware probe: the spanish forzosa (a draw under its 12-move
# reading, a win under the 13-move one) and a russian win the main-road rule makes a draw.
RULES_EXAMPLES = [("spanish", "W:WK1,K5,K10:BK2", 1), ("spanish", "W:WK1,K5,K10:BK2", 2),
                  ("russian", "B:WKa1,Kb2,Kc3:BKe5", 1), ("russian", "B:WKa1,Kb2,Kc3:BKe5", 2)]


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
                              "--json", "--reading", str(reading), *extra, fen],
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
            where = f"{variant} {fen} reading {reading}"
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
            twelve, thirteen = tb.probe_rules(fen), tb.probe_rules(fen, reading=2)
            self.assertEqual(tb.probe_rules(fen, reading=1), twelve)  # the default
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
            printed = self.command_json("russian", fen, 1, "--count", "1=28")
            self.assertSameValue(tb, tb.probe_rules(fen, late), printed["rules"], "1=28")
            self.assertIsNone(tb.counts_run_out(fen, start))
            late[names.index("3 kings v 1")] = 120
            self.assertEqual(tb.counts_run_out(fen, late), names.index("3 kings v 1"))

    def test_count_side(self):
        """A running forzosa count keeps its side where captures leave one king each."""
        with damero.Tables("spanish", self.root) as tb:
            # 4 plies played, Black to move: 26 - 4 = 22 plies left, DTM 22
            value = tb.probe_rules("B:WK5,K14,K16:BK6", [4], reading=2)
            self.assertEqual((value.wdl, value.plies), (damero.LOSS, 22))
            self.assertEqual(value.counts[0].strong, "white")
            one_each = "W:WK31:BK18"
            with self.assertRaises(damero.DameroError) as caught:
                tb.probe_rules(one_each, [21], reading=2)
            self.assertEqual(caught.exception.status, damero.ERR_ARGUMENT)
            value = tb.probe_rules(one_each, [damero.Count(25, "white")], reading=2)
            self.assertEqual((value.wdl, value.plies), (damero.WIN, 1))
            printed = self.command_json("spanish", one_each, 2, "--count", "forzosa=25:white")
            self.assertSameValue(tb, value, printed["rules"], "forzosa=25:white")
            value = tb.probe_rules(one_each, [damero.Count(25, "black")], reading=2)
            self.assertEqual(value.wdl, damero.DRAW)

    def test_errors(self):
        with damero.Tables("russian", self.root) as tb:
            with self.assertRaises(damero.DameroError) as caught:
                tb.rule(tb.rule_count())
            self.assertEqual(caught.exception.status, damero.ERR_ARGUMENT)
            with self.assertRaises(damero.DameroError) as caught:
                tb.probe_rules("W:WKa1,Kb2,Kc3,Kd4:BKh6")
            self.assertEqual(caught.exception.status, damero.ERR_MISSING)
            with self.assertRaises(damero.DameroError) as caught:
                tb.probe_rules("W:WKa1,Kb2,Kc3:BKh6", [0] * (damero.MAX_RULES + 1))
            self.assertEqual(caught.exception.status, damero.ERR_ARGUMENT)

    def test_readings_are_1_and_2(self):
        """Every call that takes a reading refuses 0 (the first reading before 0.3.0) and
        3, saying how readings are numbered."""
        fen = "W:WKa1,Kb2,Kc3:BKh6"
        with damero.Tables("russian", self.root) as tb:
            start = tb.counts_start(fen)
            calls = {"probe_rules": lambda r: tb.probe_rules(fen, reading=r),
                     "root_moves_rules": lambda r: tb.root_moves_rules(fen, reading=r),
                     "counts_run_out": lambda r: tb.counts_run_out(fen, start, reading=r)}
            for name, call in calls.items():
                for reading in (0, 3):
                    with self.assertRaises(damero.DameroError, msg=f"{name} {reading}") as c:
                        call(reading)
                    self.assertEqual(c.exception.status, damero.ERR_ARGUMENT)
                    self.assertIn("numbered 1", c.exception.message)
                    self.assertIn("0.3.0", c.exception.message)
                call(1), call(2)


if __name__ == "__main__":
    unittest.main()
