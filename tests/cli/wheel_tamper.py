#!/usr/bin/env python3
"""wheel_tamper.py - a hostile copy of a good wheel, for wheel.t.

usage: wheel_tamper.py CASE IN.whl OUTDIR   (prints the hostile wheel's path)

Each case breaks one promise and, unless the case is about RECORD itself,
keeps RECORD consistent, so a refusal shows that promise was checked:
  link        a symbolic link member (to /etc/passwd)
  dotdot      a member named onnxruntime/../../evil.py
  absolute    a member named /tmp/evil.py
  duplicate   a member there twice
  record-lies a file changed, RECORD left as it was
  size-lies   RECORD's size of a file changed
  unlisted    a member RECORD does not list
  understated ortkit.json's needs lowered to glibc 2.17 with the file, WHEEL and
              ortkit.json all retagged manylinux_2_17 (a consistent lie)
  tag-lies    only the platform tag lowered (file name and WHEEL), needs honest
"""
import base64
import hashlib
import json
import os
import sys
import zipfile


def record_hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def read(path):
    with zipfile.ZipFile(path) as z:
        return [(i, z.read(i.filename)) for i in z.infolist()]


def dist_info(members):
    return next(i.filename.split("/")[0] for i, _ in members if i.filename.endswith(".dist-info/RECORD"))


def write(path, members, record=True, extra_unlisted=()):
    """members: [(ZipInfo or name, bytes)]; RECORD rewritten from them unless record=False."""
    di = dist_info(members)
    lines = []
    out = []
    for info, data in members:
        name = info.filename if isinstance(info, zipfile.ZipInfo) else info
        if name == di + "/RECORD":
            continue
        out.append((info, data))
        if name not in extra_unlisted:
            lines.append("%s,%s,%d" % (name, record_hash(data), len(data)))
    lines.append(di + "/RECORD,,")
    rec = next(d for i, d in members if (i.filename if isinstance(i, zipfile.ZipInfo) else i) == di + "/RECORD")
    if record:
        rec = ("\n".join(lines) + "\n").encode()
    out.append((di + "/RECORD", rec))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for info, data in out:
            z.writestr(info, data)


def retag(members, old, new):
    di = dist_info(members)
    result = []
    for info, data in members:
        if info.filename == di + "/WHEEL":
            data = data.replace(old.encode(), new.encode())
        result.append((info, data))
    return result


def main():
    case, src, outdir = sys.argv[1], sys.argv[2], sys.argv[3]
    members = read(src)
    name = os.path.basename(src)
    di = dist_info(members)
    plat = name[:-4].split("-")[-1]
    out = os.path.join(outdir, case, name)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    if case == "link":
        link = zipfile.ZipInfo("onnxruntime/evil")
        link.create_system = 3
        link.external_attr = (0o120777 << 16)
        write(out, members + [(link, b"/etc/passwd")])
    elif case in ("dotdot", "absolute"):
        bad = "onnxruntime/../../evil.py" if case == "dotdot" else "/tmp/evil.py"
        write(out, members + [(zipfile.ZipInfo(bad), b"print('evil')\n")])
    elif case == "duplicate":
        import warnings
        warnings.simplefilter("ignore")
        first = members[0]
        write(out, members + [(zipfile.ZipInfo(first[0].filename), b"# another\n")])
    elif case == "record-lies":
        changed = [(i, d + b"# changed\n" if i.filename == "onnxruntime/__init__.py" else d) for i, d in members]
        write(out, changed, record=False)
    elif case == "size-lies":
        rec_name = di + "/RECORD"
        changed = []
        for i, d in members:
            if i.filename == rec_name:
                lines = d.decode().splitlines()
                f, h, s = lines[0].split(",")
                lines[0] = "%s,%s,%d" % (f, h, int(s) + 1)
                d = ("\n".join(lines) + "\n").encode()
            changed.append((i, d))
        write(out, changed, record=False)
    elif case == "unlisted":
        write(out, members + [(zipfile.ZipInfo("onnxruntime/unlisted.py"), b"x = 1\n")],
              extra_unlisted=("onnxruntime/unlisted.py",))
    elif case in ("understated", "tag-lies"):
        new_plat = "manylinux_2_17_" + plat.split("_", 3)[-1]
        changed = retag(members, plat, new_plat)
        if case == "understated":
            result = []
            for i, d in changed:
                if i.filename == di + "/ortkit.json":
                    facts = json.loads(d)
                    facts["needs"]["glibc"] = "2.17"
                    facts["needs"]["glibcxx"] = "3.4.19"
                    facts["needs"]["cxxabi"] = "1.3.7"
                    facts["wheel"]["platform_tag"] = new_plat
                    d = json.dumps(facts, indent=1).encode()
                result.append((i, d))
            changed = result
        out = os.path.join(outdir, case, name.replace(plat, new_plat))
        write(out, changed)
    else:
        sys.exit("unknown case " + case)
    print(out)


if __name__ == "__main__":
    main()
