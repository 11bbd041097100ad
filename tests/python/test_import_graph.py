"""The solfec Python package imports one way: its modules form the layers stated in the
package docstring (python/solfec/__init__.py), each importing only lower layers. Every import
of a package module counts, at the top of a file or inside a function (a function-local
import hides a cycle from Python but not from the reader), so the graph has no cycle."""

import ast
import os
import re

import pytest

EXTENSIONS = {"_solfec"}  # the C++ extension module: below every layer, imports nothing here
PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "python", "solfec")


def package_modules():
    """Dotted names relative to the package ('model', 'viewer.server', '__init__',
    'viewer' for viewer/__init__.py) -> file path."""
    mods = {}
    for root, _, files in os.walk(PACKAGE):
        rel = os.path.relpath(root, PACKAGE)
        prefix = "" if rel == "." else rel.replace(os.sep, ".")
        for f in files:
            if not f.endswith(".py"):
                continue
            stem = f[:-3]
            if stem == "__init__":
                name = prefix or "__init__"
            else:
                name = f"{prefix}.{stem}" if prefix else stem
            mods[name] = os.path.join(root, f)
    return mods


def _package_of(name, path):
    """The dotted package a module is in ('' for the top level)."""
    if os.path.basename(path) == "__init__.py":
        return "" if name == "__init__" else name
    return name.rpartition(".")[0]


def _target(dotted, mods):
    """The module a dotted name relative to the package names ('' is the package itself)."""
    if dotted == "":
        return "__init__"
    return dotted if dotted in mods else None


def imports_of(name, path, mods):
    """(target module, line) of every import of a package module in the file, at any depth."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    pkg = _package_of(name, path)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "solfec" or a.name.startswith("solfec."):
                    t = _target(a.name[len("solfec."):] if "." in a.name else "", mods)
                    if t:
                        found.append((t, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                if node.module != "solfec" and not (node.module or "").startswith("solfec."):
                    continue
                base = node.module[len("solfec."):] if "." in node.module else ""
            else:
                parts = pkg.split(".") if pkg else []
                if node.level - 1 > len(parts):
                    continue
                parts = parts[:len(parts) - (node.level - 1)]
                if node.module:
                    parts += node.module.split(".")
                base = ".".join(parts)
            base_mod = _target(base, mods)
            for a in node.names:  # `from . import model`: a module; else a name of base
                sub = f"{base}.{a.name}" if base else a.name
                if sub in EXTENSIONS:
                    continue
                t = sub if sub in mods else base_mod
                if t:
                    found.append((t, node.lineno))
    return [(t, line) for t, line in found if t != name]


def graph():
    mods = package_modules()
    return mods, {m: imports_of(m, p, mods) for m, p in mods.items()}


def declared_layers():
    """Module -> layer from the 'layer N: ...' lines of the package docstring."""
    doc = ast.get_docstring(ast.parse(open(os.path.join(PACKAGE, "__init__.py")).read()))
    layers = {}
    for n, names in re.findall(r"^\s*layer (\d+): (.+)$", doc, re.M):
        for m in names.split():
            layers[m] = int(n)
    return layers


def cycles(edges):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w, _ in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_the_parser_sees_function_local_and_relative_imports(tmp_path):
    # A two-module cycle hidden in a function, and a subpackage's `from .. import`: both are
    # edges of the graph (the checks below would pass vacuously otherwise).
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.py").write_text("from . import b\n")
    (tmp_path / "b.py").write_text("def f():\n    from .a import g\n    return g\n")
    (tmp_path / "sub" / "c.py").write_text("from .. import a\nfrom ..b import f\n")
    mods = {"a": str(tmp_path / "a.py"), "b": str(tmp_path / "b.py"),
            "sub.c": str(tmp_path / "sub" / "c.py")}
    edges = {m: imports_of(m, p, mods) for m, p in mods.items()}
    assert [t for t, _ in edges["a"]] == ["b"]
    assert [t for t, _ in edges["b"]] == ["a"]
    assert sorted(t for t, _ in edges["sub.c"]) == ["a", "b"]
    assert cycles(edges) == [["a", "b"]]


def test_the_package_import_graph_has_no_cycle():
    _, edges = graph()
    assert len(edges) > 20  # the package was found
    found = cycles(edges)
    assert not found, "import cycles in python/solfec: " + "; ".join(" <-> ".join(c)
                                                                     for c in found)


def test_every_module_imports_only_lower_layers_of_the_package_docstring():
    mods, edges = graph()
    layers = declared_layers()
    missing = sorted(set(mods) - set(layers))
    assert not missing, (f"modules not in a layer of the package docstring "
                         f"(python/solfec/__init__.py): {missing}")
    stale = sorted(set(layers) - set(mods))
    assert not stale, f"layers name modules that do not exist: {stale}"
    upward = [f"{m} (layer {layers[m]}) line {line} imports {t} (layer {layers[t]})"
              for m, es in sorted(edges.items()) for t, line in es if layers[t] >= layers[m]]
    assert not upward, "imports that do not go down a layer:\n" + "\n".join(upward)


@pytest.mark.parametrize("module", ["model", "run", "bases", "history"])
def test_no_module_writes_into_a_solfec_object_through_its_dict(module):
    # SOLFEC declares its members (model.py); other modules use them, not __dict__.
    text = open(os.path.join(PACKAGE, module + ".py"), encoding="utf-8").read()
    assert "solfec.__dict__" not in text
