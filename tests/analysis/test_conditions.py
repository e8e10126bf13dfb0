"""Error conditions read as checks (generator/analysis/conditions.py, grammar/condition.lark): clauses, classes,
effects."""

from __future__ import annotations

from typing import Any

import pytest

from generator.analysis import clause_forms, conditions
from generator.base.diagnostics import Location, Sink
from generator.base.knowledge import Knowledge
from generator.base.predicates import from_notation as P
from generator.base.source import Pos
from generator.ir.model import Clause, Effect, ErrorCondition, Extension, Function, Param, Token, TokenGroup
from generator.pipeline import Result

WHERE = Location("specs/test.txt", Pos(7, 1))
ELSEWHERE = Location("specs/test.txt", Pos(40, 1))
FLAGS_ONLY = ("A bit-field. Only CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY and CL_MEM_READ_WRITE values specified in "
              "table 5.3 can be used.")
ALLOWED_FLAGS = [0, "CL_MEM_READ_ONLY", "CL_MEM_WRITE_ONLY", "CL_MEM_READ_WRITE"]


def params() -> list[Param]:
    """One parameter of each kind the clauses speak of."""
    return [
        Param("context", "cl_context"),
        Param("n", "cl_uint"),
        Param("p", "const cl_mem *"),
        Param("a", "void *"),
        Param("b", "cl_uint *"),
        Param("e", "const cl_event *"),
        Param("m", "const cl_mem *"),
        Param("src", "cl_test_source"),
        Param("flags", "cl_mem_flags", FLAGS_ONLY),
        Param("r", "ID3D10Buffer *"),
        Param("s", "UINT"),
    ]


def function(name: str, *texts: str, parameters: list[Param] | None = None, core: bool = False,
             returns: str = "cl_int") -> Function:
    errors = tuple(ErrorCondition("CL_INVALID_VALUE", text, WHERE, "list") for text in texts)
    return Function(name, returns, tuple(params() if parameters is None else parameters), WHERE, core=core,
                    errors=errors)


def extension(*functions: Function, groups: list[TokenGroup] | None = None,
              tokens: list[Token] | None = None) -> Extension:
    return Extension("cl_test_sharing", "test", None, {}, (), functions=functions, token_groups=tuple(groups or ()),
                     tokens=tuple(tokens or ()))


def attach(ext: Extension, knowledge: Knowledge) -> tuple[dict[str, Function], Sink]:
    """The functions of `ext` as the stage makes them anew (by name), and what it said."""
    sink = Sink()
    (read,) = conditions.attach([ext], knowledge, sink)
    return {f.name: f for f in read.functions}, sink


def clauses_of(text: str, knowledge: Knowledge, **options: Any) -> tuple[Clause, ...]:
    """The clauses of one condition of `clTestF` (the parameters of `params()` unless given)."""
    read, _ = attach(extension(function("clTestF", text, **options)), knowledge)
    return read["clTestF"].errors[0].check


def one_clause(text: str, knowledge: Knowledge, **options: Any) -> Clause:
    (clause,) = clauses_of(text, knowledge, **options)
    assert clause.text == text
    return clause


# -- host predicates -----------------------------------------------------------


@pytest.mark.parametrize(("text", "predicate"), [
    ("<n> is zero and <p> is not a NULL value",
     {"all": [{"compare": ["n", "==", 0]}, {"not": {"null": "p"}}]}),
    ("<n> > 0 and <p> is NULL", {"all": [{"compare": ["n", ">", 0]}, {"null": "p"}]}),
    ("<n> is equal to zero and <p> is not NULL", {"all": [{"compare": ["n", "==", 0]}, {"not": {"null": "p"}}]}),
    ("both <a> and <b> are NULL", {"all": [{"null": "a"}, {"null": "b"}]}),
    ("<e> is NULL and <n> > 0", {"all": [{"null": "e"}, {"compare": ["n", ">", 0]}]}),
    ("<e> is not NULL and <n>> is 0", {"all": [{"not": {"null": "e"}}, {"compare": ["n", "==", 0]}]}),
    ("<p> is NULL", {"null": "p"}),
    ("<p> are NULL", {"null": "p"}),
    ("<p> is a NULL value", {"null": "p"}),
    ("<context> is NULL", {"null": "context"}),
    ("<n> is 5", {"compare": ["n", "==", 5]}),
    ("<n> >= 2", {"compare": ["n", ">=", 2]}),
    ("<n> <= 3", {"compare": ["n", "<=", 3]}),
    ("<n> < 1", {"compare": ["n", "<", 1]}),
    ("<n> > 0 and <a> is NULL and <b> is not NULL",
     {"all": [{"compare": ["n", ">", 0]}, {"null": "a"}, {"not": {"null": "b"}}]}),
])
def test_host_predicates(text: str, predicate: dict[str, Any], knowledge: Knowledge) -> None:
    clause = one_clause(text, knowledge)
    assert (clause.kind, clause.reason, clause.predicate) == ("host", conditions.HOST, P(predicate))


def source_group(functions: tuple[str, ...], parameter: str, name: str = "test_source") -> TokenGroup:
    return TokenGroup(name, "accepted", functions, parameter, "cl_test_source", None,
                      "accepted as <src>", ELSEWHERE)


def test_invalid_value_means_not_a_token_of_the_bound_group(knowledge: Knowledge) -> None:
    fn = function("clTestF", "<src> is not a valid value")
    groups = [
        source_group(("clTestF", "clTestG"), "src"),
        source_group(("clTestG",), "src", "other_function"),  # the same parameter name, another function
        source_group(("clTestF",), "flags", "other_param"),  # the same function, another parameter
    ]
    tokens = [
        Token("CL_TEST_A", 0x4000, "test_source", ELSEWHERE),
        Token("CL_NOT_FOR_F", 0x4001, "other_function", ELSEWHERE),
        Token("CL_NOT_FOR_SRC", 0x4002, "other_param", ELSEWHERE),
        Token("CL_UNGROUPED", 0x4003, None, ELSEWHERE),
        Token("CL_TEST_B", 0x4004, "test_source", ELSEWHERE),
    ]
    read, _ = attach(extension(fn, groups=groups, tokens=tokens), knowledge)
    (clause,) = read["clTestF"].errors[0].check
    assert clause.kind == "host"
    assert clause.predicate == P({"not": {"member": "src", "of": ["CL_TEST_A", "CL_TEST_B"]}})


def test_invalid_flags_means_not_an_allowed_value_and_zero_for_a_bitfield(knowledge: Knowledge) -> None:
    clause = one_clause("values specified in <flags> are not valid", knowledge)
    assert clause.kind == "host"
    assert clause.predicate == P({"not": {"member": "flags", "of": ALLOWED_FLAGS}})


def test_invalid_flags_without_zero_when_not_a_bitfield(knowledge: Knowledge) -> None:
    """cl_uint is no bit-field: 0 is not allowed unless the sentence names it. Extension tokens count as known."""
    fn = function("clTestF", "values specified in <n> are not valid",
                  parameters=[Param("n", "cl_uint", "Only CL_TEST_A and CL_TEST_B values can be used.")])
    tokens = [Token("CL_TEST_A", 1, None, ELSEWHERE), Token("CL_TEST_B", 2, None, ELSEWHERE)]
    read, _ = attach(extension(fn, tokens=tokens), knowledge)
    assert read["clTestF"].errors[0].check[0].predicate == P({"not": {"member": "n", "of": ["CL_TEST_A", "CL_TEST_B"]}})


# -- state predicates and effects ----------------------------------------------


ACQUIRE = "clTestAcquire"
RELEASE = "clTestRelease"
CREATE = "clTestCreate"


@pytest.mark.parametrize(("text", "predicate"), [
    ("any of <m> are currently acquired by OpenCL", {"acquired": "m"}),
    ("any of <m> are not currently acquired by OpenCL", {"released": "m"}),
    ("any of <e> are currently acquired by OpenCL", {"acquired": "e"}),
])
def test_state_predicates_without_effects(text: str, predicate: dict[str, Any], knowledge: Knowledge) -> None:
    read, sink = attach(extension(function("clTestF", text)), knowledge)
    fn = read["clTestF"]
    (clause,) = fn.errors[0].check
    assert (clause.kind, clause.predicate) == ("state", P(predicate))
    assert clause.reason.startswith("the package tracks which objects it saw")
    assert fn.effects == ()
    assert sink.items == []


@pytest.mark.parametrize(("text", "predicate"), [
    (f"memory objects in <m> have previously been acquired using {ACQUIRE} but have not been released using "
     f"{RELEASE}", {"acquired": "m"}),
    (f"memory objects in <m> have not previously been acquired using {ACQUIRE}, or have been released using "
     f"{RELEASE} since the last time that they were acquired", {"released": "m"}),
    # The NVIDIA text that lost "been acquired using".
    (f"memory objects in <m> have not previously {ACQUIRE}, or have been released using {RELEASE} since the last "
     "time that they were acquired", {"released": "m"}),
])
def test_acquire_and_release_effects(text: str, predicate: dict[str, Any], knowledge: Knowledge) -> None:
    read, sink = attach(extension(function("clTestF", text), function(ACQUIRE), function(RELEASE)), knowledge)
    checked, acquire, release = read["clTestF"], read[ACQUIRE], read[RELEASE]
    (clause,) = checked.errors[0].check
    assert (clause.kind, clause.text, clause.predicate) == ("state", text, P(predicate))
    assert acquire.effects == (Effect("acquire", WHERE, objects="m"),)
    assert release.effects == (Effect("release", WHERE, objects="m"),)
    assert checked.effects == ()
    assert sink.items == []


def test_an_effect_is_given_once(knowledge: Knowledge) -> None:
    named = f"memory objects in <m> have previously been acquired using {ACQUIRE} but have not been released using " \
            f"{RELEASE}"
    read, _ = attach(extension(function(ACQUIRE, named, named), function(RELEASE)), knowledge)
    acquire, release = read[ACQUIRE], read[RELEASE]
    assert [e.kind for e in acquire.effects] == ["acquire"]
    assert [e.kind for e in release.effects] == ["release"]


@pytest.mark.parametrize(("text", "wrapped"), [
    (f"a cl_mem from <r> has already been created using {CREATE}", {"scope": "context", "resource": "r"}),
    (f"a cl_mem from subresource <s> of <r> has already been created using {CREATE}",
     {"scope": "context", "resource": "r", "subresource": "s"}),
])
def test_wrapped_and_the_wrap_effect(text: str, wrapped: dict[str, str], knowledge: Knowledge) -> None:
    # The scope is the first handle parameter, whatever comes before it.
    parameters = [Param("flags", "cl_mem_flags"), Param("context", "cl_context"), Param("queue", "cl_command_queue"),
                  Param("r", "ID3D10Texture2D *"), Param("s", "UINT")]
    read, sink = attach(extension(function(CREATE, text, parameters=parameters, returns="cl_mem")), knowledge)
    create = read[CREATE]
    (clause,) = create.errors[0].check
    assert (clause.kind, clause.predicate) == ("state", P({"wrapped": wrapped}))
    assert clause.reason == "the package tracks which resources it wrapped in each context"
    assert create.effects == (Effect("wrap", WHERE, **wrapped),)
    assert sink.items == []


def test_unknown_function_named_gives_a_warning_and_no_effect(knowledge: Knowledge) -> None:
    text = ("memory objects in <m> have previously been acquired using clNoSuchAcquire but have not been released "
            f"using {RELEASE}")
    read, sink = attach(extension(
        function("clTestF", text), function(RELEASE), function("clCoreCreate", core=True),
        function("clTestG", "a cl_mem from <r> has already been created using clCoreCreate")), knowledge)
    checked, release, core, wrap = read["clTestF"], read[RELEASE], read["clCoreCreate"], read["clTestG"]
    assert checked.errors[0].check[0].kind == "state"  # the check stands; only the effect is lost
    assert release.effects == (Effect("release", WHERE, objects="m"),)
    assert checked.effects == core.effects == wrap.effects == ()
    assert [(d.where, d.severity, d.kind, d.extension) for d in sink.items] == \
        [(WHERE, "warning", "unknown-function", "cl_test_sharing")] * 2
    assert "clNoSuchAcquire" in sink.items[0].message
    assert "clCoreCreate" in sink.items[1].message


@pytest.mark.parametrize("returns", ["void", "cl_int", "void *"])
def test_a_function_named_as_making_a_wrapper_must_return_its_handle(returns: str, knowledge: Knowledge) -> None:
    """A damaged prototype (`void clCreate...`): the wrapper it makes could not be recorded (the call would fail
    after the driver made the object), so the effect is not given, and a warning says why."""
    text = f"a cl_mem from <r> has already been created using {CREATE}"
    parameters = [Param("context", "cl_context"), Param("r", "ID3D10Buffer *")]
    read, sink = attach(extension(function(CREATE, text, parameters=parameters, returns=returns)), knowledge)
    assert read[CREATE].errors[0].check[0].kind == "state" and read[CREATE].effects == ()
    ((diagnostic),) = sink.items
    assert (diagnostic.kind, diagnostic.severity) == ("wraps-no-handle", "warning")
    assert f"it returns `{returns}`" in diagnostic.message


def test_named_function_without_the_parameters_gives_a_warning_and_no_effect(knowledge: Knowledge) -> None:
    checked = function("clTestF", f"a cl_mem from <r> has already been created using {CREATE}")
    create = function(CREATE, parameters=[Param("context", "cl_context"), Param("buffer", "ID3D10Buffer *")])
    read, sink = attach(extension(checked, create), knowledge)
    assert read[CREATE].effects == ()
    ((diagnostic),) = sink.items
    assert (diagnostic.kind, diagnostic.severity) == ("unknown-parameter", "warning")
    assert "<r>" in diagnostic.message
    assert CREATE in diagnostic.message


# -- splitting -----------------------------------------------------------------


def texts_and_kinds(clauses: tuple[Clause, ...]) -> list[tuple[str, str]]:
    return [(c.text, c.kind) for c in clauses]


def test_a_compound_condition_is_cut_at_its_connectives(knowledge: Knowledge) -> None:
    found = clauses_of("<src> is not a valid thing, values specified in <flags> are not valid, <n> is equal to zero "
                       "and <p> is not NULL, or if both <a> and <b> are NULL", knowledge)
    assert texts_and_kinds(found) == [
        ("<src> is not a valid thing", "driver"),
        ("values specified in <flags> are not valid", "host"),
        ("<n> is equal to zero and <p> is not NULL", "host"),
        ("both <a> and <b> are NULL", "host"),
    ]
    assert found[3].predicate == P({"all": [{"null": "a"}, {"null": "b"}]})


def test_or_if_without_a_comma(knowledge: Knowledge) -> None:
    found = clauses_of("<n> is zero and <p> is not a NULL value or if <n> > 0 and <p> is NULL", knowledge)
    assert [c.predicate for c in found] == [
        P({"all": [{"compare": ["n", "==", 0]}, {"not": {"null": "p"}}]}),
        P({"all": [{"compare": ["n", ">", 0]}, {"null": "p"}]}),
    ]


def test_comma_or_and_comma_if(knowledge: Knowledge) -> None:
    found = clauses_of("<e> is NULL and <n> > 0, or <e> is not NULL and <n> is 0, if <a> is NULL", knowledge)
    assert [c.text for c in found] == ["<e> is NULL and <n> > 0", "<e> is not NULL and <n> is 0", "<a> is NULL"]
    assert [c.kind for c in found] == ["host"] * 3


def test_a_list_of_function_names_is_not_cut(knowledge: Knowledge) -> None:
    text = "<m> was not created by the function clTestA, clTestB, or clTestC"
    clause = one_clause(text, knowledge)
    assert (clause.kind, clause.reason) == ("driver", conditions.DRIVER_PROSE)


def test_a_list_of_function_names_then_another_clause(knowledge: Knowledge) -> None:
    found = clauses_of("<m> was not created by clTestA, clTestB, or clTestC, or if <p> is NULL", knowledge)
    assert texts_and_kinds(found) == [("<m> was not created by clTestA, clTestB, or clTestC", "driver"),
                                      ("<p> is NULL", "host")]


def test_comma_and_continues_the_clause(knowledge: Knowledge) -> None:
    found = clauses_of("interoperability is specified by setting CL_TEST to a non-NULL value, and interoperability "
                       "with another graphics API is also specified, or if <p> is NULL", knowledge)
    assert texts_and_kinds(found) == [
        ("interoperability is specified by setting CL_TEST to a non-NULL value, and interoperability with another "
         "graphics API is also specified", "driver"),
        ("<p> is NULL", "host"),
    ]


def test_the_longest_run_that_parses_is_one_clause(knowledge: Knowledge) -> None:
    """The "acquired ... but not released ..." sentence is one clause, and what follows it another."""
    text = (f"memory objects in <m> have previously been acquired using {ACQUIRE} but have not been released "
            f"using {RELEASE}")
    found = clauses_of(f"{text}, or if <n> > 0 and <m> is NULL", knowledge)
    assert texts_and_kinds(found) == [(text, "state"), ("<n> > 0 and <m> is NULL", "host")]


# -- driver clauses and their reasons ------------------------------------------


@pytest.mark.parametrize(("text", "reason"), [
    ("no OpenCL devices that correspond to <a> were found", conditions.DRIVER_PROSE),
    ("<r> is a multisampled texture", conditions.DRIVER_PROSE),
    ("Only CL_MEM_READ_ONLY and CL_MEM_WRITE_ONLY values can be used", conditions.DRIVER_PROSE),
    ("<context> is not a valid context", "only the implementation knows what is valid here (context)"),
    ("<s> is not a valid subresource index for <r>",
     "only the implementation knows what is valid here (subresource index for <r>)"),
    ("memory objects in <m> are not valid OpenCL memory objects",
     "only the implementation knows what is valid here (OpenCL memory objects)"),
    ("<y> is NULL", "speaks of <y>, which is not a parameter of clTestF"),
    ("<n> is zero and <y> is not NULL", "speaks of <y>, which is not a parameter of clTestF"),
    ("any of <y> are currently acquired by OpenCL", "speaks of <y>, which is not a parameter of clTestF"),
    ("memory objects in <m> have not previously been acquired using clTestA, or have been released using clTestR "
     "since <y> was set", "speaks of <y>, which is not a parameter of clTestF"),
    ("<src> is not a valid value",
     "the text binds no tokens to <src>, so which values are valid is not known"),
    ("<n> is NULL", "speaks of <n> as a pointer, but it is a cl_uint"),
    ("both <a> and <s> are NULL", "speaks of <s> as a pointer, but it is a UINT"),
    ("<p> > 0", "speaks of <p> as a number, but it is a const cl_mem *"),
    ("<context> is 0", "speaks of <context> as a number, but it is a cl_context"),
    ("<a> is not a valid value", "speaks of <a> as a number, but it is a void *"),
    ("any of <n> are currently acquired by OpenCL", "speaks of <n> as a list of objects, but it is a cl_uint"),
    ("any of <a> are not currently acquired by OpenCL", "speaks of <a> as a list of objects, but it is a void *"),
    ("any of <context> are currently acquired by OpenCL",
     "speaks of <context> as a list of objects, but it is a cl_context"),
])
def test_driver_reasons(text: str, reason: str, knowledge: Knowledge) -> None:
    clause = one_clause(text, knowledge)
    assert (clause.kind, clause.reason, clause.predicate) == ("driver", reason, None)


def test_core_functions_are_left_to_the_driver(knowledge: Knowledge) -> None:
    found = clauses_of("<p> is NULL, or if <n> > 0 and <p> is NULL", knowledge, core=True)
    assert [(c.kind, c.reason, c.predicate) for c in found] == \
        [("driver", "clTestF is core OpenCL, which this package does not wrap", None)] * 2
    assert [c.text for c in found] == ["<p> is NULL", "<n> > 0 and <p> is NULL"]


def test_flags_without_an_only_sentence(knowledge: Knowledge) -> None:
    for description in (None, "A bit-field that specifies usage information."):
        clause = one_clause("values specified in <flags> are not valid", knowledge,
                            parameters=[Param("flags", "cl_mem_flags", description)])
        assert (clause.kind, clause.reason) == ("driver", "the text does not say which values of <flags> are valid")


def test_flags_allowing_an_undefined_name(knowledge: Knowledge) -> None:
    clause = one_clause("values specified in <flags> are not valid", knowledge, parameters=[
        Param("flags", "cl_mem_flags", "Only CL_MEM_READ_ONLY, CL_NO_SUCH_FLAG and CL_NOR_THIS values can be used.")])
    assert clause.kind == "driver"
    assert clause.reason == "the description of <flags> allows CL_NO_SUCH_FLAG, CL_NOR_THIS, which no text defines"


def test_wrapped_naming_one_parameter_twice(knowledge: Knowledge) -> None:
    """The resource as its own subresource was a StopIteration out of the run."""
    clause = one_clause(f"a cl_mem from subresource <r> of <r> has already been created using {CREATE}", knowledge)
    assert (clause.kind, clause.predicate) == ("driver", None)
    assert clause.reason == "speaks of <r> as both the resource and its subresource"


def test_wrapped_without_a_handle_parameter(knowledge: Knowledge) -> None:
    clause = one_clause(f"a cl_mem from <r> has already been created using {CREATE}", knowledge,
                        parameters=[Param("r", "ID3D10Buffer *")])
    assert (clause.kind, clause.reason) == ("driver", "clTestF has no handle parameter to keep its objects apart by")


# -- clauses that once went wrong ---------------------------------------------


def test_invalid_handle_then_or_if_is_two_clauses(knowledge: Knowledge) -> None:
    found = clauses_of("<context> is not a valid context or if <p> is NULL", knowledge)
    assert texts_and_kinds(found) == [("<context> is not a valid context", "driver"), ("<p> is NULL", "host")]


def test_comma_and_after_a_parsed_clause_is_not_a_check_on_its_own(knowledge: Knowledge) -> None:
    found = clauses_of("<n> is zero, and <p> is not NULL", knowledge)
    assert [c.text for c in found] == ["<n> is zero, and <p> is not NULL"]
    assert found[0].predicate != P({"compare": ["n", "==", 0]})


def test_a_clause_after_the_since_sentence_is_its_own(knowledge: Knowledge) -> None:
    text = (f"memory objects in <m> have not previously been acquired using {ACQUIRE}, or have been released using "
            f"{RELEASE} since the last time that they were acquired")
    found = clauses_of(f"{text}, or if <n> is zero and <p> is NULL", knowledge)
    assert texts_and_kinds(found) == [(text, "state"), ("<n> is zero and <p> is NULL", "host")]


def test_a_decimal_number_is_not_truncated(knowledge: Knowledge) -> None:
    clause = one_clause("<n> < 1.5", knowledge)
    assert clause.predicate != P({"compare": ["n", "<", 1]})


@pytest.mark.parametrize("digits", [21, 5000])
def test_a_number_no_c_integer_holds_is_left_to_the_driver(digits: int, knowledge: Knowledge) -> None:
    """5,000 digits passed Python's int-string limit: the run ended in a ValueError."""
    clause = one_clause(f"<n> is equal to {'9' * digits}", knowledge)
    assert clause.kind == "driver" and clause.predicate is None
    assert "compares with a number no argument can hold" in clause.reason and "64-bit" in clause.reason
    assert len(clause.reason) < 200


# -- the real specs ------------------------------------------------------------


EXTENSIONS = {
    "cl_khr_d3d10_sharing": ("D3D10", "KHR"),
    "cl_khr_d3d11_sharing": ("D3D11", "KHR"),
    "cl_nv_d3d10_sharing": ("D3D10", "NV"),
    "cl_nv_d3d11_sharing": ("D3D11", "NV"),
}


def named(result: Result, name: str) -> Extension:
    found = next((e for e in result.extensions if e.name == name), None)
    assert found is not None, name
    return found


def real_function(result: Result, extension_name: str, name: str) -> Function:
    fn = named(result, extension_name).function(name)
    assert fn is not None, name
    return fn


def test_the_real_specs_have_the_four_extensions(seed_result: Result) -> None:
    assert {e.name for e in seed_result.extensions} == set(EXTENSIONS)


@pytest.mark.parametrize("extension_name", sorted(EXTENSIONS))
def test_every_extension_function_has_a_host_clause(extension_name: str, seed_result: Result) -> None:
    own = [f for f in named(seed_result, extension_name).functions if not f.core]
    assert len(own) == 6
    for fn in own:
        kinds = [c.kind for e in fn.errors for c in e.check]
        assert "host" in kinds, fn.name


@pytest.mark.parametrize("extension_name", sorted(EXTENSIONS))
def test_core_functions_of_the_real_specs_are_all_driver(extension_name: str, seed_result: Result) -> None:
    core = [f for f in named(seed_result, extension_name).functions if f.core]
    assert core
    for fn in core:
        for error in fn.errors:
            assert error.check, (fn.name, error.condition)
            assert {c.kind for c in error.check} == {"driver"}


@pytest.mark.parametrize("extension_name", sorted(EXTENSIONS))
def test_every_condition_is_covered_by_its_clauses(extension_name: str, seed_result: Result) -> None:
    """No text lost in the cutting: each clause is a piece of its condition, in order."""
    for fn in named(seed_result, extension_name).functions:
        for error in fn.errors:
            rest = error.condition
            for clause in error.check:
                at = rest.find(clause.text)
                assert at >= 0, (clause.text, error.condition)
                assert rest[:at].strip(" ,").removeprefix("or").strip() in ("", "if"), (rest[:at], error.condition)
                rest = rest[at + len(clause.text):]
            assert rest.strip() == ""


def roles(effect: Effect) -> tuple[tuple[str, str], ...]:
    """The parameters an effect names, by role, in the record's order."""
    return tuple((role, getattr(effect, role)) for role in ("objects", "scope", "resource", "subresource")
                 if getattr(effect, role) is not None)


@pytest.mark.parametrize("extension_name", sorted(EXTENSIONS))
def test_effects_of_the_real_functions(extension_name: str, seed_result: Result) -> None:
    api, vendor = EXTENSIONS[extension_name]
    path = f"specs/{extension_name}.txt"
    objects = (("objects", "mem_objects"),)
    expected = {
        f"clEnqueueAcquire{api}Objects{vendor}": [("acquire", objects)],
        f"clEnqueueRelease{api}Objects{vendor}": [("release", objects)],
        f"clCreateFrom{api}Buffer{vendor}": [("wrap", (("scope", "context"), ("resource", "resource")))],
        f"clCreateFrom{api}Texture2D{vendor}":
            [("wrap", (("scope", "context"), ("resource", "resource"), ("subresource", "subresource")))],
        f"clCreateFrom{api}Texture3D{vendor}":
            [("wrap", (("scope", "context"), ("resource", "resource"), ("subresource", "subresource")))],
        f"clGetDeviceIDsFrom{api}{vendor}": [],
    }
    functions = {f.name: f for f in named(seed_result, extension_name).functions}
    for name, effects in expected.items():
        fn = functions[name]
        assert [(e.kind, roles(e)) for e in fn.effects] == effects, name
        assert all(e.source.path == path for e in fn.effects), name
    assert all(not f.effects for f in functions.values() if f.name not in expected)


def test_the_real_flags_and_damaged_wait_list_clauses(seed_result: Result) -> None:
    create = real_function(seed_result, "cl_khr_d3d10_sharing", "clCreateFromD3D10BufferKHR")
    flags = [c for e in create.errors for c in e.check if c.text == "values specified in <flags> are not valid"]
    assert [c.predicate for c in flags] == [P({"not": {"member": "flags", "of": ALLOWED_FLAGS}})]
    release = real_function(seed_result, "cl_khr_d3d10_sharing", "clEnqueueReleaseD3D10ObjectsKHR")
    damaged = [c for e in release.errors for c in e.check if "<num_events_in_wait_list>>" in c.text]
    assert [(c.kind, c.predicate) for c in damaged] == [
        ("host", P({"all": [{"not": {"null": "event_wait_list"}}, {"compare": ["num_events_in_wait_list", "==", 0]}]}))]


def test_the_real_device_source_is_checked_against_its_group(seed_result: Result) -> None:
    fn = real_function(seed_result, "cl_khr_d3d11_sharing", "clGetDeviceIDsFromD3D11KHR")
    predicates = [c.predicate.to_notation() for e in fn.errors for c in e.check if c.kind == "host" and c.predicate]
    assert {"not": {"member": "d3d_device_source", "of": ["CL_D3D11_DEVICE_KHR", "CL_D3D11_DXGI_ADAPTER_KHR"]}} \
        in predicates
    assert {"not": {"member": "d3d_device_set",
                    "of": ["CL_PREFERRED_DEVICES_FOR_D3D11_KHR", "CL_ALL_DEVICES_FOR_D3D11_KHR"]}} in predicates


def checks(fn: Function) -> list[tuple[str, str, str]]:
    """The code, class and predicate of each host or state clause, with the API version taken out of the names."""
    return [(e.code.replace("D3D10", "D3D1x").replace("D3D11", "D3D1x"), c.kind,
             repr(c.predicate).replace("D3D10", "D3D1x").replace("D3D11", "D3D1x"))
            for e in fn.errors for c in e.check if c.kind != "driver"]


def test_nv_d3d11_recovered_text_checks_as_nv_d3d10(seed_result: Result) -> None:
    """The NV D3D11 text lost its parameter names; once recovered, its clauses give the D3D10 text's checks."""
    nv10, nv11 = named(seed_result, "cl_nv_d3d10_sharing"), named(seed_result, "cl_nv_d3d11_sharing")
    own10 = [f for f in nv10.functions if not f.core]
    assert len(own10) == 6
    recovered = [e for f in nv11.functions if not f.core for e in f.errors if e.recovered == "parameter names"]
    assert len(recovered) >= 6
    for fn10 in own10:
        fn11 = nv11.function(fn10.name.replace("D3D10", "D3D11"))
        assert fn11 is not None, fn10.name
        assert checks(fn10), fn10.name
        assert checks(fn11) == checks(fn10), fn10.name
        assert [(e.kind, roles(e)) for e in fn11.effects] == [(e.kind, roles(e)) for e in fn10.effects], fn10.name


def test_every_real_state_clause_names_an_array_or_the_context(seed_result: Result) -> None:
    for extension in seed_result.extensions:
        for fn in extension.functions:
            for error in fn.errors:
                for clause in error.check:
                    if clause.kind != "state":
                        continue
                    assert clause.predicate is not None
                    ((kind, operand),) = clause.predicate.to_notation().items()
                    if kind == "wrapped":
                        assert operand["scope"] == "context"
                        assert operand["resource"] == "resource"
                    else:
                        assert (kind, operand) in (("acquired", "mem_objects"), ("released", "mem_objects"))


def test_a_clause_the_table_alone_would_end_too_early(knowledge: Knowledge) -> None:
    """After "acquired using F" the table has an action for the end of input, but the grammar wants "but ...":
    the run is no clause, and what follows it still is."""
    pieces = clause_forms.Pieces.of("memory objects in <m> have previously been acquired using F, or if <p> is NULL")
    assert clause_forms.whole_clauses(pieces, 0, exact=False) == [0]
    assert clause_forms.whole_clauses(pieces, 0) == []
    found = clauses_of(f"memory objects in <m> have previously been acquired using {ACQUIRE}, or if <p> is NULL",
                       knowledge)
    assert texts_and_kinds(found) == [
        (f"memory objects in <m> have previously been acquired using {ACQUIRE}", "driver"), ("<p> is NULL", "host")]


def test_a_check_needing_a_token_the_text_gives_no_value_is_left_to_the_driver(knowledge: Knowledge) -> None:
    fn = function("clTestF", "<src> is not a valid value")
    tokens = [Token("CL_TEST_A", 0x4000, "test_source", ELSEWHERE), Token("CL_TEST_B", None, "test_source", ELSEWHERE)]
    read, _ = attach(extension(fn, groups=[source_group(("clTestF",), "src")], tokens=tokens), knowledge)
    (clause,) = read["clTestF"].errors[0].check
    assert (clause.kind, clause.predicate) == ("driver", None)
    assert clause.reason.endswith("the text gives no value for CL_TEST_B")
