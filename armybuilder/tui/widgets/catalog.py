"""The catalog browser: what can be added to the selected unit, searchable, with a preview.

Entries are grouped by their choice group (``Motive type (1)``) or category, each with its
cost and, when some are already selected there, how many. The preview under the tree shows
the highlighted entry's stat lines, costs and limits before it is added. Typing in the
search box filters as you type; Enter there adds the highlighted (or first) match.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from rich.console import Group as RichGroup
from rich.console import RenderableType
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Input, Tree
from textual.widgets.tree import TreeNode

from ...session import Loc
from .stable import ContentLines, LiveStatic, StableScroll, find

if TYPE_CHECKING:
    from ...catalogs import CatalogIndex, Child
    from ...model.catalog import Entry


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def entry_cost(index: CatalogIndex, entry: Entry) -> str:
    """An entry's own base cost, e.g. ``85 kg`` (modifiers are applied once it is added)."""
    parts = []
    for ct in index.cost_types.values():
        if ct.hidden or ct.id not in entry.costs:
            continue
        value = entry.costs[ct.id]
        if value:
            parts.append(f"{_num(value)}{' ' + ct.unit if ct.unit else ''}")
    return ", ".join(parts)


def _range(lo: int, hi: int | None) -> str:
    if hi is None:
        return f"{lo}+" if lo else "any"
    return str(lo) if lo == hi else f"{lo}–{hi}"


def preview(index: CatalogIndex, child: Child) -> RenderableType:
    """The preview of one catalog option."""
    entry = child.entry
    parts: list[RenderableType] = []
    title = Text(entry.name, "bold")
    title.append(f"  {entry.type}", "dim")
    cost = entry_cost(index, entry)
    if cost:
        title.append(f"  {cost}", "cyan")
    parts.append(title)
    if entry.description:
        parts.append(Text(entry.description, "italic"))
    if child.group is not None:
        g = child.group
        parts.append(Text(f"Choice of {g.name}: {_range(g.min, g.max)}", "dim"))
    cats = [index.name_of(c) for c in entry.categories]
    if cats:
        parts.append(Text("Categories: " + ", ".join(cats), "dim"))
    parts.extend(profile_tables(index, [entry]))
    if entry.rules:
        names = [index.rules[r].name if r in index.rules else r for r in entry.rules]
        parts.append(Text("Rules: " + ", ".join(names), "dim"))
    if entry.source:
        parts.append(Text(entry.source, "dim italic"))
    return RichGroup(*parts)


def profile_tables(
    index: CatalogIndex, entries: list[Entry], counts: list[int] | None = None
) -> list[Text]:
    """Stat lines of entries, grouped by profile type: ``Name: DV 0.5 · Range 0/1 · …``.

    A line per profile wraps in a narrow pane, where a table of nine columns would not fit.
    """
    by_type: dict[str, list[tuple[str, Mapping[str, object], int]]] = {}
    for i, entry in enumerate(entries):
        for p in entry.profiles:
            n = counts[i] if counts else 1
            by_type.setdefault(p.type, []).append((p.name or entry.name, p.characteristics, n))
    out: list[Text] = []
    for type_id, rows in by_type.items():
        ptype = index.profile_types.get(type_id)
        columns = (
            [(c.id, c.name) for c in ptype.characteristics]
            if ptype is not None
            else sorted({(k, k) for _, chars, _ in rows for k in chars})
        )
        text = Text(ptype.name if ptype else type_id, "bold underline")
        for name, chars, n in rows:
            text.append("\n")
            text.append(f"{name} ×{n}" if n != 1 else name, "bold")
            text.append(": ")
            first = True
            for cid, cname in columns:
                value = chars.get(cid)
                if value is None or value == "":
                    continue
                if not first:
                    text.append(" · ", "dim")
                first = False
                text.append(f"{cname} ", "dim")
                text.append(str(value))
        out.append(text)
    return out


class CatalogTree(StableScroll, ContentLines, Tree[str | None]):
    """Sections and entries; a click highlights, a double click (or Enter) adds."""

    async def _on_click(self, event: events.Click) -> None:
        meta = event.style.meta
        if "line" in meta and not meta.get("toggle", False) and event.chain < 2:
            event.prevent_default()
            line = meta["line"]
            self.cursor_line = line
            node = self.get_node_at_line(line)
            if node is not None and node.data is None:
                node.toggle()


class CatalogBrowser(Vertical):
    """Search box, tree of options and preview."""

    class Leave(Message):
        """Escape in the search box: the search is cleared and the user goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave_search", "Leave the search", show=False),
    ]

    class AddRequested(Message):
        """Add this entry to the browser's target."""

        def __init__(self, entry_id: str, target: Loc) -> None:
            super().__init__()
            self.entry_id = entry_id
            self.target = target

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.target: Loc = ()
        self._index: CatalogIndex | None = None
        self._options: list[Child] = []
        self._counts: dict[str, int] = {}
        self._signature: object = None
        self._by_id: dict[str, Child] = {}
        self._title = ""
        self._leaves_by_id: dict[str, TreeNode[str | None]] = {}
        self._shown_counts: dict[str, int] = {}
        self._preview_id: object = None
        #: Times the tree was rebuilt (a benchmark reads it).
        self.rebuilds = 0

    def compose(self) -> ComposeResult:
        yield LiveStatic("Catalog", id="catalog-title", classes="pane-title")
        yield Input(placeholder="Search ( / )", id="catalog-search")
        tree: CatalogTree = CatalogTree("Catalog", id="catalog-tree")
        tree.show_root = False
        tree.guide_depth = 2
        yield tree
        with VerticalScroll(id="catalog-preview-scroll"):
            yield LiveStatic("", id="catalog-preview")

    @property
    def catalog_tree(self) -> CatalogTree:
        return find(self, "CatalogTree", CatalogTree)

    @property
    def search(self) -> Input:
        return self.query_one("#catalog-search", Input)

    def show_options(
        self,
        index: CatalogIndex,
        target: Loc,
        target_name: str,
        options: list[Child],
        counts: dict[str, int],
    ) -> None:
        """Show what can be added to ``target`` (rebuilt only if something changed)."""
        self.target = target
        self._index = index
        title = find(self, "#catalog-title", LiveStatic)
        text = f"Add to: {target_name}"
        if self._title != text:
            self._title = text
            title.set_content(text)
        self._options = options
        self._counts = counts
        self._by_id = {c.entry.id: c for c in options}
        self._rebuild()

    def _rebuild(self) -> None:
        index = self._index
        if index is None:
            return
        query = self.search.value.strip().lower()
        signature = (id(index), tuple(id(c.entry) for c in self._options), query)
        if signature == self._signature:
            # Same entries: only the "(n selected)" counts may differ; relabel those lines.
            for entry_id, leaf in self._leaves_by_id.items():
                n = self._counts.get(entry_id, 0)
                if self._shown_counts.get(entry_id, 0) != n:
                    self._shown_counts[entry_id] = n
                    leaf.set_label(self._leaf_label(index, self._by_id[entry_id], n))
            return
        self._signature = signature
        self.rebuilds += 1
        self._leaves_by_id = {}
        self._shown_counts = dict(self._counts)
        tree = self.catalog_tree
        keep = tree.cursor_node.data if tree.cursor_node is not None else None
        tree.clear()
        sections: dict[str, TreeNode[str | None]] = {}
        first: TreeNode[str | None] | None = None
        cursor: TreeNode[str | None] | None = None
        for child in self._options:
            entry = child.entry
            if query and query not in entry.name.lower() and query not in entry.id:
                continue
            section = self._section(index, child)
            node = sections.get(section)
            if node is None:
                node = tree.root.add(Text(section, "bold"), data=None, expand=True)
                sections[section] = node
            label = self._leaf_label(index, child, self._counts.get(entry.id, 0))
            leaf = node.add_leaf(label, data=entry.id)
            self._leaves_by_id[entry.id] = leaf
            first = first or leaf
            if entry.id == keep:
                cursor = leaf
        target = cursor or first
        if target is not None:
            self.call_after_refresh(self._move_to, target)
        else:
            self._show_preview(None)

    @staticmethod
    def _leaf_label(index: CatalogIndex, child: Child, selected: int) -> Text:
        label = Text(child.entry.name)
        cost = entry_cost(index, child.entry)
        if cost:
            label.append(f"  {cost}", "dim")
        if selected:
            label.append(f"  ({selected} selected)", "cyan")
        return label

    def _move_to(self, node: TreeNode[str | None]) -> None:
        tree = self.catalog_tree
        if node.tree is tree and node.id in {n.id for n in self._leaves()}:
            tree.move_cursor(node)
            self._show_preview(node.data)

    def _leaves(self) -> list[TreeNode[str | None]]:
        return [leaf for s in self.catalog_tree.root.children for leaf in s.children]

    @staticmethod
    def _section(index: CatalogIndex, child: Child) -> str:
        if child.group is not None:
            g = child.group
            return f"{g.name} ({_range(g.min, g.max)})"
        entry = child.entry
        cat = entry.primary_category or (entry.categories[0] if entry.categories else None)
        return index.name_of(cat) if cat else "Entries"

    def highlighted(self) -> str | None:
        """The entry id under the cursor (``None`` on a section line)."""
        node = self.catalog_tree.cursor_node
        return node.data if node is not None else None

    def first_match(self) -> str | None:
        leaves = self._leaves()
        return leaves[0].data if leaves else None

    def _show_preview(self, entry_id: str | None) -> None:
        static = self.query_one("#catalog-preview", LiveStatic)
        child = self._by_id.get(entry_id) if entry_id else None
        key = None if child is None else (entry_id, id(child.entry), id(self._index))
        if key == self._preview_id:
            return
        self._preview_id = key
        if child is None or self._index is None:
            static.set_content("")
            return
        static.set_content(preview(self._index, child))

    @on(Input.Changed, "#catalog-search")
    def _search_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._rebuild()

    @on(Input.Submitted, "#catalog-search")
    def _search_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        entry_id = self.highlighted() or self.first_match()
        if entry_id:
            self.post_message(self.AddRequested(entry_id, self.target))

    @on(Tree.NodeHighlighted, "#catalog-tree")
    def _highlighted(self, event: Tree.NodeHighlighted[str | None]) -> None:
        event.stop()
        self._show_preview(event.node.data)

    @on(Tree.NodeSelected, "#catalog-tree")
    def _selected(self, event: Tree.NodeSelected[str | None]) -> None:
        event.stop()
        if event.node.data is not None:
            self.post_message(self.AddRequested(event.node.data, self.target))

    def action_leave_search(self) -> None:
        if self.search.value:
            self.search.value = ""  # the tree shows every option again (Input.Changed)
        self.post_message(self.Leave())

    def on_key(self, event: events.Key) -> None:
        if event.key == "down" and self.search.has_focus:
            event.stop()
            self.catalog_tree.focus()
