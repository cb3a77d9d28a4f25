"""Check the direction of first-party imports: layers only import the layers below them.

    .venv/bin/python scripts/check_layers.py [--import-each]

Prints every import that runs against the layer order (docs/engine.md, "The house"), every import
circle between modules, every first-party import inside a function without a comment saying why,
and every model's inference module that imports its training or evaluation side. Exits 1 if it
finds any. `--import-each` also imports every module in a fresh interpreter of its own.
"""
from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Bottom first: a module may import its own layer and the layers before it.
LAYERS = ("foundation", "corpora", "models", "store", "ingest", "retrieval", "understanding", "answering",
          "engine", "evaluation", "frontends")
TOP = ("actions", "lab")  # outside the package, above it
FIRST_PARTY = ("assistant", *TOP)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def rank(module: str) -> int:
    parts = module.split(".")
    if parts[0] in TOP:
        return len(LAYERS)
    if len(parts) == 1:
        return -1  # the package itself
    return LAYERS.index(parts[1]) if parts[1] in LAYERS else -1


def imports(path: Path) -> list[tuple[str, int, bool, bool]]:
    """(imported module, line, inside a function, commented) for each first-party import."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    found = []

    def visit(node: ast.AST, in_function: bool, in_type_checking: bool) -> None:
        for child in ast.iter_child_nodes(node):
            nested = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            guarded = in_type_checking or (isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test))
            if isinstance(child, ast.Import | ast.ImportFrom) and not in_type_checking:
                names = [a.name for a in child.names] if isinstance(child, ast.Import) else [child.module or ""]
                for name in names:
                    if name.split(".")[0] in FIRST_PARTY:
                        text = lines[child.lineno - 1] + (lines[child.lineno - 2] if child.lineno > 1 else "")
                        found.append((name, child.lineno, in_function, "#" in text))
            visit(child, nested, guarded)

    visit(ast.parse(source), False, False)
    return found


def resolve(name: str, modules: set[str]) -> str:
    """The module an import names (`from a.b import c` may name module a.b.c: the caller passes a.b)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name


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
        for target in graph.get(node, ()):
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--import-each", action="store_true", help="import every module in its own interpreter")
    arguments = parser.parse_args()
    files = sorted(p for top in FIRST_PARTY for p in (ROOT / top).rglob("*.py"))
    modules = {module_name(p) for p in files}
    graph: dict[str, set[str]] = {}
    problems = []
    for path in files:
        source = module_name(path)
        for name, line, in_function, commented in imports(path):
            target = resolve(name, modules)
            where = f"{path.relative_to(ROOT)}:{line}"
            if not in_function:
                graph.setdefault(source, set()).add(target)
            if rank(target) > rank(source):
                problems.append(f"{where}: {source} imports {target}, a layer above it")
            if in_function and not commented:
                problems.append(f"{where}: {source} imports {target} inside a function with no comment saying why")
            parts = source.split(".")
            if parts[:2] == ["assistant", "models"] and parts[-1] == "model" and target.rsplit(".", 1)[-1] in (
                    "train", "evaluate"):
                problems.append(f"{where}: inference module {source} imports {target}")
    for component in circles(graph):
        problems.append("import circle: " + " -> ".join(component))
    if arguments.import_each:
        for module in sorted(modules):
            result = subprocess.run([sys.executable, "-c", f"import {module}"], check=False, capture_output=True, text=True,
                                    cwd=ROOT)
            if result.returncode:
                problems.append(f"{module} does not import on its own: {result.stderr.strip().splitlines()[-1]}")
    print(f"{len(modules)} modules, {sum(len(t) for t in graph.values())} module-level first-party imports")
    for problem in problems:
        print(problem)
    print("no upward imports, no circles" if not problems else f"{len(problems)} problem(s)")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
