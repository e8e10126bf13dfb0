"""C prototypes and typedefs (grammar/c_decl.lark), in the canonical type spelling."""

from __future__ import annotations

import re

import pytest

from generator.base import c_decl, type_spelling
from generator.base.errors import InputError
from generator.base.source import Pos, SpecFile

SPEC = SpecFile("x.h", "")


def parse(text: str) -> list[c_decl.CDeclaration]:
    return c_decl.parse(text, SPEC, Pos(1, 1))


def test_prototype_over_several_lines() -> None:
    (function,) = parse("cl_int clFoo(cl_command_queue queue,\n    const cl_mem *objects,\n    cl_event *event)")
    assert isinstance(function, c_decl.CFunction)
    assert (function.name, function.return_type) == ("clFoo", "cl_int")
    assert [(p.name, p.type) for p in function.params] == [
        ("queue", "cl_command_queue"), ("objects", "const cl_mem *"), ("event", "cl_event *")]


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ("const cl_mem *mem_objects", ("const cl_mem *", "mem_objects")),
        ("cl_mem const* mem_objects", ("const cl_mem *", "mem_objects")),
        ("void **p", ("void * *", "p")),
        ("unsigned int count", ("unsigned int", "count")),
        ("unsigned int", ("unsigned int", None)),
        ("cl_int *", ("cl_int *", None)),
        ("ID3D10Buffer*resource", ("ID3D10Buffer *", "resource")),
    ],
)
def test_canonical_spelling(words: str, expected: tuple[str, str | None]) -> None:
    (function,) = parse(f"void f({words})")
    assert isinstance(function, c_decl.CFunction)
    assert (function.params[0].type, function.params[0].name) == expected


def test_void_parameter_list_and_several_declarations() -> None:
    first, second, third = parse("cl_mem f(void); typedef cl_uint cl_thing_khr; int g(int a)")
    assert isinstance(first, c_decl.CFunction) and first.params == ()
    assert second == c_decl.CTypedef("cl_thing_khr", "cl_uint", Pos(1, 17))
    assert isinstance(third, c_decl.CFunction) and third.pos == Pos(1, 47)


def test_empty_parentheses_are_no_parameters_in_opencl_c() -> None:
    """The book lists OpenCL C built-ins as `uint4 get_sub_group_eq_mask()`: read as `(void)`, their callbacks'
    too."""
    first, second, taking = parse("uint4 acme_get_mask()\nuint4 acme_get_other_mask()\n"
                                  "int acme_on(void (*notify)());")
    for kernel in (first, second):
        assert isinstance(kernel, c_decl.CFunction) and kernel.kernel and kernel.params == ()
    assert isinstance(taking, c_decl.CFunction) and [p.type for p in taking.params] == ["void ( * )(void)"]


@pytest.mark.parametrize(("text", "at", "where"), [
    ("cl_int clFlushACME(\n        );", "2:9", "the prototype of clFlushACME"),  # a list lost in damage
    ("cl_int clOnACME(void (CL_CALLBACK *notify)());", "1:44", "a function pointer in the prototype of clOnACME"),
    ("typedef void (CL_CALLBACK *cl_notify_acme)();", "1:44", "a function pointer in a typedef"),
    ("cl_int clMakeACME(/* params lost */);", "1:36", "the prototype of clMakeACME"),
])
def test_the_host_api_writes_void_and_empty_parentheses_are_refused(text: str, at: str, where: str) -> None:
    """`()` in the host API's C is a list the text lost, not none: the binding would call the driver's function
    with no arguments."""
    error = parse_error(text)
    assert error.render().startswith(f"x.h:{at}: error: an empty parameter list in {where}: the host API "
                                    "writes `(void)` for none (were the parameters lost?)")


def test_error_position_is_shifted_to_the_file() -> None:
    spec = SpecFile("specs/x.txt", "line one\n    cl_int f(cl_int a b c,)")
    with pytest.raises(InputError) as caught:
        c_decl.parse("cl_int f(cl_int a b c,)", spec, Pos(2, 5))
    assert caught.value.render() == (
        "specs/x.txt:2:27: error: unexpected ')'; expected one of '*', '^', 'const', identifier\n"
        "        cl_int f(cl_int a b c,)\n"
        "                              ^"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("int clF(cl_event event_wa t_list)",
         "1:9: error: `cl_event event_wa` is not a C type in the prototype of clF"),
        ("int clF(const)", "1:9: error: a parameter without a type in the prototype of clF"),
        ("struct f(int a)", "1:1: error: function prototype without a name"),
        ("long long int f(int a)", None),
    ],
)
def test_words_that_make_no_type(text: str, message: str | None) -> None:
    if message is None:
        assert c_decl.parse(text, SpecFile("x.h", text), Pos(1, 1))
        return
    with pytest.raises(InputError) as caught:
        c_decl.parse(text, SpecFile("x.h", text), Pos(1, 1))
    assert str(caught.value).startswith(f"x.h:{message}")


def parse_error(text: str) -> InputError:
    with pytest.raises(InputError) as caught:
        c_decl.parse(text, SpecFile("x.h", text), Pos(1, 1))
    return caught.value


@pytest.mark.parametrize(("text", "column", "label"), [
    ("void clF(cl_mem " + "*" * 13 + "p)", 29, "parameter p of clF"),
    ("void clF(int a, cl_mem " + "*" * 500 + "p)", 36, "parameter p of clF"),
    ("cl_mem " + "*" * 13 + " clF(void)", 20, "function clF"),
    ("typedef cl_uint " + "*" * 20 + " cl_deep_t;", 29, "typedef cl_deep_t"),
])
def test_more_pointer_levels_than_c_takes_are_an_error_at_the_first_one_too_many(text: str, column: int,
                                                                               label: str) -> None:
    """cffi walks a type one level per call: 500 levels exhausted Python's stack (a RecursionError traceback)."""
    error = parse_error(text)
    assert error.pos == Pos(1, column) and text[column - 1] == "*"
    assert error.message.startswith(f"{text.count('*')} pointer levels in the declaration of {label}; C declarations "
                                    "take 12 at most")


def test_twelve_pointer_levels_are_taken() -> None:
    (function,) = parse("cl_int " + "*" * 12 + " f(void " + "*" * 12 + "p)")
    assert isinstance(function, c_decl.CFunction)
    assert function.return_type.count("*") == function.params[0].type.count("*") == 12


@pytest.mark.parametrize(("text", "column", "message"), [
    ("void clF(cl_uint register)", 18, "'register' is a C keyword; it cannot name a parameter of clF"),
    ("void clF(cl_uint a, cl_mem restrict)", 28, "'restrict' is a C keyword; it cannot name a parameter of clF"),
    ("void clF(cl_uint true)", 18, "'true' is a C keyword"),
    ("void clF(cl_uint offsetof)", 18, "'offsetof' is a C keyword"),
    ("void clF(cl_uint __x)", 18, "'__x' is an identifier C reserves for the implementation"),
    ("typedef cl_uint _Widget;", 17, "'_Widget' is an identifier C reserves for the implementation (an underscore "
                                     "and a capital or another underscore); it cannot name a type"),
    ("typedef cl_uint while;", 17, "'while' is a C keyword; it cannot name a type"),
    ("typedef while cl_loop_t;", 9, "'while' is a C keyword that makes no type, in the declaration of typedef "
                                    "cl_loop_t"),
    ("static cl_int clF(cl_uint x)", 1, "'static' is a C keyword that makes no type, in the declaration of function "
                                    "clF"),
])
def test_a_name_c_reserves_is_an_error_where_it_is_declared(text: str, column: int, message: str) -> None:
    """pycparser took `register` and `restrict` as qualifiers of a nameless parameter (a wrong cdef, silently),
    and refused `struct` or `sizeof` with an error that named no spec."""
    error = parse_error(text)
    assert error.pos == Pos(1, column)
    assert error.message.startswith(message)


@pytest.mark.parametrize("text", ["void f(cl_uint _x, cl_uint int_value, unsigned int n)",
                                  "typedef cl_uint cl_bool_t;", "typedef unsigned int cl_wide_t;",
                                  "typedef const volatile struct cl_tag * cl_tagged_t;"])
def test_names_c_leaves_to_programs_are_taken(text: str) -> None:
    assert parse(text)


def test_function_pointer_parameter_with_a_calling_convention_and_names_in_comments() -> None:
    (function,) = parse("void f(cl_platform_id platform,\n    void (CL_CALLBACK * report_fn)(\n"
                        "        void* /* user_data */, const char* /* name */, cl_uint /* count */),\n"
                        "    void* user_data);")
    assert isinstance(function, c_decl.CFunction)
    assert [(p.name, p.type) for p in function.params] == [
        ("platform", "cl_platform_id"), ("report_fn", "void ( * )(void *, const char *, cl_uint)"),
        ("user_data", "void *")]
    assert type_spelling.parts(function.params[1].type) == ["void", "void *", "const char *", "cl_uint"]


def test_function_pointer_typedef() -> None:
    (typedef,) = parse("typedef void (CL_CALLBACK *cl_notify_fn)(cl_event event, cl_int, void *user_data);")
    assert typedef == c_decl.CTypedef("cl_notify_fn", "void ( * )(cl_event, cl_int, void *)", Pos(1, 1))


def test_struct_typedef_keeps_its_members_and_arrays_their_sizes() -> None:
    (typedef,) = parse("typedef struct _cl_thing\n{\n    // what it is\n    cl_uint  kind;\n\n"
                       "    cl_uint  sizes[4];\n    void (*release)(void *);\n} cl_thing;")
    assert isinstance(typedef, c_decl.CTypedef)
    assert (typedef.name, typedef.c_type, typedef.record) == ("cl_thing", "struct _cl_thing", "struct")
    assert [(m.name, m.type) for m in typedef.members] == [
        ("kind", "cl_uint"), ("sizes", "cl_uint [4]"), ("release", "void ( * )(void *)")]


def test_enum_typedef_keeps_its_enumerators_as_written() -> None:
    (typedef,) = parse("typedef enum _cl_mode { CL_MODE_A = 0x1, CL_MODE_B = (1 << 2), CL_MODE_C, } cl_mode;")
    assert isinstance(typedef, c_decl.CTypedef) and typedef.record == "enum"
    assert [(e.name, e.literal) for e in typedef.enumerators] == [
        ("CL_MODE_A", "0x1"), ("CL_MODE_B", "(1 << 2)"), ("CL_MODE_C", None)]
    assert typedef.enumerators[1].pos == Pos(1, 42)


def test_array_parameters_are_pointers_as_c_adjusts_them() -> None:
    (function,) = parse("cl_int f(void *svm_pointers[], const size_t origin[3])")
    assert isinstance(function, c_decl.CFunction)
    assert [p.type for p in function.params] == ["void * *", "const size_t *"]
    with pytest.raises(InputError, match="an array of arrays"):
        parse("int f(int a[2][3]);")


def test_the_headers_decorations_are_no_part_of_a_type() -> None:
    (function,) = parse("CL_API_ENTRY cl_int CL_API_CALL clFoo(cl_uint count)")
    assert isinstance(function, c_decl.CFunction)
    assert (function.return_type, function.name) == ("cl_int", "clFoo")


@pytest.mark.parametrize("text", ["/* only a comment */", "  // one\n\n/* two */ ", ""])
def test_blank_code(text: str) -> None:
    assert c_decl.is_blank(text)
    assert not c_decl.is_blank(text + " int x;")
    assert not c_decl.is_blank("/* never closed int x;")


def test_a_decoration_after_the_parameters_is_no_part_of_the_declaration() -> None:
    first, second = parse("cl_int CL_API_CALL clFoo(cl_uint count) CL_API_SUFFIX__VERSION_1_2;\n"
                          "void clBar(void (CL_CALLBACK *pfn)(void *)) CL_API_SUFFIX__VERSION_1_2")
    assert isinstance(first, c_decl.CFunction) and isinstance(second, c_decl.CFunction)
    assert (first.name, first.params[0].name, second.pos) == ("clFoo", "count", Pos(2, 1))


# -- evident slips, read as the text meant them (issue: recover, don't refuse) --------------------------------


@pytest.mark.parametrize(("text", "where"), [
    ("typedef cl_bitfield cl_flags_acme", [(1, 34)]),  # a one-line listing without its `;`
    ("typedef cl_uint cl_a_acme\ntypedef cl_uint cl_b_acme;\n", [(1, 26)]),
    ("typedef cl_uint cl_a_acme\n\n  typedef cl_uint cl_b_acme\n", [(1, 26), (3, 28)]),
    ("typedef struct _cl_pair_acme {\n    cl_uint first,\n    cl_uint second\n} cl_pair_acme;\n", [(2, 18), (3, 19)]),
    ("typedef struct _cl_pair_acme { cl_uint first; cl_uint second } cl_pair_acme;", [(1, 61)]),
    ("typedef struct _cl_pair_acme {\n    cl_uint first\n    cl_uint second;\n} cl_pair_acme;\n", [(2, 18)]),
    ("typedef struct _cl_pair_acme {\n    cl_uint first\n    const char *second;\n} cl_pair_acme;\n", [(2, 18)]),
])
def test_a_missing_semicolon_or_a_comma_between_members_is_read_with_a_slip_where_it_stands(
    text: str, where: list[tuple[int, int]],
) -> None:
    slips: list[c_decl.Slip] = []
    declarations = c_decl.parse(text, SpecFile("specs/x.txt", text), Pos(1, 1), slips)
    assert [(s.pos.line, s.pos.column) for s in slips] == where
    assert all(isinstance(d, c_decl.CTypedef) for d in declarations) and declarations
    if "struct" in text:
        (pair,) = declarations
        assert isinstance(pair, c_decl.CTypedef) and [m.name for m in pair.members] == ["first", "second"]
        assert all(" " not in m.type.replace("const ", "").replace(" *", "") for m in pair.members)
    with pytest.raises(InputError):  # the strict reading, where no slip is taken
        c_decl.parse(text, SpecFile("specs/x.txt", text), Pos(1, 1))


@pytest.mark.parametrize("text", [
    "typedef cl_uint cl_a_acme typedef cl_uint cl_b_acme;",  # no line break: not a missing `;`
    "cl_int clFooACME(cl_uint a,, cl_uint b);",  # a doubled comma in a parameter list
    "typedef cl_uint;",
])
def test_what_is_no_evident_slip_is_still_refused(text: str) -> None:
    with pytest.raises(InputError):
        c_decl.parse(text, SpecFile("specs/x.txt", text), Pos(1, 1), [])


def test_a_listing_of_many_slips_is_no_c_with_slips() -> None:
    text = "".join(f"typedef cl_uint cl_t{i}_acme\n" for i in range(c_decl.MOST_SLIPS + 1))
    with pytest.raises(InputError):
        c_decl.parse(text, SpecFile("specs/x.txt", text), Pos(1, 1), [])
    slips: list[c_decl.Slip] = []
    assert len(c_decl.parse(text.replace("cl_t0_acme\n", "cl_t0_acme;\n"), SpecFile("specs/x.txt", text),
                            Pos(1, 1), slips)) == c_decl.MOST_SLIPS + 1
    assert len(slips) == c_decl.MOST_SLIPS


def test_a_kernel_language_function_may_take_a_block_and_opencl_c_types() -> None:
    text = ("int enqueue_marker_acme(queue_t queue, __global uint *counts, char4 mask,\n"
            "                        void (^block)(void));")
    (function,) = parse(text)
    assert isinstance(function, c_decl.CFunction)
    assert [p.type for p in function.params] == ["queue_t", "__global uint *", "char4",
                                                 "void ( ^ )(void)"]


@pytest.mark.parametrize("text", ["cl_int clRunACME(void (^block)(void));", "typedef void (^cl_done_acme)(void);"])
def test_the_host_api_takes_no_block(text: str) -> None:
    with pytest.raises(InputError, match="block"):
        parse(text)


@pytest.mark.parametrize(("text", "kernel"), [
    ("uint acme_get_core_id(void);", True),
    ("int acme_dot(char4 a, char4 b);", True),
    ("void CL_CALLBACK acme_notify(cl_event event, cl_int status, void *data);", False),  # a program's callback
    ("cl_int clDoACME(cl_context context);", False),
])
def test_a_function_is_the_kernel_languages_by_its_name_and_its_types(text: str, kernel: bool) -> None:
    (function,) = parse(text)
    assert isinstance(function, c_decl.CFunction) and function.kernel is kernel


def test_opencl_cs_own_cl_types_keep_a_built_in_the_kernel_languages() -> None:
    (function,) = parse("void acme_barrier(cl_mem_fence_flags flags);")
    assert isinstance(function, c_decl.CFunction) and function.kernel


@pytest.mark.parametrize(("text", "says"), [
    ("int acme_dot(char4 a\n             char4 b);", "`char4 a char4` is no type of OpenCL C"),  # a `,` missing
    ("int ^acme_f(int x);", "a `^` stands only before a block's name"),
    ("int acme_g(int ^^x, float ^ y);", "a `^` stands only before a block's name"),
    ("int acme_enqueue(queue_t q, void (^block)(cl_event e));", "takes a block"),  # a host type: a host function
])
def test_what_is_neither_opencl_c_nor_host_c_is_refused(text: str, says: str) -> None:
    with pytest.raises(InputError, match=re.escape(says)):
        parse(text)


@pytest.mark.parametrize("text", ["void * CLAllocWidgetACME(size_t size, unsigned int alignment);",
                                  "cl_widget_acme clcreateWidgetACME(const cl_widget_desc_acme *desc);"])
def test_a_host_name_misspelt_or_a_host_type_keeps_a_function_the_host_apis(text: str) -> None:
    (function,) = parse(text)
    assert isinstance(function, c_decl.CFunction) and not function.kernel


def test_a_member_whose_words_make_no_type_is_refused_not_kept() -> None:
    """`cl_uint width` over `*next;` is no slip that can be told: refused where it stands (it reached the IR as
    the type `cl_uint width`, which broke its schema: an internal error)."""
    text = "typedef struct _cl_node_acme {\n    cl_uint width\n    *next;\n} cl_node_acme;\n"
    with pytest.raises(InputError, match="not a C type"):
        c_decl.parse(text, SpecFile("specs/x.txt", text), Pos(1, 1), [])


@pytest.mark.parametrize(("text", "why"), [
    ("cl_int clDoACME(void (CL_CALLBACK *a)(void (CL_CALLBACK *b)(void *), void *), void *data);",
     "no function of the host API takes one"),  # it reached the IR, whose schema it broke: an internal error
    ("int acme_f(" + "void (^b)(" * 400 + "void" + ")" * 400 + ");", "nested more than 12 deep"),  # a traceback
])
def test_a_function_pointer_nested_past_what_the_api_takes_is_refused(text: str, why: str) -> None:
    with pytest.raises(InputError, match=why):
        parse(text)
