#!/usr/bin/env python3
"""Gathers the throughput bench's corpus from documentation installed on a Debian machine.

Run from the repository root: python3 bench/corpus/gather.py. It rewrites bench/corpus/docs/ and
bench/corpus/MANIFEST.tsv. The corpus is committed because CI has none of these sources; this
script records how it was made and lets it be remade on a machine with the same packages.

Every document is kept byte for byte as its package ships it (gzip is undone), except the PDF
renderings of man pages, which groff typesets from the package's own page. A file is kept only
when its licence is known and allows redistribution: for a Debian package, the licence of the
"Files: *" stanza of /usr/share/doc/<package>/copyright; for an npm package, package.json's
"license" field; /usr/share/common-licenses are licence texts whose verbatim copying is allowed.
"""

import gzip
import hashlib
import json
import os
import re
import subprocess
import sys

ROOT = os.path.join("bench", "corpus")
DOCS = os.path.join(ROOT, "docs")
# Larger documents are skipped, not cut: a cut document is not a real one. The two PDF manuals
# Debian ships are larger than any text document worth keeping, hence their own limit.
MAX_FILE = {"html": 40 * 1024, "md": 40 * 1024, "txt": 40 * 1024, "pdf": 300 * 1024}
MAX_TOTAL = 7 * 1024 * 1024   # the corpus stays small enough to commit
TARGET = {"html": 160, "md": 160, "txt": 200, "pdf": 60}

# Licence names (Debian short names or SPDX) that allow redistribution.
FREE = re.compile(
    r"^(GPL|LGPL|AGPL|MIT|Expat|BSD|Apache|ISC|Zlib|public-domain|Artistic|GFDL|MPL|CC0|"
    r"CC-BY|X11|BlueOak|0BSD|Unlicense|PSF|Python|OFL|curl|FSFAP|FSFUL|permissive)",
    re.IGNORECASE,
)
NPM_FREE = {"MIT", "ISC", "BSD-2-Clause", "BSD-3-Clause", "Apache-2.0", "BlueOak-1.0.0",
            "Artistic-2.0", "0BSD", "CC0-1.0", "Unlicense"}

_package_licence = {}


def debian_licence(package):
    """The licence of the package's 'Files: *' stanza, or None when it is not machine-readable."""
    if package in _package_licence:
        return _package_licence[package]
    licence = None
    path = f"/usr/share/doc/{package}/copyright"
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        text = ""
    if text.startswith("Format:"):
        for stanza in re.split(r"\n\s*\n", text):
            if re.search(r"^Files:\s*\*\s*$", stanza, re.MULTILINE):
                m = re.search(r"^License:\s*(.+)$", stanza, re.MULTILINE)
                if m:
                    licence = m.group(1).strip()
                break
    elif "Permission is hereby granted, free of charge" in "\n".join(text.splitlines()[:40]):
        # Not machine-readable, but the file opens with the MIT/Expat grant (Node.js, libxslt).
        licence = "MIT (grant at the head of the package's copyright file)"
    if licence and not all(FREE.match(part.strip()) for part in re.split(r"\s+(?:or|and)\s+|,", licence) if part.strip()):
        licence = None
    _package_licence[package] = licence
    return licence


def owner(path):
    """The Debian package that installed the file."""
    out = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    return out.stdout.split(":", 1)[0].split(",")[0].strip()


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".gz"):
        data = gzip.decompress(data)
    return data


def is_text(data):
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return b"\x00" not in data


class Corpus:
    def __init__(self):
        self.rows = []
        self.total = 0
        self.count = {k: 0 for k in TARGET}
        self.seen = set()

    def full(self, kind):
        return self.count[kind] >= TARGET[kind]

    def add(self, kind, data, source, licence, note=""):
        if self.full(kind) or not data or len(data) > MAX_FILE[kind] or self.total + len(data) > MAX_TOTAL:
            return False
        digest = hashlib.sha256(data).hexdigest()
        if digest in self.seen:
            return False
        self.seen.add(digest)
        name = f"{kind}/{len(self.rows) + 1:04d}-{slug(source)}.{kind}"
        target = os.path.join(DOCS, name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(data)
        self.rows.append((name, len(data), digest, source, licence, note))
        self.total += len(data)
        self.count[kind] += 1
        return True


def slug(source):
    base = os.path.basename(source.split(" ")[0])
    base = re.sub(r"\.(gz|html?|md|markdown|txt|pdf|\d)$", "", base)
    base = re.sub(r"\.(gz|html?|md|markdown|txt|pdf|\d)$", "", base)
    return re.sub(r"[^A-Za-z0-9_-]+", "-", base)[:40].strip("-") or "doc"


def debian_files(suffixes):
    for dirpath, _, files in sorted(os.walk("/usr/share/doc")):
        for name in sorted(files):
            if name.endswith(suffixes):
                path = os.path.join(dirpath, name)
                if not os.path.islink(path):
                    yield path


def from_debian(corpus, kind, suffixes):
    for path in debian_files(suffixes):
        if corpus.full(kind):
            return
        package = path.split("/")[4]
        licence = debian_licence(package)
        if not licence:
            continue
        data = read(path)
        if kind != "pdf" and not is_text(data):
            continue
        corpus.add(kind, data, path, licence, f"Debian package {package}")


def from_npm(corpus):
    roots = ["/usr/lib/node_modules"]
    for root in roots:
        for dirpath, _, files in sorted(os.walk(root)):
            if "package.json" not in files:
                continue
            try:
                with open(os.path.join(dirpath, "package.json"), encoding="utf-8") as f:
                    meta = json.load(f)
            except (OSError, ValueError):
                continue
            licence = meta.get("license")
            if not isinstance(licence, str) or licence not in NPM_FREE:
                continue
            label = f"npm {meta.get('name')}@{meta.get('version')}"
            for name in sorted(files):
                upper = name.upper()
                path = os.path.join(dirpath, name)
                if upper.endswith(".MD"):
                    kind = "md"
                elif upper in ("LICENSE", "LICENCE", "COPYING", "LICENSE.TXT", "LICENCE.TXT"):
                    kind = "txt"
                else:
                    continue
                data = read(path)
                if is_text(data):
                    corpus.add(kind, data, path, licence, label)


def from_common_licenses(corpus):
    for name in sorted(os.listdir("/usr/share/common-licenses")):
        path = os.path.join("/usr/share/common-licenses", name)
        if os.path.islink(path):
            continue
        corpus.add("txt", read(path), path, "verbatim copying permitted (licence text)", "Debian base-files")


def man_pdfs(corpus):
    for section in ("1", "5", "8"):
        directory = f"/usr/share/man/man{section}"
        if not os.path.isdir(directory):
            continue
        for name in sorted(os.listdir(directory)):
            if corpus.full("pdf"):
                return
            path = os.path.join(directory, name)
            if os.path.islink(path) or not name.endswith(".gz"):
                continue
            package = owner(path)
            licence = package and debian_licence(package)
            if not licence:
                continue
            source = read(path)
            if source.lstrip().startswith(b".so "):
                continue
            out = subprocess.run(["groff", "-man", "-Tpdf"], input=source, capture_output=True)
            if out.returncode == 0 and out.stdout.startswith(b"%PDF-"):
                corpus.add("pdf", out.stdout, path, licence, f"Debian package {package}; typeset to PDF by groff -man -Tpdf")


def main():
    if os.path.isdir(DOCS):
        subprocess.run(["rm", "-rf", DOCS], check=True)
    corpus = Corpus()
    from_debian(corpus, "pdf", (".pdf",))
    man_pdfs(corpus)
    from_debian(corpus, "html", (".html", ".htm"))
    from_debian(corpus, "md", (".md",))
    from_npm(corpus)
    from_common_licenses(corpus)
    from_debian(corpus, "txt", ("README", "README.txt", "NEWS.gz", "README.gz", "AUTHORS", "THANKS", "TODO"))
    from_debian(corpus, "txt", ("changelog.gz",))
    with open(os.path.join(ROOT, "MANIFEST.tsv"), "w", encoding="utf-8") as f:
        f.write("file\tbytes\tsha256\tsource\tlicence\tnote\n")
        for row in corpus.rows:
            f.write("\t".join(str(v) for v in row) + "\n")
    print(f"{len(corpus.rows)} documents, {corpus.total} bytes: {corpus.count}", file=sys.stderr)


if __name__ == "__main__":
    main()
