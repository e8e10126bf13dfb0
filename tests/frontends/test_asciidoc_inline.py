"""AsciiDoc inline markup (generator/frontends/asciidoc_inline.py): attributes, references, quotes."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.frontends import asciidoc_inline
from generator.frontends.asciidoc_inline import inline


@pytest.mark.parametrize(
    ("markup", "plain"),
    [
        ("_d3d_device_source_ specifies", "<d3d_device_source> specifies"),
        ("*clGetDeviceIDsFromD3D10KHR* returns", "clGetDeviceIDsFromD3D10KHR returns"),
        ("is `NULL`", "is NULL"),
        ('"`_properties_ specifies`"', '"<properties> specifies"'),
        ("in the table <<anchor,_Direct3D 10 formats_>> or", "in the table Direct3D 10 formats or"),
        ("in _table 5.3_ can", "in table 5.3 can"),
        ("The function\nindexterm:[clFoo]", "The function"),
        ("ID3D10Device * to use", "ID3D10Device * to use"),
        # the AsciiDoc of 2017: literal monospace, and emphasis over words that hold `_`
        ("* +CL_INVALID_VALUE+ if +cl_khr_fp16+ is", "* CL_INVALID_VALUE if cl_khr_fp16 is"),
        ("*+clCreateCommandQueueWithProperties+* (Section 5.1)", "clCreateCommandQueueWithProperties (Section 5.1)"),
        ("_List of supported param_names by clGetCommandQueueInfo_", "List of supported param_names by "
         "clGetCommandQueueInfo"),
        ("a + b + c, C++ and x+y+z", "a + b + c, C++ and x+y+z"),
        ("The struct _cl_image_format describes _the image format_ of it.",
         "The struct _cl_image_format describes the image format of it."),
        ("+_cl_image_format+ struct and _see below_", "_cl_image_format struct and see below"),
        ("in _table 5.3_ and _one_word_", "in table 5.3 and <one_word>"),
    ],
)
def test_inline_markup(markup: str, plain: str) -> None:
    assert inline(markup) == plain


#: The patterns the scanners replace: the behaviour to keep.
_OLD_XREF = re.compile(r"<<[^,>]*,([^>]*)>>|<<([^>]*)>>")
_OLD_INDEXTERM = re.compile(r"indexterm:\[[^\]]*\]")


@settings(deadline=None)  # a slow moment of the machine is no failure
@given(st.lists(st.sampled_from(["<", ">", ",", "a", "<<", ">>", " ", "\n"]), max_size=16).map("".join))
def test_references_resolve_as_the_pattern_did(text: str) -> None:
    assert asciidoc_inline.resolve_references(text) == _OLD_XREF.sub(lambda m: m.group(1) or m.group(2), text)


@settings(deadline=None)  # a slow moment of the machine is no failure
@given(st.lists(st.sampled_from(["indexterm:[", "indexterm:", "[", "]", "a", " ", "\n"]), max_size=12).map("".join))
def test_index_terms_go_as_the_pattern_took_them(text: str) -> None:
    assert asciidoc_inline.without_index_terms(text) == _OLD_INDEXTERM.sub("", text)


@pytest.mark.parametrize(
    ("markup", "plain"),
    [
        ("{clGetKernelSuggestedLocalWorkSizeKHR} returns {CL_SUCCESS}",
         "clGetKernelSuggestedLocalWorkSizeKHR returns CL_SUCCESS"),
        ("a list of {cl_semaphore_khr_TYPE} objects", "a list of cl_semaphore_khr objects"),
        ("when _param_name_ is {CL_EVENT_COMMAND_TYPE}", "when <param_name> is CL_EVENT_COMMAND_TYPE"),
        ("| {CL_COMMAND_ACQUIRE_EGL_OBJECTS_KHR_anchor}", "| CL_COMMAND_ACQUIRE_EGL_OBJECTS_KHR"),
        ("`CL_DEVICE_HOST_{zwsp}MEM_CAPABILITIES_INTEL`", "CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL"),
        ("values: +\n{blank}\n{CL_QUEUE_PROFILING_ENABLE} - Enable",
         "values: CL_QUEUE_PROFILING_ENABLE - Enable"),
        ("*CL_DEVICE_TERMINATE_ +\nCAPABILITY_KHR* - Indicates", "CL_DEVICE_TERMINATE_CAPABILITY_KHR - Indicates"),
        ("C++ and a + b", "C++ and a + b"),
        ("A **Shared System** allocation", "A Shared System allocation"),
        ("the image row pitch {times} `image_height`", "the image row pitch times image_height"),
        ("*{clFoo}* and _{param}_", "clFoo and <param>"),
        ("if _mip_region[0]_ is greater than _mip_region[1]_", "if <mip_region>[0] is greater than <mip_region>[1]"),
        ("{unclosed and {} and {a b}", "{unclosed and {} and {a b}"),
    ],
)
def test_attribute_references(markup: str, plain: str) -> None:
    assert inline(markup) == plain


def test_the_text_defines_its_own_attributes() -> None:
    attributes = asciidoc_inline.Attributes()
    for line in (":api: clFoo", ":call: {api}()", ":blank: pass:[ +]", ":gone: x", ":gone!:", ":empty:"):
        asciidoc_inline.attribute_entry(line, attributes)
    assert attributes.values == {"api": "clFoo", "call": "clFoo()", "blank": " +", "empty": ""}
    assert inline("{call} and {gone}{empty}", attributes) == "clFoo() and gone"


def test_an_attribute_defined_later_stands_for_its_name_before() -> None:
    attributes = asciidoc_inline.Attributes()
    before = inline("{name}", attributes)
    asciidoc_inline.attribute_entry(":name: value", attributes)
    assert (before, inline("{name}", attributes)) == ("name", "value")


def test_references_grow_a_text_only_so_far() -> None:
    attributes = asciidoc_inline.Attributes(budget=100)
    asciidoc_inline.attribute_entry(":a: " + "x" * 40, attributes)
    asciidoc_inline.attribute_entry(":b: {a}{a}", attributes)  # 80 more
    with pytest.raises(asciidoc_inline.ExpansionError):
        inline("{b}", attributes)
