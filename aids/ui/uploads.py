"""Taking a file or a photo on a page, in the reader's language: Streamlit's uploader and
camera speak English only, so their words are replaced by ours (``file_box``,
``camera_words``), and the in-page camera is offered only where a browser opens it
(``secure_page``)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from aids.ui.common import lang, tr


def file_box(label: str, types: list[str], key: str, *, max_mb: int = 200, help: str = "") -> Any:
    """``st.file_uploader`` saying everything in the reader's language: Streamlit writes its
    button ("Upload") and its limits ("200MB per file • JSON") in English only, so the box's
    button carries our word (drawn by a style scoped to this box; its own text is hidden, not
    merely shrunk, so no English is left on the page) and our caption gives the types and
    the size allowed. Returns the uploaded file, or None."""
    button = css_text(tr("table.upload_choose"))
    scope = f".st-key-{key} [data-testid='stFileUploaderDropzone']"
    st.html(
        "<style>"
        f"{scope} [data-testid='stFileUploaderDropzoneInstructions'] {{ display: none; }}"
        f"{scope} button [data-testid='stMarkdownContainer'] p {{ display: none; }}"
        f'{scope} button [data-testid="stMarkdownContainer"]::after {{ content: "{button}"; }}'
        "</style>"
    )
    upload = st.file_uploader(label, type=types, key=key, help=help or None, max_upload_size=max_mb)
    kinds = (
        "・".join(k.upper() for k in types)
        if lang() == "ja"
        else ", ".join(k.upper() for k in types)
    )
    st.caption(tr("table.upload_limits", kinds=kinds, mb=max_mb))
    return upload


def secure_page() -> bool:
    """Whether the browser may open a camera for this page (``camera_allowed``)."""
    return camera_allowed(str(st.context.url or ""))


def camera_allowed(url: str) -> bool:
    """Whether a browser opens a camera for a page at ``url``: only on HTTPS, and on the
    machine's own address, which browsers trust as well.

    >>> camera_allowed("https://club.example/?meet=x"), camera_allowed("http://localhost:8501/")
    (True, True)
    >>> camera_allowed("http://192.168.1.20:8501/?meet=x"), camera_allowed("http://[::1]:8501")
    (False, True)
    """
    host = url.split("://", 1)[-1].split("/", 1)[0]
    host = host if host.startswith("[") and host.endswith("]") else host.rsplit(":", 1)[0]
    return url.startswith("https://") or host in ("localhost", "127.0.0.1", "[::1]")


def camera_words(key: str) -> None:
    """Our words on ``st.camera_input``'s box (``key``): Streamlit asks for the camera and
    names its button in English only. Its request (with a link away to its own site) is
    hidden and ours shown; the button's words are replaced by ours, drawn by the style."""
    allow, button = css_text(tr("meet.scan.camera_allow")), css_text(tr("meet.scan.camera_button"))
    scope = f".st-key-{key}"
    st.html(
        "<style>"
        f"{scope} [data-testid='stCameraInputWebcamComponent'] > div > p {{ display: none; }}"
        f'{scope} [data-testid="stCameraInputWebcamComponent"] > div::after {{'
        f' content: "{allow}"; }}'
        f"{scope} [data-testid='stCameraInputButton'] {{ font-size: 0; }}"
        f'{scope} [data-testid="stCameraInputButton"]::after {{ content: "{button}";'
        " font-size: 1rem; }"
        "</style>"
    )


def css_text(text: str) -> str:
    """Words for a style's ``content: "…"`` (our own catalogue's): what could end the string
    or the style block is left out.

    >>> css_text('say "hi" </style>')
    'say hi /style>'
    """
    return text.replace('"', "").replace("\\", "").replace("<", "")
