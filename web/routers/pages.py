"""The HTML pages: small shells whose content our own JavaScript draws from the live snapshot."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

router = APIRouter(tags=["pages"], include_in_schema=False)

#: path -> (page file, title); the navigation lists them in this order.
PAGES: dict[str, tuple[str, str]] = {
    "/": ("table", "Table"),
    "/log": ("log", "What happened"),
    "/charts": ("charts", "Charts"),
    "/seasons": ("seasons", "Seasons"),
    "/final": ("final", "Final scoring"),
    "/play": ("play", "Play"),
    "/lineup": ("lineup", "Lineup"),
    "/admin": ("admin", "Admin"),
    "/sim": ("sim", "Virtual table"),
    "/tv": ("tv", "TV"),
}
# The pages make no request to any other site; this header makes the browser hold us to it.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                               "connect-src 'self'; frame-ancestors 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def _read(name: str) -> str:
    return resources.files("web").joinpath("pages", name).read_text(encoding="utf-8")


@cache
def render(page: str, title: str | None = None) -> str:
    """The full HTML of one page: the shared shell around the page's own body (``title``: of a page the
    navigation does not list, such as a seat's own)."""
    nav = "".join(f'<a href="{path}" data-page="{name}">{title}</a>'
                  for path, (name, title) in PAGES.items() if name not in ("final", "tv"))
    title = title or next(t for n, t in PAGES.values() if n == page)
    # A page may take another's body in (a seat's own page holds the Lineup page's editor).
    body = re.sub(r"\{\{include:([a-z]+)\}\}", lambda m: _read(f"{m.group(1)}.html"), _read(f"{page}.html"))
    return (_read("shell.html").replace("{{title}}", title).replace("{{page}}", page)
            .replace("{{nav}}", nav).replace("{{body}}", body))


def _add(path: str, page: str) -> None:
    async def show() -> HTMLResponse:
        return HTMLResponse(render(page), headers=SECURITY_HEADERS)

    show.__doc__ = f"The {page} page."
    router.add_api_route(path, show, methods=["GET"], response_class=HTMLResponse, name=f"page_{page}")


for _path, (_page, _title) in PAGES.items():
    _add(_path, _page)
