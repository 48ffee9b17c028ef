#!/usr/bin/env python3
"""The documentation is one connected guide: every page under docs/ can be reached from
docs/README.md by following links, and every relative link in README.md and docs/ names a file
that exists (an anchor is checked against the headings of the page it points to).

  doc_links.py SOURCEDIR        check the tree
  doc_links.py --self-test      prove that an unreachable page, a broken link and a broken anchor are caught
"""
import os
import re
import sys
import tempfile

import tree_check

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def prose(text, keep_code=False):
    """The text outside fenced code blocks (links in code are examples, not links), without inline
    code spans unless keep_code (a heading's anchor is made from the words inside them too)."""
    out, fence = [], None
    for line in text.splitlines():
        m = FENCE.match(line)
        if m and (fence is None or m.group(1).startswith(fence)):
            fence = None if fence else m.group(1)
            continue
        if fence is None:
            out.append(line if keep_code else re.sub(r"`[^`]*`", "", line))
    return out


def anchors(path):
    """GitHub's heading anchors of a Markdown page."""
    found = set()
    with open(path, encoding="utf-8") as f:
        for line in prose(f.read(), keep_code=True):
            m = re.match(r"^#{1,6}\s+(.*)$", line)
            if m:
                slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
                found.add(slug)
    return found


def check(src):
    src = os.path.abspath(src)
    docs = os.path.join(src, "docs")
    pages = {os.path.join(d, n) for d, _, names in os.walk(docs) for n in names if n.endswith(".md")}
    problems, seen, todo = [], set(), [os.path.join(docs, "README.md")]
    for page in sorted(pages | {os.path.join(src, "README.md")}):
        with open(page, encoding="utf-8") as f:
            lines = prose(f.read())
        for n, line in enumerate(lines, 1):
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target) or target.startswith("#") and not target[1:]:
                    continue
                file_part, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(page), file_part)) if file_part else page
                rel = os.path.relpath(page, src)
                if not os.path.exists(dest):
                    problems.append(f"{rel}: link to {target}: no such file")
                elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                    problems.append(f"{rel}: link to {target}: no heading with that anchor")
    while todo:
        page = todo.pop()
        if page in seen or not os.path.isfile(page):
            continue
        seen.add(page)
        if not page.endswith(".md"):
            continue
        with open(page, encoding="utf-8") as f:
            for line in prose(f.read()):
                for target in LINK.findall(line):
                    if re.match(r"^[a-z]+:", target):
                        continue
                    dest = os.path.normpath(os.path.join(os.path.dirname(page), target.partition("#")[0]))
                    if dest.startswith(docs + os.sep) or dest == docs:
                        todo.append(dest)
    for page in sorted(pages - seen):
        problems.append(f"{os.path.relpath(page, src)}: not reachable from docs/README.md")
    return problems


def self_test():
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "docs", "howto"))
        files = {
            "README.md": "See [docs](docs/README.md).\n",
            "docs/README.md": "# Index\n[a](howto/a.md) and [b](b.md#usage)\n```\n[not a link](nowhere.md)\n```\n",
            "docs/howto/a.md": "# A\nBack to [the index](../README.md#index).\n",
            "docs/b.md": "# B\n## Usage\n",
        }
        for rel, text in files.items():
            with open(os.path.join(d, rel), "w") as f:
                f.write(text)
        if check(d):
            print(f"self-test: a connected tree was flagged: {check(d)}")
            return 1
        with open(os.path.join(d, "docs", "orphan.md"), "w") as f:
            f.write("# Orphan\n[gone](moved.md) [bad anchor](b.md#nothing-here)\n")
        problems = check(d)
        wanted = ["docs/orphan.md: link to moved.md: no such file",
                  "docs/orphan.md: link to b.md#nothing-here: no heading with that anchor",
                  "docs/orphan.md: not reachable from docs/README.md"]
        if sorted(problems) != sorted(wanted):
            print(f"self-test: expected {wanted}, got {problems}")
            return 1
    print("self-test: an unreachable page, a missing file and a missing anchor are caught")
    return 0


if __name__ == "__main__":
    sys.exit(tree_check.main(__doc__, check, self_test,
                             "every page under docs/ is reachable from docs/README.md; every relative link resolves"))
