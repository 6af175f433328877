"""Every page is served, works offline (no resource from outside the table) and is light enough for a phone."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from web.routers.pages import PAGES

EXTERNAL = re.compile(r"""(?:src|href|url)\s*[=(]\s*["']?\s*(?:https?:)?//""", re.IGNORECASE)
ASSET = re.compile(r"""(?:src|href)="(/static/[^"]+)"|from\s+"\./([^"]+)"|import\s+"\./([^"]+)\"""")


def assets_of(client: TestClient, html: str) -> dict[str, bytes]:
    """Every static file a page pulls in, following module imports."""
    todo = [m for groups in ASSET.findall(html) for m in groups if m]
    seen: dict[str, bytes] = {}
    while todo:
        path = todo.pop()
        path = path if path.startswith("/static/") else f"/static/{path}"
        if path in seen:
            continue
        response = client.get(path)
        assert response.status_code == 200, path
        seen[path] = response.content
        if path.endswith(".js"):
            todo += [m for groups in ASSET.findall(response.text) for m in groups if m]
    return seen


@pytest.mark.parametrize("path", list(PAGES))
def test_every_page_is_served_with_its_script_and_a_strict_policy(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in response.headers["content-security-policy"]
    page = PAGES[path][0]
    assert f'src="/static/{page}.js"' in response.text
    assert '<meta name="viewport"' in response.text


@pytest.mark.parametrize("path", list(PAGES))
def test_no_page_fetches_anything_from_outside_the_table(client: TestClient, path: str) -> None:
    html = client.get(path).text
    files = assets_of(client, html)
    assert "/static/style.css" in files and "/static/common.js" in files
    for name, body in {path: html.encode(), **files}.items():
        assert not EXTERNAL.search(body.decode()), f"{name} refers to another site"


def test_first_load_of_the_table_view_is_under_200_kb(client: TestClient) -> None:
    html = client.get("/").text
    total = len(html.encode()) + sum(len(b) for b in assets_of(client, html).values())
    total += len(client.get("/api/state").content)
    assert total < 200_000


def test_an_unknown_page_is_a_plain_404(client: TestClient) -> None:
    assert client.get("/nowhere").status_code == 404
