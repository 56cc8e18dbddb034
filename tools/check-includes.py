#!/usr/bin/env python3
"""tools/check-includes.py: fails on a loop of includes or calls between the modules of a source folder.

A module is a file stem with its underscore-suffixed files: maze.c maze.h
maze_carve.c maze_impl.h are the module "maze", so a header and its
implementation (and a module's private files) never count as a loop. A
folder prefix (cl_, svc_, sv_, st_, co_, bt_) is stripped first:
cl_scene_race.c is the module "scene", cl_app_layout.c "app",
st_sqlite_schema.c "sqlite", cl_net_recv.c and cl_net_impl.h "net".

A header named *_types.h is the folder's data layer, the module "types":
it declares structures and constants, no function, and includes no header
of the folder but other *_types.h, so nothing can loop through it (the
check fails on a types header that breaks either rule). A centre that
holds every subsystem's state (server/sv_internal.h) includes the
subsystems' *_types.h, not their function headers.

An edge A -> B is a quoted #include of one of B's headers in one of A's files;
with --objects DIR, also a call: an object of A that needs a function an
object of B defines (nm; the kind registry's references to each kind's
const table are data, not calls). Any cycle in that graph is printed and the exit
status is 1.

usage: check-includes.py [--objects BUILD_OBJ_DIR] [FOLDER ...]   (default: common)
       check-includes.py --selftest
"""
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


# A folder's own prefix says where a file lives, not what it is: client/ files are all cl_NAME, so the
# module is the part after the prefix.
PREFIXES = ('cl_', 'svc_', 'sv_', 'st_', 'co_', 'bt_')


def module_of(name):
    stem = os.path.basename(name).split('.')[0]
    if stem.endswith('_types'):
        return 'types'
    for prefix in PREFIXES:
        if stem.startswith(prefix) and len(stem) > len(prefix):
            stem = stem[len(prefix):]
            break
    return stem.split('_')[0]


# A declaration or definition of a function at the start of a line (a struct's members are indented;
# "typedef void (*fn)(...)" is a type).
FUNCTION = re.compile(r'^(?!typedef\b|#)[A-Za-z_][\w \t\*]*?\b\w+\s*\([^;{()]*\)\s*[;{]', re.M)
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)


def types_header_faults(name, text, files):
    """What makes a *_types.h more than a data layer: a function, or a folder header that is not one."""
    faults = []
    for m in FUNCTION.finditer(COMMENT.sub('', text)):
        faults.append('%s declares a function: %s' % (name, m.group(0).split('(')[0].strip()))
    for inc in INCLUDE.findall(text):
        if os.path.basename(inc) in files and module_of(inc) != 'types':
            faults.append('%s includes %s, not a *_types.h' % (name, inc))
    return faults


def include_edges(folder, faults=None):
    edges = {}
    files = [f for f in os.listdir(folder) if f.endswith(('.c', '.h'))]
    for f in files:
        with open(os.path.join(folder, f), encoding='utf-8', errors='replace') as fh:
            text = fh.read()
        a = module_of(f)
        edges.setdefault(a, {})
        if a == 'types' and faults is not None:
            faults.extend(types_header_faults(f, text, files))
        for inc in INCLUDE.findall(text):
            if os.path.basename(inc) in files:
                b = module_of(inc)
                if a != b:
                    edges[a].setdefault(b, '%s includes %s' % (f, inc))
    return edges


def call_edges(objdir, edges):
    defined, needed = {}, {}
    for root, _, names in os.walk(objdir):
        for n in names:
            if not n.endswith('.o'):
                continue
            mod = module_of(n[:-2])  # foo.c.o
            out = subprocess.run(['nm', '-P', os.path.join(root, n)], capture_output=True,
                                 text=True, check=True).stdout
            for line in out.splitlines():
                parts = line.split()
                if len(parts) < 2:
                    continue
                sym, kind = parts[0], parts[1]
                if kind == 'U':
                    needed.setdefault(mod, {}).setdefault(sym, n)
                elif kind in 'Tt':  # functions: a call, not the registry's data tables
                    defined[sym] = (mod, n)
    for a, syms in needed.items():
        for sym, obj in syms.items():
            if sym in defined and defined[sym][0] != a and a in edges:
                b, bobj = defined[sym]
                edges[a].setdefault(b, '%s calls %s in %s' % (obj[:-2], sym, bobj[:-2]))


def cycles(edges):
    """Every elementary cycle once (smallest module first); the graphs are small."""
    found = []
    nodes = sorted(edges)
    for start in nodes:
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in sorted(edges.get(node, {})):
                if nxt == start:
                    found.append(path + [start])
                elif nxt > start and nxt not in path:
                    stack.append((nxt, path + [nxt]))
    return found


def loop_case(files, into, header, loop):
    """Writes files to a scratch folder: no loop may be found; then adds
    #include "header" to the file into: exactly that loop must be found."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        for name, text in files.items():
            with open(os.path.join(d, name), 'w') as fh:
                fh.write(text)
        if cycles(include_edges(d)):
            print('selftest: a loop found in %s where there is none' % sorted(files))
            return False
        with open(os.path.join(d, into), 'a') as fh:
            fh.write('#include "%s"\n' % header)
        if cycles(include_edges(d)) != [loop]:
            print('selftest: the loop %s was not found' % ' -> '.join(loop))
            return False
    return True


def selftest():
    """The check finds a made-up loop (a.c -> b.h, b.c -> a.h) and passes its pair-only twin."""
    if not loop_case({'a.h': '', 'a.c': '#include "a.h"\n#include "b.h"\n', 'a_impl.h': '#include "a.h"\n',
                      'b.h': '', 'b.c': '#include "b.h"\n'}, 'b.c', 'a.h', ['a', 'b', 'a']):
        return 1
    # The prefix rule: cl_x_draw.c is the module "x" (cl_ stripped), cl_net_y.h "net", st.c "st".
    for name, mod in (('cl_scene_race.c', 'scene'), ('cl_app.h', 'app'), ('cl_net_impl.h', 'net'),
                      ('sv_hold_types.h', 'types'), ('cl_net.c', 'net'), ('st.c', 'st'),
                      ('st_sqlite_schema.c', 'sqlite'), ('maze_carve.c', 'maze'), ('co.h', 'co'), ('cl_x.c.o', 'x')):
        if module_of(name) != mod:
            print('selftest: %s is module %s, not %s' % (name, module_of(name), mod))
            return 1
    if not loop_case({'cl_x.h': '', 'cl_x_a.c': '#include "cl_x.h"\n#include "cl_y.h"\n', 'cl_y.h': '',
                      'cl_y.c': '#include "cl_y.h"\n'}, 'cl_y.c', 'cl_x.h', ['x', 'y', 'x']):
        return 1
    # The data layer: a centre including a subsystem's types while the subsystem includes the centre
    # is no loop; a types header with a function, or including a function header, is a fault.
    import tempfile
    good = {'sv_a_types.h': 'typedef struct sv_a { int n; void (*fn)(int x); } sv_a;\n',
            'sv_centre.h': '#include "sv_a_types.h"\nstruct sv { sv_a a; };\n',
            'sv_a.h': '#include "sv_a_types.h"\nvoid sv_a_step(struct sv *sv);\n',
            'sv_a.c': '#include "sv_a.h"\n#include "sv_centre.h"\nvoid sv_a_step(struct sv *sv) {}\n'}
    for extra, fault in ((None, None), ('int sv_a_count(const sv_a *a);\n', 'declares a function'),
                         ('#include "sv_a.h"\n', 'not a *_types.h')):
        with tempfile.TemporaryDirectory() as d:
            for name, text in good.items():
                with open(os.path.join(d, name), 'w') as fh:
                    fh.write(text + (extra if extra and name == 'sv_a_types.h' else ''))
            faults = []
            found = cycles(include_edges(d, faults))
            if fault is None and (found or faults):
                print('selftest: the data layer case fails: %s %s' % (found, faults))
                return 1
            if fault is not None and not any(fault in f for f in faults):
                print('selftest: a types header with %r passes' % extra)
                return 1
    return 0


def main(argv):
    if argv == ['--selftest']:
        return selftest()
    objdir = None
    if len(argv) >= 2 and argv[0] == '--objects':
        objdir, argv = argv[1], argv[2:]
    folders = argv or ['common']
    bad = 0
    for folder in folders:
        faults = []
        edges = include_edges(folder, faults)
        for fault in faults:
            bad += 1
            print('%s: %s' % (folder, fault))
        if objdir:
            call_edges(objdir, edges)
        for cyc in cycles(edges):
            bad += 1
            print('%s: loop between modules: %s' % (folder, ' -> '.join(cyc)))
            for a, b in zip(cyc, cyc[1:]):
                print('    %s' % edges[a][b])
        print('%s: %d modules, %d edges, %s' % (folder, len(edges), sum(len(v) for v in edges.values()),
                                                'no loop' if not bad else 'LOOPS'))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
