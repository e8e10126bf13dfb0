"""A small made-up extension in the classic registry format, for tests of single stages."""

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
