#pragma once
// The style sheet and the script every HTML report carries inline: the page is one file that
// opens offline, with no request to any network or file beside it.
//
// The script only filters what the page already shows; it never turns report text into markup
// (it reads data-* attributes and sets `hidden`), so text from a target, escaped by the writer,
// stays text. Filters live in the URL fragment (#verdict=fail&area=tools&level=MUST&tag=x) so a
// filtered view can be linked to; a fragment naming a case (#case-3, #r1-case-3) opens that case.

namespace mcpspec::reports::html {

inline constexpr const char* kStyle = R"CSS(
:root{--pass:#1a7f37;--fail:#cf222e;--warn:#9a6700;--skip:#0969da;--xfail:#8250df;--xpass:#cf222e;--error:#a40e26;--dim:#57606a;--line:#d0d7de}
body{font:14px/1.45 system-ui,sans-serif;margin:0;padding:1em 2em;color:#1f2328;background:#fff}
h1{font-size:1.4em;margin:.2em 0}h2{font-size:1.15em;margin:1.2em 0 .4em}h3{font-size:1em;margin:1em 0 .3em}
table{border-collapse:collapse}td,th{border:1px solid var(--line);padding:2px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.n{text-align:right}
.facts td:first-child{color:var(--dim)}
.badge{display:inline-block;min-width:3.4em;text-align:center;font-weight:600;color:#fff;border-radius:3px;padding:0 4px;font-size:.85em}
.v-pass{background:var(--pass)}.v-fail{background:var(--fail)}.v-warn{background:var(--warn)}.v-skip{background:var(--skip)}
.v-xfail{background:var(--xfail)}.v-xpass{background:var(--xpass)}.v-error{background:var(--error)}
.outcome-failed{color:var(--fail);font-weight:700}.outcome-ok{color:var(--pass);font-weight:700}
#filters{position:sticky;top:0;background:#fff;padding:.5em 0;border-bottom:1px solid var(--line);z-index:1}
#filters label{margin-right:1em}#shown{color:var(--dim)}
details.case{border:1px solid var(--line);border-radius:4px;margin:.3em 0;padding:.2em .6em;scroll-margin-top:3.5em}
details.case>summary{cursor:pointer}details.case[open]{background:#fbfcfd}
.reason{color:var(--dim)}.meta{color:var(--dim);font-size:.9em}
pre{margin:.2em 0;white-space:pre-wrap;word-break:break-all;font:12px/1.35 ui-monospace,monospace;background:#f6f8fa;padding:.4em;border-radius:3px}
.evidence{display:grid;grid-template-columns:1fr 1fr;gap:.6em}.finding h4{margin:.3em 0 0;font-size:.9em}
.finding{border-left:3px solid var(--fail);padding-left:.6em;margin:.5em 0}.finding.l-SHOULD{border-color:var(--warn)}
table.wire td{font:12px/1.3 ui-monospace,monospace;border:0;border-bottom:1px solid #eaeef2;padding:1px 6px}
table.wire td pre{background:none;padding:0;margin:0}
tr.w-out td:nth-child(2){color:#0550ae}tr.w-in td:nth-child(2){color:#116329}
tr.w-stderr{background:#fff8c5}tr.w-event{color:var(--dim)}
table.matrix td.cell{text-align:center}table.matrix td.cell a{color:#fff;text-decoration:none;display:block}
table.matrix td.none{color:var(--dim);text-align:center}
)CSS";

inline constexpr const char* kScript = R"JS(
(function () {
  var keys = ['verdict', 'area', 'level', 'tag'];
  function params() {
    var out = {};
    location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
      var i = kv.indexOf('=');
      if (i > 0) {
        try { out[decodeURIComponent(kv.slice(0, i))] = decodeURIComponent(kv.slice(i + 1)); } catch (e) { }
      }
    });
    return out;
  }
  function control(k) { return document.getElementById('f-' + k); }
  function apply() {
    var want = {};
    keys.forEach(function (k) { want[k] = control(k).value; });
    var cases = document.querySelectorAll('details.case');
    var shown = 0;
    cases.forEach(function (c) {
      var ok = (!want.verdict || c.dataset.verdict === want.verdict) &&
               (!want.area || c.dataset.area === want.area) &&
               (!want.level || c.dataset.level === want.level) &&
               (!want.tag || (' ' + c.dataset.tags + ' ').indexOf(' ' + want.tag + ' ') >= 0);
      c.hidden = !ok;
      if (ok) shown++;
    });
    document.querySelectorAll('section.area').forEach(function (s) {
      s.hidden = !s.querySelector('details.case:not([hidden])');
    });
    document.getElementById('shown').textContent = shown + ' of ' + cases.length + ' cases shown';
    document.body.setAttribute('data-shown', String(shown));
  }
  function fromHash() {
    var p = params();
    var target = location.hash.length > 1 && location.hash.indexOf('=') < 0
        ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    keys.forEach(function (k) {
      var c = control(k), want = target ? '' : (p[k] || '');
      // A value no case has (a link made for another run) still filters: to nothing.
      if (want && !Array.prototype.some.call(c.options, function (o) { return o.value === want; })) {
        var o = document.createElement('option');
        o.value = want;
        o.textContent = want;
        c.appendChild(o);
      }
      c.value = want;
    });
    apply();
    if (target && target.tagName === 'DETAILS') { target.open = true; target.scrollIntoView(); }
  }
  function toHash() {
    var parts = [];
    keys.forEach(function (k) {
      var v = control(k).value;
      if (v) parts.push(encodeURIComponent(k) + '=' + encodeURIComponent(v));
    });
    history.replaceState(null, '', parts.length ? '#' + parts.join('&') : location.pathname + location.search);
    apply();
  }
  keys.forEach(function (k) { control(k).addEventListener('change', toHash); });
  window.addEventListener('hashchange', fromHash);
  fromHash();
})();
)JS";

}  // namespace mcpspec::reports::html
