#!/usr/bin/env python3
"""check_layers.py - keep ortkit's dependency rule (docs/ARCHITECTURE.md).

Reads the object files of each module (src/runtime/<module>/,
src/tools/<module>/, src/util/, src/builder/, src/cli/, src/probe/) from a build tree with
nm, maps every symbol a module uses to the module defining it, and fails
  - when a module uses one it may not (calls through a public header count
    as much as calls through an internal one);
  - when a module includes an internal header of a module it may not use;
  - when files of one module use each other in a cycle (a.c uses b.c's
    symbol and b.c, directly or through others of the module, uses a.c's);
  - when a module other than util calls fork or vfork: child processes have
    one home, util's child object (src/util/spawn.c);
  - when two files under src/ have the same name.

usage: check_layers.py SOURCE_DIR OBJECT_DIR...
"""
import os
import re
import subprocess
import sys

# The runtime wing (libortkit), in the order of its flow; each may use those
# before it that the table names.
RUNTIME = {
    "util": set(),
    "core": {"util"},
    "formats": {"core", "util"},
    "host": {"formats", "core", "util"},
    "variant": {"host", "core", "util"},
    "bundle": {"variant", "host", "formats", "core", "util"},
    "select": {"bundle", "variant", "host", "core", "util"},
    "resolve": {"select", "bundle", "variant", "host", "formats", "core", "util"},
    "load": {"core", "util"},
    "session": {"load", "formats", "core", "util"},
    "run": {"session", "load", "core", "util"},
    "open": {"resolve", "select", "bundle", "variant", "host", "formats", "run", "session", "load",
             "core", "util"},
}
# The tools wing (libortkit-tools): it may use the runtime wing, internals
# included; the runtime wing never uses it.
TOOLS = {
    "bundle_make": set(RUNTIME),
    "repo": {"bundle_make"} | set(RUNTIME),
    "wheel": {"repo", "bundle_make"} | set(RUNTIME),
    "validate": {"run", "session", "load", "core", "util"},
    "selftest": {"run", "session", "load", "core", "util"},
    "measure": {"validate"} | set(RUNTIME),
}
# Above both: the builder wing (src/builder), the tool and the probe use the
# libraries' public API (names without a double underscore) and util; the
# tool uses the builder, the probe the self-test it compiles in.
ABOVE = {
    "builder": {"util"},
    "cli": {"builder", "util"},
    "probe": {"selftest", "util"},
}
ALLOWED = {**RUNTIME, **TOOLS, **ABOVE}
# Symbols only util may use: a process is started by its child object alone.
UTIL_ONLY = {"fork", "vfork", "_Fork", "__fork", "__vfork"}
WING = {**{m: "src/runtime" for m in RUNTIME}, **{m: "src/tools" for m in TOOLS}}
WING.update({"util": "src", "builder": "src", "cli": "src", "probe": "src"})


def module_of(path):
    m = re.search(r"src/(?:runtime/|tools/)?([a-z_]+)/(?:[a-z]+/)?[^/]+\.(?:c|h)(?:\.o)?$", path)
    return m.group(1) if m and m.group(1) in ALLOWED else None


def objects(src, dirs):
    """Object files whose source still exists (a build tree keeps stale ones)."""
    seen = set()
    for d in dirs:
        for root, _, files in os.walk(d):
            for f in files:
                path = os.path.join(root, f)
                m = re.search(r"\.dir/(src/.+\.c)\.o$", path)
                if m and os.path.exists(os.path.join(src, m.group(1))) and m.group(1) not in seen:
                    seen.add(m.group(1))
                    yield m.group(1), path


def symbols(obj):
    out = subprocess.run(["nm", "--defined-only", "-g", obj], capture_output=True, text=True,
                         check=True).stdout
    defined = {line.split()[-1] for line in out.splitlines() if line.strip()}
    out = subprocess.run(["nm", "-u", obj], capture_output=True, text=True, check=True).stdout
    used = {line.split()[-1] for line in out.splitlines() if line.strip()}
    return defined, used


def folder(src, mod):
    return os.path.join(src, WING[mod], mod)


def files_in(base):
    """The files of a module folder and of its subfolders (src/cli/<family>/)."""
    for root, _, files in os.walk(base):
        for f in sorted(files):
            yield os.path.join(root, f)


def headers(src):
    """Internal header name -> module, for every module folder."""
    owner = {}
    for mod in ALLOWED:
        for f in files_in(folder(src, mod)):
            if f.endswith(".h"):
                owner[os.path.basename(f)] = mod
    return owner


def cycles(graph):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
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

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    sys.setrecursionlimit(10000)
    src, dirs = sys.argv[1], sys.argv[2:]
    defined_in, file_of, uses = {}, {}, {}
    for rel, obj in objects(src, dirs):
        mod = module_of(rel)
        if not mod:
            continue
        defined, used = symbols(obj)
        for s in defined:
            defined_in.setdefault(s, mod)
            file_of.setdefault(s, rel)
        uses.setdefault(mod, {})[rel] = used
    if not uses:
        print(f"check_layers: no module objects under {' '.join(dirs)}", file=sys.stderr)
        return 1
    bad = []
    graphs = {}
    for mod, objs in sorted(uses.items()):
        for rel, used in sorted(objs.items()):
            for s in sorted(used):
                if s.split("@")[0] in UTIL_ONLY and mod != "util":
                    bad.append(f"{os.path.basename(rel)} ({mod}) calls {s}: a child process is "
                               "started through src/util's child object (ortkit__child_start)")
                    continue
                other = defined_in.get(s)
                if not other:
                    continue
                if other == mod:
                    if file_of[s] != rel:
                        graphs.setdefault(mod, {}).setdefault(rel, set()).add(file_of[s])
                    continue
                if other in ALLOWED[mod]:
                    continue
                if mod in ABOVE and other not in ABOVE and not s.startswith("ortkit__"):
                    continue  # the public API
                bad.append(f"{os.path.basename(rel)} ({mod}) uses {s} from {other}")
    for mod, graph in sorted(graphs.items()):
        for comp in cycles(graph):
            names = ", ".join(os.path.basename(f) for f in comp)
            bad.append(f"files of {mod} use each other in a cycle: {names}")
    owner = headers(src)
    inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
    for mod in ALLOWED:
        for path in files_in(folder(src, mod)):
            f = os.path.basename(path)
            if not f.endswith((".c", ".h")):
                continue
            for h in inc.findall(open(path, encoding="utf-8").read()):
                if h.startswith("ortkit/") or h == "ortkit.h":
                    continue  # a public header
                other = owner.get(os.path.basename(h))
                if other and other != mod and other not in ALLOWED[mod]:
                    bad.append(f"{f} ({mod}) includes {h} from {other}")
    # Headers are found by name across src (one include path a module), so
    # a file's name says which it is, once (docs/CONVENTIONS.md, "Names").
    seen = {}
    for root, _, names in os.walk(os.path.join(src, "src")):
        for f in names:
            if f.endswith((".c", ".h")):
                if f in seen:
                    bad.append(f"two files are called {f}: {seen[f]} and "
                               f"{os.path.relpath(os.path.join(root, f), src)}")
                seen.setdefault(f, os.path.relpath(os.path.join(root, f), src))
    for line in bad:
        print(f"check_layers: {line}", file=sys.stderr)
    checked = sum(len(o) for o in uses.values())
    if bad:
        print(f"check_layers: {len(bad)} breaks of the dependency rule (docs/ARCHITECTURE.md)",
              file=sys.stderr)
        return 1
    print(f"check_layers: {checked} objects in {len(uses)} modules keep the dependency rule, "
          "no file cycles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
