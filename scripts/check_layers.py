"""Check the direction of first-party imports: layers only import the layers below them.

    .venv/bin/python scripts/check_layers.py [--import-each]

Prints every import that runs against the layer order (docs/engine.md, "The house"), every import
circle between modules, every first-party import inside a function without a comment saying why,
and every model's inference module that imports its training or evaluation side. Exits 1 if it
finds any. `--import-each` also imports every module in a fresh interpreter of its own.

Imports inside functions are edges of the circle graph like any other: a lazy import that points down and
closes no circle needs nothing, one that closes a circle is reported unless `ALLOWED_CIRCLE_EDGES` names it
with its reason. An entry there that matches no import inside a function, or whose imports close no circle,
is reported too, so the list stays short.
"""
from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Bottom first: a module may import its own layer and the layers before it.
LAYERS = ("foundation", "corpora", "models", "store", "ingest", "retrieval", "understanding", "answering",
          "engine", "corpus", "evaluation", "frontends")
TOP = ("actions", "lab")  # outside the package, above it
FIRST_PARTY = ("assistant", *TOP)
# Imports inside functions left out of the circle graph: importing module -> imported module -> why. Both are
# module prefixes ("assistant.frontends.cli" matches cli.py and every module of a cli/ package). An entry is only
# for an edge that would otherwise close a circle; none does today. The form:
#     {"assistant.frontends.cli": {"assistant.engine": "imported on first use so that --help starts fast"}}
ALLOWED_CIRCLE_EDGES: dict[str, dict[str, str]] = {}


@dataclass(frozen=True)
class Import:
    """One first-party import statement's target, as written."""

    name: str  # the module named, or `module.name` for `from module import name`
    line: int
    in_function: bool
    commented: bool  # a comment on its line or the line before


@dataclass(frozen=True)
class Edge:
    """A first-party import between two modules of the tree."""

    source: str
    target: str
    where: str  # path:line
    in_function: bool
    commented: bool


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def rank(module: str) -> int:
    parts = module.split(".")
    if parts[0] in TOP:
        return len(LAYERS)
    if len(parts) == 1:
        return -1  # the package itself
    return LAYERS.index(parts[1]) if parts[1] in LAYERS else -1


def imports(path: Path, first_party: tuple[str, ...] = FIRST_PARTY) -> list[Import]:
    """Every first-party import of a file that runs (those under `if TYPE_CHECKING:` never do)."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    found = []

    def visit(node: ast.AST, in_function: bool, in_type_checking: bool) -> None:
        for child in ast.iter_child_nodes(node):
            nested = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            guarded = in_type_checking or (isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test))
            if isinstance(child, ast.Import | ast.ImportFrom) and not in_type_checking:
                if isinstance(child, ast.Import):
                    names = [a.name for a in child.names]
                else:  # `from a.b import c` names module a.b.c when there is one, else a.b
                    names = [f"{child.module}.{a.name}" for a in child.names] if child.module and not child.level else []
                text = lines[child.lineno - 1] + (lines[child.lineno - 2] if child.lineno > 1 else "")
                found.extend(Import(name, child.lineno, in_function, "#" in text)
                             for name in names if name.split(".")[0] in first_party)
            visit(child, nested, guarded)

    visit(ast.parse(source), False, False)
    return found


def resolve(name: str, modules: set[str]) -> str:
    """The longest module of the tree that `name` starts with."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name


def edges(root: Path, first_party: tuple[str, ...] = FIRST_PARTY) -> tuple[set[str], list[Edge]]:
    """The modules under `root`'s first-party folders, and one edge per import statement and module it imports."""
    files = sorted(p for top in first_party for p in (root / top).rglob("*.py"))
    modules = {module_name(p, root) for p in files}
    found: dict[Edge, None] = {}  # ordered, without repeats (`from a import b, c` is one edge to a)
    for path in files:
        source = module_name(path, root)
        for item in imports(path, first_party):
            target = resolve(item.name, modules)
            if target and target != source:
                found[Edge(source, target, f"{path.relative_to(root)}:{item.line}", item.in_function, item.commented)] = None
    return modules, list(found)


def _matches(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def allow_list_entry(edge: Edge, allowed: dict[str, dict[str, str]]) -> tuple[str, str] | None:
    """The allow-list entry (importing prefix, imported prefix) that leaves this edge out of the circle graph."""
    if not edge.in_function:
        return None  # an import at module level runs on every import: it always counts
    for source, targets in allowed.items():
        if _matches(edge.source, source):
            for target in targets:
                if _matches(edge.target, target):
                    return source, target
    return None


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def circle_problems(found: list[Edge], allowed: dict[str, dict[str, str]]) -> list[str]:
    """Each circle of the graph of every edge the allow-list leaves in, with the edges inside it that run in
    functions; and each allow-list entry that is not needed or does not say why."""
    graph: dict[str, set[str]] = {}
    used: dict[tuple[str, str], list[Edge]] = {(s, t): [] for s, targets in allowed.items() for t in targets}
    for edge in found:
        entry = allow_list_entry(edge, allowed)
        if entry is None:
            graph.setdefault(edge.source, set()).add(edge.target)
        else:
            used[entry].append(edge)
    problems = []
    for component in circles(graph):
        members = set(component)
        lazy = sorted({f"{e.where} ({e.source} -> {e.target})" for e in found
                       if e.in_function and e.source in members and e.target in members
                       and allow_list_entry(e, allowed) is None})
        problems.append("import circle: " + " -> ".join(component)
                        + (f"; closed inside functions at {', '.join(lazy)}" if lazy else ""))
    everything: dict[str, set[str]] = {}
    for edge in found:
        everything.setdefault(edge.source, set()).add(edge.target)
    component_of = {module: n for n, component in enumerate(circles(everything)) for module in component}
    for (source, target), matched in used.items():
        if not allowed[source][target].strip():
            problems.append(f"allow-list entry {source} -> {target} does not say why")
        if not matched:
            problems.append(f"allow-list entry {source} -> {target} matches no import inside a function")
        elif not any(component_of.get(e.source, -1) == component_of.get(e.target, -2) for e in matched):
            problems.append(f"allow-list entry {source} -> {target} is not needed: its imports close no circle")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--import-each", action="store_true", help="import every module in its own interpreter")
    arguments = parser.parse_args()
    modules, found = edges(ROOT)
    problems = []
    for edge in found:
        if rank(edge.target) > rank(edge.source):
            problems.append(f"{edge.where}: {edge.source} imports {edge.target}, a layer above it")
        if edge.in_function and not edge.commented:
            problems.append(f"{edge.where}: {edge.source} imports {edge.target} inside a function with no comment "
                            "saying why")
        parts = edge.source.split(".")
        if parts[:2] == ["assistant", "models"] and parts[-1] == "model" and edge.target.rsplit(".", 1)[-1] in (
                "train", "evaluate"):
            problems.append(f"{edge.where}: inference module {edge.source} imports {edge.target}")
    problems += circle_problems(found, ALLOWED_CIRCLE_EDGES)
    if arguments.import_each:
        for module in sorted(modules):
            result = subprocess.run([sys.executable, "-c", f"import {module}"], check=False, capture_output=True, text=True,
                                    cwd=ROOT)
            if result.returncode:
                problems.append(f"{module} does not import on its own: {result.stderr.strip().splitlines()[-1]}")
    statements = {(e.where, e.in_function) for e in found}
    lazy = {e.where for e in found if e.in_function}
    left_out = {e.where for e in found if allow_list_entry(e, ALLOWED_CIRCLE_EDGES) is not None}
    print(f"{len(modules)} modules, {len(statements) - len(lazy)} first-party imports at module level, {len(lazy)} "
          f"inside functions ({len(left_out)} of them left out of the circle graph by the allow-list)")
    for problem in problems:
        print(problem)
    print("no upward imports, no circles" if not problems else f"{len(problems)} problem(s)")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
