"""The Python binding's copies of damero.h (python/damero.py) against the header itself.

ctypes cannot read a C header: damero.py repeats its structs and constants by hand, and
a copy that drifts reads the wrong bytes without a word. This test compares the copies
with what the C compiler makes of damero.h, as tests/binding_layout.c prints it (every
struct's size, every field's offset and size, every constant's value):
- each struct the binding copies has the same size, and the same fields in the same order
  at the same offsets with the same sizes (Python writes the field `from` as `from_`);
- each constant the binding copies has the header's value;
- a struct or constant of the header that the binding does not copy is listed below, with
  why (and that list names only what the header has), and every ctypes struct and
  constant of the binding has its twin in the header;
- the program prints every struct, field, enumerator and #define the header declares (read
  from damero.h itself), so that one added there cannot be left out of the comparison.

usage: test_binding_layout.py LAYOUT_PROGRAM DAMERO_H   (DAMERO_LIBRARY: libdamero.so.0.3,
which damero.py loads on import; python/ is found beside tests/)"""
import ctypes
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import damero  # noqa: E402 (found through the path above)

# The header's structs and constants the binding has no use for, and why.
NOT_BOUND = {
    "damero_board": "the binding has no board calls",
    "DAMERO_WHITE": "positions cross as FENs, never as a side_to_move",
    "DAMERO_BLACK": "positions cross as FENs, never as a side_to_move",
    "DAMERO_VERSION_MAJOR": "__version__ holds them (test_the_version_is_the_header_s)",
    "DAMERO_VERSION_MINOR": "__version__ holds them (test_the_version_is_the_header_s)",
    "DAMERO_VERSION_PATCH": "__version__ holds them (test_the_version_is_the_header_s)",
    "DAMERO_SQUARE_NAME_SIZE": "the binding has no board calls",
    "damero_layout": "an engine's board layout, for search in C: the binding speaks FEN",
    "DAMERO_ORDER_NUMBERS": "an engine's board layout, for search in C",
    "DAMERO_ORDER_BOTTOM_LEFT": "an engine's board layout, for search in C",
    "DAMERO_ORDER_TOP_LEFT": "an engine's board layout, for search in C",
    "DAMERO_DTZ_UNKNOWN": "every negative distance reads None",
}

# enum damero_count_side, which the binding keeps as the codes of a Count's side.
COUNT_SIDES = {"DAMERO_STRONG_UNSAID": None, "DAMERO_STRONG_WHITE": "white",
               "DAMERO_STRONG_BLACK": "black"}


def c_layout(program):
    """What binding_layout prints: {struct: size}, {struct: [(field, offset, size)]},
    {constant: value}."""
    sizes, fields, constants = {}, {}, {}
    out = subprocess.run([program], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        kind, name, *numbers = line.split()
        numbers = [int(n) for n in numbers]
        if kind == "struct":
            sizes[name] = numbers[0]
            fields[name] = []
        elif kind == "field":
            struct, field = name.split(".")
            fields[struct].append((field, *numbers))
        else:
            constants[name] = numbers[0]
    return sizes, fields, constants


def header_declarations(path):
    """The names damero.h declares: {struct: [field, ...]} for each typedef'd struct with
    a body, and the set of its enumerators and #defines with a value that is no string
    (DAMERO_VERSION is one)."""
    with open(path) as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S).replace("\\\n", " ")
    structs = {}
    for match in re.finditer(r"typedef\s+struct\s+\w+\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S):
        names = []
        for declaration in filter(str.strip, match.group(1).split(";")):
            for declarator in declaration.split(","):
                names.append(re.search(r"(\w+)\s*(?:\[[^\]]*\]\s*)*$", declarator).group(1))
        structs[match.group(2)] = names
    constants = set()
    for match in re.finditer(r"\benum\s+\w+\s*\{(.*?)\}", text, re.S):
        constants.update(re.match(r"\s*(\w+)", e).group(1) for e in match.group(1).split(","))
    for name, value in re.findall(r"^#define\s+(\w+)[ \t]+(\S.*)$", text, re.M):
        if '"' not in value:
            constants.add(name)
    return structs, constants


def bound_structs():
    """The binding's ctypes structs: {C typedef name: class}, named as damero.h names
    them (_RulesValue for damero_rules_value)."""
    def c_name(class_name):
        return "damero" + re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(),
                                 class_name.lstrip("_"))
    return {c_name(name): value for name, value in vars(damero).items()
            if isinstance(value, type) and issubclass(value, ctypes.Structure)}


def bound_constants():
    """The binding's copies of the header's constants: {C name: value}. Public WIN and
    private _FEN_SIZE alike stand for DAMERO_WIN and DAMERO_FEN_SIZE."""
    copies = {"DAMERO_" + name.lstrip("_"): value for name, value in vars(damero).items()
              if re.fullmatch(r"_?[A-Z][A-Z0-9_]*", name) and type(value) is int}
    copies.update({name: damero._STRONG_CODES.get(side) for name, side in COUNT_SIDES.items()})
    return copies


class LayoutTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.sizes, cls.fields, cls.constants = c_layout(PROGRAM)
        cls.header_structs, cls.header_constants = header_declarations(HEADER)

    def test_the_program_prints_every_declaration_of_the_header(self):
        printed = {struct: [f[0] for f in fields] for struct, fields in self.fields.items()}
        self.assertEqual(printed, self.header_structs,
                         "tests/binding_layout.c must list every struct and field of damero.h")
        missing = self.header_constants - set(self.constants)
        self.assertEqual(missing, set(), "tests/binding_layout.c must print these constants")

    def test_every_struct_is_bound_or_said_not_to_be(self):
        for struct in self.sizes:
            with self.subTest(struct=struct):
                self.assertTrue(struct in bound_structs() or struct in NOT_BOUND,
                                f"{struct}: copy it into damero.py, or say in NOT_BOUND why not")
        for struct in bound_structs():
            with self.subTest(struct=struct):
                self.assertIn(struct, self.sizes, "damero.py has a struct damero.h does not")

    def test_the_bound_structs_have_the_header_layout(self):
        for struct, cls in bound_structs().items():
            with self.subTest(struct=struct):
                python = [(name.rstrip("_"), getattr(cls, name).offset, getattr(cls, name).size)
                          for name, *_ in cls._fields_]
                self.assertEqual(python, self.fields[struct], "fields: (name, offset, size)")
                self.assertEqual(ctypes.sizeof(cls), self.sizes[struct], "sizeof")

    def test_every_constant_is_copied_or_said_not_to_be(self):
        copies = bound_constants()
        for name in self.header_constants | set(self.constants):
            with self.subTest(constant=name):
                self.assertTrue(name in copies or name in NOT_BOUND,
                                f"{name}: copy it into damero.py, or say in NOT_BOUND why not")
        for name in copies:
            with self.subTest(constant=name):
                self.assertIn(name, self.constants, "damero.py has a constant damero.h does not")

    def test_what_is_not_bound_is_in_the_header(self):
        for name in NOT_BOUND:
            with self.subTest(name=name):
                self.assertTrue(name in self.sizes or name in self.constants,
                                "NOT_BOUND names what damero.h no longer has")

    def test_the_copied_constants_have_the_header_values(self):
        for name, value in bound_constants().items():
            with self.subTest(constant=name):
                self.assertEqual(value, self.constants.get(name))

    def test_the_version_is_the_header_s(self):
        header = "%d.%d.%d" % tuple(self.constants["DAMERO_VERSION_" + part]
                                    for part in ("MAJOR", "MINOR", "PATCH"))
        self.assertEqual(damero.__version__, header,
                         "damero.py's __version__ must be damero.h's DAMERO_VERSION")


if __name__ == "__main__":
    PROGRAM, HEADER = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1] + sys.argv[3:], verbosity=2)
