"""The docs site's own machinery: the hook that fails the strict build on an undocumented API member, and the
pieces of configuration that keep the build offline."""

from __future__ import annotations

import importlib.util
import pathlib
import re
import sys
import types

ROOT = pathlib.Path(__file__).resolve().parents[2]


def hook():
    spec = importlib.util.spec_from_file_location("api_docstrings", ROOT / "docs" / "_hooks" / "api_docstrings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fake_module(monkeypatch):
    module = types.ModuleType("fake_api_for_docs", "A documented module.")

    def documented():
        """Says what it does."""

    def bare():
        pass

    class Thing:
        """A documented class."""

        def method(self):
            pass

    for f in (documented, bare, Thing):
        f.__module__ = module.__name__
        setattr(module, f.__name__, f)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    return module


def test_the_hook_names_every_rendered_member_without_a_docstring(monkeypatch):
    fake_module(monkeypatch)
    h = hook()
    assert h.missing("fake_api_for_docs", "") == ["fake_api_for_docs.bare"]
    assert h.missing("fake_api_for_docs.Thing", "") == ["fake_api_for_docs.Thing.method"]
    assert h.missing("fake_api_for_docs", "    options:\n      members:\n        - documented\n") == []
    assert h.missing("fake_api_for_docs.Thing", "    options:\n      members: false\n") == []


def test_the_hook_reads_the_blocks_of_a_page(monkeypatch):
    fake_module(monkeypatch)
    page = "# API\n\n::: fake_api_for_docs\n    options:\n      members:\n        - bare\n\nText.\n"
    blocks = [(m.group(1), m.group(2)) for m in hook().BLOCK.finditer(page)]
    assert blocks == [("fake_api_for_docs", "    options:\n      members:\n        - bare\n")]
    assert hook().missing(*blocks[0]) == ["fake_api_for_docs.bare"]


def test_the_site_builds_offline_and_strictly():
    config = (ROOT / "mkdocs.yml").read_text()
    assert "font: false" in config and "strict: true" in config and "import:" not in config
    assert 'mkdocs build --strict --quiet --site-dir "$site"' in (ROOT / "scripts" / "test").read_text()


def test_the_readme_is_a_front_door_whose_links_lead_somewhere():
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 150, "the README is the front door: move details to a docs page"
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text) + re.findall(r'<img src="([^"]+)"', text)
    local = [t for t in targets if not t.startswith(("http://", "https://"))]
    assert local and all((ROOT / t).exists() for t in local), [t for t in local if not (ROOT / t).exists()]
