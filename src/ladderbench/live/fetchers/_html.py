"""Just enough HTML for fetched pages: a lenient tree, lookups by tag and class, and text.

Feeds and problem pages are HTML fragments of varying hygiene; the standard library's tokenizer
with a forgiving tree builder (unclosed tags close with their parent) reads them without a new
dependency. ``text`` turns block elements into paragraphs separated by blank lines, the shape
the live tasks split passages at.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param"}
    | {"source", "track", "wbr"}
)
BLOCK = frozenset(
    {"address", "article", "aside", "blockquote", "center", "dd", "div", "dl", "dt", "figure"}
    | {"figcaption", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main"}
    | {"nav", "ol", "p", "pre", "section", "table", "tbody", "td", "tfoot", "th", "thead", "tr"}
    | {"ul"}
)
SKIPPED = frozenset({"script", "style", "noscript", "template"})


@dataclass
class Node:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)

    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def walk(self) -> Iterator[Node]:
        """This node and every element below it, in document order."""
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.walk()

    def find_all(self, tag: str | None = None, cls: str | None = None) -> list[Node]:
        return [
            node
            for node in self.walk()
            if (tag is None or node.tag == tag) and (cls is None or cls in node.classes())
        ]

    def find(self, tag: str | None = None, cls: str | None = None) -> Node | None:
        found = self.find_all(tag, cls)
        return found[0] if found else None

    def elements(self) -> list[Node]:
        return [child for child in self.children if isinstance(child, Node)]


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root")
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {name: value or "" for name, value in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {name: value or "" for name, value in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return  # an end tag without its start is ignored

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(markup: str) -> Node:
    builder = _TreeBuilder()
    builder.feed(markup)
    builder.close()
    return builder.root


def text(node: Node, keep: Callable[[Node], bool] = lambda node: True) -> str:
    """Readable text: one paragraph per block element, blank lines between, spaces collapsed
    (``pre`` keeps its lines). Elements for which ``keep`` is false are left out."""
    paragraphs: list[str] = []
    inline: list[str] = []

    def flush() -> None:
        joined = " ".join("".join(inline).split())
        if joined:
            paragraphs.append(joined)
        inline.clear()

    def visit(item: Node | str) -> None:
        if isinstance(item, str):
            inline.append(item)
            return
        if item.tag in SKIPPED or not keep(item):
            return
        if item.tag == "pre":
            flush()
            paragraphs.append(pre_text(item).strip("\n"))
            return
        if item.tag == "br":
            flush()
            return
        block = item.tag in BLOCK
        if block:
            flush()
        for child in item.children:
            visit(child)
        if block:
            flush()

    visit(node)
    flush()
    return "\n\n".join(paragraphs)


def pre_text(node: Node) -> str:
    """Preformatted text as written: ``br`` and the end of each block element end a line."""
    out: list[str] = []

    def visit(item: Node | str) -> None:
        if isinstance(item, str):
            out.append(item)
        elif item.tag == "br":
            out.append("\n")
        elif item.tag not in SKIPPED:
            for child in item.children:
                visit(child)
            if item.tag in BLOCK and out and not out[-1].endswith("\n"):
                out.append("\n")

    for child in node.children:
        visit(child)
    return "".join(out)


def html_text(markup: str) -> str:
    """``text`` of an HTML fragment (a feed item's description, say)."""
    return text(parse(markup))
