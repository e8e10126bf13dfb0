"""Error conditions stated in prose (generator/extraction/error_sentences.py)."""

from __future__ import annotations

from pathlib import Path

from generator.extraction.error_sentences import Stated, embedded, leading, led_by
from tests.pathological import assert_linear


def test_leading_codes_with_every_join() -> None:
    assert leading("CL_INVALID_VALUE - if <a> is 0.", joined=True) == Stated("CL_INVALID_VALUE", "<a> is 0")
    assert leading("CL_INVALID_VALUE - The key is unknown.", joined=True) == Stated("CL_INVALID_VALUE",
                                                                                    "The key is unknown")
    assert leading("CL_X_Y is generated if the <b> is bad", joined=True) == Stated("CL_X_Y", "the <b> is bad")
    assert leading("CL_X_Y on invalid context.", joined=True) == Stated("CL_X_Y", "on invalid context")
    assert leading("CL_X_Y: when <c> is 0;", joined=True) == Stated("CL_X_Y", "<c> is 0")


def test_a_paragraph_needs_a_join_an_item_does_not() -> None:
    assert leading("CL_X_Y is a bitfield of flags.", joined=True) is None
    assert leading("CL_INVALID_ARG_SIZE ... or if <s> is 0.", joined=False) == Stated("CL_INVALID_ARG_SIZE",
                                                                                      "<s> is 0")
    assert leading("CL_X_Y(3) is a macro", joined=False) is None  # a call, not a code
    assert leading("Some prose.", joined=False) is None


def test_return_sentences_and_their_subjects() -> None:
    text = ("clFoo returns CL_SUCCESS if it works. It returns CL_INVALID_DEVICE if <d> is not a valid device. "
            "If the flags are not supported, it will return CL_INVALID_VALUE. "
            "For OpenCL 1.1, a CL_INVALID_OPERATION will be returned for images. "
            "The call using the object will return CL_NOT_ACQUIRED_X.")
    assert embedded(text) == [
        Stated("CL_SUCCESS", "it works", "clFoo", False),
        Stated("CL_INVALID_DEVICE", "<d> is not a valid device", "It", True),
        Stated("CL_INVALID_VALUE", "the flags are not supported", "it", True),
        Stated("CL_INVALID_OPERATION", "for images", None, True),
        Stated("CL_NOT_ACQUIRED_X", "The call using the object will return CL_NOT_ACQUIRED_X", "object", False),
    ]


def test_an_opening_if_without_its_comma_ends_before_the_subject() -> None:
    text = ("If the value passed in <flags> is not supported by the OpenCL implementation it will return "
            "CL_INVALID_VALUE. If the object is released the call using it will return CL_NOT_ACQUIRED_X.")
    first, second = embedded(text)
    assert first == Stated("CL_INVALID_VALUE",
                           "the value passed in <flags> is not supported by the OpenCL implementation", "it", True)
    assert (second.code, second.pronoun) == ("CL_NOT_ACQUIRED_X", False)  # "using it": the object, not the call


def test_this_call_stands_for_the_function() -> None:
    (stated,) = embedded("This call will return CL_INVALID_DEVICE if the device is a sub-device.")
    assert stated == Stated("CL_INVALID_DEVICE", "the device is a sub-device", "call", True)


def test_a_paragraph_led_by_a_name() -> None:
    assert led_by("clBuildProgram - This call will return ...") == "clBuildProgram"
    assert led_by("clGetContextInfo: Only the device list ...") == "clGetContextInfo"
    assert led_by("The widget - a thing") is None


def test_return_sentences_take_linear_time(tmp_path: Path) -> None:
    assert_linear("return-sentences", tmp_path)
