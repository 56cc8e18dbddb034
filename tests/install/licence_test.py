#!/usr/bin/env python3
# licence_test.py: the project's MIT licence is stated where people and Debian's tools look (LICENSE,
# debian/copyright in DEP-5 form, the AppStream metainfo, the README, the top CMakeLists.txt).
# Usage: licence_test.py SOURCE_DIR
import re
import sys
import xml.etree.ElementTree as ET

COPYRIGHT_LINE = "Copyright (c) 2026 the mazerace authors"
MIT_WORDS = ["Permission is hereby granted, free of charge", "The above copyright notice and this permission notice",
             'THE SOFTWARE IS PROVIDED "AS IS"']


def paragraphs(text):
    """DEP-5 (deb822) paragraphs: dicts of field -> value (continuation lines joined with newlines)."""
    out, cur, key = [], {}, None
    for n, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            if cur:
                out.append(cur)
            cur, key = {}, None
        elif line[0] in " \t":
            if key is None:
                raise ValueError(f"line {n}: a continuation line with no field before it")
            cur[key] += "\n" + line[1:]
        else:
            m = re.match(r"^([A-Za-z][A-Za-z0-9-]*):\s?(.*)$", line)
            if not m:
                raise ValueError(f"line {n}: not 'Field: value': {line!r}")
            key = m.group(1)
            if key in cur:
                raise ValueError(f"line {n}: field {key} twice in one paragraph")
            cur[key] = m.group(2)
    if cur:
        out.append(cur)
    return out


def check(src):
    errors = []
    lic = open(f"{src}/LICENSE", encoding="utf-8").read()
    if not lic.startswith("MIT License"):
        errors.append("LICENSE does not start with 'MIT License'")
    if COPYRIGHT_LINE not in lic:
        errors.append(f"LICENSE lacks '{COPYRIGHT_LINE}'")
    errors += [f"LICENSE lacks '{w}'" for w in MIT_WORDS if w not in lic]

    paras = paragraphs(open(f"{src}/debian/copyright", encoding="utf-8").read())
    head = paras[0]
    if head.get("Format") != "https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/":
        errors.append("debian/copyright: the first paragraph has no DEP-5 Format field")
    files = [p for p in paras[1:] if "Files" in p]
    texts = {p["License"].split("\n")[0]: p["License"] for p in paras[1:] if "Files" not in p and "License" in p}
    star = [p for p in files if p["Files"].strip() == "*"]
    if len(star) != 1 or star[0].get("License", "").split("\n")[0] != "MIT":
        errors.append("debian/copyright: 'Files: *' is not one paragraph with 'License: MIT'")
    if star and "2026 the mazerace authors" not in star[0].get("Copyright", ""):
        errors.append("debian/copyright: 'Files: *' lacks 'Copyright: 2026 the mazerace authors'")
    for p in files:
        if "Copyright" not in p or "License" not in p:
            errors.append(f"debian/copyright: Files: {p['Files']} lacks Copyright or License")
            continue
        name, _, body = p["License"].partition("\n")
        if not body and name not in texts:
            errors.append(f"debian/copyright: licence {name} has no text (no stand-alone License paragraph)")
    mit = texts.get("MIT", "")
    errors += [f"debian/copyright: the MIT text lacks '{w}'" for w in MIT_WORDS if w not in mit.replace("\n", " ")]
    if "no-licence-granted" in open(f"{src}/debian/copyright", encoding="utf-8").read():
        errors.append("debian/copyright still says no-licence-granted")

    root = ET.parse(f"{src}/desktop/io.github.mazerace.mazerace.metainfo.xml").getroot()
    if (root.findtext("project_license") or "").strip() != "MIT":
        errors.append("metainfo: <project_license> is not MIT")

    readme = open(f"{src}/README.md", encoding="utf-8").read()
    if not re.search(r"MIT[^\n]*\(`?LICENSE`?\)|\[LICENSE\]\(LICENSE\)", readme):
        errors.append("README.md: no line naming the MIT licence and LICENSE")
    if "SPDX-License-Identifier: MIT" not in open(f"{src}/CMakeLists.txt", encoding="utf-8").read():
        errors.append("CMakeLists.txt: no SPDX-License-Identifier: MIT")
    return errors


def main():
    errors = check(sys.argv[1])
    for e in errors:
        print("FAIL:", e)
    print(f"licence: {len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
