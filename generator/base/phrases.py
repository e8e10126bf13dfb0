"""The fixed sentences of the extension template that carry meaning, as patterns.

Specs written from the Khronos template say the same things the same way:
"Accepted as ... in the <p> parameter of f", "f returns CL_SUCCESS ...",
"Add to the list of errors for f". These are English template phrases, not names
from any spec; names inside them are captured, never matched literally.

The texts they read have their white space collapsed by the front-ends (one space
between words), so a pattern's optional blanks beside a lazy part never meet a run
of blanks to scan again from each of its positions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from generator.base.records import frozen

_NAME = r"[A-Za-z_]\w*"
_FUNCTIONS = rf"{_NAME}(?:(?:,\s*|,?\s+and\s+|,?\s+or\s+){_NAME})*"

#: "Accepted as <what> in the <p> parameter of f [and g]" (or, in the current AsciiDoc texts, "Accepted value for
#: the <p> parameter to f"), read in two steps by `accepted`
#: the template's shortest, "Accepted as [by] the <p> parameter [argument] of f", says no <what>
_ACCEPTED_AS = re.compile(r"^Accepted (?:as (?P<what>.*?) in|(?P<value>values?) for|(?P<bare>as|by)) the ")
_ACCEPTED_IN = re.compile(rf"(?P<param>.*?)\s*(?:parameters?|arguments?) (?:of|to) (?P<functions>{_FUNCTIONS})")
#: "Accepted as <p> to the function f": the parameter named alone, then the function
_ACCEPTED_AS_PARAMETER = re.compile(rf"^Accepted as (?P<param><\w+>) (?:to|of|for|by) (?:the )?functions? "
                                    rf"(?P<functions>{_FUNCTIONS})")
#: "Returned in the <p> parameter of f when <q> is TOKEN"
RETURNED_IN = re.compile(
    rf"^Returned in the (?P<param>.*?)\s*parameter of (?P<function>{_NAME})"
    rf"(?:\s+when\s+(?:(?P<query>.*?)\s+)?is\s+(?P<when>{_NAME}))?"
)
#: "Returned by f [and g] when/if <condition>[, and by h when <condition>]"
RETURNED_BY = re.compile(r"^Returned by ")
RETURNED_BY_CLAUSE = re.compile(
    rf"(?:^Returned by|,?\s*(?:and )?(?:by|from))\s+(?P<functions>{_FUNCTIONS})\s+(?:when|if)\s+(?P<condition>.*?)"
    rf"(?=,?\s*(?:and )?(?:by|from)\s+{_NAME}[\s,]|[.:]?\s*$)"
)
#: "f returns ..." or "f will return ..." (whether f names a function is for the caller to judge), or a page's
#: bare "Returns ..."
RETURNS = re.compile(rf"(?:(?<![\w])(?P<function>{_NAME})\s+(?:returns|will\s+return)\s|^Returns\s)")
#: "This function returns" / "This function will return": the subject is the function just named.
THIS_FUNCTION = re.compile(r"[Tt]his function\s+(?:returns|will\s+return)\s")
#: The names before a subject, when it is the last of several: "f and g will return", "f, g and h return".
CO_SUBJECTS = re.compile(rf"(?P<functions>{_FUNCTIONS})(?:,\s*|,?\s+and\s+)$")
#: "errors", "error codes", "error values", "error conditions": what a text calls a function's list
_ERROR_LIST = r"(?:errors|error (?:codes|values|conditions))"
#: "Add to the list of errors [codes, values] for f [and g]:" (the list follows)
ADD_ERRORS = re.compile(
    rf"^Add to the list of {_ERROR_LIST}(?: returned)? (?:for|of|by) "
    rf"(?P<functions>{_FUNCTIONS})\s*:?\s*$"
)
#: "[In Section 5.3.1, page 93,] append the following to the list of error conditions for f [and g]:",
#: "add the following error codes to f:" (the list follows; a sentence's lead-in before the verb is skipped)
LEADS_ERRORS = re.compile(
    rf"(?:^|,\s*|\.\s+)(?:[Aa]dd|[Aa]ppend) the following (?:{_ERROR_LIST} )?to "
    rf"(?:the list of {_ERROR_LIST}(?: returned)? (?:for|of|by) )?"
    rf"(?P<functions>{_FUNCTIONS})\s*:?\s*$"
)
#: "Replace the description of CL_X error value [under f] with:" (the new condition follows)
REPLACE_ERROR = re.compile(
    rf"^Replace the description of (?P<code>{_NAME}) (?:error )?(?:value|code|condition)s?"
    rf"(?: (?:under|of|for|in|returned by) (?P<functions>{_FUNCTIONS}))?\s+with\s*:?\s*$"
)
#: A paragraph of token names and nothing else: a list of new tokens that gives no values.
NAMES_ONLY = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?:(?:, ?| )[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)*\.?$")
#: A section (or a line alone) that holds a function's error list: "Errors", "Errors:", "Error Codes".
ERRORS_TITLE = re.compile(r"^(?:Errors|Error [Cc]odes|Return [Vv]alues and [Ee]rrors)\s*:?$")
#: A heading that says whose error list it adds to: "... at the end of the list of errors returned by f and g:"
ERRORS_OF = re.compile(rf"\berrors (?:returned by|for|of) (?P<functions>{_FUNCTIONS})\s*:?\s*$")
#: "Remove the following description of ...:" (what follows is struck from another text, no condition)
REMOVE = re.compile(r"^Remove the following\b")
#: "The following values may be returned by f[ for these new values]:" (the conditions follow)
RETURNED_BY_LIST = re.compile(
    rf"^The following (?:values|errors|error codes) (?:may|can|will) be returned by "
    rf"(?P<functions>{_FUNCTIONS})(?:\s+(?:for|when|if|with)\s[^:]*)?\s*:?\s*$"
)
#: "Add to the list of errors for f the same new errors described above for g."
SAME_ERRORS = re.compile(
    rf"^Add to the list of errors for (?P<target>{_NAME}) "
    rf"the same (?:new )?errors described above for (?P<source>{_NAME})"
)
#: An error list item: "CODE if condition" (or "when")
ERROR_ITEM = re.compile(r"^(?P<code>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\s+(?:if|when)\s+(?P<condition>.*?)[.,;]?\"?$", re.S)
#: The extension string, where prose names it ("describes the X extension", "the extension name is X").
EXTENSION_NAMED = re.compile(
    r"(?:describes the|the string|functions enabled by the|functionality in the)\s+\"?(?P<name>[a-z][a-z0-9_]+)"
    r"\"?\s+(?:extension|will be present)|[Tt]he extension name is\s+\"?(?P<stated>[a-z][a-z0-9_]+)"
)
#: "The default value is X." inside a table cell.
DEFAULT_VALUE = re.compile(r"\s*The default value is (?P<value>[^.\s]+)\.\s*")
#: "...returns the <p> argument specified when ..." in an info table.
RETURNS_ARGUMENT = re.compile(r"returns the <?(?P<param>\w+)>? argument", re.I)  # the IR's text has no <>
#: "setting TOKEN to" - TOKEN must be something one can set.
SETTING = re.compile(r"\bsetting (?P<token>[A-Z][A-Z0-9_]+) to\b")

#: An item of a version history: "Revision 1.0.0, 2020-04-21" (its date, ISO, sorts as text).
REVISION_ITEM = re.compile(r"^(?:Revision|Version)\s+\S+?,?\s+(?P<date>\d{4}-\d{2}-\d{2})\b")

#: An item heading the error codes among a list of new enums: "New Error Codes".
ERROR_CODES_ITEM = re.compile(r"^(?:New )?Error Codes:?$", re.I)

#: Template section titles and the part of a spec they open.
SECTION_KINDS = (
    (re.compile(r"^Name Strings?$"), "name"),
    (re.compile(r"^Version( History)?$"), "version"),
    (re.compile(r"^(Number|Status|Extension Type|Dependencies|Contact|Contributors|IP Status|Notice)$"), "field"),
    (re.compile(r"^New (Procedures and Functions|API Functions|Commands)$"), "summary"),
    (re.compile(r"^New (Tokens|API Enums|API Tokens|Enums)$"), "tokens"),
    (re.compile(r"^New (API )?Types$"), "types"),
    (re.compile(r"^(Issues|Revision History|Sample Code)$"), "aside"),
    (re.compile(r"^(Overview|Additions to|Add new section|Interactions with)"), "body"),
)


@frozen
class Accepted:
    what: str
    param: str
    functions: str


def accepted(text: str) -> Accepted | None:
    """"Accepted as <what> in the <p> parameter of f [and g]", or None.

    One pattern with both lazy parts would look for "parameter of" once from each " in the ": a sentence
    of many of them and no "parameter of" took minutes. <what> is the shortest that works, and then the
    parameter is found after the first " in the " or after none, so this reads the sentence once.
    """
    if direct := _ACCEPTED_AS_PARAMETER.match(text):
        return Accepted("", direct["param"], direct["functions"])
    head = _ACCEPTED_AS.match(text)
    rest = _ACCEPTED_IN.match(text, head.end()) if head else None
    if head is None or rest is None:
        return None
    what = head["what"] if head["what"] is not None else head["value"] or ""
    return Accepted(what, rest["param"], rest["functions"])


def split_names(text: str) -> list[str]:
    """`f, g and h`, `f, g, and h` -> [f, g, h]."""
    return [name for name in re.split(r",?\s+(?:and|or)\s+|,\s*", text.strip()) if name]


def section_kind(title: str) -> str | None:
    return next((kind for pattern, kind in SECTION_KINDS if pattern.match(title)), None)


def returned_argument(description: str, params: Iterable[tuple[str, str]]) -> tuple[str, str | None] | None:
    """The argument an info table's row says is returned (`returns the <subresource> argument`), with its type:
    the one type `params` (name, type) give it, or None when they give it none or several."""
    returned = RETURNS_ARGUMENT.search(description)
    if returned is None:
        return None
    types = {c_type for name, c_type in params if name == returned["param"]}
    return returned["param"], types.pop() if len(types) == 1 else None
