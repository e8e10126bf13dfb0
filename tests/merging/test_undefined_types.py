"""Types a text uses but never defines: read from what the text says of them, each with a warning."""

from __future__ import annotations

from pathlib import Path

from generator import pipeline
from tests.samples import WIDGET


def _run(tmp_path: Path, text: str) -> pipeline.Result:
    (tmp_path / "widget.txt").write_text(text, encoding="utf-8")
    return pipeline.run(tmp_path)


def _with_display(description: str) -> str:
    """The widget with a parameter of a type it never defines, and that parameter's description."""
    text = WIDGET.replace("UINT level)", "UINT level,\n                          cl_display_acme display)")
    return text.replace("    <mode> is the widget mode.\n", f"    <mode> is the widget mode.\n\n    {description}\n")


def test_a_type_a_known_type_is_cast_into_is_that_type(tmp_path: Path) -> None:
    result = _run(tmp_path, _with_display("<display> should be of type EGLDisplay, cast into the type "
                                          "cl_display_acme."))
    (extension,) = result.extensions
    types = {t.name: (t.kind, t.c_type, t.defined) for t in extension.types}
    assert types["cl_display_acme"] == ("typedef", "EGLDisplay", False)
    assert types["EGLDisplay"] == ("platform", "void *", True)
    (warning,) = [d for d in result.diagnostics if d.kind == "undefined-type" and "cl_display_acme" in d.message]
    assert "taken as EGLDisplay (EGL's, data/platform_types.json)" in warning.message
    assert "parameter 'display'" in warning.message and warning.related


def test_a_cast_from_an_unknown_type_is_not_taken(tmp_path: Path) -> None:
    result = _run(tmp_path, _with_display("<display> should be of type AcmeDisplay, cast into the type "
                                          "cl_display_acme."))
    (extension,) = result.extensions
    assert {t.name: (t.kind, t.c_type) for t in extension.types}["cl_display_acme"] == ("typedef", None)


def test_a_type_of_another_parameter_is_not_read_from_this_ones_description(tmp_path: Path) -> None:
    text = _with_display("<display> is a display.").replace(
        "<mode> is the widget mode.", "<mode> is the widget mode, of type EGLDisplay, cast into the type "
        "cl_display_acme.")
    (extension,) = _run(tmp_path, text).extensions
    assert {t.name: t.c_type for t in extension.types}["cl_display_acme"] is None
