#!/usr/bin/env python3
"""Build the per-version requirement catalogs (scenarios/requirements/<version>.json).

Inputs:
  - the checklist (../shared/mcp-spec/CHECKLIST.md): ids, keywords, source sections,
    testability and the Ver column (which versions a row exists in);
  - tools/catalog/summaries.txt: our own one-line summaries (the checklist's prose is
    never copied into the catalog);
  - tools/catalog/version_overrides.txt: decisions for rows whose Ver column is free text.

The authorization rows come from AUTH-CHECKLIST.md through auth_catalog.py (all versions at
once, with summaries-auth.txt and auth_overrides.txt).

Protocol 2026-07-28 has a checklist of its own (CHECKLIST-2026-07-28.md); modern_catalog.py
builds its catalog, reusing this file's parsing and the 2025-11-25 summaries of rows that carry
over unchanged.

The committed JSON files are the source of truth; this script only keeps them consistent.
Run with --check to verify the committed files match what the inputs produce.
Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
SHORT_VERSION = {v[5:]: v for v in VERSIONS}  # "03-26" -> "2025-03-26"
FORMAT = 1
SOURCE = ("MCP specification at commit b0f60ba5409db7a6582440a7b473cc0398890f15, "
          "CHECKLIST.md")
LEVELS = ("MUST", "SHOULD", "MAY", "INFO")

# Checklist section number -> (area id, title). Titles are the area names COUNTS.md uses,
# so the row counts per area can be compared with it.
AREAS = {
    "1": ("base", "Base protocol / JSON-RPC"),
    "1a": ("jsonschema", "JSON Schema dialect"),
    "1b": ("icons", "Icons"),
    "2": ("lifecycle", "Lifecycle"),
    "3": ("stdio", "Transport: stdio"),
    "4a": ("http-security", "Streamable HTTP: Security / endpoint"),
    "4b": ("http-client-to-server", "Streamable HTTP: Client → server"),
    "4c": ("http-server-to-client", "Streamable HTTP: Server → client"),
    "4d": ("http-resumability", "Streamable HTTP: Resumability"),
    "4e": ("http-session", "Streamable HTTP: Session management"),
    "4f": ("http-version", "Streamable HTTP: Protocol-version header"),
    "4g": ("http-compat", "Streamable HTTP: Backwards compatibility & custom transports"),
    "5": ("sse", "Transport: legacy HTTP+SSE"),
    "6": ("ping", "Ping"),
    "7": ("cancellation", "Cancellation"),
    "8": ("progress", "Progress"),
    "9": ("pagination", "Pagination"),
    "10": ("tools", "Tools"),
    "11": ("resources", "Resources"),
    "12": ("prompts", "Prompts"),
    "13": ("completion", "Completion"),
    "14": ("logging", "Logging"),
    "15": ("sampling", "Sampling"),
    "16": ("elicitation", "Elicitation"),
    "17": ("roots", "Roots"),
    "18": ("tasks", "Tasks"),
}
HARNESS_AREA = ("harness", "mcpspec harness rules (every version)")

# Rules of our own that hold for every version; they turn crashes, hangs and schema
# violations into verdicts even where no checklist row names them.
HARNESS_ROWS = [
    {"id": "MCPSPEC-SCHEMA", "keyword": "MUST", "section": "schema.ts", "testable": "both",
     "summary": "Every message validates against the message schema of the negotiated protocol version."},
    {"id": "MCPSPEC-ALIVE", "keyword": "MUST", "section": "basic/lifecycle §Operation", "testable": "both",
     "summary": "The implementation keeps running and answering for the whole session unless asked to stop; a crash or hang fails."},
    {"id": "MCPSPEC-RESPONSE", "keyword": "MUST", "section": "basic/index §Responses", "testable": "both",
     "summary": "Every request gets exactly one response: never none, never two."},
]

# Short page names the checklist's Source column uses -> page path under docs/specification/<version>/.
PAGE_ALIASES = {
    "lifecycle": "basic/lifecycle", "transports": "basic/transports",
    "ping": "basic/utilities/ping", "cancellation": "basic/utilities/cancellation",
    "progress": "basic/utilities/progress", "tasks": "basic/utilities/tasks",
    "pagination": "server/utilities/pagination", "completion": "server/utilities/completion",
    "logging": "server/utilities/logging", "tools": "server/tools", "resources": "server/resources",
    "prompts": "server/prompts", "sampling": "client/sampling", "elicitation": "client/elicitation",
    "roots": "client/roots",
}
# Transport rows cite only an anchor ("§Sending Messages #4"); their page is the transports page.
TRANSPORT_AREAS = {"stdio", "sse"} | {a for a, _ in AREAS.values() if a.startswith("http-")}
ROW_RE = re.compile(r"^\| ([A-Z]+(?:-[A-Z]+)?-[0-9]+) \|")
HEADING_RE = re.compile(r"^#{2,3} ([0-9]+[a-z]?)\. ")
# Longest run of words a summary may share with the checklist's own wording.
MAX_SHARED_WORDS = 5


class CatalogError(Exception):
    pass


@dataclass
class Row:
    id: str
    keyword: str
    text: str
    source: str
    test: str
    ver: str
    area: str
    line: int
    section: str = ""  # the heading number the row is under ("4a", "1", ...)
    versions: list[str] = field(default_factory=list)
    levels: dict[str, str] = field(default_factory=dict)


def clean_markup(s: str) -> str:
    return re.sub(r"\s+", " ", s.replace("`", "").replace("**", "").replace("*", "")).strip()


def parse_checklist(path: Path, areas: dict | None = None, last_section: int | None = None,
                    cells_per_row: int = 6, id_re: re.Pattern = ROW_RE) -> list[Row]:
    """The requirement rows of a checklist, each in the area of its section heading. `areas` maps
    section numbers to areas (default: CHECKLIST.md's); rows after section `last_section` are
    not requirements (the 2026-07-28 checklist lists removed ids and counts there). The first six
    cells are id, keyword, requirement, source, test and versions (AUTH-CHECKLIST.md adds two)."""
    areas = AREAS if areas is None else areas
    rows: list[Row] = []
    area = section = None
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        h = HEADING_RE.match(line)
        if h:
            if last_section is not None and int(re.match(r"[0-9]+", h.group(1)).group(0)) > last_section:
                break
            area, section = areas.get(h.group(1), (None, None))[0], h.group(1)
            continue
        if not id_re.match(line):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) != cells_per_row:
            raise CatalogError(f"{path}:{n}: expected {cells_per_row} table cells, found {len(cells)}")
        if area is None:
            raise CatalogError(f"{path}:{n}: row {cells[0]} is under a heading with no area mapping")
        rows.append(Row(id=cells[0], keyword=cells[1], text=cells[2], source=cells[3],
                        test=cells[4], ver=cells[5], area=area, line=n, section=section))
    seen: set[str] = set()
    for r in rows:
        if r.id in seen:
            raise CatalogError(f"{path}:{r.line}: duplicate id {r.id}")
        seen.add(r.id)
    return rows


def normalize_section(source: str, area: str, version: str, pages: Path | None) -> str:
    """The checklist's Source cell as a full page path relative to <version>'s specification.

    A version prefix that names the catalog's own version is dropped; one naming another
    version is kept, so a reader knows the text lives in that revision's pages. When the
    spec pages are at hand, every cited page must exist in the revision it is read from.
    """
    out = []
    for i, part in enumerate(clean_markup(source).split("; ")):
        prefix = None
        m = re.match(r"^(20[0-9]{2}-[0-9]{2}-[0-9]{2}|03-26/06-18) (.*)$", part)
        if m:
            prefix, part = m.group(1), m.group(2)
        page_version = version
        if prefix == "03-26/06-18":
            page_version = version if version in ("2025-03-26", "2025-06-18") else "2025-06-18"
            prefix = None if version in ("2025-03-26", "2025-06-18") else "2025-06-18"
        elif prefix is not None:
            page_version = prefix
            if prefix == version:
                prefix = None
        head, _, rest = part.partition(" ")
        page = None
        if part.startswith("schema.ts"):
            pass
        elif part.startswith("§"):
            if i == 0 and area in TRANSPORT_AREAS:
                page = "basic/transports"
                part = f"{page} {part}"
        else:
            page = PAGE_ALIASES.get(head, head)
            part = f"{page} {rest}".strip()
        if page and pages is not None and not (pages / page_version / f"{page}.mdx").is_file():
            raise CatalogError(f"section {source!r}: page {page} does not exist in {page_version}")
        out.append(f"{prefix} {part}" if prefix else part)
    return "; ".join(out)


def expand_version_spec(spec: str, where: str) -> list[str]:
    spec = spec.strip()
    if spec == "all":
        return list(VERSIONS)
    if spec.endswith("+"):
        start = spec[:-1]
        if start not in VERSIONS:
            raise CatalogError(f"{where}: unknown version {start!r} in {spec!r}")
        return VERSIONS[VERSIONS.index(start):]
    out = []
    for v in spec.split(","):
        v = v.strip()
        if v not in VERSIONS:
            raise CatalogError(f"{where}: unknown version {v!r} in {spec!r}")
        out.append(v)
    return [v for v in VERSIONS if v in out]


def versions_from_ver_column(ver: str) -> list[str] | None:
    """Versions for a plain Ver marker, or None when a person has to decide."""
    v = clean_markup(ver)
    if re.search(r"\b(MUST|SHOULD)\b", v):
        return None  # strength changes between versions: needs an explicit override
    if v.startswith("all"):
        return list(VERSIONS)
    if v.startswith("03-26, 06-18 only"):
        return ["2025-03-26", "2025-06-18"]
    if v.startswith("03-26 only"):
        return ["2025-03-26"]
    m = re.match(r"(03-26|06-18)\+", v)
    if m:
        return VERSIONS[VERSIONS.index(SHORT_VERSION[m.group(1)]):]
    if v.startswith("11-25"):
        return ["2025-11-25"]
    if v.startswith("2024-11-05"):
        return ["2024-11-05"]
    return None


def level_of(keyword: str, where: str) -> str:
    # The strongest keyword in the row wins: a row mixing MUST and MAY is judged as MUST.
    if re.search(r"\bMUST\b", keyword):
        return "MUST"
    if re.search(r"\bSHOULD\b", keyword):
        return "SHOULD"
    if "(lc)" in keyword:
        return "SHOULD"  # lowercase schema doc-comment wording: de-facto contract, not normative
    if re.search(r"\bMAY\b", keyword):
        return "MAY"
    if keyword in ("—", "(no keyword)"):
        return "INFO"
    raise CatalogError(f"{where}: cannot map keyword {keyword!r} to a level")


def testability_of(test: str) -> tuple[str, bool]:
    """(testable, heuristic) from the Test column, e.g. 'S (tools) / C~' -> ('both', True)."""
    # Parenthesised remarks are explanations ("N inits"), except one that itself starts with
    # a mode letter, as in "N (S~ if the harness can probe other interfaces)".
    def keep_mode_remark(m: re.Match) -> str:
        inner = m.group(1)
        return " " + inner.split()[0] + " " if re.match(r"[SCBN]~?(\s|$)", inner) else " "
    outside = re.sub(r"\(([^()]*)\)", keep_mode_remark, test)
    tokens = re.findall(r"(?<![A-Za-z])([SCBN])(~?)(?![A-Za-z])", outside)
    letters = {t[0] for t in tokens}
    heuristic = any(t[1] == "~" for t in tokens)
    if "B" in letters or {"S", "C"} <= letters:
        return "both", heuristic
    if "S" in letters:
        return "server", heuristic
    if "C" in letters:
        return "client", heuristic
    return "none", heuristic


def data_lines(path: Path):
    """(where, line) for each line of an input file that is neither blank nor a # comment."""
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip() and not line.lstrip().startswith("#"):
            yield f"{path}:{n}", line


def parse_summaries(path: Path, rows: dict[str, Row]) -> dict[str, dict[str, str]]:
    """id -> {version: summary} for every version the row exists in."""
    base: dict[str, str] = {}
    per_version: dict[str, dict[str, str]] = {}
    for where, line in data_lines(path):
        m = re.match(r"^(\S+)\s+(\S.*)$", line)
        if not m:
            raise CatalogError(f"{where}: expected '<ID>[@versions]  <summary>'")
        key, text = m.group(1), m.group(2).strip()
        rid, _, vers = key.partition("@")
        if rid not in rows:
            raise CatalogError(f"{where}: {rid} is not a checklist id")
        if vers:
            for v in expand_version_spec(vers, where):
                if v not in rows[rid].versions:
                    raise CatalogError(f"{where}: {rid} does not exist in {v}")
                if v in per_version.setdefault(rid, {}):
                    raise CatalogError(f"{where}: second summary for {rid} in {v}")
                per_version[rid][v] = text
        else:
            if rid in base:
                raise CatalogError(f"{where}: second summary for {rid}")
            base[rid] = text
    out: dict[str, dict[str, str]] = {}
    for rid, row in rows.items():
        if rid not in base:
            raise CatalogError(f"{path}: no summary for {rid}")
        out[rid] = {v: per_version.get(rid, {}).get(v, base[rid]) for v in row.versions}
    return out


def apply_overrides(path: Path, rows: dict[str, Row]) -> None:
    overridden: set[str] = set()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        where = f"{path}:{n}"
        parts = body.split()
        rid = parts[0]
        if rid not in rows:
            raise CatalogError(f"{where}: {rid} is not a checklist id")
        if rid in overridden:
            raise CatalogError(f"{where}: second override for {rid}")
        overridden.add(rid)
        row = rows[rid]
        levels: dict[str, str] = {}
        versions = None
        for p in parts[1:]:
            if p.startswith("versions="):
                versions = expand_version_spec(p[len("versions="):], where)
            elif p.startswith("level@"):
                v, _, lvl = p[len("level@"):].partition("=")
                if v not in VERSIONS or lvl not in LEVELS:
                    raise CatalogError(f"{where}: bad level override {p!r}")
                levels[v] = lvl
            else:
                raise CatalogError(f"{where}: unknown field {p!r}")
        if versions is None:
            raise CatalogError(f"{where}: {rid} needs versions=")
        for v in levels:
            if v not in versions:
                raise CatalogError(f"{where}: level for {v}, but {rid} does not exist there")
        row.versions = versions
        row.levels.update(levels)
    for row in rows.values():
        if not row.versions:
            raise CatalogError(f"checklist line {row.line}: {row.id} has Ver column "
                               f"{row.ver!r}; add a line for it to {path.name}")


def words(s: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", clean_markup(s).lower())


def longest_shared_run(a: str, b: str) -> int:
    wa, wb = words(a), words(b)
    best = 0
    prev = [0] * (len(wb) + 1)
    for x in wa:
        cur = [0] * (len(wb) + 1)
        for j, y in enumerate(wb, start=1):
            if x == y:
                cur[j] = prev[j - 1] + 1
                best = max(best, cur[j])
        prev = cur
    return best


def build(checklist: Path, summaries_path: Path, overrides_path: Path,
          pages: Path | None) -> dict[str, dict]:
    row_list = parse_checklist(checklist)
    rows = {r.id: r for r in row_list}
    for r in row_list:
        r.versions = versions_from_ver_column(r.ver) or []
    apply_overrides(overrides_path, rows)
    summaries = parse_summaries(summaries_path, rows)

    problems = []
    for r in row_list:
        for v, s in summaries[r.id].items():
            if "\n" in s or len(s) > 240:
                problems.append(f"{r.id}@{v}: summary must be one line of at most 240 characters")
            run = longest_shared_run(s, r.text)
            if run > MAX_SHARED_WORDS:
                problems.append(f"{r.id}@{v}: summary shares {run} consecutive words with the "
                                f"checklist text; rephrase it in our own words")
    if problems:
        raise CatalogError("\n".join(problems))

    titles = dict(AREAS.values())
    catalogs = {}
    for v in VERSIONS:
        reqs = []
        for r in row_list:
            if v not in r.versions:
                continue
            testable, heuristic = testability_of(r.test)
            reqs.append({
                "id": r.id, "area": r.area, "keyword": r.keyword,
                "level": r.levels.get(v, level_of(r.keyword, f"checklist line {r.line}")),
                "summary": summaries[r.id][v], "section": normalize_section(r.source, r.area, v, pages),
                "testable": testable, "heuristic": heuristic,
            })
        for h in HARNESS_ROWS:
            reqs.append({"id": h["id"], "area": HARNESS_AREA[0], "keyword": h["keyword"],
                         "level": level_of(h["keyword"], h["id"]), "summary": h["summary"],
                         "section": h["section"], "testable": h["testable"], "heuristic": False})
        used = {q["area"] for q in reqs}
        areas = {a: t for a, t in list(titles.items()) + [HARNESS_AREA] if a in used}
        catalogs[v] = {"format": FORMAT, "protocol": v, "source": SOURCE, "areas": areas,
                       "requirements": reqs}
    return catalogs


def check_counts(catalogs: dict[str, dict], counts_path: Path) -> list[str]:
    """Rows per area over all versions must equal COUNTS.md's rows per area."""
    expected = {}
    for line in counts_path.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > 2 and cells[1].isdigit():
            expected[cells[0]] = int(cells[1])
    union: dict[str, set[str]] = {}
    for cat in catalogs.values():
        for q in cat["requirements"]:
            union.setdefault(q["area"], set()).add(q["id"])
    problems = []
    for area_id, title in AREAS.values():
        got = len(union.get(area_id, ()))
        if expected.get(title) != got:
            problems.append(f"area {area_id} ({title}): {got} rows, COUNTS.md says {expected.get(title)}")
    total = sum(len(ids) for a, ids in union.items() if a != HARNESS_AREA[0])
    if expected.get("**Total**") != total:
        problems.append(f"total {total} rows, COUNTS.md says {expected.get('**Total**')}")
    return problems


def render(catalog: dict) -> str:
    # One requirement per line keeps diffs readable when a single row changes.
    out = ["{",
           f'  "format": {catalog["format"]},',
           f'  "protocol": {json.dumps(catalog["protocol"])},',
           f'  "source": {json.dumps(catalog["source"])},',
           '  "areas": {']
    items = list(catalog["areas"].items())
    for i, (k, t) in enumerate(items):
        out.append(f"    {json.dumps(k)}: {json.dumps(t, ensure_ascii=False)}" + ("," if i + 1 < len(items) else ""))
    out.append("  },")
    out.append('  "requirements": [')
    reqs = catalog["requirements"]
    for i, q in enumerate(reqs):
        out.append("    " + json.dumps(q, ensure_ascii=False) + ("," if i + 1 < len(reqs) else ""))
    out.append("  ]")
    out.append("}")
    return "\n".join(out) + "\n"


def main() -> int:
    here = Path(__file__).resolve().parent
    repo = here.parent.parent
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checklist", type=Path, default=repo.parent / "shared/mcp-spec/CHECKLIST.md")
    ap.add_argument("--counts", type=Path, default=repo.parent / "shared/mcp-spec/COUNTS.md")
    ap.add_argument("--pages", type=Path, default=repo.parent / "shared/mcp-spec/pages",
                    help="specification pages per version; cited pages are checked when present")
    ap.add_argument("--summaries", type=Path, default=here / "summaries.txt")
    ap.add_argument("--overrides", type=Path, default=here / "version_overrides.txt")
    ap.add_argument("--out", type=Path, default=repo / "scenarios/requirements")
    ap.add_argument("--checklist-2026", type=Path, default=repo.parent / "shared/mcp-spec/CHECKLIST-2026-07-28.md")
    ap.add_argument("--summaries-2026", type=Path, default=here / "summaries-2026-07-28.txt")
    ap.add_argument("--ambiguities-2026", type=Path, default=here / "ambiguities-2026-07-28.txt")
    ap.add_argument("--auth-checklist", type=Path, default=repo.parent / "shared/mcp-spec/AUTH-CHECKLIST.md")
    ap.add_argument("--summaries-auth", type=Path, default=here / "summaries-auth.txt")
    ap.add_argument("--overrides-auth", type=Path, default=here / "auth_overrides.txt")
    ap.add_argument("--check", action="store_true",
                    help="do not write; exit 1 if the committed files differ from the generated ones")
    args = ap.parse_args()

    try:
        pages = args.pages if args.pages.is_dir() else None
        if pages is None:
            print(f"build_catalog: {args.pages} not found; cited pages are not checked", file=sys.stderr)
        catalogs = build(args.checklist, args.summaries, args.overrides, pages)
    except (CatalogError, OSError) as e:
        print(f"build_catalog: {e}", file=sys.stderr)
        return 2
    problems = check_counts(catalogs, args.counts)
    if problems:
        print("build_catalog: catalog disagrees with COUNTS.md:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 2
    import modern_catalog  # noqa: E402 (it imports this module)
    try:
        modern = modern_catalog.build(args.checklist_2026, catalogs["2025-11-25"], args.summaries_2026,
                                      args.ambiguities_2026, pages)
    except (modern_catalog.CatalogError, OSError) as e:
        print(f"build_catalog: {modern_catalog.VERSION}: {e}", file=sys.stderr)
        return 2
    problems = modern_catalog.check_counts(modern, args.checklist_2026)
    if problems:
        print(f"build_catalog: {modern_catalog.VERSION} catalog disagrees with its checklist's §27:\n  "
              + "\n  ".join(problems), file=sys.stderr)
        return 2
    # The authorization rows join every catalog after the counts above, which cover only
    # CHECKLIST.md and CHECKLIST-2026-07-28.md; auth_catalog checks them against its own §9.
    import auth_catalog  # noqa: E402 (it imports this module)
    catalogs[modern_catalog.VERSION] = modern
    try:
        auth_catalog.merge(catalogs, auth_catalog.build(args.auth_checklist, args.summaries_auth,
                                                        args.overrides_auth, pages))
    except (auth_catalog.CatalogError, OSError) as e:
        print(f"build_catalog: authorization rows: {e}", file=sys.stderr)
        return 2
    rendered = {v: render(cat) for v, cat in catalogs.items() if v != modern_catalog.VERSION}
    rendered[modern_catalog.VERSION] = modern_catalog.render(modern)

    stale = []
    for v, cat in catalogs.items():
        path = args.out / f"{v}.json"
        text = rendered[v]
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        by_level = {lvl: sum(q["level"] == lvl for q in cat["requirements"]) for lvl in LEVELS}
        print(f"{v}: {len(cat['requirements'])} requirements "
              + " ".join(f"{k}={n}" for k, n in by_level.items()))
    if stale:
        print("build_catalog: out of date (re-run without --check): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
