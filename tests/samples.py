"""Small made-up extensions for tests of single stages: one in the classic registry format (WIDGET), one in the
form of the OpenCL book's checkout (GIZMO_*: a book, its core file, an appendix page, the registry XML)."""

WIDGET = """\
Name String

    cl_acme_widget

Version

    Version 3, 2026

New Procedures and Functions

    cl_int clDoWidgetACME(cl_context context,
                          cl_widget_mode_acme mode,
                          UINT level)

New Tokens

    Accepted as a widget mode in the <mode> parameter of clDoWidgetACME:

        CL_WIDGET_FAST_ACME      0x7001
        CL_WIDGET_SLOW_ACME      0x7002

    Accepted as the property being queried in the <param_name> parameter
    of clGetContextInfo:

        CL_CONTEXT_WIDGET_ACME   0x7003

    Returned by clDoWidgetACME when <level> is too high:

        CL_WIDGET_TOO_HIGH_ACME  -7001

Additions to Chapter 5 of the OpenCL 1.2 Specification

    Add to the list of errors for clGetContextInfo:

      * CL_INVALID_VALUE if <param_name> is CL_CONTEXT_WIDGETS_ACME and the
        context has no widget.

    cl_context_info            Return type   Info. returned in param_value
    ---------------            -----------   -----------------------------
    CL_CONTEXT_WIDGET_ACME     cl_context    Returns the <level> argument.

    The function

        cl_int clDoWidgetACME(cl_context context,
                              cl_widget_mode_acme mode,
                              UINT level)

    does the widget.

    <context> is a valid context.

    <mode> is the widget mode.

    clDoFrobACME returns CL_SUCCESS if the function is executed
    successfully. Otherwise it returns one of the following errors:

      * CL_INVALID_CONTEXT if <context> is not a valid context.

      * CL_INVALID_VALUE if <mode> is not a valid value, or if setting
        CL_WIDGET_TOO_HIGH_ACME to a value is tried.
"""

#: A registry XML for the sample: some of it agrees with the text, the rest differs once in each way it can.
WIDGET_XML = """\
<?xml version="1.0" encoding="UTF-8"?>
<registry>
  <types>
    <type category="define">typedef <type>cl_uint</type> <name>cl_widget_mode_acme</name>;</type>
  </types>
  <enums name="enums.7000" vendor="ACME">
    <enum value="0x7001" name="CL_WIDGET_FAST_ACME"/>
    <enum value="0x7009" name="CL_WIDGET_SLOW_ACME"/>
    <enum value="SIZE_MAX" name="CL_CONTEXT_WIDGET_ACME"/>
    <enum value="0x7004" name="CL_WIDGET_EXTRA_ACME"/>
    <enum value="0x7005" name="CL_WIDGET_OTHER_ACME"/>
  </enums>
  <commands>
    <command>
      <proto><type>cl_int</type> <name>clDoWidgetACME</name></proto>
      <param><type>cl_context</type> <name>ctx</name></param>
      <param><type>cl_widget_mode_acme</type> <name>mode</name></param>
      <param><type>cl_uint</type> <name>level</name></param>
    </command>
  </commands>
  <extensions>
    <extension name="cl_acme_widget" supported="opencl">
      <require comment="cl_widget_mode_acme">
        <enum name="CL_WIDGET_FAST_ACME"/>
        <enum name="CL_WIDGET_SLOW_ACME"/>
        <enum name="CL_WIDGET_EXTRA_ACME"/>
      </require>
      <require>
        <command name="clDoWidgetACME"/>
        <command name="clUndoWidgetACME"/>
      </require>
    </extension>
    <extension name="cl_acme_context" supported="opencl">
      <require comment="cl_context_info"><enum name="CL_CONTEXT_WIDGET_ACME"/></require>
    </extension>
  </extensions>
</registry>
"""


# The book's form: the reference page of a command, the items it adds to a core function's error list and
# query table inside its `ifdef`, its appendix page, and its registry XML.
GIZMO_BOOK = """= The Book
:numbered:

include::api/core.asciidoc[]
"""

GIZMO_CORE = """== Memory Objects

[open,refpage='clGetMemObjectInfo',desc='Query',type='protos']
--
To get information common to all memory objects, call the function

include::{generated}/api/protos/clGetMemObjectInfo.txt[]

[[mem-info-table]]
.List of supported param_names by {clGetMemObjectInfo}
[width="100%",cols="<33%,<17%,<50%",options="header"]
|====
| Memory Object Info | Return type | Description
| {CL_MEM_TYPE_anchor}
  | {cl_mem_object_type_TYPE}
    | Returns the type.
ifdef::cl_acme_gizmo[]
| {CL_MEM_GIZMO_ACME_anchor}
  | {cl_uint_TYPE}
    | If _memobj_ was made by {clMakeGizmoACME}, returns its _kind_ argument.
endif::cl_acme_gizmo[]
|====

// refError

{clGetMemObjectInfo} returns {CL_SUCCESS} if the function is executed
successfully.
Otherwise, it returns one of the following errors:

  * {CL_INVALID_MEM_OBJECT} if _memobj_ is a not a valid memory object.
ifdef::cl_acme_gizmo[]
  * {CL_INVALID_GIZMO_ACME} if _param_name_ is {CL_MEM_GIZMO_ACME} and
    _memobj_ was not made by {clMakeGizmoACME}.
endif::cl_acme_gizmo[]
--

ifdef::cl_acme_gizmo[]
=== Gizmos

[open,refpage='clMakeGizmoACME',desc='Make a gizmo',type='protos']
--
To make a gizmo, call the function

include::{generated}/api/protos/clMakeGizmoACME.txt[]

  * _context_ is a valid OpenCL context.
  * _kind_ is the kind of gizmo.
  * _errcode_ret_ will return an appropriate error code.

// refError

{clMakeGizmoACME} returns a valid non-zero memory object and _errcode_ret_
is set to {CL_SUCCESS} if it is made successfully.
Otherwise, it returns a `NULL` value with one of the following error values
returned in _errcode_ret_:

  * {CL_INVALID_CONTEXT} if _context_ is not a valid context.
  * {CL_INVALID_VALUE} if _kind_ is not one of the kinds of gizmo.
--
endif::cl_acme_gizmo[]

ifdef::cl_other_thing[]
  * {CL_INVALID_VALUE} if this belongs to another extension.
endif::cl_other_thing[]
"""

GIZMO_PAGE = """include::{generated}/meta/{refprefix}cl_acme_gizmo.txt[]

=== Description

{cl_acme_gizmo_EXT} makes gizmos.

=== New Commands

  * {clMakeGizmoACME}

=== New Types

  * {cl_gizmo_kind_acme_TYPE}

=== New Enums

  * {cl_gizmo_kind_acme_TYPE}
  ** {CL_GIZMO_ROUND_ACME}
  * {cl_mem_info_TYPE}
  ** {CL_MEM_GIZMO_ACME}
  * New Error Codes
  ** {CL_INVALID_GIZMO_ACME}

=== Version History

  * Revision 1.0.0, 2026-01-01
  ** First version.
"""

GIZMO_XML = """<?xml version="1.0" encoding="UTF-8"?>
<registry>
    <types>
        <type category="define">typedef <type>cl_uint</type> <name>cl_gizmo_kind_acme</name>;</type>
    </types>
    <enums name="enums.9000" start="0x9000" end="0x900F">
        <enum value="0x9000" name="CL_GIZMO_ROUND_ACME"/>
        <enum value="0x9001" name="CL_MEM_GIZMO_ACME"/>
        <enum value="-9000" name="CL_INVALID_GIZMO_ACME"/>
    </enums>
    <commands>
        <command>
            <proto><type>cl_mem</type> <name>clMakeGizmoACME</name></proto>
            <param><type>cl_context</type> <name>context</name></param>
            <param><type>cl_gizmo_kind_acme</type> <name>kind</name></param>
            <param><type>cl_int</type>* <name>errcode_ret</name></param>
        </command>
    </commands>
    <extensions>
        <extension name="cl_acme_gizmo" supported="opencl">
            <require>
                <type name="cl_gizmo_kind_acme"/>
                <enum name="CL_GIZMO_ROUND_ACME"/>
                <enum name="CL_MEM_GIZMO_ACME"/>
                <enum name="CL_INVALID_GIZMO_ACME"/>
                <command name="clMakeGizmoACME"/>
            </require>
        </extension>
    </extensions>
</registry>
"""


#: A made-up vendor text using a type of the EGL sharing extension and a struct of a vendor's host-pointer one,
#: and naming a token of the latter without its value: only the registry XML defines them.
GADGET = """\
Name String

    cl_acme_gadget

Version

    Version 1, 2026

New Procedures and Functions

    cl_int clAttachGadgetACME(cl_context context,
                              CLeglDisplayKHR display,
                              cl_mem_ext_host_ptr * host)

New Tokens

    Accepted in the <flags> parameter of clCreateBuffer:

        CL_MEM_EXT_HOST_PTR_QCOM

    Returned by clAttachGadgetACME when <display> is not one:

        CL_INVALID_GADGET_ACME   -7101

Additions to Chapter 5 of the OpenCL 1.2 Specification

    clAttachGadgetACME returns CL_SUCCESS if the function is executed
    successfully. Otherwise it returns one of the following errors:

      * CL_INVALID_CONTEXT if <context> is not a valid context.

      * CL_INVALID_GADGET_ACME if <display> is not a valid display.
"""

#: A registry XML a user gives beside GADGET: it defines the display handle otherwise than the project's copy.
OWN_XML = """<?xml version="1.0" encoding="UTF-8"?>
<registry>
  <types>
    <type category="define">typedef <type>cl_uint</type> <name>CLeglDisplayKHR</name>;</type>
    <type category="struct" name="cl_mem_ext_host_ptr">
      <member><type>cl_uint</type> <name>allocation_type</name></member>
    </type>
  </types>
  <enums name="gadget">
    <enum value="0x4000" name="CL_MEM_EXT_HOST_PTR_QCOM"/>
  </enums>
</registry>
"""

#: A made-up extension in the AsciiDoc form of 2017 (`+literal+` names, no token section), adding to a core
#: function's list of errors and naming another extension's token in its prose.
LANES_2017 = """\
// Made up for the tests.

[[cl_khr_lanes]]
== Lanes

This section describes the *cl_khr_lanes* extension. A queue may have a high
priority (+CL_QUEUE_PRIORITY_HIGH_KHR+) and run in lanes.

[[cl_khr_lanes-host-side-api-modifications]]
=== Host-side API modifications

The function *+clCreateCommandQueueWithProperties+* (Section 5.1) is extended to accept the +CL_QUEUE_LANES_KHR+
property.

The properties field accepts the following values:

* +CL_QUEUE_LANES_ONE_KHR+ (one lane)
* +CL_QUEUE_LANES_TWO_KHR+ (two lanes)

To the error section for *+clCreateCommandQueueWithProperties+*, the following is added:

* +CL_INVALID_QUEUE_PROPERTIES+ if the +CL_QUEUE_LANES_KHR+ property is specified and the queue is a
+CL_QUEUE_ON_DEVICE+.
"""
