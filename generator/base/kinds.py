"""The kinds of diagnostic, each declared once with what it means.

A diagnostic's kind is the stable short name a user filters on (`-v`, the IR's `diagnostics[].kind`, the docs'
list of findings): the message says what was found in this text, the kind's meaning what that kind of finding
is. Every stage reports through `Sink` or a record of its facts typed with `Kind`, so a kind used nowhere
here is a type error; `tests/base/test_kinds.py` checks that each is reported somewhere and the docs list
them all.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Self


class Kind(StrEnum):
    """A kind of diagnostic: its name (the member's value) and `meaning`."""

    meaning: str

    def __new__(cls, name: str, meaning: str) -> Self:
        member = str.__new__(cls, name)
        member._value_ = name
        member.meaning = meaning
        return member

    # -- reading a text: what its form let through, or not
    LEGACY_ENCODING = "legacy-encoding", "the text is not UTF-8: bytes that are not are read in a legacy encoding"
    CHARACTER_INVISIBLE = "character-invisible", "invisible characters (zero-width spaces, soft hyphens) dropped"
    CHARACTER_BIDI = "character-bidi", "bidirectional controls, which can make a text read otherwise than it shows"
    CHARACTER_FORMAT = "character-format", "format characters that are neither invisible spaces nor bidi controls"
    CHARACTER_SPACE = "character-space", "spaces other than ASCII's, read as ASCII spaces"
    CHARACTER_COMPATIBILITY = "character-compatibility", "compatibility characters (ligatures, full-width letters) " \
        "read as the letters they stand for"
    CHARACTER_PUNCTUATION = "character-punctuation", "typographic dashes and quotes, read as ASCII's"
    CHARACTER_MIXED_SCRIPT = "character-mixed-script", "a word mixing scripts (a Cyrillic letter in a Latin name): " \
        "a name that looks like another"
    DECLARATION_SLIP = "declaration-slip", "a C declaration with a slip a compiler would refuse, read as meant"
    BROKEN_MARKUP = "broken-markup", "markup the text lost or left open (a parameter not marked up, stray `<`)"
    INCLUDE = "include", "an AsciiDoc include the generator does not follow: what it stands for is not read"
    UNREAD_INCLUDE = "unread-include", "an include of the Khronos book that cannot be followed"
    WHOLE_INCLUDE = "whole-include", "an include selecting part of a file, read whole"
    GENERATED_INCLUDE = "generated-include", "an include of files the book's build makes, which a checkout lacks"
    UNREAD_DIRECTIVE = "unread-directive", "a preprocessor directive of the book that is not read"
    IFEVAL = "ifeval", "a condition of the book on values its build sets: both sides are read"
    UNANSWERED_PROTOTYPE = "unanswered-prototype", "a prototype the book's build would include from the registry"
    NO_APPENDIX_PAGE = "no-appendix-page", "an extension of the book with no appendix page describing it"
    UNREAD_LISTING = "unread-listing", "a listing that holds neither C declarations nor tokens"
    SKIPPED_POINTER = "skipped-pointer", "a file giving only the address of a specification: skipped"
    SKIPPED_NOTE = "skipped-note", "a file taken for a note: it states no prototype, token or condition"

    # -- what the facts of a text cannot keep
    UNOWNED_CONDITION = "unowned-condition", "a list of errors no function can be found to own"
    INFERRED_OWNER = "inferred-owner", "a list of errors given to the function the text is describing"
    STRUCK_CONDITION = "struck-condition", "a condition the text quotes to be removed: not kept"
    SAMPLE_TOKEN = "sample-token", "a token defined in an example: not kept"
    UNGROUPED_TOKENS = "ungrouped-tokens", "a sentence introducing tokens that is not read as a group"
    OTHER_NAMES = "other-names", "the text names other extension strings than its own"

    # -- merging the texts of one extension
    SECOND_SOURCE = "second-source", "another text giving the whole extension: the first is followed"
    REVISION_CONFLICT = "revision-conflict", "two texts giving different revisions"
    PROTOTYPE_CONFLICT = "prototype-conflict", "two texts giving a function different prototypes"
    DESCRIPTION_CONFLICT = "description-conflict", "two texts describing a parameter differently"
    TYPE_CONFLICT = "type-conflict", "two texts defining a type differently"
    TOKEN_CONFLICT = "token-conflict", "two texts giving a token different values"
    TABLE_CONFLICT = "table-conflict", "two texts giving one table different columns or rows"
    TABLE_DUPLICATE = "table-duplicate", "a row given twice: kept once"
    TABLE_ROW_UNREAD = "table-row-unread", "a table row without a key: not kept"
    TABLE_COLUMN_UNREAD = "table-column-unread", "a column whose cells do not all hold the kind of name it holds"
    EMPTY_TABLE = "empty-table", "a table with no rows"
    UNDECLARED_FUNCTION = "undeclared-function", "a function described but missing from the list of new functions"
    UNSUFFIXED_FUNCTION = "unsuffixed-function", "a function named without the vendor's suffix, read as the " \
        "extension's own"
    EXTERNAL_FUNCTION = "external-function", "conditions added to another extension's function"
    REGISTRY_FUNCTION = "registry-function", "conditions added to a function the registry XML declares"
    UNKNOWN_FUNCTION = "unknown-function", "conditions given for a function nothing declares: not kept"
    UNPROTOTYPED_FUNCTION = "unprototyped-function", "a new function no text or registry gives a prototype: left out"
    FROM_REGISTRY = "from-registry", "what the text leaves out (a value, a prototype, a type), taken from the registry"
    UNDEFINED_TYPE = "undefined-type", "a type used and never defined: taken as OpenCL's conventions say"
    TOKEN_WITHOUT_VALUE = "token-without-value", "a token named without a value: listed, not bound"
    RECOVERED = "recovered", "what a damaged text lost, restored from another text (a sibling extension's)"
    UNRECOVERED = "unrecovered", "what a damaged text lost and no other text gives"
    UNRECOVERED_CONDITION = "unrecovered-condition", "a condition that lost its error code, which no text restores"
    UNRESTORED_DESCRIPTION = "unrestored-description", "descriptions that lost their parameters' names, not restored"
    INCOMPLETE_SOURCE = "incomplete-source", "a reference page lacking a condition the extension text states"
    CONDITION_CONFLICT = "condition-conflict", "a page's condition for an error code that none of the text's matches"
    CONDITION_DIFFERS = "condition-differs", "a page's condition worded otherwise than the text's"

    # -- cross-checks: the texts against themselves, their siblings and the registry
    UNDEFINED_TOKEN = "undefined-token", "a token used and defined nowhere"
    UNDEFINED_FUNCTION = "undefined-function", "a function named and defined nowhere"
    DEFINED_ELSEWHERE = "defined-elsewhere", "a name the extension uses that another extension defines"
    WRONG_FUNCTION = "wrong-function", "a sentence introducing tokens of a function it is not describing"
    NOT_A_PROPERTY = "not-a-property", "a condition speaking of a property the function does not take"
    TABLE_TYPE = "table-type", "a table giving a name a type its definition contradicts"
    VALUE_CLASH = "value-clash", "two tokens of one group with one value"
    REPEATED_TOKEN = "repeated-token", "a token defined a second time"
    REPEATED_CONDITION = "repeated-condition", "an error code listed a second time for a function"
    SIBLING_DIFFERENCE = "sibling-difference", "something a sibling extension has and this one lacks"
    SIBLING_CONFLICT = "sibling-conflict", "a value a sibling extension gives otherwise"
    REGISTRY_SHIPPED = "registry-shipped", "no registry XML among the texts: the project's copy is read beside them"
    REGISTRY_EXTENSIONS = "registry-extensions", "how many extensions the registry XML describes and which are read"
    REGISTRY_PROTOTYPE = "registry-prototype", "a prototype the registry XML gives otherwise"
    REGISTRY_CONFLICT = "registry-conflict", "a value the registry XML contradicts (the text's is kept)"
    REGISTRY_MISSING = "registry-missing", "a function or token the registry XML lacks"
    REGISTRY_EXTRA = "registry-extra", "a command or enum the registry's extension requires and no text introduces"
    REGISTRY_ELSEWHERE = "registry-elsewhere", "a name the registry XML files under another extension"
    REGISTRY_NO_EXTENSION = "registry-no-extension", "an extension the registry XML does not describe"
    REGISTRY_UNVALUED = "registry-unvalued", "a registry value that is no integer constant"
    REGISTRY_UNREADABLE = "registry-unreadable", "a registry declaration that is not valid C: not used"
    REGISTRY_DUPLICATE = "registry-duplicate", "a name the registry XML gives again, alike"
    REGISTRY_DEFINED_TWICE = "registry-defined-twice", "a name the registry XML gives twice, unlike"

    # -- reading the conditions, and what the IR keeps
    DAMAGED_CONDITION = "damaged-condition", "a condition that cannot be read as the text meant it: no check"
    UNRESTORED_ROW = "unrestored-row", "a table cell that lost parameter names, not restored"
    UNKNOWN_PARAMETER = "unknown-parameter", "a condition speaking of a parameter the function lacks"
    WRAPS_NO_HANDLE = "wraps-no-handle", "a function a condition says makes a wrapper, which returns no handle"
    NOTHING_KEPT = "nothing-kept", "a text read as the extension's of which the IR keeps nothing"
    NOT_KEPT = "not-kept", "something read from a text that the IR does not keep, said nowhere else"
    FUNCTION_DROPPED = "function-dropped", "a function declared and not in the IR, said nowhere else"


#: Each kind by its name.
BY_NAME = {kind.value: kind for kind in Kind}


def meaning(name: str) -> str | None:
    """What a kind means; None for a name the catalogue lacks (an IR written by another version)."""
    kind = BY_NAME.get(name)
    return kind.meaning if kind is not None else None


#: The kinds of the characters `base/normalise.py` finds, by its name of each.
CHARACTERS = {kind.value.removeprefix("character-"): kind for kind in Kind if kind.value.startswith("character-")}
