#!/usr/bin/env python3
"""The HTML report and the matrix page in a real browser (headless Chromium).

Runs mcpspec against our test server wrapped so that it writes markup to stdout and stderr (a
hostile target), writes an HTML and a JSON report, then loads the page in Chromium and checks:
the content is there, the markup from the target is text and did not run, the filters (driven
through the URL fragment the page honours) hide exactly the cases they should, a screenshot is a
real render (many colours, not a blank page), and `mcpspec report merge` renders a matrix whose
every cell links to a case that exists and opens.

usage: html_browser_check.py BUILD_DIR      (MCPSPEC_CHROMIUM=PATH: this browser instead of chromium on PATH)
Without Chromium the test fails when CI is set (a CI that lost its browser must not pass
silently); on a desk without CI set it exits 77 (ctest SKIP) with a message.
"""
import base64
import html.parser
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import Checks  # noqa: E402

BUILD = os.path.abspath(sys.argv[1])
MCPSPEC = os.path.join(BUILD, "mcpspec")
SERVER = os.path.join(BUILD, "mcpspec-testserver")
# What a hostile server prints: if the page let either through as markup, the body gets the attribute.
STDOUT_MARKUP = '<script>document.body.setAttribute("data-pwned","stdout")</script>'
STDERR_MARKUP = "<img src=x onerror=\"document.body.setAttribute('data-pwned','stderr')\">"
check = Checks("html browser check")


def find_chromium():
    # MCPSPEC_CHROMIUM names the browser (a path); one that does not exist counts as missing.
    if "MCPSPEC_CHROMIUM" in os.environ:
        path = os.environ["MCPSPEC_CHROMIUM"]
        return path if os.access(path, os.X_OK) else None
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


CHROMIUM = find_chromium()


def browser(*args, timeout=90):
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
           "--user-data-dir=" + os.path.join(WORK, "profile"), *args]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    if done.returncode != 0:
        raise SystemExit(f"chromium failed ({done.returncode}): {' '.join(cmd)}\n{done.stderr[-2000:]}")
    return done.stdout


def dom(path, fragment=""):
    return browser("--virtual-time-budget=3000", "--dump-dom", "file://" + path + fragment)


class Cases(html.parser.HTMLParser):
    """The case elements of a dumped page: id, data-* and whether hidden/open; the body's attributes."""

    def __init__(self, text):
        super().__init__()
        self.cases, self.body, self.scripts, self.matrix_links, self.sections = [], {}, 0, [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        elif tag == "script":
            self.scripts += 1
        elif tag == "details" and "case" in a.get("class", ""):
            self.cases.append(a)
        elif tag == "section" and "area" in a.get("class", ""):
            self.sections.append(a)
        elif tag == "a" and re.match(r"#r\d+-case-\d+$", a.get("href", "")):
            self.matrix_links.append(a["href"][1:])


def run_mcpspec(args, expect_codes):
    done = subprocess.run([MCPSPEC, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    check(done.returncode in expect_codes, f"mcpspec {' '.join(args)}: exit {done.returncode}, expected {expect_codes}\n{done.stdout[-3000:]}")
    return done


def visible(cases):
    return [c for c in cases if "hidden" not in c]


def main():
    if CHROMIUM is None:
        if os.environ.get("CI"):
            print("FAIL: no chromium on PATH and CI is set: install the Debian package chromium (.ci/setup does)")
            return 1
        print("SKIP: no chromium on PATH (install the Debian package chromium); fails instead when CI is set")
        return 77

    # Every other server start (one at a time: -j 1) writes the markup on stdout, which fails that
    # case; every start writes it on stderr. So the page has passes and failures, both with markup.
    counter = os.path.join(WORK, "starts")
    script = (f"n=$(cat {counter} 2>/dev/null || echo 0); echo $((n + 1)) > {counter}; "
              f"if [ $((n % 2)) -eq 0 ]; then echo {shlex.quote(STDOUT_MARKUP)}; fi; "
              f"echo {shlex.quote(STDERR_MARKUP)} >&2; exec {SERVER}")
    hostile = "sh -c " + shlex.quote(script)
    selection = ["--filter", "mcp/lifecycle/*", "--filter", "mcp/ping/*", "-q"]
    page, a_json, b_json = (os.path.join(WORK, n) for n in ("a.html", "a.json", "b.json"))
    run_mcpspec(["run", "--server", hostile, *selection, "-j", "1", "--report", "html:" + page, "--report", "json:" + a_json], (1,))
    run_mcpspec(["run", "--server", SERVER, *selection, "-j", "2", "--report", "json:" + b_json], (0, 1))
    report = json.load(open(a_json))
    results = report["results"]
    check(len(results) > 5, f"the run produced {len(results)} results")

    # Content: every case, escaped target text, no script but ours, nothing executed.
    raw = open(page, encoding="utf-8").read()
    check("<script>document.body" not in raw and "<img src=x" not in raw, "target markup appears raw in the file")
    full = dom(page)
    parsed = Cases(full)
    check(len(parsed.cases) == len(results), f"{len(parsed.cases)} cases in the page, {len(results)} in the run")
    check(parsed.body.get("data-shown") == str(len(results)), f"unfiltered page shows {parsed.body.get('data-shown')}")
    check("data-pwned" not in parsed.body, f"markup from the target ran: body has data-pwned={parsed.body.get('data-pwned')}")
    check(parsed.scripts == 1, f"{parsed.scripts} script elements in the rendered page (only the report's own is allowed)")
    check("&lt;script&gt;document.body.setAttribute" in full, "the target's stdout markup is not shown as text")
    check("&lt;img src=x onerror=" in full, "the target's stderr line is not shown as text in the wire log")
    for r in results[:3]:
        check(r["id"] in full, f"case {r['id']} missing from the page")
    check("spec section" in full and "wire log (" in full, "case details (spec section, wire log) missing")

    # Filters through the fragment: exactly the matching cases stay visible.
    by = lambda key, value: [r for r in results if (value in r[key] if key == "tags" else r[key] == value)]
    some_tag = next((t for r in results for t in r["tags"]), None)
    for key, attr, value in (("verdict", "verdict", "fail"), ("verdict", "verdict", "pass"), ("area", "area", "ping"),
                             ("level", "level", "MUST"), ("tag", "tags", some_tag)):
        if value is None:
            continue
        view = Cases(dom(page, f"#{key}={value}"))
        want = len(by(attr, value))
        shown = visible(view.cases)
        check(len(shown) == want, f"#{key}={value}: {len(shown)} visible cases, expected {want}")
        check(view.body.get("data-shown") == str(want), f"#{key}={value}: counter says {view.body.get('data-shown')}")
        ok = all((value in c.get("data-tags", "").split()) if key == "tag" else c.get("data-" + key) == value for c in shown)
        check(ok, f"#{key}={value}: a visible case does not match the filter")
    check(len(by("verdict", "fail")) > 0 and len(by("verdict", "pass")) > 0, "the hostile run should have both passes and failures")
    empty_areas = Cases(dom(page, "#area=ping"))
    check(all("hidden" in s for s in empty_areas.sections if s.get("data-area") != "ping"), "#area=ping leaves other areas' sections visible")

    # A screenshot that is a real render: the page, not a blank or error screen.
    shot = os.path.join(WORK, "shot.png")
    browser("--window-size=1280,900", "--screenshot=" + shot, "file://" + page)
    check(os.path.getsize(shot) > 10000, f"screenshot is only {os.path.getsize(shot)} bytes")
    stats = pixel_stats(shot)
    check(stats["colours"] >= 8, f"screenshot has {stats['colours']} distinct colours: not a real render")
    check(0.02 < stats["ink"] < 0.9, f"screenshot ink fraction {stats['ink']}: blank or solid")
    print(f"screenshot {shot}: {stats}")

    # The matrix: requirement x run, every cell links to a case that exists and opens.
    matrix = os.path.join(WORK, "matrix.html")
    run_mcpspec(["report", "merge", a_json, b_json, "--html", matrix], (0,))
    mdom = dom(matrix)
    m = Cases(mdom)
    b = json.load(open(b_json))["results"]
    check(len(m.cases) == len(results) + len(b), f"matrix page has {len(m.cases)} cases, expected {len(results) + len(b)}")
    reqs = {q for r in results + b for q in r["requirements"]} | {q for r in results + b for f in r["findings"] for q in f["requirements"]}
    rows = re.findall(r"<tr><td>([^<]*)</td><td class=\"(?:cell|none)", mdom)
    check(len(rows) == len(reqs), f"matrix has {len(rows)} requirement rows, the runs name {len(reqs)} requirements")
    ids = {c["id"] for c in m.cases}
    check(m.matrix_links and all(link in ids for link in m.matrix_links), "a matrix cell links to no case")
    target = m.matrix_links[-1] if m.matrix_links else "r1-case-0"
    opened = Cases(dom(matrix, "#" + target))
    check(any(c["id"] == target and "open" in c for c in opened.cases), f"following #{target} does not open the case")
    check("data-pwned" not in m.body and m.scripts == 1, "markup from the target ran in the matrix page")

    # Bad input to merge: clear errors naming the file (and the place in it), exit 2.
    bad = os.path.join(WORK, "bad.json")
    for content, expected in (("{not json", "not valid JSON"), ('{"hello": 1}', "not an mcpspec JSON report"),
                              (json.dumps({**report, "version": 7}), "/version: this mcpspec reads report version 1"),
                              (json.dumps({**report, "results": [{**results[0], "verdict": "maybe"}]}), "/results/0/verdict")):
        open(bad, "w").write(content)
        done = run_mcpspec(["report", "merge", a_json, bad, "--html", matrix], (2,))
        check(bad in done.stdout and expected in done.stdout, f"merge of a bad file: expected '{expected}' naming the file, got:\n{done.stdout}")
    run_mcpspec(["report", "merge", os.path.join(WORK, "missing.json"), "--html", matrix], (2,))

    return check.finish()


def pixel_stats(png):
    """Distinct colours and the fraction of non-white pixels, decoded by the browser itself."""
    data = base64.b64encode(open(png, "rb").read()).decode()
    probe = os.path.join(WORK, "probe.html")
    open(probe, "w").write(f"""<!DOCTYPE html><html><body><script>
var img = new Image();
img.onload = function () {{
  var c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
  var g = c.getContext('2d'); g.drawImage(img, 0, 0);
  var d = g.getImageData(0, 0, c.width, c.height).data, seen = {{}}, colours = 0, ink = 0, n = 0;
  for (var i = 0; i < d.length; i += 4 * 7) {{
    var k = d[i] + ',' + d[i + 1] + ',' + d[i + 2];
    if (!seen[k]) {{ seen[k] = 1; colours++; }}
    if (d[i] + d[i + 1] + d[i + 2] < 720) ink++;
    n++;
  }}
  document.body.setAttribute('data-stats', JSON.stringify({{colours: colours, ink: ink / n, w: c.width, h: c.height}}));
}};
img.src = 'data:image/png;base64,{data}';
</script></body></html>""")
    out = dom(probe)
    found = re.search(r'data-stats="([^"]*)"', out)
    if not found:
        raise SystemExit("the screenshot could not be decoded in the browser")
    return json.loads(found.group(1).replace("&quot;", '"'))


if __name__ == "__main__":
    WORK = tempfile.mkdtemp(prefix="mcpspec-html-")
    try:
        code = main()
    finally:
        if os.environ.get("MCPSPEC_KEEP_HTML_CHECK"):
            print("kept", WORK)
        else:
            shutil.rmtree(WORK, ignore_errors=True)
    sys.exit(code)
