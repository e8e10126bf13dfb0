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
