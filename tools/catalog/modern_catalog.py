"""The requirement catalog of protocol 2026-07-28 (stateless MCP), from its own checklist.

CHECKLIST-2026-07-28.md differs from CHECKLIST.md: its own section numbering, a Ver column that
says how a row relates to 2025-11-25 ("same as 2025-11-25", "changed: ...", "new", "new
(ext-tasks)") instead of listing versions, a table of 2025-11-25 ids that were removed (§26), a
row-count table (§27), and a list of ambiguities A1-A19 (§28) that checks must judge leniently.

Inputs besides the checklist:
  - summaries.txt: a row that is "same as 2025-11-25" keeps its 2025-11-25 summary;
  - summaries-2026-07-28.txt: our summary of every new or changed row (same format as
    summaries.txt, without @versions);
  - ambiguities-2026-07-28.txt: our one-line note for each ambiguity, and ids it concerns that
    its text does not name.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import build_catalog as legacy
from build_catalog import CatalogError, Row, clean_markup, level_of, longest_shared_run, testability_of

VERSION = "2026-07-28"
SOURCE = ("MCP specification at commit b0f60ba5409db7a6582440a7b473cc0398890f15 and ext-tasks at commit "
          "e4345978be1f602f1fc48d89051e8559dd5302a6, CHECKLIST-2026-07-28.md")

# Checklist section -> (area id, title). One area per section, so §27's counts compare per area.
# Sections carrying on an area of CHECKLIST.md keep its id.
AREAS = {
    "1": ("base", "Base protocol / JSON-RPC"),
    "1a": ("jsonschema", "JSON Schema dialect and $ref"),
    "1b": ("icons", "Icons"),
    "1c": ("errors", "Error codes"),
    "2": ("stateless", "Statelessness"),
    "3": ("meta", "Per-request _meta"),
    "4": ("versioning", "Versioning, negotiation and era detection"),
    "5": ("extensions", "Extension negotiation"),
    "6": ("discovery", "Discovery: server/discover"),
    "7": ("result-type", "Result type"),
    "8": ("mrtr", "Multi round-trip requests"),
    "9": ("subscriptions", "Subscriptions: subscriptions/listen"),
    "10": ("stdio", "Transport: stdio"),
    "11a": ("http-security", "Streamable HTTP: Endpoint and security"),
    "11b": ("http-client-to-server", "Streamable HTTP: Client → server POST"),
    "11c": ("http-streams", "Streamable HTTP: Response streams and cancellation"),
    "11d": ("http-version", "Streamable HTTP: Protocol version header and status codes"),
    "11e": ("http-headers", "Streamable HTTP: Standard request headers and x-mcp-header"),
    "11f": ("http-compat", "Streamable HTTP: Backward compatibility"),
    "12": ("cancellation", "Cancellation and timeouts"),
    "13": ("progress", "Progress"),
    "14": ("pagination", "Pagination"),
    "15": ("caching", "Caching: ttlMs / cacheScope"),
    "16": ("tools", "Tools"),
    "17": ("resources", "Resources"),
    "18": ("prompts", "Prompts"),
    "19": ("completion", "Completion"),
    "20": ("logging", "Logging (deprecated)"),
    "21": ("elicitation", "Elicitation via MRTR"),
    "22": ("sampling", "Sampling via MRTR (deprecated)"),
    "23": ("roots", "Roots via MRTR (deprecated)"),
    "24": ("tasks-extension", "Tasks extension io.modelcontextprotocol/tasks"),
}
# Sections after the requirement tables: 25 points elsewhere, 26 lists removed ids.
LAST_SECTION = 24

# The three mcpspec rules, with sections of this revision's pages (there is no lifecycle page).
HARNESS_SECTIONS = {
    "MCPSPEC-SCHEMA": "schema.ts",
    "MCPSPEC-ALIVE": "basic/transports/stdio; basic/transports/streamable-http",
    "MCPSPEC-RESPONSE": "basic/index §Responses",
    "MCPSPEC-REPLAY": "mcpspec scenario from-trace",
}

# Short names the Source column uses -> page under pages/2026-07-28/ (with .mdx or .md).
PAGE_ALIASES = {
    "versioning": "basic/versioning", "stdio": "basic/transports/stdio",
    "streamable-http": "basic/transports/streamable-http", "mrtr": "basic/patterns/mrtr",
    "subscriptions": "basic/patterns/subscriptions", "cancellation": "basic/patterns/cancellation",
    "progress": "basic/patterns/progress", "patterns/index": "basic/patterns/index",
    "caching": "server/utilities/caching", "pagination": "server/utilities/pagination",
    "completion": "server/utilities/completion", "logging": "server/utilities/logging",
    "tools": "server/tools", "resources": "server/resources", "prompts": "server/prompts",
    "elicitation": "client/elicitation", "sampling": "client/sampling", "roots": "client/roots",
    "ext-tasks": "extensions/ext-tasks/tasks", "ext-overview": "extensions/overview",
    "tasks-overview": "extensions/tasks/overview", "architecture": "architecture/index",
    "changelog": "changelog", "deprecated": "deprecated",
}
# Sources that are not pages: the schema, or a group of pages.
NOT_PAGES = ("schema.ts", "schema.json", "server pages")

ID = r"[A-Z]+(?:-[A-Z]+)?-[0-9]+"
AMBIGUITY_RE = re.compile(r"^\* \*\*(A[0-9]+) ")


def parse_rows(path: Path) -> list[Row]:
    return legacy.parse_checklist(path, AREAS, LAST_SECTION)


def expand_ids(cell: str) -> list[str]:
    """'LC-01, LC-02' or 'SESS-01 … SESS-10' or 'SUB-01…15' -> the ids; '—' -> []."""
    out = []
    for part in clean_markup(cell).split(","):
        part = part.strip()
        m = re.match(rf"^({ID[:-len('-[0-9]+')]})-([0-9]+)\s*…\s*(?:\1-)?([0-9]+)$", part)
        if m:
            width = len(m.group(2))
            out += [f"{m.group(1)}-{i:0{width}d}" for i in range(int(m.group(2)), int(m.group(3)) + 1)]
        elif re.fullmatch(ID, part):
            out.append(part)
        elif part.endswith("-*"):
            out.append(part)  # a whole family, e.g. STL-*
    return out


def parse_removed(path: Path) -> list[dict]:
    """§26: 2025-11-25 ids without a 2026-07-28 counterpart, with the rows that succeed them."""
    out = []
    inside = False
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("## 26."):
            inside = True
            continue
        if inside and line.startswith("#"):
            break
        if not inside or not line.startswith("| ") or line.startswith("| Removed") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) != 3:
            raise CatalogError(f"{path}:{n}: expected 3 cells in the removed-ids table")
        ids = expand_ids(cells[0])
        if not ids:
            raise CatalogError(f"{path}:{n}: no ids in {cells[0]!r}")
        out.append({"ids": ids, "successors": expand_ids(cells[2])})
    if not out:
        raise CatalogError(f"{path}: no §26 table of removed ids")
    return out


def parse_counts(path: Path) -> dict[str, int]:
    """§27: rows per section ("1", "11a", ...) and the total."""
    counts = {}
    inside = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## 27."):
            inside = True
            continue
        if inside and line.startswith("## "):
            break
        m = re.match(r"^\| (?:([0-9]+[a-z]?)\. [^|]*|\*\*Total\*\*) \| ([0-9]+) \|", line) if inside else None
        if m:
            counts[m.group(1) or "total"] = int(m.group(2))
    return counts


def parse_ambiguities(path: Path, ids: set[str]) -> dict[str, set[str]]:
    """§28: each ambiguity and the catalog ids its paragraph names."""
    out: dict[str, set[str]] = {}
    current = None
    inside = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## 28."):
            inside = True
            continue
        if not inside:
            continue
        m = AMBIGUITY_RE.match(line)
        if m:
            current = m.group(1)
            out[current] = set()
        if current is not None:
            out[current] |= {i for i in re.findall(ID, line) if i in ids}
    return out


def read_notes(path: Path, ambiguities: dict[str, set[str]], ids: set[str]) -> dict[str, dict]:
    """ambiguities-2026-07-28.txt: 'A<n> [+ID,ID...]  note' for every ambiguity of §28."""
    notes: dict[str, dict] = {}
    for where, line in legacy.data_lines(path):
        m = re.match(r"^(A[0-9]+)(?:\s+\+(\S+))?\s+(\S.*)$", line)
        if not m:
            raise CatalogError(f"{where}: expected 'A<n> [+ID,...]  <note>'")
        key, extra, text = m.group(1), m.group(2), m.group(3).strip()
        if key not in ambiguities:
            raise CatalogError(f"{where}: {key} is not an ambiguity of the checklist")
        if key in notes:
            raise CatalogError(f"{where}: second note for {key}")
        added = set(extra.split(",")) if extra else set()
        unknown = added - ids
        if unknown:
            raise CatalogError(f"{where}: {sorted(unknown)} are not 2026-07-28 ids")
        concerned = ambiguities[key] | added
        if not concerned:
            raise CatalogError(f"{where}: {key} names no requirement; add the ids it concerns with +ID")
        notes[key] = {"note": text, "requirements": sorted(concerned, key=id_order)}
    missing = set(ambiguities) - set(notes)
    if missing:
        raise CatalogError(f"{path}: no note for {sorted(missing, key=id_order)}")
    return dict(sorted(notes.items(), key=lambda kv: id_order(kv[0])))


def id_order(rid: str):
    m = re.match(r"^(.*?)-?([0-9]+)$", rid)
    return (m.group(1), int(m.group(2))) if m else (rid, 0)


def normalize_section(source: str, pages: Path | None) -> str:
    out = []
    page = None
    for part in clean_markup(source).split("; "):
        head, _, rest = part.partition(" ")
        if part.startswith(NOT_PAGES):
            out.append(part)
            continue
        if part.startswith("§"):
            # Another anchor of the page named just before.
            out.append(f"{page} {part}" if page else part)
            continue
        page = PAGE_ALIASES.get(head, head)
        if pages is not None and not any((pages / VERSION / f"{page}{ext}").is_file() for ext in (".mdx", ".md")):
            raise CatalogError(f"section {source!r}: page {page} does not exist in {VERSION}")
        out.append(f"{page} {rest}".strip())
    return "; ".join(out)


def read_summaries(path: Path, rows: dict[str, Row]) -> dict[str, str]:
    out: dict[str, str] = {}
    for where, line in legacy.data_lines(path):
        m = re.match(r"^(\S+)\s+(\S.*)$", line)
        if not m:
            raise CatalogError(f"{where}: expected '<ID>  <summary>'")
        rid, text = m.group(1), m.group(2).strip()
        if rid not in rows:
            raise CatalogError(f"{where}: {rid} is not a 2026-07-28 checklist id")
        if rid in out:
            raise CatalogError(f"{where}: second summary for {rid}")
        out[rid] = text
    return out


def build(checklist: Path, legacy_catalog: dict, summaries_path: Path, notes_path: Path,
          pages: Path | None) -> dict:
    row_list = parse_rows(checklist)
    rows = {r.id: r for r in row_list}
    own = read_summaries(summaries_path, rows)
    carried = {q["id"]: q for q in legacy_catalog["requirements"]}

    problems = []
    summaries = {}
    for r in row_list:
        ver = clean_markup(r.ver)
        if r.id in own:
            summaries[r.id] = own[r.id]
        elif ver.startswith("same as 2025-11-25") and r.id in carried:
            summaries[r.id] = carried[r.id]["summary"]
        else:
            problems.append(f"{r.id} ({ver[:40]}): needs a summary in {summaries_path.name}")
            continue
        if ver.startswith("same as") and r.id not in carried:
            problems.append(f"{r.id}: 'same as 2025-11-25' but not in the 2025-11-25 catalog")
        s = summaries[r.id]
        if "\n" in s or len(s) > 240:
            problems.append(f"{r.id}: summary must be one line of at most 240 characters")
        run = longest_shared_run(s, r.text)
        if run > legacy.MAX_SHARED_WORDS:
            problems.append(f"{r.id}: summary shares {run} consecutive words with the checklist text; "
                            "rephrase it in our own words")
    if problems:
        raise CatalogError("\n".join(problems))

    removed = parse_removed(checklist)
    removed_ids = {i for group in removed for i in group["ids"]}
    # Every 2025-11-25 id is carried over or removed; none is both.
    both = removed_ids & set(rows)
    if both:
        raise CatalogError(f"ids both removed and present in 2026-07-28: {sorted(both)}")
    lost = {i for i in carried if not i.startswith("MCPSPEC-")} - set(rows) - removed_ids
    if lost:
        raise CatalogError(f"2025-11-25 ids neither carried into 2026-07-28 nor listed as removed: {sorted(lost)}")

    notes = read_notes(notes_path, parse_ambiguities(checklist, set(rows)), set(rows))
    lenient: dict[str, list[str]] = {}
    for key, note in notes.items():
        for rid in note["requirements"]:
            lenient.setdefault(rid, []).append(key)

    titles = dict(AREAS.values())
    reqs = []
    for r in row_list:
        testable, heuristic = testability_of(r.test)
        entry = {
            "id": r.id, "area": r.area, "keyword": r.keyword,
            "level": level_of(modern_keyword(r.keyword), f"checklist line {r.line}"),
            "summary": summaries[r.id], "section": normalize_section(r.source, pages),
            "testable": testable, "heuristic": heuristic,
        }
        if r.id in lenient:
            entry["lenient"] = lenient[r.id]
        reqs.append(entry)
    for h in legacy.HARNESS_ROWS:
        reqs.append({"id": h["id"], "area": legacy.HARNESS_AREA[0], "keyword": h["keyword"],
                     "level": level_of(h["keyword"], h["id"]), "summary": h["summary"],
                     "section": HARNESS_SECTIONS[h["id"]], "testable": h["testable"], "heuristic": False})
    used = {q["area"] for q in reqs}
    areas = {a: t for a, t in list(titles.items()) + [legacy.HARNESS_AREA] if a in used}
    return {"format": legacy.FORMAT, "protocol": VERSION, "source": SOURCE, "areas": areas,
            "requirements": reqs, "removed": removed, "ambiguities": notes}


def modern_keyword(keyword: str) -> str:
    """The legend counts REQUIRED as MUST and RECOMMENDED as SHOULD."""
    return keyword.replace("REQUIRED", "MUST").replace("RECOMMENDED", "SHOULD")


def check_counts(catalog: dict, checklist: Path) -> list[str]:
    expected = parse_counts(checklist)
    by_area: dict[str, int] = {}
    for q in catalog["requirements"]:
        by_area[q["area"]] = by_area.get(q["area"], 0) + 1
    problems = []
    for number, (area, title) in AREAS.items():
        if expected.get(number) != by_area.get(area, 0):
            problems.append(f"§{number} {title}: {by_area.get(area, 0)} rows, §27 says {expected.get(number)}")
    total = sum(n for a, n in by_area.items() if a != legacy.HARNESS_AREA[0])
    if expected.get("total") != total:
        problems.append(f"total {total} rows, §27 says {expected.get('total')}")
    return problems


def render(catalog: dict) -> str:
    """As the legacy catalogs, plus the removed ids and the ambiguity notes, one entry a line."""
    text = legacy.render({k: catalog[k] for k in ("format", "protocol", "source", "areas", "requirements")})
    lines = text.rstrip("\n").split("\n")
    assert lines[-1] == "}"
    lines[-2] += ","
    out = lines[:-1]
    out.append('  "removed": [')
    for i, group in enumerate(catalog["removed"]):
        out.append("    " + json.dumps(group) + ("," if i + 1 < len(catalog["removed"]) else ""))
    out.append("  ],")
    out.append('  "ambiguities": {')
    items = list(catalog["ambiguities"].items())
    for i, (key, note) in enumerate(items):
        out.append(f'    "{key}": ' + json.dumps(note, ensure_ascii=False) +
                   ("," if i + 1 < len(items) else ""))
    out.append("  }")
    out.append("}")
    return "\n".join(out) + "\n"
