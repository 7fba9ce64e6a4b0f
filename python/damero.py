"""Probing draughts endgame tables from Python: libdamero's C API (damero.h) through ctypes.

    import damero
    with damero.Tables("russian", "tables") as tb:
        value = tb.probe("W:WKc3:Bd8,f6")      # Value(wdl=1, dtm=9, mtc=1)
        best = tb.best_move("W:WKc3:Bd8,f6")   # Move(text='c3:g7', ...)

    with damero.Tables("spanish", "tables") as tb:
        tb.probe_rules("W:WK1,K5,K10:BK2")  # RulesValue(plain=..., wdl=0, ...): a draw
                                             # under the 12-move forzosa

Positions are given and returned as FENs in the variant's notation. Values are for the
side to move: wdl is WIN (1), DRAW (0) or LOSS (-1); dtm and mtc count plies, None in a
draw, NOT_BUILT where the tables were built without that metric (damero gen --metrics
wdl: the wdl is still exact, and moves are ranked by wdl, then mtc). Under the move-limit
rules (probe_rules, root_moves_rules, the counts_* calls), reading is 1 (each rule's
first reading of its limit, the default) or 2 (the second), and
counts are lists with one entry per rule of the variant (in the order of rule(k)): the
plies played since that rule's count started, or None when it has not started. A running
count comes back as a Count, an int that also says (.strong: "white" or "black") the side
a "win within" count is for; give Count(plies, "white") where captures have left as many
pieces each, as the position no longer tells (a plain int takes the side with more
pieces). A failed
call raises DameroError, whose status is the C library's enum
damero_status (MISSING, CORRUPT, ...) and whose message says what went wrong.

Every argument is checked before it reaches C: a number beyond what its C type holds
(rule(2**32), a count of 2**32, cache_mb beyond 1 TiB) or a string with a NUL character
raises ArgumentError (both a DameroError with status ERR_ARGUMENT and a ValueError),
where ctypes would silently wrap the number or cut the string.

The shared library is found in this order, the first that exists being loaded: the file
$DAMERO_LIBRARY names; libdamero.so.0.3 beside this module (bundled); the lib/ of the
prefix this module was installed into (by `cmake --install`, as
PREFIX/share/damero/python/damero.py, or by pip into an environment whose prefix also
holds libdamero); then the system's loader (LD_LIBRARY_PATH, the ldconfig cache). When
none loads, ImportError lists where it looked. __version__ is the version of libdamero
this binding was written for; the library loaded must have its soname (libdamero.so.0.3:
its major and minor version while the major one is 0) and, from 1.0, at least its minor
one (version() says which it is). The tables' root, when not given, is
$DAMERO_TABLES, else "tables", as for the damero command.
A Tables object may be probed from several threads at once (the C library is thread-safe);
close it (or leave its `with` block) when no thread uses it any more.
"""
import ctypes
import operator
import os
import sys
import sysconfig
from collections import namedtuple

# Read by pyproject.toml without importing the module; binding_layout holds it to
# damero.h's DAMERO_VERSION.
__version__ = "0.3.0"

WIN, DRAW, LOSS = 1, 0, -1
NOT_CACHED = 1  # probe_wdl_cached's "not in the cache": no failure
OK, ERR_ARGUMENT, ERR_VARIANT, ERR_POSITION, ERR_MISSING, ERR_IO = 0, -1, -2, -3, -4, -5
ERR_FORMAT, ERR_TRUNCATED, ERR_VERSION, ERR_CORRUPT, ERR_MEMORY, ERR_GAME_OVER = (
    -6, -7, -8, -9, -10, -11)
ERR_STOPPED = -12  # a search stopped by the thread's stop function (C: damero_set_stop)
PLAYING, NO_MOVE, LONE_PIECES = 0, 1, 2
MAX_RULES = 8
COUNT_NOT_STARTED = -1
# A Value's dtm or mtc where the tables were built without that metric (damero gen
# --metrics wdl): the wdl is still exact. None stands for a draw's.
NOT_BUILT = -2

_MAX_MOVES = 512
_FEN_SIZE = 256
_MOVE_TEXT_SIZE = 80

Value = namedtuple("Value", "wdl dtm mtc")
Move = namedtuple("Move", "text from_square to_square captures after value")
Problem = namedtuple("Problem", "file status message")
# What the block cache did (damero_cache_stats): values found in it or not, and the
# blocks the probes read from the files, their bytes there and decompressed.
CacheStats = namedtuple("CacheStats", "hits misses blocks_read bytes_read bytes_decompressed")
# A move-limit rule (damero_rule_info): limit, unit and source are tuples, one per reading.
RuleInfo = namedtuple("RuleInfo", "name words readings limit unit source")
# A value under the rules (damero_rules_value): plain is the Value without them; plies is
# None in a draw, rule (the binding count's index) None unless the rules turn a win or a
# loss into a draw; counts those of the position as the value takes them; dtz the
# distance to zeroing under the rules (None in a draw, or where a rule table answered).
RulesValue = namedtuple("RulesValue", "plain wdl plies rule tables_beyond counts dtz")
# A move under the rules (damero_rules_move): its value's counts are those after it.
RulesMove = namedtuple("RulesMove", "move value")


class DameroError(Exception):
    """A call into libdamero failed: status is the enum damero_status, message its words."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


class ArgumentError(DameroError, ValueError):
    """An argument C cannot take as given (a number beyond its C type's range, a string
    with a NUL character): refused before the call, where ctypes would wrap or cut it.
    Its status is ERR_ARGUMENT."""

    def __init__(self, message):
        super().__init__(ERR_ARGUMENT, message)


# The range of a C int (a tuple: binding_layout takes int constants for the header's).
_C_INT_RANGE = (-(1 << (8 * ctypes.sizeof(ctypes.c_int) - 1)),
                (1 << (8 * ctypes.sizeof(ctypes.c_int) - 1)) - 1)
_MAX_CACHE_BYTES = 1 << 40


def _c_int(value, what, low=_C_INT_RANGE[0], high=_C_INT_RANGE[1]):
    """value as a C int, checked to lie in [low, high] (at most the C int's range)."""
    value = operator.index(value)  # TypeError for a float or a string
    if not low <= value <= high:
        raise ArgumentError(f"{what} is {value}: it must lie from {low} to {high}")
    return value


def _c_text(text, what):
    """text (str, bytes or a path) as the bytes of a C string; a NUL, which would end the
    string early, is refused."""
    data = os.fsencode(text) if isinstance(text, (str, os.PathLike)) else bytes(text)
    if b"\0" in data:
        raise ArgumentError(f"{what} {text!r} holds a NUL character, which would cut it "
                            f"short: remove it")
    return data


class _Position(ctypes.Structure):
    _fields_ = [("men", ctypes.c_uint64 * 2), ("kings", ctypes.c_uint64 * 2),
                ("side_to_move", ctypes.c_int)]


class _Value(ctypes.Structure):
    _fields_ = [("wdl", ctypes.c_int), ("dtm", ctypes.c_int), ("mtc", ctypes.c_int)]


class _Move(ctypes.Structure):
    _fields_ = [("text", ctypes.c_char * _MOVE_TEXT_SIZE), ("from_", ctypes.c_int),
                ("to", ctypes.c_int), ("captures", ctypes.c_int), ("after", _Position),
                ("value", _Value)]


class _Counts(ctypes.Structure):
    _fields_ = [("plies", ctypes.c_int * MAX_RULES), ("strong", ctypes.c_int * MAX_RULES)]


_STRONG_CODES = {None: 0, "white": 1, "black": 2}  # enum damero_count_side


class Count(int):
    """The plies a running count has run, and the side it is for (strong: "white" or
    "black" for a "win within" count, None where the position tells or it does not
    matter). Compares and computes as the int it is."""

    def __new__(cls, plies, strong=None):
        if strong not in _STRONG_CODES:
            raise DameroError(ERR_ARGUMENT, f"a count's side is 'white', 'black' or None, "
                                            f"not {strong!r}")
        count = super().__new__(cls, plies)
        count.strong = strong
        return count

    def __repr__(self):
        return f"Count({int(self)}, {self.strong!r})"


class _RuleInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("words", ctypes.c_char_p),
                ("readings", ctypes.c_int), ("limit", ctypes.c_int * 2),
                ("unit", ctypes.c_char_p * 2), ("source", ctypes.c_char_p * 2)]


class _RulesValue(ctypes.Structure):
    _fields_ = [("plain", _Value), ("wdl", ctypes.c_int), ("plies", ctypes.c_int),
                ("rule", ctypes.c_int), ("tables_beyond", ctypes.c_int), ("counts", _Counts),
                ("dtz", ctypes.c_int)]


class _RulesMove(ctypes.Structure):
    _fields_ = [("move", _Move), ("value", _RulesValue)]


class _CacheStats(ctypes.Structure):
    _fields_ = [(name, ctypes.c_uint64) for name in CacheStats._fields]


_PROBLEM_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int,
                               ctypes.c_char_p)


def _soname(version):
    """The shared library's soname for a version: libdamero.so.0.MINOR while the major
    version is 0 (a 0.x minor may break programs), libdamero.so.MAJOR from 1.0."""
    major, minor = (int(n) for n in version.split(".")[:2])
    return f"libdamero.so.{major}.{minor}" if major == 0 else f"libdamero.so.{major}"


_SONAME = _soname(__version__)


def _prefix_libdirs(prefix):
    """The folders a prefix's libdamero may be in: lib/, lib64/ and lib/<multiarch>/ (as
    GNUInstallDirs names them)."""
    names = ["lib", "lib64"]
    multiarch = sysconfig.get_config_var("MULTIARCH")
    if multiarch:
        names.append(os.path.join("lib", multiarch))
    return [os.path.join(prefix, name) for name in names]


def _library_candidates():
    """The files to try, in order, each with why it is tried."""
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [(os.path.join(here, _SONAME), "beside the module")]
    # PREFIX/share/damero/python/damero.py, as cmake --install puts it
    installed_prefix = os.path.dirname(os.path.dirname(os.path.dirname(here)))
    for prefix, why in ((installed_prefix, "the prefix the module is installed in"),
                        (sys.prefix, "the Python environment's prefix")):
        candidates += [(os.path.join(d, _SONAME), why) for d in _prefix_libdirs(prefix)]
    return candidates


def _load_library():
    """libdamero as a ctypes library, or ImportError listing every place looked at."""
    named = os.environ.get("DAMERO_LIBRARY")
    if named:
        try:
            return ctypes.CDLL(named)
        except OSError as e:
            raise ImportError(f"libdamero not loaded from DAMERO_LIBRARY={named}: {e}. Set "
                              f"DAMERO_LIBRARY to the path of {_SONAME}, or unset it") from e
    looked = ["DAMERO_LIBRARY (not set)"]
    seen = set()
    for path, why in _library_candidates():
        if path in seen:
            continue
        seen.add(path)
        if os.path.exists(path):
            return ctypes.CDLL(path)
        looked.append(f"{path} ({why})")
    try:
        return ctypes.CDLL(_SONAME)
    except OSError as e:
        looked.append(f"{_SONAME} through the system's loader ({e})")
    raise ImportError("libdamero not found; looked at:\n  " + "\n  ".join(looked) +
                      f"\nInstall it (cmake --install build --prefix PREFIX), put {_SONAME} "
                      f"beside damero.py, or set DAMERO_LIBRARY to its path")


def _version_of(lib):
    """The version a loaded libdamero says it is."""
    return lib.damero_version().decode()


def _check_version(lib):
    """ImportError unless the library loaded is one this binding was written for: of its
    soname (its major and minor version while the major one is 0, where a new minor may
    break programs), and from 1.0 of at least its minor one, whose functions it calls."""
    have = _version_of(lib)
    want_minor = int(__version__.split(".")[1])
    minor = int(have.split(".")[1])
    if _soname(have) != _SONAME or minor < want_minor:
        raise ImportError(f"libdamero {have} loaded ({lib._name}), but this damero.py is "
                          f"for {__version__}: install the library and the binding of one "
                          f"version, or set DAMERO_LIBRARY to a matching {_SONAME}")


def _load():
    lib = _load_library()
    lib.damero_version.restype = ctypes.c_char_p
    _check_version(lib)
    tb, pos, i = ctypes.c_void_p, ctypes.POINTER(_Position), ctypes.c_int
    signatures = {
        "damero_version": (ctypes.c_char_p, []),
        "damero_error_message": (ctypes.c_char_p, []),
        "damero_open": (i, [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t,
                            ctypes.POINTER(tb)]),
        "damero_close": (None, [tb]),
        "damero_variant_name": (ctypes.c_char_p, [i]),
        "damero_max_pieces": (i, [tb]),
        "damero_parse_fen": (i, [tb, ctypes.c_char_p, pos]),
        "damero_write_fen": (i, [tb, pos, ctypes.c_char_p]),
        "damero_probe_wdl": (i, [tb, pos, ctypes.POINTER(i)]),
        "damero_probe_wdl_many": (i, [tb, pos, ctypes.c_size_t, ctypes.POINTER(i),
                                      ctypes.POINTER(i)]),
        "damero_probe_wdl_cached": (i, [tb, pos, ctypes.POINTER(i)]),
        "damero_read_cache_stats": (i, [tb, ctypes.POINTER(_CacheStats)]),
        "damero_reset_cache_stats": (i, [tb]),
        "damero_probe": (i, [tb, pos, ctypes.POINTER(_Value)]),
        "damero_root_moves": (i, [tb, pos, ctypes.POINTER(_Move), i, ctypes.POINTER(i)]),
        "damero_best_move": (i, [tb, pos, ctypes.POINTER(_Move)]),
        "damero_game_end": (i, [tb, pos, ctypes.POINTER(i), ctypes.POINTER(ctypes.c_char_p)]),
        "damero_check": (i, [tb, _PROBLEM_FN, ctypes.c_void_p, ctypes.POINTER(i)]),
        "damero_rule_count": (i, [tb]),
        "damero_rule": (i, [tb, i, ctypes.POINTER(_RuleInfo)]),
        "damero_counts_start": (i, [tb, pos, ctypes.POINTER(_Counts)]),
        "damero_counts_after": (i, [tb, pos, ctypes.POINTER(_Counts), ctypes.POINTER(_Move),
                                    ctypes.POINTER(_Counts)]),
        "damero_counts_run_out": (i, [tb, pos, ctypes.POINTER(_Counts), i, ctypes.POINTER(i)]),
        "damero_probe_rules": (i, [tb, pos, ctypes.POINTER(_Counts), i,
                                   ctypes.POINTER(_RulesValue)]),
        "damero_root_moves_rules": (i, [tb, pos, ctypes.POINTER(_Counts), i,
                                        ctypes.POINTER(_RulesMove), i, ctypes.POINTER(i)]),
    }
    for name, (restype, argtypes) in signatures.items():
        try:
            function = getattr(lib, name)
        except AttributeError as e:
            raise ImportError(f"{lib._name} (libdamero {_version_of(lib)}) has no {name}: it "
                              f"is older than this damero.py ({__version__}); install the "
                              f"library and the binding of one version") from e
        function.restype = restype
        function.argtypes = argtypes
    return lib


_lib = _load()


def version():
    """The version of the libdamero loaded, "MAJOR.MINOR.PATCH"."""
    return _lib.damero_version().decode()


def variants():
    """The names of the variants libdamero knows, in its order."""
    names, k = [], 0
    while (name := _lib.damero_variant_name(k)) is not None:
        names.append(name.decode())
        k += 1
    return names


def _check(status):
    if status != OK:
        raise DameroError(status, _lib.damero_error_message().decode(errors="replace"))


def _distance(n):
    """A C DTM or MTC as Python has it: None in a draw, NOT_BUILT kept."""
    return n if n >= 0 or n == NOT_BUILT else None


def _value(v):
    return Value(v.wdl, _distance(v.dtm), _distance(v.mtc))


def _counted(n):
    """A C count (-1: none) as Python has it (None)."""
    return None if n < 0 else n


class Tables:
    """The tables of one variant under a root directory (as `damero gen --dir` writes them).

    Opening lists the tables only; each file is read and checked when a probe first needs
    it. cache_mb bounds the memory of decompressed blocks kept (0 keeps none)."""

    def __init__(self, variant, directory=None, cache_mb=64):
        self._tb = None
        if directory is None:
            directory = os.environ.get("DAMERO_TABLES") or "tables"
        handle = ctypes.c_void_p()
        cache_mb = _c_int(cache_mb, "cache_mb", 0, _MAX_CACHE_BYTES >> 20)
        _check(_lib.damero_open(_c_text(variant, "the variant"),
                                _c_text(directory, "the tables' directory"),
                                cache_mb << 20, ctypes.byref(handle)))
        self._tb = handle
        self.variant = variant
        self.directory = directory

    def close(self):
        """Frees the tables; further calls raise DameroError. Closing twice is allowed."""
        if self._tb:
            _lib.damero_close(self._tb)
            self._tb = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def _handle(self):
        if not self._tb:
            raise DameroError(ERR_ARGUMENT, "the tables are closed")
        return self._tb

    def _position(self, fen):
        pos = _Position()
        _check(_lib.damero_parse_fen(self._handle(), _c_text(fen, "the FEN"),
                                     ctypes.byref(pos)))
        return pos

    def _fen(self, pos):
        out = ctypes.create_string_buffer(_FEN_SIZE)
        _check(_lib.damero_write_fen(self._handle(), ctypes.byref(pos), out))
        return out.value.decode()

    def _move(self, m):
        return Move(m.text.decode(), m.from_, m.to, m.captures, self._fen(m.after),
                    _value(m.value))

    @property
    def max_pieces(self):
        """The most pieces of any material with a WDL table (0 when there is none)."""
        return _lib.damero_max_pieces(self._handle())

    def fen(self, fen):
        """The FEN as damero writes it (the position read, then written)."""
        return self._fen(self._position(fen))

    def probe_wdl(self, fen):
        """WIN, DRAW or LOSS for the side to move, from the WDL tables."""
        wdl = ctypes.c_int()
        _check(_lib.damero_probe_wdl(self._handle(), ctypes.byref(self._position(fen)),
                                     ctypes.byref(wdl)))
        return wdl.value

    def probe_wdl_many(self, fens):
        """probe_wdl of each FEN, in one call to the library (damero_probe_wdl_many, which
        fetches their values' memory together); DameroError names the first position that
        could not be probed."""
        fens = list(fens)
        positions = (_Position * len(fens))(*[self._position(fen) for fen in fens])
        wdl = (ctypes.c_int * len(fens))()
        statuses = (ctypes.c_int * len(fens))()
        status = _lib.damero_probe_wdl_many(self._handle(), positions, len(fens), wdl, statuses)
        if status != OK:
            first = next((k for k in range(len(fens)) if statuses[k] != OK), 0)
            raise DameroError(status, "%s: %s" % (
                fens[first], _lib.damero_error_message().decode(errors="replace")))
        return list(wdl)

    def probe_wdl_cached(self, fen):
        """WIN, DRAW or LOSS from the block cache alone, or None when the value is not
        there (damero_probe_wdl_cached: it never reads a table file)."""
        wdl = ctypes.c_int()
        status = _lib.damero_probe_wdl_cached(self._handle(), ctypes.byref(self._position(fen)),
                                              ctypes.byref(wdl))
        if status == NOT_CACHED:
            return None
        _check(status)
        return wdl.value

    def cache_stats(self):
        """CacheStats since the tables were opened or reset_cache_stats() last ran."""
        stats = _CacheStats()
        _check(_lib.damero_read_cache_stats(self._handle(), ctypes.byref(stats)))
        return CacheStats(*(getattr(stats, name) for name in CacheStats._fields))

    def reset_cache_stats(self):
        """Sets the cache's statistics back to zero (the cache keeps its blocks)."""
        _check(_lib.damero_reset_cache_stats(self._handle()))

    def probe(self, fen):
        """The Value (wdl, dtm, mtc) of the position, from the DTM and MTC tables; from
        the WDL table where there is no DTM, dtm (and mtc where absent too) NOT_BUILT."""
        value = _Value()
        _check(_lib.damero_probe(self._handle(), ctypes.byref(self._position(fen)),
                                 ctypes.byref(value)))
        return _value(value)

    def root_moves(self, fen):
        """Every legal Move with its value for the side to move, best first."""
        moves = (_Move * _MAX_MOVES)()
        count = ctypes.c_int()
        _check(_lib.damero_root_moves(self._handle(), ctypes.byref(self._position(fen)),
                                      moves, _MAX_MOVES, ctypes.byref(count)))
        return [self._move(moves[k]) for k in range(count.value)]

    def best_move(self, fen):
        """The best Move (the first of root_moves); DameroError ERR_GAME_OVER when none,
        ERR_MISSING where the tables hold neither DTM nor MTC (nothing ranks the moves)."""
        move = _Move()
        _check(_lib.damero_best_move(self._handle(), ctypes.byref(self._position(fen)),
                                     ctypes.byref(move)))
        return self._move(move)

    def game_end(self, fen):
        """(PLAYING, NO_MOVE or LONE_PIECES, the rule in words or None). Needs no table."""
        end = ctypes.c_int()
        words = ctypes.c_char_p()
        _check(_lib.damero_game_end(self._handle(), ctypes.byref(self._position(fen)),
                                    ctypes.byref(end), ctypes.byref(words)))
        return end.value, words.value.decode() if words.value else None

    def check(self):
        """Reads every table file through now; returns the list of Problems (empty when
        every file is sound)."""
        problems = []

        def note(_context, file, status, message):
            problems.append(Problem(file.decode(), status, message.decode(errors="replace")))

        callback = _PROBLEM_FN(note)
        status = _lib.damero_check(self._handle(), callback, None, None)
        if status == ERR_MEMORY:
            _check(status)
        return problems

    # ---- values under the move-limit rules ----

    def rule_count(self):
        """The number of move-limit rules of the variant (0 to MAX_RULES)."""
        return _lib.damero_rule_count(self._handle())

    def rule(self, k):
        """RuleInfo of rule k (0 <= k < rule_count()); DameroError ERR_ARGUMENT beyond."""
        info = _RuleInfo()
        _check(_lib.damero_rule(self._handle(), _c_int(k, "the rule number"),
                                ctypes.byref(info)))
        text = [b.decode() if b is not None else None for b in
                (info.name, info.words, *info.unit, *info.source)]
        readings = info.readings
        return RuleInfo(text[0], text[1], readings, tuple(info.limit[:readings]),
                        tuple(text[2:2 + readings]), tuple(text[4:4 + readings]))

    def _counts(self, counts):
        """A reference to counts (a list, None entries not started) as C has them; None
        (NULL: every count starts at the position) for None."""
        if counts is None:
            return None
        c = _Counts()
        given = list(counts)
        if len(given) > MAX_RULES:
            raise DameroError(ERR_ARGUMENT, f"counts has {len(given)} entries: at most "
                                            f"{MAX_RULES}, one per rule of the variant")
        for k in range(MAX_RULES):
            n = given[k] if k < len(given) else None
            c.plies[k] = COUNT_NOT_STARTED if n is None else _c_int(
                n, f"count {k} (plies; None when not started)", 0)
            c.strong[k] = _STRONG_CODES[getattr(n, "strong", None)]
        return ctypes.byref(c)

    def _counts_list(self, c):
        sides = {code: side for side, code in _STRONG_CODES.items()}
        return [None if c.plies[k] < 0 else Count(c.plies[k], sides[c.strong[k]])
                for k in range(self.rule_count())]

    def _rules_value(self, v):
        return RulesValue(_value(v.plain), v.wdl, _counted(v.plies), _counted(v.rule),
                          bool(v.tables_beyond), self._counts_list(v.counts), _counted(v.dtz))

    def _c_move(self, move):
        """A Move of this binding back as the C struct damero_counts_after reads."""
        value = _Value(_c_int(move.value.wdl, "the move's wdl", LOSS, WIN),
                       -1 if move.value.dtm is None else _c_int(move.value.dtm, "its dtm", 0),
                       -1 if move.value.mtc is None else _c_int(move.value.mtc, "its mtc", 0))
        text = _c_text(move.text, "the move's text")
        if len(text) >= _MOVE_TEXT_SIZE:
            raise ArgumentError(f"the move's text {move.text!r} is longer than a move's")
        return _Move(text, _c_int(move.from_square, "the move's from_square"),
                     _c_int(move.to_square, "its to_square"),
                     _c_int(move.captures, "its captures", 0), self._position(move.after),
                     value)

    def counts_start(self, fen):
        """The counts at the position when every ending there has just arisen: 0 for each
        rule that covers it, None for the others."""
        c = _Counts()
        _check(_lib.damero_counts_start(self._handle(), ctypes.byref(self._position(fen)),
                                        ctypes.byref(c)))
        return self._counts_list(c)

    def counts_after(self, fen, counts, move):
        """The counts after move (a Move of root_moves(fen)) is played from fen with
        counts: each runs on by one ply, is reset, ends or starts."""
        after = _Counts()
        _check(_lib.damero_counts_after(self._handle(), ctypes.byref(self._position(fen)),
                                        self._counts(counts),
                                        ctypes.byref(self._c_move(move)), ctypes.byref(after)))
        return self._counts_list(after)

    def counts_run_out(self, fen, counts, reading=1):
        """The index of the first rule whose count has run out at fen (drawing the game),
        or None."""
        rule = ctypes.c_int()
        _check(_lib.damero_counts_run_out(self._handle(), ctypes.byref(self._position(fen)),
                                          self._counts(counts), _c_int(reading, "reading"),
                                          ctypes.byref(rule)))
        return _counted(rule.value)

    def probe_rules(self, fen, counts=None, reading=1):
        """The RulesValue of the position under the variant's move-limit rules. counts:
        one entry per rule (None: not started), or None for every count starting at the
        position; reading 1 (each rule's first reading) or 2 (the second; rule(k).limit
        [reading - 1] is its limit). Readings are numbered 1 and 2 since 0.3.0: 0 raises
        DameroError (ERR_ARGUMENT)."""
        value = _RulesValue()
        _check(_lib.damero_probe_rules(self._handle(), ctypes.byref(self._position(fen)),
                                       self._counts(counts), _c_int(reading, "reading"),
                                       ctypes.byref(value)))
        return self._rules_value(value)

    def root_moves_rules(self, fen, counts=None, reading=1):
        """Every legal move as a RulesMove, best first under the rules (wins within the
        rules, then draws, a cursed win first, then losses); counts and reading as
        probe_rules."""
        moves = (_RulesMove * _MAX_MOVES)()
        count = ctypes.c_int()
        _check(_lib.damero_root_moves_rules(self._handle(), ctypes.byref(self._position(fen)),
                                            self._counts(counts),
                                            _c_int(reading, "reading"), moves, _MAX_MOVES,
                                            ctypes.byref(count)))
        return [RulesMove(self._move(m.move), self._rules_value(m.value))
                for m in moves[:count.value]]
