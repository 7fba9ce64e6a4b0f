"""Probing draughts endgame tables from Python: libdamero's C API (damero.h) through ctypes.

    import damero
    with damero.Tables("russian", "tables") as tb:
        value = tb.probe("W:WKc3:Bd8,f6")      # Value(wdl=1, dtm=9, mtc=1)
        best = tb.best_move("W:WKc3:Bd8,f6")   # Move(text='c3:g7', ...)

Positions are given and returned as FENs in the variant's notation. Values are for the
side to move: wdl is WIN (1), DRAW (0) or LOSS (-1); dtm and mtc count plies, None in a
draw. A failed call raises DameroError, whose status is the C library's enum
damero_status (MISSING, CORRUPT, ...) and whose message says what went wrong.

The shared library is found in this order: the file $DAMERO_LIBRARY names; libdamero.so.0
next to this module; the system's library path (ctypes.util.find_library). The tables'
root, when not given, is $DAMERO_TABLES, else "tables", as for the damero command.
A Tables object may be probed from several threads at once (the C library is thread-safe);
close it (or leave its `with` block) when no thread uses it any more.
"""
import ctypes
import ctypes.util
import os
from collections import namedtuple

WIN, DRAW, LOSS = 1, 0, -1
OK, ERR_ARGUMENT, ERR_VARIANT, ERR_POSITION, ERR_MISSING, ERR_IO = 0, -1, -2, -3, -4, -5
ERR_FORMAT, ERR_TRUNCATED, ERR_VERSION, ERR_CORRUPT, ERR_MEMORY, ERR_GAME_OVER = (
    -6, -7, -8, -9, -10, -11)
PLAYING, NO_MOVE, LONE_PIECES = 0, 1, 2

_MAX_MOVES = 512
_FEN_SIZE = 256
_MOVE_TEXT_SIZE = 80

Value = namedtuple("Value", "wdl dtm mtc")
Move = namedtuple("Move", "text from_square to_square captures after value")
Problem = namedtuple("Problem", "file status message")


class DameroError(Exception):
    """A call into libdamero failed: status is the enum damero_status, message its words."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


class _Position(ctypes.Structure):
    _fields_ = [("men", ctypes.c_uint64 * 2), ("kings", ctypes.c_uint64 * 2),
                ("side_to_move", ctypes.c_int)]


class _Value(ctypes.Structure):
    _fields_ = [("wdl", ctypes.c_int), ("dtm", ctypes.c_int), ("mtc", ctypes.c_int)]


class _Move(ctypes.Structure):
    _fields_ = [("text", ctypes.c_char * _MOVE_TEXT_SIZE), ("from_", ctypes.c_int),
                ("to", ctypes.c_int), ("captures", ctypes.c_int), ("after", _Position),
                ("value", _Value)]


_PROBLEM_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int,
                               ctypes.c_char_p)


def _find_library():
    named = os.environ.get("DAMERO_LIBRARY")
    if named:
        return named
    beside = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libdamero.so.0")
    if os.path.exists(beside):
        return beside
    found = ctypes.util.find_library("damero")
    if not found:
        raise OSError("libdamero not found: install it, or set DAMERO_LIBRARY to the path "
                      "of libdamero.so.0")
    return found


def _load():
    lib = ctypes.CDLL(_find_library())
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
        "damero_probe": (i, [tb, pos, ctypes.POINTER(_Value)]),
        "damero_root_moves": (i, [tb, pos, ctypes.POINTER(_Move), i, ctypes.POINTER(i)]),
        "damero_best_move": (i, [tb, pos, ctypes.POINTER(_Move)]),
        "damero_game_end": (i, [tb, pos, ctypes.POINTER(i), ctypes.POINTER(ctypes.c_char_p)]),
        "damero_check": (i, [tb, _PROBLEM_FN, ctypes.c_void_p, ctypes.POINTER(i)]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
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


def _value(v):
    return Value(v.wdl, None if v.dtm < 0 else v.dtm, None if v.mtc < 0 else v.mtc)


class Tables:
    """The tables of one variant under a root directory (as `damero gen --dir` writes them).

    Opening lists the tables only; each file is read and checked when a probe first needs
    it. cache_mb bounds the memory of decompressed blocks kept (0 keeps none)."""

    def __init__(self, variant, directory=None, cache_mb=64):
        self._tb = None
        if directory is None:
            directory = os.environ.get("DAMERO_TABLES") or "tables"
        handle = ctypes.c_void_p()
        _check(_lib.damero_open(variant.encode(), os.fsencode(directory),
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
        _check(_lib.damero_parse_fen(self._handle(), fen.encode(), ctypes.byref(pos)))
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

    def probe(self, fen):
        """The Value (wdl, dtm, mtc) of the position, from the DTM and MTC tables."""
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
        """The best Move (the first of root_moves); DameroError ERR_GAME_OVER when none."""
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
