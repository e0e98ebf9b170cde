"""AMPS-hard: symbolic mathematics drawn from distributions harder than textbook exercises.

Ten subtasks: an antiderivative (integrands that need substitution, integration by parts,
partial fractions or a log/arctan split), a derivative (products, quotients and compositions
that need the chain and product rules together), factoring a polynomial (integer roots with
non-unit leading coefficients, repeated roots and an irreducible quadratic factor), completing
the square (fractional vertices), the determinant of a 3x3 or 4x4 mixed-sign matrix, a
characteristic polynomial, the gcd of three signed integers, and exact sample statistics
(geometric mean, standard deviation, variance) whose answers are fractions and radicals.

Why it is hard: every answer must be exact, and one slip in a sign, a chain-rule factor or a
cofactor gives a wrong expression; nothing can be guessed from answer choices.

Scoring (1 or 0, no judge): the answer is read with ``extract_answer``, converted from LaTeX or
plain notation into a SymPy expression by a small whitelist converter (unknown commands or names
score 0), and compared by symbolic equivalence under a CPU-time limit: an antiderivative must
differentiate to the integrand, a derivative must agree with the true one, a factorisation must
multiply out to the polynomial and consist of irreducible factors, a completed square must have
the form a(x - h)^2 + k, a characteristic polynomial may use either sign convention, and numbers
must equal the exact value. A parse failure or a timeout scores 0.
"""

from __future__ import annotations

import math
import random
import re
import signal
import threading
import unicodedata
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

import sympy as sp
from sympy.parsing.sympy_parser import (
    convert_xor,
    implicit_multiplication,
    parse_expr,
    rationalize,
    standard_transformations,
)

from ladderbench.grading.extract import extract_answer
from ladderbench.grading.scorer import verdict
from ladderbench.items import Verdict
from ladderbench.live.base import Question, Sources, Task
from ladderbench.live.registry import register

X = sp.Symbol("x", real=True)

SUBTASKS = (
    "integral",
    "derivative",
    "factor",
    "complete_square",
    "determinant",
    "characteristic_polynomial",
    "gcd",
    "geometric_mean",
    "standard_deviation",
    "variance",
)


@dataclass(frozen=True)
class AmpsHardConfig:
    """Difficulty parameters (all ranges inclusive)."""

    det_size_weights: tuple[tuple[int, int], ...] = ((3, 1), (4, 2))  # (size, weight)
    det_entry_bound_3: int = 19  # 3x3 determinant entries in [-b, b]
    det_entry_bound_4: int = 9
    charpoly_size_weights: tuple[tuple[int, int], ...] = ((3, 3), (4, 1))
    charpoly_entry_bound_3: int = 9
    charpoly_entry_bound_4: int = 4
    gcd_count: int = 3
    gcd_multiplier_bound: int = 400  # numbers are g * k with |k| <= this
    stats_size: tuple[int, int] = (6, 8)
    stats_value_bound: int = 25  # sample values in [-b, b]
    geo_size: tuple[int, int] = (4, 6)
    poly_degree: tuple[int, int] = (3, 4)
    time_limit_s: float = 2.0  # CPU seconds for one comparison


CONFIG = AmpsHardConfig()

PROMPT_TEMPLATE = """\
{instruction}

{problem}

Give an exact answer (fractions and radicals, not decimals) as one mathematical expression, \
written in LaTeX or in plain notation such as 3*x^2*sin(x) or (1/4)*sqrt(2); use x as the \
variable where there is one.
Put your final answer inside <solution></solution> tags."""

INSTRUCTIONS: dict[str, str] = {
    "integral": (
        "Find an indefinite integral (an antiderivative) of the following function of x. "
        "Any antiderivative is accepted; the constant of integration may be omitted."
    ),
    "derivative": "Differentiate the following function with respect to x.",
    "factor": (
        "Factor the following polynomial completely over the rationals, into irreducible "
        "factors (a constant factor in front is allowed)."
    ),
    "complete_square": (
        "Complete the square for the following quadratic: write it in the form "
        "a(x - h)^2 + k with exact rational a, h and k."
    ),
    "determinant": "Find the determinant of the following matrix.",
    "characteristic_polynomial": (
        "Find the characteristic polynomial of the following matrix, in the variable x. "
        "Either convention, det(xI - A) or det(A - xI), is accepted."
    ),
    "gcd": "Find the greatest common divisor of the following integers.",
    "geometric_mean": (
        "Compute the geometric mean of the following numbers. Simplify the radical exactly."
    ),
    "standard_deviation": (
        "Compute the sample standard deviation (dividing by n - 1) of the following numbers."
    ),
    "variance": "Compute the sample variance (dividing by n - 1) of the following numbers.",
}


# ---------------------------------------------------------------- a CPU-time limit


class _TimeUp(BaseException):
    """Raised inside a timed computation (a BaseException so sympy's handlers do not eat it)."""


T = TypeVar("T")


def call_with_time_limit(fn: Callable[[], T], seconds: float) -> T:
    """Run ``fn()`` and return its result, or raise TimeoutError after ``seconds`` of CPU time.

    In the main thread a virtual (CPU-time) interval timer interrupts the computation, leaving
    SIGALRM to others (pytest-timeout, the runner); elsewhere the call runs in a daemon thread
    that is abandoned when the time is up.
    """
    installed, previous = False, None
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):

        def on_timer(signum: int, frame: Any) -> None:
            raise _TimeUp

        try:
            previous = signal.signal(signal.SIGVTALRM, on_timer)
            installed = True
        except (ValueError, OSError):  # an embedded interpreter that owns its signals
            installed = False
    if installed:
        old_delay, old_interval = signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
        try:
            try:
                return fn()
            finally:
                signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        except _TimeUp:
            raise TimeoutError(f"gave up after {seconds} s") from None
        finally:
            signal.signal(signal.SIGVTALRM, previous if previous is not None else signal.SIG_DFL)
            if old_delay:
                signal.setitimer(signal.ITIMER_VIRTUAL, old_delay, old_interval)
    box: list[Any] = []

    def target() -> None:
        try:
            box.append((True, fn()))
        except BaseException as exc:
            box.append((False, exc))

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(seconds)
    if not box:
        raise TimeoutError(f"gave up after {seconds} s")
    ok, value = box[0]
    if not ok:
        raise value
    return value


# ---------------------------------------------------------------- LaTeX / plain text -> sympy


class _Reject(Exception):
    """The answer holds something the converter does not accept."""


# Function names (LaTeX command or plain word) -> sympy name.
_FUNCTIONS = {
    "sin": "sin",
    "cos": "cos",
    "tan": "tan",
    "sec": "sec",
    "csc": "csc",
    "cosec": "csc",
    "cot": "cot",
    "arcsin": "asin",
    "arccos": "acos",
    "arctan": "atan",
    "arcsec": "asec",
    "arccsc": "acsc",
    "arccot": "acot",
    "asin": "asin",
    "acos": "acos",
    "atan": "atan",
    "sinh": "sinh",
    "cosh": "cosh",
    "tanh": "tanh",
    "sech": "sech",
    "csch": "csch",
    "coth": "coth",
    "arcsinh": "asinh",
    "arccosh": "acosh",
    "arctanh": "atanh",
    "asinh": "asinh",
    "acosh": "acosh",
    "atanh": "atanh",
    "ln": "log",
    "log": "log",
    "exp": "exp",
    "sqrt": "sqrt",
    "abs": "Abs",
    "Abs": "Abs",
    "cbrt": "cbrt",
    "sign": "sign",
    "sgn": "sign",
}
_INVERSE = {
    "sin": "asin",
    "cos": "acos",
    "tan": "atan",
    "sec": "asec",
    "csc": "acsc",
    "cot": "acot",
}
_CONSTANTS = {"pi": "pi"}
_VARIABLES = {"x": "x", "e": "e", "C": "C", "c": "C", "K": "C"}  # C: a constant of integration
_WORDS = sorted([*_FUNCTIONS, *_CONSTANTS], key=len, reverse=True)
_IGNORED_COMMANDS = {
    "left",
    "right",
    "big",
    "Big",
    "bigg",
    "Bigg",
    "bigl",
    "bigr",
    "Bigl",
    "Bigr",
    "biggl",
    "biggr",
    "displaystyle",
    "textstyle",
    "quad",
    "qquad",
    "limits",
}
_SYMBOL_COMMANDS = {"cdot": "*", "times": "*", "ast": "*", "div": "/", "pi": " pi ", "e": " e "}
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUPERSCRIPT_RUN = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+")
_UNICODE = {
    "−": "-",
    "–": "-",
    "—": "-",
    "·": "*",
    "⋅": "*",
    "×": "*",
    "÷": "/",
    "√": "\\sqrt",
    "π": "\\pi",
    "∛": "\\cbrt",
}
_TEXT_WRAPPERS = re.compile(
    r"\\(?:text|mathrm|operatorname|mathit|mathbf|textrm|textit|mathsf)\s*\{([^{}]*)\}"
)
_SIZED_DOT = re.compile(r"\\(?:left|right)\s*\.")
_SIZED = re.compile(r"\\(?:left|right|[bB]igg?[lr]?)(?![A-Za-z])\s*")
_DIFFERENTIAL = re.compile(r"(?:\\,|\s)*(?:\\mathrm\{d\}|d)\s*x\s*$")
_SUBSCRIPTED_CONSTANT = re.compile(r"\b([CcK])_\{?\d+\}?")
_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_THIN_SPACE_GROUP = re.compile(r"(\d)(?:\\,|\\ |\{,\}|\u2009|\u202f)(?=\d{3}(?!\d))")
_MAX_LENGTH = 600
_MAX_DIGITS = 3000  # a bound on the size of any number the parsed expression may compute


def _matching(s: str, i: int, open_ch: str, close_ch: str) -> int:
    """Index of the bracket closing the one at s[i]."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == open_ch:
            depth += 1
        elif s[j] == close_ch:
            depth -= 1
            if depth == 0:
                return j
    raise _Reject(f"unbalanced {open_ch}")


def _skip_spaces(s: str, i: int) -> int:
    while i < len(s) and s[i].isspace():
        i += 1
    return i


def _read_group(s: str, i: int) -> tuple[str, int]:
    """One TeX argument at s[i]: a {braced group} or a single character or command."""
    i = _skip_spaces(s, i)
    if i >= len(s):
        raise _Reject("missing argument")
    if s[i] == "{":
        j = _matching(s, i, "{", "}")
        return s[i + 1 : j], j + 1
    if s[i] == "\\":
        m = re.match(r"\\[A-Za-z]+", s[i:])
        if m:
            return m.group(), i + m.end()
    return s[i], i + 1


def _read_atom(s: str, i: int) -> tuple[str, int]:
    """The argument of a function written without brackets: (..), {..}, \\cmd{..}, or 2x."""
    i = _skip_spaces(s, i)
    if i >= len(s):
        raise _Reject("function without an argument")
    if s[i] == "(":
        j = _matching(s, i, "(", ")")
        return s[i : j + 1], j + 1
    if s[i] == "[":
        j = _matching(s, i, "[", "]")
        return s[i : j + 1], j + 1
    if s[i] == "{":
        j = _matching(s, i, "{", "}")
        return s[i + 1 : j], j + 1
    if s[i] == "|":
        depth = 0
        for j in range(i + 1, len(s)):
            if s[j] in "({[":
                depth += 1
            elif s[j] in ")}]":
                depth -= 1
            elif s[j] == "|" and depth == 0:
                return s[i : j + 1], j + 1
        raise _Reject("unclosed |")
    if s[i] == "\\":
        m = re.match(r"\\([A-Za-z]+)", s[i:])
        if not m:
            raise _Reject("bad argument")
        name, j = m.group(1), i + m.end()
        if name in ("frac", "dfrac", "tfrac"):
            _, j = _read_group(s, j)
            _, j = _read_group(s, j)
        elif name in ("abs", "sqrt", "cbrt"):
            j = _skip_spaces(s, j)
            if name == "sqrt" and j < len(s) and s[j] == "[":
                j = _matching(s, j, "[", "]") + 1
            _, j = _read_group(s, j)
        elif name in _FUNCTIONS:
            _, j = _read_atom(s, j)
        return s[i:j], j
    m = re.match(r"[0-9.]*\s*[A-Za-z]?(?:\^(?:\{[^{}]*\}|[0-9A-Za-z]))?", s[i:])
    if not m or not m.group().strip():
        raise _Reject("function without an argument")
    return m.group(), i + m.end()


def _signed_integer(s: str, i: int) -> str:
    """The signed integer written at s[i] (an exponent such as ^-1)."""
    m = re.match(r"[+-]?\d+", s[i:])
    if not m:
        raise _Reject("expected an integer")
    return m.group()


def _split_word(word: str, words: list[str], letters: dict[str, str]) -> list[str]:
    """A run of letters as known names and single-letter symbols ("xsinx" -> x, sin, x)."""
    out, i = [], 0
    while i < len(word):
        for name in words:
            if word.startswith(name, i):
                out.append(name)
                i += len(name)
                break
        else:
            if word[i] not in letters:
                raise _Reject(f"unknown name {word!r}")
            out.append(word[i])
            i += 1
    return out


class _Converter:
    """Turn LaTeX or plain maths into a string of whitelisted tokens for parse_expr."""

    def __init__(self, aliases: dict[str, str]) -> None:
        self.aliases = aliases
        self.letters = {**_VARIABLES, **{k: v for k, v in aliases.items() if len(k) == 1}}
        words = [*_WORDS, *(k for k in aliases if len(k) > 1 and k.isalpha())]
        self.words = sorted(words, key=len, reverse=True)

    def convert(self, s: str) -> str:
        out: list[str] = []
        abs_open = 0
        i = 0
        n = len(s)
        while i < n:
            ch = s[i]
            if ch.isspace():
                out.append(" ")
                i += 1
            elif ch == "\\":
                m = re.match(r"\\([A-Za-z]+)", s[i:])
                if not m:
                    # \, \; \! \{ \} and friends
                    nxt = s[i + 1 : i + 2]
                    if nxt in (",", ";", ":", "!", " "):
                        out.append(" ")
                    elif nxt == "{":
                        out.append("(")
                    elif nxt == "}":
                        out.append(")")
                    elif nxt == "|":
                        abs_open, piece = self._bar(out, abs_open)
                        out.append(piece)
                    else:
                        raise _Reject(f"unknown command \\{nxt}")
                    i += 2
                    continue
                name, i = m.group(1), i + m.end()
                if name in _IGNORED_COMMANDS:
                    if name in ("left", "right") and s[i : i + 1] == ".":
                        i += 1
                    continue
                if name in ("frac", "dfrac", "tfrac", "cfrac"):
                    num, i = _read_group(s, i)
                    den, i = _read_group(s, i)
                    out.append(f"(({self.convert(num)})/({self.convert(den)}))")
                elif name == "sqrt":
                    i = _skip_spaces(s, i)
                    index = None
                    if i < n and s[i] == "[":
                        j = _matching(s, i, "[", "]")
                        index, i = s[i + 1 : j], j + 1
                    arg, i = _read_group(s, i)
                    if index is None:
                        out.append(f" sqrt({self.convert(arg)})")
                    else:
                        out.append(f"(({self.convert(arg)})**(1/({self.convert(index)})))")
                elif name == "abs":
                    arg, i = _read_group(s, i)
                    out.append(f" Abs({self.convert(arg)})")
                elif name in _FUNCTIONS:
                    piece, i = self._function(name, s, i)
                    out.append(piece)
                elif name in _SYMBOL_COMMANDS:
                    out.append(_SYMBOL_COMMANDS[name])
                elif name in self.aliases:
                    out.append(f" {self.aliases[name]} ")
                else:
                    raise _Reject(f"unknown command \\{name}")
            elif ch.isalpha():
                m = re.match(r"[A-Za-z]+", s[i:])
                if not m:
                    raise _Reject(f"unexpected character {ch!r}")
                word, i = m.group(), i + m.end()
                parts = _split_word(word, self.words, self.letters)
                for k, part in enumerate(parts):
                    if part in _FUNCTIONS:
                        if k != len(parts) - 1:
                            # "sinx": the rest of the run is the argument.
                            rest = "".join(parts[k + 1 :])
                            piece, _ = self._function(part, rest, 0)
                            out.append(piece)
                            break
                        piece, i = self._function(part, s, i)
                        out.append(piece)
                    elif part in _CONSTANTS:
                        out.append(f" {_CONSTANTS[part]} ")
                    elif part in self.aliases:
                        out.append(f" {self.aliases[part]} ")
                    else:
                        out.append(f" {self.letters[part]} ")
            elif ch.isdigit() or ch == ".":
                m = re.match(r"\d*\.?\d*", s[i:])
                token = m.group() if m else ""
                if token in ("", "."):
                    raise _Reject("stray dot")
                out.append(token)
                i += len(token)
            elif ch == "{":
                j = _matching(s, i, "{", "}")
                out.append(f"({self.convert(s[i + 1 : j])})")
                i = j + 1
            elif ch == "^":
                i = _skip_spaces(s, i + 1)
                if i < n and s[i] == "*":
                    raise _Reject("^*")
                if i < n and s[i] in "+-" and i + 1 < n and s[i + 1].isdigit():
                    arg = _signed_integer(s, i)
                    i += len(arg)
                else:
                    arg, i = _read_group(s, i)
                out.append(f"**({self.convert(arg)})")
            elif ch in "([":
                out.append("(")
                i += 1
            elif ch in ")]":
                out.append(")")
                i += 1
            elif ch == "|":
                abs_open, piece = self._bar(out, abs_open)
                out.append(piece)
                i += 1
            elif ch in "+-*/":
                out.append(ch)
                i += 1
            else:
                raise _Reject(f"unexpected character {ch!r}")
        if abs_open:
            raise _Reject("unclosed |")
        return "".join(out)

    @staticmethod
    def _bar(out: list[str], abs_open: int) -> tuple[int, str]:
        """A | opens an absolute value after an operator or at the start, else closes one."""
        before = "".join(out).rstrip()
        opens = not before or before[-1] in "(+-*/" or before.endswith("Abs(")
        if abs_open and not opens:
            return abs_open - 1, ")"
        return abs_open + 1, " Abs("

    def _function(self, name: str, s: str, i: int) -> tuple[str, int]:
        """A function applied to its argument, with an optional power (\\sin^2 x)."""
        func = _FUNCTIONS[name]
        i = _skip_spaces(s, i)
        power = None
        if i < len(s) and s[i] == "^":
            j = _skip_spaces(s, i + 1)
            if j < len(s) and s[j] == "-" and s[j + 1 : j + 2].isdigit():
                power = _signed_integer(s, j)
                i = j + len(power)
            else:
                power, i = _read_group(s, j)
            power = self.convert(power)
            if power.strip() in ("-1", "(-1)") and func in _INVERSE:
                func, power = _INVERSE[func], None
        arg, i = _read_atom(s, i)
        call = f" {func}({self.convert(arg)})"
        if power is not None:
            call = f"(({call})**({power}))"
        return call, i


def _prepare(text: str) -> str:
    """Normalise unicode, drop wrappers and decorations, and pick the expression to parse."""
    for old, new in _UNICODE.items():
        text = text.replace(old, new)
    text = _SUPERSCRIPT_RUN.sub(lambda m: "^{" + m.group().translate(_SUPERSCRIPTS) + "}", text)
    text = unicodedata.normalize("NFKC", text)
    text = _TEXT_WRAPPERS.sub(lambda m: m.group(1), text)
    text = text.replace("$", " ").replace("\\(", " ").replace("\\)", " ")
    text = text.replace("\\[", " ").replace("\\]", " ")
    text = _SIZED_DOT.sub("", text)
    text = _SIZED.sub("", text)
    text = re.split(r"\\approx|≈", text)[0]
    parts = [p for p in re.split(r"=|\\equiv", text) if p.strip()]
    if not parts:
        return ""
    text = parts[-1]
    if text.strip() == "0" and len(parts) > 1:
        text = parts[-2]  # "x^3 - ... = 0": the polynomial, not 0
    text = _DIFFERENTIAL.sub("", text)
    text = _SUBSCRIPTED_CONSTANT.sub(r"\1", text)  # C_1, the constant of integration
    text = _THIN_SPACE_GROUP.sub(r"\1", text)
    text = text.strip().rstrip(".").strip()
    if _THOUSANDS.match(text):
        text = text.replace(",", "")
    return text


_TRANSFORMATIONS = (*standard_transformations, convert_xor, implicit_multiplication, rationalize)
_LOCALS = {
    "x": X,
    "e": sp.E,
    "C": sp.Symbol("C"),
    "pi": sp.pi,
    "cbrt": lambda a: sp.root(a, 3),
}


def _digits(expr: sp.Basic) -> int:
    """An upper bound on the number of digits evaluating ``expr`` could produce."""
    if isinstance(expr, sp.Integer):
        return len(str(abs(int(expr))))
    if isinstance(expr, sp.Rational):
        return len(str(abs(expr.p))) + len(str(expr.q))
    if isinstance(expr, sp.Float):
        return 20
    if isinstance(expr, sp.Pow):
        base, exponent = expr.args
        if exponent.free_symbols:
            return max(_digits(base), _digits(exponent))
        if _digits(exponent) > 12:
            raise _Reject("exponent too large")
        value = abs(complex(exponent.evalf(15)))  # small numbers only: safe to evaluate
        if not value <= 10_000:
            raise _Reject("exponent too large")
        size = _digits(base) * (int(value) + 1)
        if size > _MAX_DIGITS:
            raise _Reject("number too large")
        return size
    if not expr.args:
        return 1
    sizes = [_digits(arg) for arg in expr.args]
    total = sum(sizes) + 1 if isinstance(expr, sp.Mul) else max(sizes) + 1
    if total > _MAX_DIGITS:
        raise _Reject("number too large")
    return total


def to_sympy(text: str, aliases: dict[str, str] | None = None) -> sp.Expr:
    """A model's answer (LaTeX or plain) as a SymPy expression in ``X``; raises on failure.

    ``aliases`` maps extra LaTeX commands or letters to x (``\\lambda`` for a characteristic
    polynomial). Only whitelisted functions and names get through to ``parse_expr``.
    """
    if not isinstance(text, str) or len(text) > _MAX_LENGTH:
        raise _Reject("too long")
    aliases = aliases or {}
    text = _prepare(text)
    for letter in [a for a in aliases if len(a) == 1 and not a.isascii()]:
        text = text.replace(letter, f" {aliases[letter]} ")
    code = _Converter(aliases).convert(text)
    if not code.strip():
        raise _Reject("empty")
    if re.search(r"[^A-Za-z0-9_ ()+\-*/.]", code):
        raise _Reject("unexpected token")
    shape = parse_expr(
        code, local_dict=dict(_LOCALS), transformations=_TRANSFORMATIONS, evaluate=False
    )
    _digits(sp.sympify(shape, evaluate=False))
    expr = parse_expr(code, local_dict=dict(_LOCALS), transformations=_TRANSFORMATIONS)
    if not isinstance(expr, sp.Expr):
        raise _Reject("not an expression")
    return expr


def parse_truth(text: str) -> sp.Expr:
    """A ground-truth string (sympy's str form) back as an expression in ``X``."""
    return sp.sympify(text, locals={"x": X})


# ---------------------------------------------------------------- equivalence checks

_POINTS = tuple(
    sp.Rational(p, 1000)
    for p in (371, 613, 1289, 1717, 2437, 829, -457, -1123, -1931, 3163, -2711, 197, 4019)
)


def _value(expr: sp.Expr, point: sp.Rational, digits: int = 30) -> complex | None:
    """expr at x = point as a complex number, or None where it is undefined or infinite."""
    v = expr.evalf(digits, subs={X: point})
    if not v.is_number:
        raise _Reject("free symbols")
    try:
        z = complex(v)
    except (TypeError, ValueError):
        return None
    if not (math.isfinite(z.real) and math.isfinite(z.imag)):
        return None
    return z


def real_points(expr: sp.Expr, enough: int = len(_POINTS)) -> int:
    """How many sample points (up to ``enough``) give expr a real, finite value."""
    count = 0
    for point in _POINTS:
        v = _value(expr, point, 15)
        if v is not None and abs(v.imag) <= 1e-9 * max(1.0, abs(v)):
            count += 1
            if count >= enough:
                break
    return count


def same_function(candidate: sp.Expr, truth: sp.Expr, needed: int = 4) -> bool:
    """Whether candidate equals truth at every sample point where truth is real and finite."""
    if candidate.free_symbols - {X}:
        return False
    used = 0
    for point in _POINTS:
        t = _value(truth, point)
        if t is None or abs(t.imag) > 1e-12 * max(1.0, abs(t)):
            continue
        c = _value(candidate, point)
        if c is None or abs(c - t) > 1e-9 * max(1.0, abs(t)):
            return False
        used += 1
        if used >= 6:
            break
    return used >= needed


def same_number(candidate: sp.Expr, truth: sp.Expr) -> bool:
    """Exact equality of two constants (rationals exactly, algebraic numbers to 50 digits)."""
    if candidate.free_symbols:
        return False
    if candidate.is_Rational and truth.is_Rational:
        return bool(candidate == truth)
    c, t = candidate.evalf(60), truth.evalf(60)
    if not (c.is_number and t.is_number):
        return False
    diff = abs(sp.N(c - t, 60))
    scale = max(sp.Float(1), abs(t))
    return bool(diff <= scale * sp.Float("1e-40", 60))


def _factors(expr: sp.Expr) -> list[sp.Expr]:
    """expr as a flat list of factors, powers unrolled (bases that are products recursed)."""
    out: list[sp.Expr] = []
    for factor in sp.Mul.make_args(expr):
        if factor.is_Pow and factor.exp.is_Integer and factor.exp > 0:
            out.extend(_factors(factor.base) * int(factor.exp))
        else:
            out.append(factor)
    return out


def is_complete_factorisation(candidate: sp.Expr, polynomial: sp.Expr) -> bool:
    """candidate multiplies out to polynomial, and each non-constant factor is irreducible."""
    if candidate.free_symbols - {X} or sp.expand(candidate - polynomial) != 0:
        return False
    for factor in _factors(candidate):
        if not factor.has(X):
            continue
        if not factor.is_polynomial(X):
            return False
        if not sp.Poly(factor, X, domain="QQ").is_irreducible:
            return False
    return True


def is_completed_square(candidate: sp.Expr, polynomial: sp.Expr) -> bool:
    """candidate equals polynomial and has the shape a*(linear)^2 + k."""
    if candidate.free_symbols - {X} or sp.expand(candidate - polynomial) != 0:
        return False
    with_x = [term for term in sp.Add.make_args(candidate) if term.has(X)]
    if len(with_x) != 1:
        return False
    squares = [f for f in sp.Mul.make_args(with_x[0]) if f.has(X)]
    if len(squares) != 1 or not squares[0].is_Pow or squares[0].exp != 2:
        return False
    base = squares[0].base
    return bool(base.is_polynomial(X) and sp.degree(base, X) == 1)


# ---------------------------------------------------------------- generators


def _nonzero(rng: random.Random, lo: int, hi: int) -> int:
    while True:
        v = rng.randint(lo, hi)
        if v:
            return v


def _display(expr: sp.Expr) -> str:
    return sp.latex(expr, ln_notation=True, inv_trig_style="full")


def _matrix_latex(rows: list[list[int]]) -> str:
    body = " \\\\\n".join(" & ".join(str(v) for v in row) for row in rows)
    return f"$$\\left(\\begin{{array}}{{{'c' * len(rows)}}}\n{body}\n\\end{{array}}\\right)$$"


def _weighted_size(rng: random.Random, weights: tuple[tuple[int, int], ...]) -> int:
    sizes = [size for size, w in weights for _ in range(w)]
    return rng.choice(sizes)


def _gen_integral(rng: random.Random) -> tuple[sp.Expr, sp.Expr]:
    """(integrand, antiderivative) from one of eleven templates."""
    kind = rng.randrange(11)
    a = _nonzero(rng, -5, 5)
    if kind == 0:  # (p x + q) e^{a x}: parts
        p, q = _nonzero(rng, -6, 6), _nonzero(rng, -9, 9)
        f = (p * X + q) * sp.exp(a * X)
        big_f = sp.exp(a * X) * ((p * X + q) / sp.Integer(a) - sp.Rational(p, a * a))
    elif kind == 1:  # x^2 e^{a x}: parts twice
        c = _nonzero(rng, -4, 4)
        f = c * X**2 * sp.exp(a * X)
        big_f = c * sp.exp(a * X) * (X**2 / a - 2 * X / sp.Integer(a**2) + sp.Rational(2, a**3))
    elif kind == 2:  # (p x + q) sin/cos(a x): parts
        p, q = _nonzero(rng, -6, 6), rng.randint(-9, 9)
        u = p * X + q
        if rng.random() < 0.5:
            f = u * sp.sin(a * X)
            big_f = -u * sp.cos(a * X) / a + sp.Rational(p, a * a) * sp.sin(a * X)
        else:
            f = u * sp.cos(a * X)
            big_f = u * sp.sin(a * X) / a + sp.Rational(p, a * a) * sp.cos(a * X)
    elif kind == 3:  # x^n ln(b x): parts
        n, b = rng.randint(1, 4), rng.randint(2, 7)
        c = _nonzero(rng, -5, 5)
        f = c * X**n * sp.log(b * X)
        big_f = c * (X ** (n + 1) * sp.log(b * X) / (n + 1) - X ** (n + 1) / (n + 1) ** 2)
    elif kind == 4:  # c x^{m-1} (b x^m + d)^p: substitution
        m, b, d = rng.randint(2, 3), _nonzero(rng, -4, 4), _nonzero(rng, -9, 9)
        p = rng.choice(
            [
                sp.Integer(3),
                sp.Integer(4),
                sp.Rational(1, 2),
                sp.Rational(3, 2),
                sp.Integer(-2),
                sp.Rational(-1, 2),
                sp.Integer(-3),
            ]
        )
        c = _nonzero(rng, -6, 6)
        u = b * X**m + d
        f = c * X ** (m - 1) * u**p
        big_f = c * u ** (p + 1) / (b * m * (p + 1))
    elif kind == 5:  # c x^{m-1} e^{b x^m + d}: substitution
        m, b, d = rng.randint(2, 3), _nonzero(rng, -4, 4), _nonzero(rng, -5, 5)
        c = _nonzero(rng, -6, 6)
        f = c * X ** (m - 1) * sp.exp(b * X**m + d)
        big_f = sp.Rational(c, b * m) * sp.exp(b * X**m + d)
    elif kind == 6:  # c sin(u) cos^n(u) or c sec^2(u) tan^n(u), u = a x + b: substitution
        b, n, c = rng.randint(-5, 5), rng.randint(2, 5), _nonzero(rng, -6, 6)
        u = a * X + b
        if rng.random() < 0.5:
            f = c * sp.sin(u) * sp.cos(u) ** n
            big_f = -sp.Rational(c, a * (n + 1)) * sp.cos(u) ** (n + 1)
        else:
            f = c * sp.sec(u) ** 2 * sp.tan(u) ** n
            big_f = sp.Rational(c, a * (n + 1)) * sp.tan(u) ** (n + 1)
    elif kind == 7:  # c (2 b x + d) / (b x^2 + d x + e): logarithm
        b, d = _nonzero(rng, -5, 5), _nonzero(rng, -9, 9)
        e, c = _nonzero(rng, -12, 12), _nonzero(rng, -7, 7)
        quad = b * X**2 + d * X + e
        f = c * (2 * b * X + d) / quad
        big_f = c * sp.log(sp.Abs(quad))
    elif kind == 8:  # (p x + q) / (x^2 + k^2): log plus arctan
        p, q, k = _nonzero(rng, -8, 8), _nonzero(rng, -9, 9), rng.randint(2, 6)
        f = (p * X + q) / (X**2 + k**2)
        big_f = sp.Rational(p, 2) * sp.log(X**2 + k**2) + sp.Rational(q, k) * sp.atan(X / k)
    elif kind == 9:  # partial fractions over two distinct integer roots
        r1 = rng.randint(-7, 7)
        r2 = rng.choice([r for r in range(-7, 8) if r != r1])
        big_a, big_b = _nonzero(rng, -6, 6), _nonzero(rng, -6, 6)
        num = sp.expand(big_a * (X - r2) + big_b * (X - r1))
        f = num / sp.expand((X - r1) * (X - r2))
        big_f = big_a * sp.log(sp.Abs(X - r1)) + big_b * sp.log(sp.Abs(X - r2))
    else:  # e^{a x} sin/cos(b x): parts twice
        b = rng.randint(2, 6)
        if rng.random() < 0.5:
            f = sp.exp(a * X) * sp.sin(b * X)
            big_f = sp.exp(a * X) * (a * sp.sin(b * X) - b * sp.cos(b * X)) / (a * a + b * b)
        else:
            f = sp.exp(a * X) * sp.cos(b * X)
            big_f = sp.exp(a * X) * (a * sp.cos(b * X) + b * sp.sin(b * X)) / (a * a + b * b)
    return f, big_f


def _inner(rng: random.Random) -> sp.Expr:
    """A small polynomial inside a composition: a x^k + b."""
    k = rng.choice([1, 1, 2, 2, 3])
    return _nonzero(rng, -6, 6) * X**k + rng.randint(-9, 9)


def _outer(rng: random.Random, u: sp.Expr) -> sp.Expr:
    kind = rng.randrange(9)
    if kind == 0:
        return sp.exp(u)
    if kind == 1:
        return sp.sin(u)
    if kind == 2:
        return sp.cos(u)
    if kind == 3:
        return sp.tan(u)
    if kind == 4:
        return sp.log(u)
    if kind == 5:
        return sp.sqrt(u)
    if kind == 6:
        return sp.atan(u)
    if kind == 7:
        return sp.cbrt(u)
    return u ** rng.choice([3, 4, 5, -2, -3])


def _gen_derivative(rng: random.Random) -> sp.Expr:
    """A function needing the chain rule together with the product or quotient rule."""
    while True:
        shape = rng.randrange(4)
        if shape == 0:  # product of two compositions
            f = _outer(rng, _inner(rng)) * _outer(rng, _inner(rng))
        elif shape == 1:  # quotient of two compositions
            f = _outer(rng, _inner(rng)) / _outer(rng, _inner(rng))
        elif shape == 2:  # nested composition times a power of x
            f = X ** rng.randint(1, 3) * _outer(rng, _outer(rng, _inner(rng)))
        else:  # nested composition of three
            f = _outer(rng, _outer(rng, _inner(rng)))
            if rng.random() < 0.5:
                f = f * _outer(rng, _inner(rng))
        if f.has(sp.Abs, sp.sign):  # a real-variable simplification of a root of a power
            continue
        if any(isinstance(p.base, sp.Pow) for p in f.atoms(sp.Pow)):  # a root of a power
            continue
        if f.has(X) and len(f.atoms(sp.Function)) + len(f.atoms(sp.Pow)) >= 2:
            return f


def _gen_factor(rng: random.Random, cfg: AmpsHardConfig) -> sp.Expr:
    """A polynomial with integer content, rational roots and maybe an irreducible quadratic."""
    degree = rng.randint(*cfg.poly_degree)
    factors: list[sp.Expr] = []
    remaining = degree
    if remaining >= 3 and rng.random() < 0.4:
        while True:  # an irreducible quadratic: negative discriminant or non-square one
            b, c = rng.randint(-6, 6), _nonzero(rng, -12, 12)
            disc = b * b - 4 * c
            if disc < 0 or math.isqrt(disc) ** 2 != disc:
                factors.append(X**2 + b * X + c)
                remaining -= 2
                break
    linears = []
    while remaining:
        p = rng.choice([1, 1, 2, 3, 4, 5])
        q = _nonzero(rng, -9, 9)
        if math.gcd(p, q) == 1:
            linears.append(p * X + q)
            remaining -= 1
    if len(linears) >= 2 and rng.random() < 0.3:
        linears[1] = linears[0]  # a repeated root
    content = rng.choice([1, 1, 2, 3, -1, -2, -3, 5, 6])
    return sp.expand(content * sp.Mul(*factors, *linears))


def _gen_square(rng: random.Random) -> tuple[sp.Expr, sp.Expr]:
    """(quadratic, completed square) with a non-unit leading coefficient and fractional h."""
    a = rng.choice([-7, -5, -4, -3, -2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12])
    while True:
        b, c = _nonzero(rng, -19, 19), rng.randint(-20, 20)
        if b % (2 * a):  # h is not an integer
            break
    h = sp.Rational(-b, 2 * a)
    k = sp.Rational(c) - a * h * h
    quadratic = a * X**2 + b * X + c
    square = a * (X - h) ** 2 + k
    return quadratic, square


def _random_matrix(rng: random.Random, size: int, bound: int) -> list[list[int]]:
    """A mixed-sign integer matrix: every row holds both a positive and a negative entry."""
    while True:
        rows = [[rng.randint(-bound, bound) for _ in range(size)] for _ in range(size)]
        if all(any(v > 0 for v in row) and any(v < 0 for v in row) for row in rows):
            return rows


def _charpoly_coefficients(rows: list[list[int]]) -> list[int]:
    """Coefficients c_0..c_n of det(xI - A), by the Faddeev-LeVerrier recurrence (exact)."""
    n = len(rows)
    coefficients = [0] * (n + 1)
    coefficients[n] = 1
    m = [[0] * n for _ in range(n)]  # M_0 = 0
    for k in range(1, n + 1):
        # M_k = A M_{k-1} + c_{n-k+1} I;  c_{n-k} = -tr(A M_k) / k
        am = [[sum(rows[i][t] * m[t][j] for t in range(n)) for j in range(n)] for i in range(n)]
        m = [
            [am[i][j] + (coefficients[n - k + 1] if i == j else 0) for j in range(n)]
            for i in range(n)
        ]
        trace = sum(rows[i][t] * m[t][i] for i in range(n) for t in range(n))
        coefficients[n - k] = -trace // k
    return coefficients


def _sample_variance(values: list[int]) -> Fraction:
    n = len(values)
    mean = Fraction(sum(values), n)
    return sum((Fraction(v) - mean) ** 2 for v in values) / (n - 1)


def _smooth_numbers(limit: int) -> tuple[int, ...]:
    """Numbers up to limit with no prime factor above 7."""
    out = []
    for v in range(1, limit + 1):
        m = v
        for p in (2, 3, 5, 7):
            while m % p == 0:
                m //= p
        if m == 1:
            out.append(v)
    return tuple(out)


_SMOOTH_NUMBERS = _smooth_numbers(3000)
_MIN_REAL_POINTS = 6


def _simplified_root(value: int, n: int) -> tuple[int, int, int]:
    """The n-th root of a 7-smooth value as (outside, radicand, index).

    The root equals outside * radicand ** (1 / index), with the radicand free of index-th powers.
    """
    exponents = {}
    for p in (2, 3, 5, 7):
        e = 0
        while value % p == 0:
            value //= p
            e += 1
        exponents[p] = e
    if value != 1:
        raise ValueError("value must have no prime factor above 7")
    outside = math.prod(p ** (e // n) for p, e in exponents.items())
    rest = {p: e % n for p, e in exponents.items()}
    g = math.gcd(n, *rest.values())
    index = n // g
    radicand = math.prod(p ** (e // g) for p, e in rest.items())
    return outside, radicand, index


def _generate(rng: random.Random, cfg: AmpsHardConfig) -> Question:
    subtask = rng.choice(SUBTASKS)
    fields: dict[str, Any] = {}
    if subtask == "integral":
        while True:
            f, big_f = _gen_integral(rng)
            if real_points(f, _MIN_REAL_POINTS) >= _MIN_REAL_POINTS:
                break
        problem = f"$$f(x) = {_display(f)}$$"
        truth = str(big_f)
        fields["integrand"] = str(f)
    elif subtask == "derivative":
        while True:
            f = _gen_derivative(rng)
            if real_points(f, _MIN_REAL_POINTS) >= _MIN_REAL_POINTS:
                break
        derivative = sp.diff(f, X)
        problem = f"$$f(x) = {_display(f)}$$"
        truth = str(derivative)
        fields["function"] = str(f)
    elif subtask == "factor":
        poly = _gen_factor(rng, cfg)
        problem = f"$${_display(poly)}$$"
        truth = str(sp.factor(poly))
        fields["polynomial"] = str(poly)
    elif subtask == "complete_square":
        quadratic, square = _gen_square(rng)
        problem = f"$${_display(quadratic)}$$"
        truth = str(square)
        fields["polynomial"] = str(quadratic)
    elif subtask == "determinant":
        size = _weighted_size(rng, cfg.det_size_weights)
        bound = cfg.det_entry_bound_3 if size == 3 else cfg.det_entry_bound_4
        while True:
            rows = _random_matrix(rng, size, bound)
            det = sp.Matrix(rows).det()
            if det != 0:
                break
        problem = _matrix_latex(rows)
        truth = str(det)
        fields["matrix"] = rows
    elif subtask == "characteristic_polynomial":
        size = _weighted_size(rng, cfg.charpoly_size_weights)
        bound = cfg.charpoly_entry_bound_3 if size == 3 else cfg.charpoly_entry_bound_4
        rows = _random_matrix(rng, size, bound)
        poly = sum(c * X**k for k, c in enumerate(_charpoly_coefficients(rows)))
        problem = _matrix_latex(rows)
        truth = str(poly)
        fields["matrix"] = rows
    elif subtask == "gcd":
        g = rng.choice([2, 3, 4, 6, 8, 9, 12]) * rng.choice([7, 11, 13, 17, 19, 23, 29, 31])
        while True:
            ks = [
                _nonzero(rng, -cfg.gcd_multiplier_bound, cfg.gcd_multiplier_bound)
                for _ in range(cfg.gcd_count)
            ]
            if (
                math.gcd(*ks) == 1
                and len({abs(k) for k in ks}) == len(ks)
                and min(map(abs, ks)) > 20
                and min(ks) < 0 < max(ks)
            ):
                break
        numbers = [g * k for k in ks]
        problem = "$$\\{" + ", ".join(str(v) for v in numbers) + "\\}$$"
        truth = str(g)
        fields["numbers"] = numbers
    elif subtask == "geometric_mean":
        n = rng.randint(*cfg.geo_size)
        while True:
            numbers = [rng.choice(_SMOOTH_NUMBERS) for _ in range(n)]
            outside, radicand, index = _simplified_root(math.prod(numbers), n)
            if radicand > 1 and len(set(numbers)) > 2:
                break
        problem = "$$\\{" + ", ".join(str(v) for v in numbers) + "\\}$$"
        root = f"sqrt({radicand})" if index == 2 else f"{radicand}**(1/{index})"
        truth = root if outside == 1 else f"{outside}*{root}"
        fields["numbers"] = numbers
    else:  # standard_deviation, variance
        n = rng.randint(*cfg.stats_size)
        while True:
            numbers = [rng.randint(-cfg.stats_value_bound, cfg.stats_value_bound) for _ in range(n)]
            var = _sample_variance(numbers)
            if any(v < 0 for v in numbers) and var.denominator > 1:
                break
        exact = sp.Rational(var.numerator, var.denominator)
        problem = "$$\\{" + ", ".join(str(v) for v in numbers) + "\\}$$"
        truth = str(sp.sqrt(exact) if subtask == "standard_deviation" else exact)
        fields["numbers"] = numbers
    prompt = PROMPT_TEMPLATE.format(instruction=INSTRUCTIONS[subtask], problem=problem)
    return Question(prompt=prompt, ground_truth=truth, subtask=subtask, fields=fields)


# ---------------------------------------------------------------- the task

_CHARPOLY_ALIASES = {"lambda": "x", "λ": "x", "t": "x"}


def check_answer(record: dict[str, Any], answer: str) -> bool:
    """Whether an extracted answer is right for this record (may raise; no time limit)."""
    subtask = record.get("subtask")
    truth_text = record["ground_truth"]
    if subtask == "characteristic_polynomial":
        candidate = to_sympy(answer, _CHARPOLY_ALIASES)
        truth = parse_truth(truth_text)
        if candidate.free_symbols - {X} or not candidate.is_polynomial(X):
            return False
        return sp.expand(candidate - truth) == 0 or sp.expand(candidate + truth) == 0
    candidate = to_sympy(answer)
    if subtask == "integral":
        if candidate.free_symbols - {X, sp.Symbol("C")}:
            return False
        integrand = parse_truth(record["integrand"])
        return same_function(sp.diff(candidate, X), integrand)
    if subtask == "derivative":
        return same_function(candidate, parse_truth(truth_text))
    if subtask == "factor":
        return is_complete_factorisation(candidate, parse_truth(record["polynomial"]))
    if subtask == "complete_square":
        return is_completed_square(candidate, parse_truth(record["polynomial"]))
    if subtask in SUBTASKS:
        return same_number(candidate, parse_truth(truth_text))
    return False


@register
class AmpsHard(Task):
    name = "amps_hard"
    category = "math"

    def __init__(self, config: AmpsHardConfig = CONFIG) -> None:
        self.config = config

    def generate(self, rng: random.Random, sources: Sources) -> Question:
        return _generate(rng, self.config)

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        answer = extract_answer(response)
        try:
            if not answer:
                return verdict(answer, 0.0)
            with warnings.catch_warnings():  # sympy deprecation noise from odd input
                warnings.simplefilter("ignore")
                ok = call_with_time_limit(
                    lambda: check_answer(record, answer), self.config.time_limit_s
                )
            return verdict(answer, 1.0 if ok else 0.0)
        except (Exception, _TimeUp):
            return verdict(answer, 0.0)
