"""The interface documentation (``/docs``), served entirely from the table: no script or style from another site."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse

router = APIRouter(include_in_schema=False)
ASSETS = "/docs/assets"


def assets_folder() -> str:
    """The folder of the Swagger UI files shipped with the swagger-ui-bundle package."""
    from swagger_ui_bundle import swagger_ui_path

    return str(swagger_ui_path)


@router.get("/docs")
def docs() -> HTMLResponse:
    """Swagger UI over the table's own OpenAPI description, its files served by the table itself."""
    return get_swagger_ui_html(openapi_url="/openapi.json", title="Touchline — the page's interface",
                               swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
                               swagger_css_url=f"{ASSETS}/swagger-ui.css",
                               swagger_favicon_url=f"{ASSETS}/favicon-32x32.png")
