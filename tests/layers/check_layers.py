#!/usr/bin/env python3
"""check_layers.py - keep the library's dependency rule (docs/ARCHITECTURE.md).

Reads the object files of each module (src/lib/<module>/, src/util/) from a
build tree with nm, maps every symbol a module uses to the module defining
it, and fails when a module uses one it may not.  Calls through the public
header count as much as calls through an internal one.  Includes are checked
too: a module may include only the internal headers of modules it may use.

The files of the command-line tool (src/cli) must not use each other in a
cycle either: file A using a symbol of file B while B, or a file B uses,
uses one of A's.

usage: check_layers.py SOURCE_DIR OBJECT_DIR...
"""
import os
import re
import subprocess
import sys

# Who may use whom.  The flow: util <- core <- host <- bundle <- select;
# load <- core; run <- load; validate <- run; open joins select and load.
ALLOWED = {
    "util": set(),
    "core": {"util"},
    "host": {"core", "util"},
    "bundle": {"host", "core", "util"},
    "select": {"bundle", "host", "core", "util"},
    "repo": {"select", "bundle", "host", "core", "util"},
    "load": {"core", "util"},
    "run": {"load", "core", "util"},
    "validate": {"run", "load", "core", "util"},
    "open": {"select", "bundle", "host", "load", "core", "util"},
    # Above the library: the builder and the command-line tool use its public
    # API (names without a double underscore) and, below it, the helpers.
    "builder": {"util"},
    "cli": {"builder", "util"},
    "probe": set(),
}
ABOVE = {"builder", "cli", "probe"}


def module_of(path):
    m = re.search(r"src/(?:lib/)?([a-z]+)/(?:[a-z]+/)?[^/]+\.(?:c|h)(?:\.o)?$", path)
    return m.group(1) if m and m.group(1) in ALLOWED else None


def objects(src, dirs):
    """Object files whose source still exists (a build tree keeps stale ones)."""
    for d in dirs:
        for root, _, files in os.walk(d):
            for f in files:
                path = os.path.join(root, f)
                m = re.search(r"\.dir/(src/.+\.c)\.o$", path)
                if m and os.path.exists(os.path.join(src, m.group(1))):
                    yield path


def symbols(obj):
    out = subprocess.run(["nm", "--defined-only", "-g", obj], capture_output=True, text=True,
                         check=True).stdout
    defined = {line.split()[-1] for line in out.splitlines() if line.strip()}
    out = subprocess.run(["nm", "-u", obj], capture_output=True, text=True, check=True).stdout
    used = {line.split()[-1] for line in out.splitlines() if line.strip()}
    return defined, used


def files_in(base):
    """The files of a module folder and of its subfolders (src/cli/<family>/)."""
    for root, _, files in os.walk(base):
        for f in sorted(files):
            yield os.path.join(root, f)


def headers(src):
    """Internal header name -> module, for every module folder."""
    owner = {}
    for mod in ALLOWED:
        for base in (f"{src}/src/lib/{mod}", f"{src}/src/{mod}"):
            for f in files_in(base):
                if f.endswith(".h"):
                    owner[os.path.basename(f)] = mod
    return owner


# The modules whose files are held to having no cycle among them.
NO_FILE_CYCLES = {"cli"}


def file_cycles(file_uses, defined_by):
    """The cycles among files (each a list of file names), found with Tarjan's algorithm."""
    edges = {f: sorted({defined_by[s] for s in used if s in defined_by} - {f})
             for f, used in file_uses.items()}
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    src, dirs = sys.argv[1], sys.argv[2:]
    defined_in, uses, defines = {}, {}, {}
    for obj in objects(src, dirs):
        mod = module_of(obj)
        if not mod:
            continue
        defined, used = symbols(obj)
        defines[obj] = defined
        for s in defined:
            defined_in[s] = mod
        uses.setdefault(mod, {}).setdefault(obj, set()).update(used)
    if not uses:
        print(f"check_layers: no module objects under {' '.join(dirs)}", file=sys.stderr)
        return 1
    bad = []
    for mod, objs in sorted(uses.items()):
        for obj, used in sorted(objs.items()):
            for s in sorted(used):
                other = defined_in.get(s)
                if not other or other == mod or other in ALLOWED[mod]:
                    continue
                if mod in ABOVE and other not in ABOVE and not s.startswith("ortkit__"):
                    continue  # the public API
                bad.append(f"{os.path.basename(obj)[:-2]} ({mod}) uses {s} from {other}")
    owner = headers(src)
    inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
    for mod in ALLOWED:
        for base in (f"{src}/src/lib/{mod}", f"{src}/src/{mod}"):
            if not os.path.isdir(base) or base.endswith("/src/lib/cli"):
                continue
            for path in files_in(base):
                f = os.path.basename(path)
                if not f.endswith((".c", ".h")):
                    continue
                for h in inc.findall(open(path, encoding="utf-8").read()):
                    other = owner.get(os.path.basename(h))
                    if other and other != mod and other not in ALLOWED[mod]:
                        bad.append(f"{f} ({mod}) includes {h} from {other}")
    for mod in sorted(NO_FILE_CYCLES & set(uses)):
        file_uses, defined_by = {}, {}
        for obj, used in uses[mod].items():
            name = re.sub(r"^.*/src/", "src/", obj)[:-2]
            file_uses[name] = used
            for s in defines[obj]:
                defined_by[s] = name
        for cycle in file_cycles(file_uses, defined_by):
            bad.append(f"files of {mod} use each other in a cycle: {', '.join(cycle)}")
    for line in bad:
        print(f"check_layers: {line}", file=sys.stderr)
    checked = sum(len(o) for o in uses.values())
    if bad:
        print(f"check_layers: {len(bad)} uses break the dependency rule (docs/ARCHITECTURE.md)",
              file=sys.stderr)
        return 1
    print(f"check_layers: {checked} objects in {len(uses)} modules keep the dependency rule")
    return 0


if __name__ == "__main__":
    sys.exit(main())
