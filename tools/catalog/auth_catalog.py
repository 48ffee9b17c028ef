"""The authorization rows (AUTH-CHECKLIST.md) of every requirement catalog.

AUTH-CHECKLIST.md covers four protocol versions at once (2024-11-05 has no authorization spec).
Its rows have eight cells (the six of CHECKLIST.md plus Method and Official), a Ver column of
short markers ("03-26+", "07-28 (SEP-2352)", "06-18 (MUST); 11-25+ (MUST, one-of)"), a Source
column citing the pages by letter (A = basic/authorization of 2025-03-26..2025-11-25; I, D, R,
SC = the four pages of 2026-07-28), and a row-count table (§9).

Inputs besides the checklist:
  - summaries-auth.txt: our summary of every row (same format as summaries.txt);
  - auth_overrides.txt: per-version level changes ("SHOULD -> MAY") and version decisions.

build_catalog.py calls merge() after building the other rows, so COUNTS.md and the 2026-07-28
checklist's §27 keep counting only their own rows.
"""

from __future__ import annotations

import re
from pathlib import Path

import build_catalog as legacy
from build_catalog import CatalogError, Row, clean_markup, level_of, longest_shared_run, testability_of

VERSIONS = ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
SHORT = {v[5:]: v for v in VERSIONS}  # "03-26" -> "2025-03-26"

# Checklist section -> (area id, title). §0 (applicability) and §4 (cross-cutting umbrellas)
# share one area: neither has a role of its own.
AREAS = {
    "0": ("auth", "Authorization: applicability and cross-cutting"),
    "1": ("auth-rs", "Authorization: MCP server as resource server"),
    "2": ("auth-client", "Authorization: client"),
    "2a": ("auth-client", "Authorization: client"),
    "2b": ("auth-client", "Authorization: client"),
    "2c": ("auth-client", "Authorization: client"),
    "2d": ("auth-client", "Authorization: client"),
    "2e": ("auth-client", "Authorization: client"),
    "2f": ("auth-client", "Authorization: client"),
    "2g": ("auth-client", "Authorization: client"),
    "2h": ("auth-client", "Authorization: client"),
    "2i": ("auth-client", "Authorization: client"),
    "3": ("auth-as", "Authorization: authorization server"),
    "4": ("auth", "Authorization: applicability and cross-cutting"),
}
LAST_SECTION = 4

# Page letters of the Source column.
LEGACY_PAGE = "basic/authorization"
MODERN_PAGES = {
    "I": "basic/authorization/index",
    "D": "basic/authorization/authorization-server-discovery",
    "R": "basic/authorization/client-registration",
    "SC": "basic/authorization/security-considerations",
}
ROW_RE = re.compile(r"^\| (AUTH-[0-9]+) \|")
PART_RE = re.compile(r"^(A|I|D|R|SC)(?:\(([0-9]{2}-[0-9]{2})\))?§(.*)$")
EMBEDDED_RE = re.compile(r"\b(A|I|D|R|SC)(?:\(([0-9]{2}-[0-9]{2})\))?§")


def page_of(letter: str, pinned: str | None, version: str) -> tuple[str, str]:
    """(version whose pages hold it, page path) of a page letter cited in `version`'s catalog: an
    unpinned A is the catalog's own authorization page (2025-11-25's for 2026-07-28)."""
    if letter == "A":
        return (SHORT[pinned] if pinned else ("2025-11-25" if version == "2026-07-28" else version)), LEGACY_PAGE
    return "2026-07-28", MODERN_PAGES[letter]


def page_name(letter: str, pinned: str | None, version: str) -> str:
    """A page letter as '<page>' in `version`'s own pages, or '<version> <page>' in another's."""
    page_version, page = page_of(letter, pinned, version)
    return page if page_version == version else f"{page_version} {page}"


def parse_rows(path: Path) -> list[Row]:
    """The requirement rows of §0-§4, each in the area of its section; "same" in the Source column
    repeats the row above."""
    rows = legacy.parse_checklist(path, AREAS, LAST_SECTION, cells_per_row=8, id_re=ROW_RE)
    for prev, row in zip(rows, rows[1:]):
        if clean_markup(row.source) == "same":
            row.source = prev.source
    return rows


def versions_of(ver: str, where: str) -> list[str]:
    """'03-26+' -> 03-26 onwards; '07-28 (SEP-837)' -> 07-28; parenthesised notes are remarks;
    '06-18 (MUST); 11-25+ (...)' -> the union of its parts."""
    outside = re.sub(r"\([^()]*\)", " ", clean_markup(ver))
    out: set[str] = set()
    for m in re.finditer(r"\b([0-9]{2}-[0-9]{2})(\+)?", outside):
        start = SHORT.get(m.group(1))
        if start is None:
            raise CatalogError(f"{where}: unknown version {m.group(1)!r} in Ver {ver!r}")
        out |= set(VERSIONS[VERSIONS.index(start):] if m.group(2) else [start])
    if not out:
        raise CatalogError(f"{where}: no version in Ver {ver!r}")
    return [v for v in VERSIONS if v in out]


def section_for(source: str, version: str, pages: Path | None) -> str:
    """The Source cell as pages of `version`: the A page before 2026-07-28, the I/D/R/SC pages
    from it. A citation of another version's page keeps that version as a prefix, so a reader
    knows where the text lives; '§same' repeats the anchor of the part before it."""
    kept, foreign = [], []
    anchor = None
    for part in clean_markup(source).split("; "):
        m = PART_RE.match(part)
        if not m:
            # RFC citations and remarks, with any page letter inside them spelled out.
            kept.append(EMBEDDED_RE.sub(lambda e: page_name(e.group(1), e.group(2), version) + " §", part))
            continue
        letter, pinned, rest = m.groups()
        rest = anchor if rest == "same" and anchor else rest
        anchor = rest
        page_version, page = page_of(letter, pinned, version)
        if pages is not None and not (pages / page_version / f"{page}.mdx").is_file():
            raise CatalogError(f"section {source!r}: page {page} does not exist in {page_version}")
        text = f"{page} §{rest}"
        (kept if page_version == version else foreign).append(
            text if page_version == version else f"{page_version} {text}")
    own = [p for p in kept if not p.startswith("RFC")]
    # A row whose own version's pages say nothing cites the other versions' pages instead.
    return "; ".join(kept if own else kept + foreign)


def read_overrides(path: Path, rows: dict[str, Row]) -> None:
    for where, line in legacy.data_lines(path):
        parts = line.split("#", 1)[0].split()
        rid = parts[0]
        if rid not in rows:
            raise CatalogError(f"{where}: {rid} is not an AUTH-CHECKLIST id")
        row = rows[rid]
        for p in parts[1:]:
            if p.startswith("versions="):
                spec = p[len("versions="):]
                wanted = spec.split(",") if not spec.endswith("+") else [v for v in VERSIONS if v >= spec[:-1]]
                if any(v not in VERSIONS for v in wanted):
                    raise CatalogError(f"{where}: bad versions {spec!r}")
                row.versions = [v for v in VERSIONS if v in wanted]
            elif p.startswith("level@"):
                v, _, lvl = p[len("level@"):].partition("=")
                if v not in VERSIONS or lvl not in legacy.LEVELS:
                    raise CatalogError(f"{where}: bad level override {p!r}")
                row.levels[v] = lvl
            else:
                raise CatalogError(f"{where}: unknown field {p!r}")
        for v in row.levels:
            if v not in row.versions:
                raise CatalogError(f"{where}: level for {v}, but {rid} does not exist there")


def read_summaries(path: Path, rows: dict[str, Row]) -> dict[str, dict[str, str]]:
    """id -> {version: summary}; a line 'ID@v1,v2  text' replaces the summary in those versions."""
    base: dict[str, str] = {}
    special: dict[str, dict[str, str]] = {}
    for where, line in legacy.data_lines(path):
        m = re.match(r"^(AUTH-[0-9]+)(?:@(\S+))?\s+(\S.*)$", line)
        if not m:
            raise CatalogError(f"{where}: expected 'AUTH-<n>[@versions]  <summary>'")
        rid, vers, text = m.group(1), m.group(2), m.group(3).strip()
        if rid not in rows:
            raise CatalogError(f"{where}: {rid} is not an AUTH-CHECKLIST id")
        if vers:
            for v in vers.split(","):
                if v not in rows[rid].versions:
                    raise CatalogError(f"{where}: {rid} does not exist in {v}")
                special.setdefault(rid, {})[v] = text
        elif rid in base:
            raise CatalogError(f"{where}: second summary for {rid}")
        else:
            base[rid] = text
    missing = [rid for rid in rows if rid not in base]
    if missing:
        raise CatalogError(f"{path}: no summary for {', '.join(missing)}")
    return {rid: {v: special.get(rid, {}).get(v, base[rid]) for v in row.versions} for rid, row in rows.items()}


def check_counts(rows: list[Row], checklist: Path) -> list[str]:
    """§9: rows per group must match the table (a guard against a row the parser skipped)."""
    expected: dict[str, int] = {}
    for line in checklist.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\| (?:([0-9]) [^|]*|\*\*Total\*\*) \| \**([0-9]+)\** \|", line)
        if m:
            expected[m.group(1) or "total"] = int(m.group(2))
    got: dict[str, int] = {}
    for r in rows:
        group = re.match(r"[0-9]+", r.section).group(0)  # §9 counts §2a..§2i as §2
        got[group] = got.get(group, 0) + 1
    got["total"] = len(rows)
    return [f"§{k}: {got.get(k, 0)} rows, §9 says {n}" for k, n in expected.items() if got.get(k, 0) != n]


def build(checklist: Path, summaries_path: Path, overrides_path: Path,
          pages: Path | None) -> dict[str, list[dict]]:
    """version -> the AUTH requirement entries of that version's catalog."""
    row_list = parse_rows(checklist)
    rows = {r.id: r for r in row_list}
    for r in row_list:
        r.versions = versions_of(r.ver, f"{checklist}:{r.line}")
    read_overrides(overrides_path, rows)
    summaries = read_summaries(summaries_path, rows)
    problems = check_counts(row_list, checklist)
    for r in row_list:
        for v, s in summaries[r.id].items():
            if "\n" in s or len(s) > 240:
                problems.append(f"{r.id}@{v}: summary must be one line of at most 240 characters")
            run = longest_shared_run(s, r.text)
            if run > legacy.MAX_SHARED_WORDS:
                problems.append(f"{r.id}@{v}: summary shares {run} consecutive words with the checklist text")
    if problems:
        raise CatalogError("\n".join(problems))
    out: dict[str, list[dict]] = {v: [] for v in VERSIONS}
    for r in row_list:
        testable, heuristic = testability_of(r.test)
        for v in r.versions:
            # "A -> B" keywords: the strongest word names the level, overrides the later one.
            out[v].append({
                "id": r.id, "area": r.area, "keyword": r.keyword,
                "level": r.levels.get(v, level_of(r.keyword.replace("REQUIRED", "MUST"), r.id)),
                "summary": summaries[r.id][v], "section": section_for(r.source, v, pages),
                "testable": testable, "heuristic": heuristic,
            })
    return out


def merge(catalogs: dict[str, dict], auth_rows: dict[str, list[dict]]) -> None:
    """Insert each version's AUTH rows before the harness rows and list their areas."""
    titles = {a: t for a, t in AREAS.values()}
    for v, rows in auth_rows.items():
        if not rows:
            continue
        cat = catalogs[v]
        reqs = cat["requirements"]
        cut = next((i for i, q in enumerate(reqs) if q["area"] == legacy.HARNESS_AREA[0]), len(reqs))
        cat["requirements"] = reqs[:cut] + rows + reqs[cut:]
        areas = {k: t for k, t in cat["areas"].items() if k != legacy.HARNESS_AREA[0]}
        for a in dict.fromkeys(q["area"] for q in rows):
            areas[a] = titles[a]
        if legacy.HARNESS_AREA[0] in cat["areas"]:
            areas[legacy.HARNESS_AREA[0]] = cat["areas"][legacy.HARNESS_AREA[0]]
        cat["areas"] = areas
