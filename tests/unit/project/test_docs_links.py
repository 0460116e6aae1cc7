"""Every relative link in README.md and docs/*.md leads somewhere: the file exists and, when
the link names a heading (``page.md#anchor``), the page has a heading with that GitHub slug."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def prose(text: str) -> str:
    """The text without fenced code blocks (a ``# comment`` in a shell block is no heading)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation but ``_`` and ``-`` dropped,
    spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for heading in re.findall(r"^#{1,6} (.+)$", prose(path.read_text(encoding="utf-8")), re.M):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def relative_links(path: Path) -> list[str]:
    return [t for t in LINK.findall(prose(path.read_text(encoding="utf-8")))
            if not re.match(r"^[a-z][a-z0-9+.-]*:", t)]


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in relative_links(page):
        file, _, anchor = target.partition("#")
        dest = (page.parent / file).resolve() if file else page
        if not dest.exists():
            broken.append(target)
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(target)
    return broken


def test_dlk001_the_slug_is_githubs():
    assert slug("How sure is the chosen point?") == "how-sure-is-the-chosen-point"
    assert slug("Data that stays on the server (`ROC_DASH_SOURCES`)") == \
        "data-that-stays-on-the-server-roc_dash_sources"
    assert slug("Beyond one binary scorer: multi-class, soft labels, costs, tree leaves") == \
        "beyond-one-binary-scorer-multi-class-soft-labels-costs-tree-leaves"


def test_dlk002_every_relative_link_in_readme_and_docs_resolves():
    assert len(PAGES) >= 8
    assert sum(len(relative_links(p)) for p in PAGES) >= 20
    broken = {p.name: b for p in PAGES if (b := broken_links(p))}
    assert broken == {}


def test_dlk003_a_broken_link_or_anchor_is_found(tmp_path):
    (tmp_path / "a.md").write_text("# A page\n\n```sh\n# not a heading\n```\n")
    page = tmp_path / "b.md"
    page.write_text("[ok](a.md#a-page) [gone](c.md) [no anchor](a.md#not-a-heading) "
                    "[web](https://example.org/x) [self](#nowhere)\n")
    assert broken_links(page) == ["c.md", "a.md#not-a-heading", "#nowhere"]


def test_dlk004_the_readme_is_short_and_links_each_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 400
    linked = {t.split("#")[0] for t in relative_links(ROOT / "README.md")}
    for page in ("user-guide", "meetings-and-decisions", "deployment", "performance", "api",
                 "cli", "slices", "ARCHITECTURE"):
        assert f"docs/{page}.md" in linked, page
