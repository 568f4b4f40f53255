"""A report's HTML page as a browser lays it out: headless Chromium (Debian's ``chromium``
package) loads one real report with a small script that measures the page; the test is
skipped where the machine has no Chromium (CI has none)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from analyzer.api import report

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

MEASURE = """<script>
window.addEventListener('load', () => {
  const page = document.documentElement, main = document.querySelector('main');
  const style = getComputedStyle(main);
  const column = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const images = [...document.images];
  const boxes = [...document.querySelectorAll('.wide')];
  const found = {
    overflow: page.scrollWidth - page.clientWidth,
    images: images.length,
    broken: images.filter(i => !(i.complete && i.naturalWidth > 0)).length,
    narrow: images.filter(i => i.getBoundingClientRect().width < 0.98 * column).length,
    column: column,
    links: [...document.querySelectorAll('nav a')].map(a => a.getAttribute('href')),
    ids: [...document.querySelectorAll('main [id]')].map(e => '#' + e.id),
    nav: getComputedStyle(document.querySelector('nav')).position,
    tables: boxes.length,
    scrolled: boxes.filter(b => b.scrollWidth > b.clientWidth + 1).length,
  };
  const out = document.createElement('pre');
  out.id = 'measured';
  out.textContent = JSON.stringify(found);
  document.body.appendChild(out);
});
</script>"""


def measure(page: str, tmp_path, width: int = 1366) -> dict:
    """Load ``page`` (HTML text) in headless Chromium at ``width`` pixels and return what
    the script measured."""
    path = tmp_path / "measured.html"
    path.write_text(page.replace("</body>", MEASURE + "</body>"))
    shown = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            f"--window-size={width},900",
            "--virtual-time-budget=10000",
            "--dump-dom",
            path.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = re.search(r'<pre id="measured">(.*?)</pre>', shown.stdout)
    assert found, shown.stderr[-2000:]
    return json.loads(found.group(1))


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (Debian: apt install chromium)")
def test_an_html_report_lays_out_cleanly_in_chromium(tmp_path):
    """Charts at the column's full width and every one loaded, no horizontal overflow of
    the page (wide tables scroll in their own box), a fixed side navigation whose every
    link lands on a heading; and at a phone's width the same page still fits."""
    path = report("spoil-five", out=tmp_path, hands=1500, report_format="html", store=False).paths[0][1]
    page = path.read_text()
    wide = measure(page, tmp_path)
    assert wide["overflow"] == 0
    assert wide["images"] >= 8 and wide["broken"] == 0 and wide["narrow"] == 0
    assert wide["column"] > 800  # a full column beside the navigation at 1366 pixels
    assert wide["nav"] == "fixed" and len(wide["links"]) >= 10
    assert set(wide["links"]) <= set(wide["ids"])
    assert "#verdicts" in wide["links"] and "#the-value-of-every-decision" in wide["links"]
    narrow = measure(page, tmp_path, width=480)
    assert narrow["overflow"] == 0 and narrow["broken"] == 0 and narrow["nav"] == "static"
