"""cl_khr_d3d10_sharing: its tokens as enums, and its functions under their C names.

Each function takes the C parameters in C order: a handle or pointer takes None (NULL), a cffi
pointer, an int address or an object with `int_ptr`; a `const T *` array also takes a sequence. A
non-success return code or error code becomes the matching `errors.CLError`. The function is looked
up for the platform of its first handle argument when first called there; a platform without the
extension raises `errors.ExtensionNotSupportedError`.

Generated from specs/clEnqueueReleaseD3D10ObjectsKHR.txt, specs/cl_khr_d3d10_sharing.txt by the
generator 0.1.0; do not edit.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Final, Literal, overload

import _cffi_backend

from . import _library, _lifetime, _marshal
from . import errors as _errors
from ._binding import Binding, Entry
from ._d3d10_enums import CommandType, ContextProperties, D3DDeviceSet, D3DDeviceSource, ErrorCode, ImageInfo, MemInfo
from ._khr_d3d10_ffi import ffi
from ._marshal import Array, CData, Pointer
from ._state import Refused as _Refused
from ._state import Tracker
from .errors import Check, Condition

if TYPE_CHECKING:  # PyOpenCL's classes, for what `as_pyopencl=True` returns; never imported at run time
    import pyopencl

__all__ = [
    'CL_ALL_DEVICES_FOR_D3D10_KHR',
    'CL_COMMAND_ACQUIRE_D3D10_OBJECTS_KHR',
    'CL_COMMAND_RELEASE_D3D10_OBJECTS_KHR',
    'CL_CONTEXT_D3D10_DEVICE_KHR',
    'CL_CONTEXT_D3D10_PREFER_SHARED_RESOURCES_KHR',
    'CL_D3D10_DEVICE_KHR',
    'CL_D3D10_DXGI_ADAPTER_KHR',
    'CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR',
    'CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR',
    'CL_IMAGE_D3D10_SUBRESOURCE_KHR',
    'CL_INVALID_D3D10_DEVICE_KHR',
    'CL_INVALID_D3D10_RESOURCE_KHR',
    'CL_MEM_D3D10_RESOURCE_KHR',
    'CL_PREFERRED_DEVICES_FOR_D3D10_KHR',
    'C_NAMES',
    'ERROR_NAMES',
    'EXTENSION',
    'GENERATOR_VERSION',
    'REVISION',
    'SOURCES',
    'VENDOR',
    'CommandType',
    'ContextInfo',
    'ContextProperties',
    'D3DDeviceSet',
    'D3DDeviceSource',
    'ErrorCode',
    'ImageInfo',
    'MemInfo',
    'acquired',
    'clCreateFromD3D10BufferKHR',
    'clCreateFromD3D10Texture2DKHR',
    'clCreateFromD3D10Texture3DKHR',
    'clEnqueueAcquireD3D10ObjectsKHR',
    'clEnqueueReleaseD3D10ObjectsKHR',
    'clGetDeviceIDsFromD3D10KHR',
    'conditions',
    'context_d3d10_prefer_shared_resources',
    'create_context',
    'create_from_d3d10_buffer',
    'create_from_d3d10_texture2d',
    'create_from_d3d10_texture3d',
    'enqueue_acquire_d3d10_objects',
    'enqueue_release_d3d10_objects',
    'ffi',
    'get_device_ids_from_d3d10',
    'image_d3d10_subresource',
    'mem_d3d10_resource',
    'supported',
]

EXTENSION: Final = 'cl_khr_d3d10_sharing'
VENDOR: Final = 'KHR'
REVISION: Final[str | None] = None
SOURCES: Final = ('specs/clEnqueueReleaseD3D10ObjectsKHR.txt', 'specs/cl_khr_d3d10_sharing.txt')
GENERATOR_VERSION: Final = '0.1.0'


class ContextInfo(IntEnum):
    """Accepted as a property name in the param_name parameter of clGetContextInfo
    [specs/cl_khr_d3d10_sharing.txt:86]
    """

    CONTEXT_D3D10_PREFER_SHARED_RESOURCES = 16428


CL_D3D10_DEVICE_KHR: Final = D3DDeviceSource.D3D10_DEVICE
'0x4010 (16400)'
CL_D3D10_DXGI_ADAPTER_KHR: Final = D3DDeviceSource.D3D10_DXGI_ADAPTER
'0x4011 (16401)'
CL_PREFERRED_DEVICES_FOR_D3D10_KHR: Final = D3DDeviceSet.PREFERRED_DEVICES_FOR_D3D10
'0x4012 (16402)'
CL_ALL_DEVICES_FOR_D3D10_KHR: Final = D3DDeviceSet.ALL_DEVICES_FOR_D3D10
'0x4013 (16403)'
CL_CONTEXT_D3D10_DEVICE_KHR: Final = ContextProperties.CONTEXT_D3D10_DEVICE
'0x4014 (16404)'
CL_CONTEXT_D3D10_PREFER_SHARED_RESOURCES_KHR: Final = ContextInfo.CONTEXT_D3D10_PREFER_SHARED_RESOURCES
'0x402C (16428)'
CL_MEM_D3D10_RESOURCE_KHR: Final = MemInfo.MEM_D3D10_RESOURCE
'0x4015 (16405)'
CL_IMAGE_D3D10_SUBRESOURCE_KHR: Final = ImageInfo.IMAGE_D3D10_SUBRESOURCE
'0x4016 (16406)'
CL_COMMAND_ACQUIRE_D3D10_OBJECTS_KHR: Final = CommandType.COMMAND_ACQUIRE_D3D10_OBJECTS
'0x4017 (16407)'
CL_COMMAND_RELEASE_D3D10_OBJECTS_KHR: Final = CommandType.COMMAND_RELEASE_D3D10_OBJECTS
'0x4018 (16408)'
CL_INVALID_D3D10_DEVICE_KHR: Final = ErrorCode.INVALID_D3D10_DEVICE
'-1002'
CL_INVALID_D3D10_RESOURCE_KHR: Final = ErrorCode.INVALID_D3D10_RESOURCE
'-1003'
CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR: Final = ErrorCode.D3D10_RESOURCE_ALREADY_ACQUIRED
'-1004'
CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR: Final = ErrorCode.D3D10_RESOURCE_NOT_ACQUIRED
'-1005'

#: The error codes this extension defines, by C name.
ERROR_NAMES: Final = (
    'CL_INVALID_D3D10_DEVICE_KHR',
    'CL_INVALID_D3D10_RESOURCE_KHR',
    'CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR',
    'CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR',
)
#: The C function each Pythonic function calls, by Pythonic name.
C_NAMES: Final[dict[str, str]] = {
    'get_device_ids_from_d3d10': 'clGetDeviceIDsFromD3D10KHR',
    'create_from_d3d10_buffer': 'clCreateFromD3D10BufferKHR',
    'create_from_d3d10_texture2d': 'clCreateFromD3D10Texture2DKHR',
    'create_from_d3d10_texture3d': 'clCreateFromD3D10Texture3DKHR',
    'enqueue_acquire_d3d10_objects': 'clEnqueueAcquireD3D10ObjectsKHR',
    'enqueue_release_d3d10_objects': 'clEnqueueReleaseD3D10ObjectsKHR',
}

_ERRORS = _errors.scope(ERROR_NAMES)
_CONDITIONS: dict[str, dict[int, tuple[Condition, ...]]] = {
    'clGetDeviceIDsFromD3D10KHR': {
        -32: (  # CL_INVALID_PLATFORM
            Condition('platform is not a valid platform', 'specs/cl_khr_d3d10_sharing.txt:328'),
        ),
        -30: (  # CL_INVALID_VALUE
            Condition(
                'd3d_device_source is not a valid value, d3d_device_set is not a valid value, num_entries is equal to '
                'zero and devices is not NULL, or if both num_devices and devices are NULL',
                'specs/cl_khr_d3d10_sharing.txt:329',
            ),
        ),
        -1: (  # CL_DEVICE_NOT_FOUND
            Condition(
                'no OpenCL devices that correspond to d3d_object were found', 'specs/cl_khr_d3d10_sharing.txt:333'
            ),
        ),
    },
    'clCreateFromD3D10BufferKHR': {
        -1003: (  # CL_INVALID_D3D10_RESOURCE_KHR
            Condition('resource is not a Direct3D 10 buffer object', 'specs/cl_khr_d3d10_sharing.txt:123'),
            Condition(
                'resource is not a Direct3D 10 buffer resource, if resource was created with the D3D10_USAGE flag '
                'D3D10_USAGE_IMMUTABLE, if a cl_mem from resource has already been created using '
                'clCreateFromD3D10BufferKHR, or if context was not created against the same Direct3D 10 device from '
                'which resource was created',
                'specs/cl_khr_d3d10_sharing.txt:431',
            ),
        ),
        -34: (  # CL_INVALID_CONTEXT
            Condition('context is not a valid context', 'specs/cl_khr_d3d10_sharing.txt:429'),
        ),
        -30: (  # CL_INVALID_VALUE
            Condition('values specified in flags are not valid', 'specs/cl_khr_d3d10_sharing.txt:430'),
        ),
        -6: (  # CL_OUT_OF_HOST_MEMORY
            Condition(
                'there is a failure to allocate resources required by the OpenCL implementation on the host',
                'specs/cl_khr_d3d10_sharing.txt:437',
            ),
        ),
    },
    'clCreateFromD3D10Texture2DKHR': {
        -1003: (  # CL_INVALID_D3D10_RESOURCE_KHR
            Condition('resource is not a Direct3D 10 texture object', 'specs/cl_khr_d3d10_sharing.txt:123'),
            Condition(
                'resource is not a Direct3D 10 texture resource, if resource was created with the D3D10_USAGE flag '
                'D3D10_USAGE_IMMUTABLE, if resource is a multisampled texture, if a cl_mem from subresource '
                'subresource of resource has already been created using clCreateFromD3D10Texture2DKHR, or if context '
                'was not created against the same Direct3D 10 device from which resource was created',
                'specs/cl_khr_d3d10_sharing.txt:488',
            ),
        ),
        -34: (  # CL_INVALID_CONTEXT
            Condition('context is not a valid context', 'specs/cl_khr_d3d10_sharing.txt:485'),
        ),
        -30: (  # CL_INVALID_VALUE
            Condition(
                'values specified in flags are not valid or if subresource is not a valid subresource index for '
                'resource',
                'specs/cl_khr_d3d10_sharing.txt:486',
            ),
        ),
        -39: (  # CL_INVALID_IMAGE_FORMAT_DESCRIPTOR
            Condition(
                'the Direct3D 10 texture format of resource is not listed in the table Direct3D 10 formats and '
                'corresponding OpenCL image formats or if the Direct3D 10 texture format of resource does not map to '
                'a supported OpenCL image format',
                'specs/cl_khr_d3d10_sharing.txt:495',
            ),
        ),
        -6: (  # CL_OUT_OF_HOST_MEMORY
            Condition(
                'there is a failure to allocate resources required by the OpenCL implementation on the host',
                'specs/cl_khr_d3d10_sharing.txt:500',
            ),
        ),
    },
    'clCreateFromD3D10Texture3DKHR': {
        -1003: (  # CL_INVALID_D3D10_RESOURCE_KHR
            Condition('resource is not a Direct3D 10 texture object', 'specs/cl_khr_d3d10_sharing.txt:123'),
            Condition(
                'resource is not a Direct3D 10 texture resource, if resource was created with the D3D10_USAGE flag '
                'D3D10_USAGE_IMMUTABLE, if resource is a multisampled texture, if a cl_mem from subresource '
                'subresource of resource has already been created using clCreateFromD3D10Texture3DKHR, or if context '
                'was not created against the same Direct3D 10 device from which resource was created',
                'specs/cl_khr_d3d10_sharing.txt:553',
            ),
        ),
        -34: (  # CL_INVALID_CONTEXT
            Condition('context is not a valid context', 'specs/cl_khr_d3d10_sharing.txt:550'),
        ),
        -30: (  # CL_INVALID_VALUE
            Condition(
                'values specified in flags are not valid or if subresource is not a valid subresource index for '
                'resource',
                'specs/cl_khr_d3d10_sharing.txt:551',
            ),
        ),
        -39: (  # CL_INVALID_IMAGE_FORMAT_DESCRIPTOR
            Condition(
                'the Direct3D 10 texture format of resource is not listed in the table Direct3D 10 formats and '
                'corresponding OpenCL image formats or if the Direct3D 10 texture format of resource does not map to '
                'a supported OpenCL image format',
                'specs/cl_khr_d3d10_sharing.txt:560',
            ),
        ),
        -6: (  # CL_OUT_OF_HOST_MEMORY
            Condition(
                'there is a failure to allocate resources required by the OpenCL implementation on the host',
                'specs/cl_khr_d3d10_sharing.txt:565',
            ),
        ),
    },
    'clEnqueueAcquireD3D10ObjectsKHR': {
        -1004: (  # CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR
            Condition('any of mem_objects are currently acquired by OpenCL', 'specs/cl_khr_d3d10_sharing.txt:132'),
            Condition(
                'memory objects in mem_objects have previously been acquired using clEnqueueAcquireD3D10ObjectsKHR '
                'but have not been released using clEnqueueReleaseD3D10ObjectsKHR',
                'specs/cl_khr_d3d10_sharing.txt:729',
            ),
        ),
        -30: (  # CL_INVALID_VALUE
            Condition(
                'num_objects is zero and mem_objects is not a NULL value or if num_objects > 0 and mem_objects is NULL',
                'specs/cl_khr_d3d10_sharing.txt:720',
            ),
        ),
        -38: (  # CL_INVALID_MEM_OBJECT
            Condition(
                'memory objects in mem_objects are not valid OpenCL memory objects or if memory objects in '
                'mem_objects have not been created from Direct3D 10 resources',
                'specs/cl_khr_d3d10_sharing.txt:722',
            ),
        ),
        -36: (  # CL_INVALID_COMMAND_QUEUE
            Condition('command_queue is not a valid command-queue', 'specs/cl_khr_d3d10_sharing.txt:725'),
        ),
        -34: (  # CL_INVALID_CONTEXT
            Condition(
                'context associated with command_queue was not created from an Direct3D 10 context',
                'specs/cl_khr_d3d10_sharing.txt:727',
            ),
        ),
        -57: (  # CL_INVALID_EVENT_WAIT_LIST
            Condition(
                'event_wait_list is NULL and num_events_in_wait_list > 0, or event_wait_list is not NULL and '
                'num_events_in_wait_list is 0, or if event objects in event_wait_list are not valid events',
                'specs/cl_khr_d3d10_sharing.txt:733',
            ),
        ),
        -6: (  # CL_OUT_OF_HOST_MEMORY
            Condition(
                'there is a failure to allocate resources required by the OpenCL implementation on the host',
                'specs/cl_khr_d3d10_sharing.txt:737',
            ),
        ),
    },
    'clEnqueueReleaseD3D10ObjectsKHR': {
        -1005: (  # CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR
            Condition('any of mem_objects are not currently acquired by OpenCL', 'specs/cl_khr_d3d10_sharing.txt:139'),
            Condition(
                'memory objects in mem_objects have not previously been acquired using '
                'clEnqueueAcquireD3D10ObjectsKHR, or have been released using clEnqueueReleaseD3D10ObjectsKHR since '
                'the last time that they were acquired',
                'specs/cl_khr_d3d10_sharing.txt:818',
            ),
        ),
        -30: (  # CL_INVALID_VALUE
            Condition(
                'num_objects is zero and mem_objects is not a NULL value or if num_objects > 0 and mem_objects is NULL',
                'specs/cl_khr_d3d10_sharing.txt:809',
            ),
        ),
        -38: (  # CL_INVALID_MEM_OBJECT
            Condition(
                'memory objects in mem_objects are not valid OpenCL memory objects or if memory objects in '
                'mem_objects have not been created from Direct3D 10 resources',
                'specs/cl_khr_d3d10_sharing.txt:811',
            ),
        ),
        -36: (  # CL_INVALID_COMMAND_QUEUE
            Condition('command_queue is not a valid command-queue', 'specs/cl_khr_d3d10_sharing.txt:814'),
        ),
        -34: (  # CL_INVALID_CONTEXT
            Condition(
                'context associated with command_queue was not created from a Direct3D 10 device',
                'specs/cl_khr_d3d10_sharing.txt:816',
            ),
        ),
        -57: (  # CL_INVALID_EVENT_WAIT_LIST
            Condition(
                'event_wait_list is NULL and num_events_in_wait_list > 0, or event_wait_list is not NULL and '
                'num_events_in_wait_list> is 0, or if event objects in event_wait_list are not valid events',
                'specs/cl_khr_d3d10_sharing.txt:823',
            ),
        ),
        -6: (  # CL_OUT_OF_HOST_MEMORY
            Condition(
                'there is a failure to allocate resources required by the OpenCL implementation on the host',
                'specs/cl_khr_d3d10_sharing.txt:827',
            ),
        ),
    },
    'clCreateContext': {
        -1002: (  # CL_INVALID_D3D10_DEVICE_KHR
            Condition(
                'the Direct3D 10 device specified for interoperability is not compatible with the devices against '
                'which the context is to be created',
                'specs/cl_khr_d3d10_sharing.txt:115',
            ),
            Condition(
                'the value of the property CL_CONTEXT_D3D10_DEVICE_KHR is non-NULL and does not specify a valid '
                'Direct3D 10 device with which the cl_device_ids against which this context is to be created may '
                'interoperate',
                'specs/cl_khr_d3d10_sharing.txt:178',
            ),
        ),
        -59: (  # CL_INVALID_OPERATION
            Condition(
                'Direct3D 10 interoperability is specified by setting CL_INVALID_D3D10_DEVICE_KHR to a non-NULL '
                'value, and interoperability with another graphics API is also specified',
                'specs/cl_khr_d3d10_sharing.txt:182',
            ),
        ),
    },
    'clGetMemObjectInfo': {
        -1003: (  # CL_INVALID_D3D10_RESOURCE_KHR
            Condition(
                'param_name is CL_MEM_D3D10_RESOURCE_KHR and memobj was not created by the function '
                'clCreateFromD3D10BufferKHR, clCreateFromD3D10Texture2DKHR, or clCreateFromD3D10Texture3DKHR',
                'specs/cl_khr_d3d10_sharing.txt:210',
            ),
        ),
    },
    'clGetImageInfo': {
        -1003: (  # CL_INVALID_D3D10_RESOURCE_KHR
            Condition(
                'param_name is CL_MEM_D3D10_SUBRESOURCE_KHR and image was not created by the function '
                'clCreateFromD3D10Texture2DKHR, or clCreateFromD3D10Texture3DKHR',
                'specs/cl_khr_d3d10_sharing.txt:233',
            ),
        ),
    },
    'clGetContextInfo': {},
}
#: Each function's checks, in the order it runs them: the clauses of the spec's conditions a call must not meet.
_CHECKS: dict[str, tuple[Check, ...]] = {
    'clGetDeviceIDsFromD3D10KHR': (
        Check(
            -30,
            ('d3d_device_source is not a valid value',),
            (
                Condition(
                    'd3d_device_source is not a valid value, d3d_device_set is not a valid value, num_entries is '
                    'equal to zero and devices is not NULL, or if both num_devices and devices are NULL',
                    'specs/cl_khr_d3d10_sharing.txt:329',
                ),
            ),
        ),
        Check(
            -30,
            ('d3d_device_set is not a valid value',),
            (
                Condition(
                    'd3d_device_source is not a valid value, d3d_device_set is not a valid value, num_entries is '
                    'equal to zero and devices is not NULL, or if both num_devices and devices are NULL',
                    'specs/cl_khr_d3d10_sharing.txt:329',
                ),
            ),
        ),
        Check(
            -30,
            ('num_entries is equal to zero and devices is not NULL',),
            (
                Condition(
                    'd3d_device_source is not a valid value, d3d_device_set is not a valid value, num_entries is '
                    'equal to zero and devices is not NULL, or if both num_devices and devices are NULL',
                    'specs/cl_khr_d3d10_sharing.txt:329',
                ),
            ),
        ),
        Check(
            -30,
            ('both num_devices and devices are NULL',),
            (
                Condition(
                    'd3d_device_source is not a valid value, d3d_device_set is not a valid value, num_entries is '
                    'equal to zero and devices is not NULL, or if both num_devices and devices are NULL',
                    'specs/cl_khr_d3d10_sharing.txt:329',
                ),
            ),
        ),
    ),
    'clCreateFromD3D10BufferKHR': (
        Check(
            -30,
            ('values specified in flags are not valid',),
            (Condition('values specified in flags are not valid', 'specs/cl_khr_d3d10_sharing.txt:430'),),
        ),
        Check(
            -1003,
            ('a cl_mem from resource has already been created using clCreateFromD3D10BufferKHR',),
            (
                Condition(
                    'resource is not a Direct3D 10 buffer resource, if resource was created with the D3D10_USAGE flag '
                    'D3D10_USAGE_IMMUTABLE, if a cl_mem from resource has already been created using '
                    'clCreateFromD3D10BufferKHR, or if context was not created against the same Direct3D 10 device '
                    'from which resource was created',
                    'specs/cl_khr_d3d10_sharing.txt:431',
                ),
            ),
        ),
    ),
    'clCreateFromD3D10Texture2DKHR': (
        Check(
            -30,
            ('values specified in flags are not valid',),
            (
                Condition(
                    'values specified in flags are not valid or if subresource is not a valid subresource index for '
                    'resource',
                    'specs/cl_khr_d3d10_sharing.txt:486',
                ),
            ),
        ),
        Check(
            -1003,
            (
                'a cl_mem from subresource subresource of resource has already been created using '
                'clCreateFromD3D10Texture2DKHR',
            ),
            (
                Condition(
                    'resource is not a Direct3D 10 texture resource, if resource was created with the D3D10_USAGE '
                    'flag D3D10_USAGE_IMMUTABLE, if resource is a multisampled texture, if a cl_mem from subresource '
                    'subresource of resource has already been created using clCreateFromD3D10Texture2DKHR, or if '
                    'context was not created against the same Direct3D 10 device from which resource was created',
                    'specs/cl_khr_d3d10_sharing.txt:488',
                ),
            ),
        ),
    ),
    'clCreateFromD3D10Texture3DKHR': (
        Check(
            -30,
            ('values specified in flags are not valid',),
            (
                Condition(
                    'values specified in flags are not valid or if subresource is not a valid subresource index for '
                    'resource',
                    'specs/cl_khr_d3d10_sharing.txt:551',
                ),
            ),
        ),
        Check(
            -1003,
            (
                'a cl_mem from subresource subresource of resource has already been created using '
                'clCreateFromD3D10Texture3DKHR',
            ),
            (
                Condition(
                    'resource is not a Direct3D 10 texture resource, if resource was created with the D3D10_USAGE '
                    'flag D3D10_USAGE_IMMUTABLE, if resource is a multisampled texture, if a cl_mem from subresource '
                    'subresource of resource has already been created using clCreateFromD3D10Texture3DKHR, or if '
                    'context was not created against the same Direct3D 10 device from which resource was created',
                    'specs/cl_khr_d3d10_sharing.txt:553',
                ),
            ),
        ),
    ),
    'clEnqueueAcquireD3D10ObjectsKHR': (
        Check(
            -30,
            ('num_objects is zero and mem_objects is not a NULL value',),
            (
                Condition(
                    'num_objects is zero and mem_objects is not a NULL value or if num_objects > 0 and mem_objects is '
                    'NULL',
                    'specs/cl_khr_d3d10_sharing.txt:720',
                ),
            ),
        ),
        Check(
            -30,
            ('num_objects > 0 and mem_objects is NULL',),
            (
                Condition(
                    'num_objects is zero and mem_objects is not a NULL value or if num_objects > 0 and mem_objects is '
                    'NULL',
                    'specs/cl_khr_d3d10_sharing.txt:720',
                ),
            ),
        ),
        Check(
            -57,
            ('event_wait_list is NULL and num_events_in_wait_list > 0',),
            (
                Condition(
                    'event_wait_list is NULL and num_events_in_wait_list > 0, or event_wait_list is not NULL and '
                    'num_events_in_wait_list is 0, or if event objects in event_wait_list are not valid events',
                    'specs/cl_khr_d3d10_sharing.txt:733',
                ),
            ),
        ),
        Check(
            -57,
            ('event_wait_list is not NULL and num_events_in_wait_list is 0',),
            (
                Condition(
                    'event_wait_list is NULL and num_events_in_wait_list > 0, or event_wait_list is not NULL and '
                    'num_events_in_wait_list is 0, or if event objects in event_wait_list are not valid events',
                    'specs/cl_khr_d3d10_sharing.txt:733',
                ),
            ),
        ),
        Check(
            -1004,
            (
                'any of mem_objects are currently acquired by OpenCL',
                'memory objects in mem_objects have previously been acquired using clEnqueueAcquireD3D10ObjectsKHR '
                'but have not been released using clEnqueueReleaseD3D10ObjectsKHR',
            ),
            (
                Condition('any of mem_objects are currently acquired by OpenCL', 'specs/cl_khr_d3d10_sharing.txt:132'),
                Condition(
                    'memory objects in mem_objects have previously been acquired using '
                    'clEnqueueAcquireD3D10ObjectsKHR but have not been released using clEnqueueReleaseD3D10ObjectsKHR',
                    'specs/cl_khr_d3d10_sharing.txt:729',
                ),
            ),
        ),
    ),
    'clEnqueueReleaseD3D10ObjectsKHR': (
        Check(
            -30,
            ('num_objects is zero and mem_objects is not a NULL value',),
            (
                Condition(
                    'num_objects is zero and mem_objects is not a NULL value or if num_objects > 0 and mem_objects is '
                    'NULL',
                    'specs/cl_khr_d3d10_sharing.txt:809',
                ),
            ),
        ),
        Check(
            -30,
            ('num_objects > 0 and mem_objects is NULL',),
            (
                Condition(
                    'num_objects is zero and mem_objects is not a NULL value or if num_objects > 0 and mem_objects is '
                    'NULL',
                    'specs/cl_khr_d3d10_sharing.txt:809',
                ),
            ),
        ),
        Check(
            -57,
            ('event_wait_list is NULL and num_events_in_wait_list > 0',),
            (
                Condition(
                    'event_wait_list is NULL and num_events_in_wait_list > 0, or event_wait_list is not NULL and '
                    'num_events_in_wait_list> is 0, or if event objects in event_wait_list are not valid events',
                    'specs/cl_khr_d3d10_sharing.txt:823',
                ),
            ),
        ),
        Check(
            -57,
            ('event_wait_list is not NULL and num_events_in_wait_list> is 0',),
            (
                Condition(
                    'event_wait_list is NULL and num_events_in_wait_list > 0, or event_wait_list is not NULL and '
                    'num_events_in_wait_list> is 0, or if event objects in event_wait_list are not valid events',
                    'specs/cl_khr_d3d10_sharing.txt:823',
                ),
            ),
        ),
        Check(
            -1005,
            (
                'any of mem_objects are not currently acquired by OpenCL',
                'memory objects in mem_objects have not previously been acquired using '
                'clEnqueueAcquireD3D10ObjectsKHR, or have been released using clEnqueueReleaseD3D10ObjectsKHR since '
                'the last time that they were acquired',
            ),
            (
                Condition(
                    'any of mem_objects are not currently acquired by OpenCL', 'specs/cl_khr_d3d10_sharing.txt:139'
                ),
                Condition(
                    'memory objects in mem_objects have not previously been acquired using '
                    'clEnqueueAcquireD3D10ObjectsKHR, or have been released using clEnqueueReleaseD3D10ObjectsKHR '
                    'since the last time that they were acquired',
                    'specs/cl_khr_d3d10_sharing.txt:818',
                ),
            ),
        ),
    ),
}
_binding = Binding(EXTENSION, ffi)
#: What this module saw of earlier calls: acquired objects, wrapped resources.
_state = Tracker()

# What the wrappers compare arguments with, resolved once: the C types of their exact cases, the
# integer types' ranges, and each function's entry in `_binding`.
_CData = ffi.CData  # tested with issubclass(type(x), _CData), which asks the object nothing
#: cffi's class of a handle it did not allocate (what `ffi.cast` and C functions give): `type(x) is _Handle` is the
#: cheapest first question for a handle argument with the checks off.
_Handle = type(ffi.NULL)
#: A cdata's C type: cffi's own function, which `ffi.typeof` calls after telling a cdata from a type name (a
#: fifth of its cost; the cffi modules import `_cffi_backend` themselves). Given only a cdata (tested first).
_typeof: Callable[[Any], Any] = _cffi_backend.typeof
_length: Callable[[Any], int] = len
_unpack = ffi.unpack
_NULL = ffi.NULL
_type_cl_platform_id = ffi.typeof('cl_platform_id')
_type_void_ptr = ffi.typeof('void *')
_type_cl_device_id_ptr = ffi.typeof('cl_device_id *')
_type_cl_uint_ptr = ffi.typeof('cl_uint *')
_type_cl_context = ffi.typeof('cl_context')
_type_ID3D10Buffer_ptr = ffi.typeof('ID3D10Buffer *')
_type_cl_int_ptr = ffi.typeof('cl_int *')
_type_ID3D10Texture2D_ptr = ffi.typeof('ID3D10Texture2D *')
_type_ID3D10Texture3D_ptr = ffi.typeof('ID3D10Texture3D *')
_type_cl_command_queue = ffi.typeof('cl_command_queue')
_type_cl_mem_ptr = ffi.typeof('cl_mem *')
_type_cl_mem_array = ffi.typeof('cl_mem[]')
_type_cl_event_ptr = ffi.typeof('cl_event *')
_type_cl_event_array = ffi.typeof('cl_event[]')
_type_cl_device_id_array = ffi.typeof('cl_device_id[]')
_type_cl_mem = ffi.typeof('cl_mem')
_type_cl_event = ffi.typeof('cl_event')
_min_cl_d3d10_device_source_khr, _max_cl_d3d10_device_source_khr = _marshal.limits(ffi, 'cl_d3d10_device_source_khr')
_min_cl_d3d10_device_set_khr, _max_cl_d3d10_device_set_khr = _marshal.limits(ffi, 'cl_d3d10_device_set_khr')
_min_cl_uint, _max_cl_uint = _marshal.limits(ffi, 'cl_uint')
_min_cl_mem_flags, _max_cl_mem_flags = _marshal.limits(ffi, 'cl_mem_flags')
_min_UINT, _max_UINT = _marshal.limits(ffi, 'UINT')
_fn_clGetDeviceIDsFromD3D10KHR = _binding.entry('clGetDeviceIDsFromD3D10KHR', 'clGetDeviceIDsFromD3D10KHR_fn')
_fn_clCreateFromD3D10BufferKHR = _binding.entry('clCreateFromD3D10BufferKHR', 'clCreateFromD3D10BufferKHR_fn')
_fn_clCreateFromD3D10Texture2DKHR = _binding.entry('clCreateFromD3D10Texture2DKHR', 'clCreateFromD3D10Texture2DKHR_fn')
_fn_clCreateFromD3D10Texture3DKHR = _binding.entry('clCreateFromD3D10Texture3DKHR', 'clCreateFromD3D10Texture3DKHR_fn')
_fn_clEnqueueAcquireD3D10ObjectsKHR = _binding.entry(
    'clEnqueueAcquireD3D10ObjectsKHR', 'clEnqueueAcquireD3D10ObjectsKHR_fn'
)
_fn_clEnqueueReleaseD3D10ObjectsKHR = _binding.entry(
    'clEnqueueReleaseD3D10ObjectsKHR', 'clEnqueueReleaseD3D10ObjectsKHR_fn'
)


def _error(code: int, function: str, detail: str | None = None) -> _errors.CLError:
    return _errors.error(code, function, _ERRORS, _CONDITIONS.get(function, {}), detail)


def _violation(
    function: str, index: int, arguments: dict[str, object], found: int | None = None, out: CData | None = None,
) -> _errors.CLError:
    check = _CHECKS[function][index]
    if out is not None and out != ffi.NULL:
        out[0] = check.code
    return _errors.violation(function, check, _ERRORS, arguments, found)


def _lookup(kind: str, handle: CData, argument: str, entry: Entry) -> CData:
    try:
        return _binding.function(kind, handle, entry.name, entry.pointer_type)
    except _library.QueryFailed as failed:
        raise _error(failed.code, entry.name, f"{failed.function} failed on argument {argument!r}") from None


def _lookup_later(kind: str, handle: CData, argument: str, entry: Entry) -> Callable[..., Any]:
    """`_lookup` as `_state.transit` calls it: after the state check, as the long form looks up."""
    return lambda *args: _lookup(kind, handle, argument, entry)(*args)


def supported(platform: Pointer) -> bool:
    """Whether `platform` (one of this process's platforms; a cffi handle, an int address or PyOpenCL's Platform)
    or any of its devices lists this extension."""
    c_platform = _marshal.platform(ffi, platform, "platform", "supported")
    try:
        return _binding.supported(c_platform)
    except _library.QueryFailed as failed:
        raise _error(failed.code, failed.function) from None


def conditions(function: str, code: int) -> tuple[Condition, ...]:
    """The spec's conditions under which `function` returns `code`."""
    return _CONDITIONS.get(function, {}).get(code, ())


def clGetDeviceIDsFromD3D10KHR(
    platform: Pointer,
    d3d_device_source: int,
    d3d_object: Pointer,
    d3d_device_set: int,
    num_entries: int,
    devices: Pointer,
    num_devices: Pointer,
) -> None:
    """`cl_int clGetDeviceIDsFromD3D10KHR(cl_platform_id platform, cl_d3d10_device_source_khr
    d3d_device_source, void *d3d_object, cl_d3d10_device_set_khr d3d_device_set, cl_uint
    num_entries, cl_device_id *devices, cl_uint *num_devices)` from cl_khr_d3d10_sharing
    [specs/cl_khr_d3d10_sharing.txt:20].

    Parameters:
    - platform (cl_platform_id): platform refers to the platform ID returned by clGetPlatformIDs.
    - d3d_device_source (cl_d3d10_device_source_khr): d3d_device_source specifies the type of
      d3d_object, and must be one of the values shown in the table below.
    - d3d_object (void *): d3d_object specifies the object whose corresponding OpenCL devices are
      being queried. The type of d3d_object must be as specified in the table below.
    - d3d_device_set (cl_d3d10_device_set_khr): d3d_device_set specifies the set of devices to
      return, and must be one of the values shown in the table below.
    - num_entries (cl_uint): num_entries is the number of cl_device_id entries that can be added to
      devices. If devices is not NULL then num_entries must be greater than zero.
    - devices (cl_device_id *): devices returns a list of OpenCL devices found. The cl_device_id
      values returned in devices can be used to identify a specific OpenCL device. If devices is
      NULL, this argument is ignored. The number of OpenCL devices returned is the minimum of the
      value specified by num_entries and the number of OpenCL devices corresponding to d3d_object.
    - num_devices (cl_uint *): num_devices returns the number of OpenCL devices available that
      correspond to d3d_object. If num_devices is NULL, this argument is ignored.

    Raises (the spec's conditions; those marked [checked] are tested before the call, the others are
    left to the driver):
    - CL_INVALID_PLATFORM: platform is not a valid platform
    - CL_INVALID_VALUE: d3d_device_source is not a valid value, d3d_device_set is not a valid value,
      num_entries is equal to zero and devices is not NULL, or if both num_devices and devices are
      NULL [checked]
    - CL_DEVICE_NOT_FOUND: no OpenCL devices that correspond to d3d_object were found

    Reference page: khr_d3d10/clGetDeviceIDsFromD3D10KHR.md in the reference docs
    """
    c_platform: Any = (
        platform if issubclass(type(platform), _CData) and _typeof(platform) is _type_cl_platform_id
        else _marshal.known(ffi, platform, 'cl_platform_id')
        or _marshal.pointer(ffi, platform, 'cl_platform_id', 'platform', 'clGetDeviceIDsFromD3D10KHR', exact=True)
    )
    c_d3d_device_source = (
        d3d_device_source
        if type(d3d_device_source) is int
        and _min_cl_d3d10_device_source_khr <= d3d_device_source <= _max_cl_d3d10_device_source_khr
        else _marshal.integer(
            ffi, d3d_device_source, 'cl_d3d10_device_source_khr', 'd3d_device_source', 'clGetDeviceIDsFromD3D10KHR'
        )
    )
    c_d3d_object: Any = (
        _NULL if d3d_object is None
        else d3d_object if issubclass(type(d3d_object), _CData) and _typeof(d3d_object) is _type_void_ptr
        else _marshal.pointer(ffi, d3d_object, 'void *', 'd3d_object', 'clGetDeviceIDsFromD3D10KHR')
    )
    c_d3d_device_set = (
        d3d_device_set
        if type(d3d_device_set) is int
        and _min_cl_d3d10_device_set_khr <= d3d_device_set <= _max_cl_d3d10_device_set_khr
        else _marshal.integer(
            ffi, d3d_device_set, 'cl_d3d10_device_set_khr', 'd3d_device_set', 'clGetDeviceIDsFromD3D10KHR'
        )
    )
    c_num_entries = (
        num_entries if type(num_entries) is int and _min_cl_uint <= num_entries <= _max_cl_uint
        else _marshal.integer(ffi, num_entries, 'cl_uint', 'num_entries', 'clGetDeviceIDsFromD3D10KHR')
    )
    c_devices: Any = (
        _NULL if devices is None
        else _marshal.pointer(
            ffi,
            devices,
            'cl_device_id *',
            'devices',
            'clGetDeviceIDsFromD3D10KHR',
            exact=True,
            count=c_num_entries,
            count_name='num_entries',
            access='out',
        )
    )
    c_num_devices: Any = (
        _NULL if num_devices is None
        else num_devices if issubclass(type(num_devices), _CData) and _typeof(num_devices) is _type_cl_uint_ptr
        else _marshal.pointer(
            ffi, num_devices, 'cl_uint *', 'num_devices', 'clGetDeviceIDsFromD3D10KHR', exact=True, access='out'
        )
    )
    if c_d3d_device_source not in {16400, 16401}:  # {CL_D3D10_DEVICE_KHR, CL_D3D10_DXGI_ADAPTER_KHR}
        raise _violation('clGetDeviceIDsFromD3D10KHR', 0, {'d3d_device_source': d3d_device_source})
    if c_d3d_device_set not in {16402, 16403}:  # {CL_PREFERRED_DEVICES_FOR_D3D10_KHR, CL_ALL_DEVICES_FOR_D3D10_KHR}
        raise _violation('clGetDeviceIDsFromD3D10KHR', 1, {'d3d_device_set': d3d_device_set})
    if (c_num_entries == 0 and c_devices):
        raise _violation('clGetDeviceIDsFromD3D10KHR', 2, {'num_entries': num_entries, 'devices': devices})
    if (not c_num_devices and not c_devices):
        raise _violation('clGetDeviceIDsFromD3D10KHR', 3, {'num_devices': num_devices, 'devices': devices})
    function = _fn_clGetDeviceIDsFromD3D10KHR.only if c_platform == _fn_clGetDeviceIDsFromD3D10KHR.platform else None
    if function is None:
        function = _lookup('platform', c_platform, 'platform', _fn_clGetDeviceIDsFromD3D10KHR)
    code = function(
        c_platform, c_d3d_device_source, c_d3d_object, c_d3d_device_set, c_num_entries, c_devices, c_num_devices
    )
    if code != 0:
        raise _error(code, 'clGetDeviceIDsFromD3D10KHR')


def clCreateFromD3D10BufferKHR(
    context: Pointer,
    flags: int,
    resource: Pointer,
    errcode_ret: Pointer,
) -> CData:
    """`cl_mem clCreateFromD3D10BufferKHR(cl_context context, cl_mem_flags flags, ID3D10Buffer
    *resource, cl_int *errcode_ret)` from cl_khr_d3d10_sharing [specs/cl_khr_d3d10_sharing.txt:28].

    Parameters:
    - context (cl_context): context is a valid OpenCL context created from a Direct3D 10 device.
    - flags (cl_mem_flags): flags is a bit-field that is used to specify usage information. Refer to
      table 5.3 for a description of flags. Only CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY and
      CL_MEM_READ_WRITE values specified in table 5.3 can be used.
    - resource (ID3D10Buffer *): resource is a pointer to the Direct3D 10 buffer to share.
    - errcode_ret (cl_int *): errcode_ret will return an appropriate error code. If errcode_ret is
      NULL, no error code is returned.

    Raises (the spec's conditions; those marked [checked] are tested before the call, the others are
    left to the driver):
    - CL_INVALID_D3D10_RESOURCE_KHR: resource is not a Direct3D 10 buffer object
    - CL_INVALID_D3D10_RESOURCE_KHR: resource is not a Direct3D 10 buffer resource, if resource was
      created with the D3D10_USAGE flag D3D10_USAGE_IMMUTABLE, if a cl_mem from resource has already
      been created using clCreateFromD3D10BufferKHR, or if context was not created against the same
      Direct3D 10 device from which resource was created [partly checked]
    - CL_INVALID_CONTEXT: context is not a valid context
    - CL_INVALID_VALUE: values specified in flags are not valid [checked]
    - CL_OUT_OF_HOST_MEMORY: there is a failure to allocate resources required by the OpenCL
      implementation on the host

    Reference page: khr_d3d10/clCreateFromD3D10BufferKHR.md in the reference docs
    """
    c_context: Any = (
        context if issubclass(type(context), _CData) and _typeof(context) is _type_cl_context
        else _marshal.known(ffi, context, 'cl_context')
        or _marshal.pointer(ffi, context, 'cl_context', 'context', 'clCreateFromD3D10BufferKHR', exact=True)
    )
    c_flags = (
        flags if type(flags) is int and _min_cl_mem_flags <= flags <= _max_cl_mem_flags
        else _marshal.integer(ffi, flags, 'cl_mem_flags', 'flags', 'clCreateFromD3D10BufferKHR')
    )
    c_resource: Any = (
        _NULL if resource is None
        else resource if issubclass(type(resource), _CData) and _typeof(resource) is _type_ID3D10Buffer_ptr
        else _marshal.pointer(ffi, resource, 'ID3D10Buffer *', 'resource', 'clCreateFromD3D10BufferKHR')
    )
    given_errcode_ret: Any = (
        _NULL if errcode_ret is None
        else errcode_ret if issubclass(type(errcode_ret), _CData) and _typeof(errcode_ret) is _type_cl_int_ptr
        else _marshal.pointer(
            ffi, errcode_ret, 'cl_int *', 'errcode_ret', 'clCreateFromD3D10BufferKHR', exact=True, access='out'
        )
    )
    c_errcode_ret = ffi.new(_type_cl_int_ptr)
    if c_flags not in {0, 1, 2, 4}:  # {0, CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY}
        raise _violation('clCreateFromD3D10BufferKHR', 0, {'flags': flags}, out=given_errcode_ret)
    # check, call and record as one step for these objects
    held = _state.hold([(_library.address(c_context), _library.address(c_resource), None)])
    try:
        found = _state.wrapped(_library.address(c_context), _library.address(c_resource), None)
        if found is not None:
            raise _violation(
                'clCreateFromD3D10BufferKHR',
                1,
                {'context': context, 'resource': resource},
                found,
                out=given_errcode_ret,
            )
        function = _fn_clCreateFromD3D10BufferKHR.only if c_context else None
        if function is None:
            function = _lookup('context', c_context, 'context', _fn_clCreateFromD3D10BufferKHR)
        result = function(c_context, c_flags, c_resource, c_errcode_ret)
        if given_errcode_ret != _NULL:
            given_errcode_ret[0] = c_errcode_ret[0]
        if c_errcode_ret[0] != 0:
            raise _error(c_errcode_ret[0], 'clCreateFromD3D10BufferKHR')
        _state.wrap(_library.address(c_context), _library.address(c_resource), None, _library.address(result))
        return result
    finally:
        _state.let_go(held)


def clCreateFromD3D10Texture2DKHR(
    context: Pointer,
    flags: int,
    resource: Pointer,
    subresource: int,
    errcode_ret: Pointer,
) -> CData:
    """`cl_mem clCreateFromD3D10Texture2DKHR(cl_context context, cl_mem_flags flags, ID3D10Texture2D
    *resource, UINT subresource, cl_int *errcode_ret)` from cl_khr_d3d10_sharing
    [specs/cl_khr_d3d10_sharing.txt:33].

    Parameters:
    - context (cl_context): context is a valid OpenCL context created from a Direct3D 10 device.
    - flags (cl_mem_flags): flags is a bit-field that is used to specify usage information. Refer to
      table 5.3 for a description of flags. Only CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY and
      CL_MEM_READ_WRITE values specified in table 5.3 can be used.
    - resource (ID3D10Texture2D *): resource is a pointer to the Direct3D 10 2D texture to share.
    - subresource (UINT): subresource is the subresource of resource to share.
    - errcode_ret (cl_int *): errcode_ret will return an appropriate error code. If errcode_ret is
      NULL, no error code is returned.

    Raises (the spec's conditions; those marked [checked] are tested before the call, the others are
    left to the driver):
    - CL_INVALID_D3D10_RESOURCE_KHR: resource is not a Direct3D 10 texture object
    - CL_INVALID_D3D10_RESOURCE_KHR: resource is not a Direct3D 10 texture resource, if resource was
      created with the D3D10_USAGE flag D3D10_USAGE_IMMUTABLE, if resource is a multisampled
      texture, if a cl_mem from subresource subresource of resource has already been created using
      clCreateFromD3D10Texture2DKHR, or if context was not created against the same Direct3D 10
      device from which resource was created [partly checked]
    - CL_INVALID_CONTEXT: context is not a valid context
    - CL_INVALID_VALUE: values specified in flags are not valid or if subresource is not a valid
      subresource index for resource [partly checked]
    - CL_INVALID_IMAGE_FORMAT_DESCRIPTOR: the Direct3D 10 texture format of resource is not listed
      in the table Direct3D 10 formats and corresponding OpenCL image formats or if the Direct3D 10
      texture format of resource does not map to a supported OpenCL image format
    - CL_OUT_OF_HOST_MEMORY: there is a failure to allocate resources required by the OpenCL
      implementation on the host

    Reference page: khr_d3d10/clCreateFromD3D10Texture2DKHR.md in the reference docs
    """
    c_context: Any = (
        context if issubclass(type(context), _CData) and _typeof(context) is _type_cl_context
        else _marshal.known(ffi, context, 'cl_context')
        or _marshal.pointer(ffi, context, 'cl_context', 'context', 'clCreateFromD3D10Texture2DKHR', exact=True)
    )
    c_flags = (
        flags if type(flags) is int and _min_cl_mem_flags <= flags <= _max_cl_mem_flags
        else _marshal.integer(ffi, flags, 'cl_mem_flags', 'flags', 'clCreateFromD3D10Texture2DKHR')
    )
    c_resource: Any = (
        _NULL if resource is None
        else resource if issubclass(type(resource), _CData) and _typeof(resource) is _type_ID3D10Texture2D_ptr
        else _marshal.pointer(ffi, resource, 'ID3D10Texture2D *', 'resource', 'clCreateFromD3D10Texture2DKHR')
    )
    c_subresource = (
        subresource if type(subresource) is int and _min_UINT <= subresource <= _max_UINT
        else _marshal.integer(ffi, subresource, 'UINT', 'subresource', 'clCreateFromD3D10Texture2DKHR')
    )
    given_errcode_ret: Any = (
        _NULL if errcode_ret is None
        else errcode_ret if issubclass(type(errcode_ret), _CData) and _typeof(errcode_ret) is _type_cl_int_ptr
        else _marshal.pointer(
            ffi, errcode_ret, 'cl_int *', 'errcode_ret', 'clCreateFromD3D10Texture2DKHR', exact=True, access='out'
        )
    )
    c_errcode_ret = ffi.new(_type_cl_int_ptr)
    if c_flags not in {0, 1, 2, 4}:  # {0, CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY}
        raise _violation('clCreateFromD3D10Texture2DKHR', 0, {'flags': flags}, out=given_errcode_ret)
    # check, call and record as one step for these objects
    held = _state.hold([(_library.address(c_context), _library.address(c_resource), c_subresource)])
    try:
        found = _state.wrapped(_library.address(c_context), _library.address(c_resource), c_subresource)
        if found is not None:
            raise _violation(
                'clCreateFromD3D10Texture2DKHR',
                1,
                {'context': context, 'resource': resource, 'subresource': subresource},
                found,
                out=given_errcode_ret,
            )
        function = _fn_clCreateFromD3D10Texture2DKHR.only if c_context else None
        if function is None:
            function = _lookup('context', c_context, 'context', _fn_clCreateFromD3D10Texture2DKHR)
        result = function(c_context, c_flags, c_resource, c_subresource, c_errcode_ret)
        if given_errcode_ret != _NULL:
            given_errcode_ret[0] = c_errcode_ret[0]
        if c_errcode_ret[0] != 0:
            raise _error(c_errcode_ret[0], 'clCreateFromD3D10Texture2DKHR')
        _state.wrap(_library.address(c_context), _library.address(c_resource), c_subresource, _library.address(result))
        return result
    finally:
        _state.let_go(held)


def clCreateFromD3D10Texture3DKHR(
    context: Pointer,
    flags: int,
    resource: Pointer,
    subresource: int,
    errcode_ret: Pointer,
) -> CData:
    """`cl_mem clCreateFromD3D10Texture3DKHR(cl_context context, cl_mem_flags flags, ID3D10Texture3D
    *resource, UINT subresource, cl_int *errcode_ret)` from cl_khr_d3d10_sharing
    [specs/cl_khr_d3d10_sharing.txt:39].

    Parameters:
    - context (cl_context): context is a valid OpenCL context created from a Direct3D 10 device.
    - flags (cl_mem_flags): flags is a bit-field that is used to specify usage information. Refer to
      table 5.3 for a description of flags. Only CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY and
      CL_MEM_READ_WRITE values specified in table 5.3 can be used.
    - resource (ID3D10Texture3D *): resource is a pointer to the Direct3D 10 3D texture to share.
    - subresource (UINT): subresource is the subresource of resource to share.
    - errcode_ret (cl_int *): errcode_ret will return an appropriate error code. If errcode_ret is
      NULL, no error code is returned.

    Raises (the spec's conditions; those marked [checked] are tested before the call, the others are
    left to the driver):
    - CL_INVALID_D3D10_RESOURCE_KHR: resource is not a Direct3D 10 texture object
    - CL_INVALID_D3D10_RESOURCE_KHR: resource is not a Direct3D 10 texture resource, if resource was
      created with the D3D10_USAGE flag D3D10_USAGE_IMMUTABLE, if resource is a multisampled
      texture, if a cl_mem from subresource subresource of resource has already been created using
      clCreateFromD3D10Texture3DKHR, or if context was not created against the same Direct3D 10
      device from which resource was created [partly checked]
    - CL_INVALID_CONTEXT: context is not a valid context
    - CL_INVALID_VALUE: values specified in flags are not valid or if subresource is not a valid
      subresource index for resource [partly checked]
    - CL_INVALID_IMAGE_FORMAT_DESCRIPTOR: the Direct3D 10 texture format of resource is not listed
      in the table Direct3D 10 formats and corresponding OpenCL image formats or if the Direct3D 10
      texture format of resource does not map to a supported OpenCL image format
    - CL_OUT_OF_HOST_MEMORY: there is a failure to allocate resources required by the OpenCL
      implementation on the host

    Reference page: khr_d3d10/clCreateFromD3D10Texture3DKHR.md in the reference docs
    """
    c_context: Any = (
        context if issubclass(type(context), _CData) and _typeof(context) is _type_cl_context
        else _marshal.known(ffi, context, 'cl_context')
        or _marshal.pointer(ffi, context, 'cl_context', 'context', 'clCreateFromD3D10Texture3DKHR', exact=True)
    )
    c_flags = (
        flags if type(flags) is int and _min_cl_mem_flags <= flags <= _max_cl_mem_flags
        else _marshal.integer(ffi, flags, 'cl_mem_flags', 'flags', 'clCreateFromD3D10Texture3DKHR')
    )
    c_resource: Any = (
        _NULL if resource is None
        else resource if issubclass(type(resource), _CData) and _typeof(resource) is _type_ID3D10Texture3D_ptr
        else _marshal.pointer(ffi, resource, 'ID3D10Texture3D *', 'resource', 'clCreateFromD3D10Texture3DKHR')
    )
    c_subresource = (
        subresource if type(subresource) is int and _min_UINT <= subresource <= _max_UINT
        else _marshal.integer(ffi, subresource, 'UINT', 'subresource', 'clCreateFromD3D10Texture3DKHR')
    )
    given_errcode_ret: Any = (
        _NULL if errcode_ret is None
        else errcode_ret if issubclass(type(errcode_ret), _CData) and _typeof(errcode_ret) is _type_cl_int_ptr
        else _marshal.pointer(
            ffi, errcode_ret, 'cl_int *', 'errcode_ret', 'clCreateFromD3D10Texture3DKHR', exact=True, access='out'
        )
    )
    c_errcode_ret = ffi.new(_type_cl_int_ptr)
    if c_flags not in {0, 1, 2, 4}:  # {0, CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY}
        raise _violation('clCreateFromD3D10Texture3DKHR', 0, {'flags': flags}, out=given_errcode_ret)
    # check, call and record as one step for these objects
    held = _state.hold([(_library.address(c_context), _library.address(c_resource), c_subresource)])
    try:
        found = _state.wrapped(_library.address(c_context), _library.address(c_resource), c_subresource)
        if found is not None:
            raise _violation(
                'clCreateFromD3D10Texture3DKHR',
                1,
                {'context': context, 'resource': resource, 'subresource': subresource},
                found,
                out=given_errcode_ret,
            )
        function = _fn_clCreateFromD3D10Texture3DKHR.only if c_context else None
        if function is None:
            function = _lookup('context', c_context, 'context', _fn_clCreateFromD3D10Texture3DKHR)
        result = function(c_context, c_flags, c_resource, c_subresource, c_errcode_ret)
        if given_errcode_ret != _NULL:
            given_errcode_ret[0] = c_errcode_ret[0]
        if c_errcode_ret[0] != 0:
            raise _error(c_errcode_ret[0], 'clCreateFromD3D10Texture3DKHR')
        _state.wrap(_library.address(c_context), _library.address(c_resource), c_subresource, _library.address(result))
        return result
    finally:
        _state.let_go(held)


def clEnqueueAcquireD3D10ObjectsKHR(
    command_queue: Pointer,
    num_objects: int,
    mem_objects: Array,
    num_events_in_wait_list: int,
    event_wait_list: Array,
    event: Pointer,
) -> None:
    """`cl_int clEnqueueAcquireD3D10ObjectsKHR(cl_command_queue command_queue, cl_uint num_objects,
    const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event)` from cl_khr_d3d10_sharing [specs/cl_khr_d3d10_sharing.txt:45].

    Parameters:
    - command_queue (cl_command_queue): command_queue is a valid command-queue.
    - num_objects (cl_uint): num_objects is the number of memory objects to be acquired in
      mem_objects.
    - mem_objects (const cl_mem *): mem_objects is a pointer to a list of OpenCL memory objects that
      were created from Direct3D 10 resources.
    - num_events_in_wait_list (cl_uint): event_wait_list and num_events_in_wait_list specify events
      that need to complete before this particular command can be executed. If event_wait_list is
      NULL, then this particular command does not wait on any event to complete. If event_wait_list
      is NULL, num_events_in_wait_list must be 0. If event_wait_list is not NULL, the list of events
      pointed to by event_wait_list must be valid and num_events_in_wait_list must be greater than
      0. The events specified in event_wait_list act as synchronization points.
    - event_wait_list (const cl_event *): event_wait_list and num_events_in_wait_list specify events
      that need to complete before this particular command can be executed. If event_wait_list is
      NULL, then this particular command does not wait on any event to complete. If event_wait_list
      is NULL, num_events_in_wait_list must be 0. If event_wait_list is not NULL, the list of events
      pointed to by event_wait_list must be valid and num_events_in_wait_list must be greater than
      0. The events specified in event_wait_list act as synchronization points.
    - event (cl_event *): event returns an event object that identifies this particular command and
      can be used to query or queue a wait for this particular command to complete. event can be
      NULL in which case it will not be possible for the application to query the status of this
      command or queue a wait for this command to complete. If the event_wait_list and the event
      arguments are not NULL, the event argument should not refer to an element of the
      event_wait_list array.

    Raises (the spec's conditions; those marked [checked] are tested before the call, the others are
    left to the driver):
    - CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR: any of mem_objects are currently acquired by OpenCL
      [checked]
    - CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR: memory objects in mem_objects have previously been
      acquired using clEnqueueAcquireD3D10ObjectsKHR but have not been released using
      clEnqueueReleaseD3D10ObjectsKHR [checked]
    - CL_INVALID_VALUE: num_objects is zero and mem_objects is not a NULL value or if num_objects >
      0 and mem_objects is NULL [checked]
    - CL_INVALID_MEM_OBJECT: memory objects in mem_objects are not valid OpenCL memory objects or if
      memory objects in mem_objects have not been created from Direct3D 10 resources
    - CL_INVALID_COMMAND_QUEUE: command_queue is not a valid command-queue
    - CL_INVALID_CONTEXT: context associated with command_queue was not created from an Direct3D 10
      context
    - CL_INVALID_EVENT_WAIT_LIST: event_wait_list is NULL and num_events_in_wait_list > 0, or
      event_wait_list is not NULL and num_events_in_wait_list is 0, or if event objects in
      event_wait_list are not valid events [partly checked]
    - CL_OUT_OF_HOST_MEMORY: there is a failure to allocate resources required by the OpenCL
      implementation on the host

    Reference page: khr_d3d10/clEnqueueAcquireD3D10ObjectsKHR.md in the reference docs
    """
    c_command_queue: Any = (
        command_queue if issubclass(type(command_queue), _CData) and _typeof(command_queue) is _type_cl_command_queue
        else _marshal.known(ffi, command_queue, 'cl_command_queue')
        or _marshal.pointer(
            ffi, command_queue, 'cl_command_queue', 'command_queue', 'clEnqueueAcquireD3D10ObjectsKHR', exact=True
        )
    )
    c_num_objects = (
        num_objects if type(num_objects) is int and _min_cl_uint <= num_objects <= _max_cl_uint
        else _marshal.integer(ffi, num_objects, 'cl_uint', 'num_objects', 'clEnqueueAcquireD3D10ObjectsKHR')
    )
    c_mem_objects: Any = (
        _NULL if mem_objects is None
        else mem_objects
        if issubclass(type(mem_objects), _CData)
        and _typeof(mem_objects) is _type_cl_mem_array and _length(mem_objects) >= c_num_objects
        else _marshal.array(
            ffi,
            mem_objects,
            'cl_mem',
            True,
            'mem_objects',
            'clEnqueueAcquireD3D10ObjectsKHR',
            c_num_objects,
            'num_objects',
        )
    )
    c_num_events_in_wait_list = (
        num_events_in_wait_list
        if type(num_events_in_wait_list) is int and _min_cl_uint <= num_events_in_wait_list <= _max_cl_uint
        else _marshal.integer(
            ffi, num_events_in_wait_list, 'cl_uint', 'num_events_in_wait_list', 'clEnqueueAcquireD3D10ObjectsKHR'
        )
    )
    c_event_wait_list: Any = (
        _NULL if event_wait_list is None
        else event_wait_list
        if issubclass(type(event_wait_list), _CData)
        and _typeof(event_wait_list) is _type_cl_event_array and _length(event_wait_list) >= c_num_events_in_wait_list
        else _marshal.array(
            ffi,
            event_wait_list,
            'cl_event',
            True,
            'event_wait_list',
            'clEnqueueAcquireD3D10ObjectsKHR',
            c_num_events_in_wait_list,
            'num_events_in_wait_list',
        )
    )
    c_event: Any = (
        _NULL if event is None
        else event if issubclass(type(event), _CData) and _typeof(event) is _type_cl_event_ptr
        else _marshal.pointer(
            ffi, event, 'cl_event *', 'event', 'clEnqueueAcquireD3D10ObjectsKHR', exact=True, access='out'
        )
    )
    if (c_num_objects == 0 and c_mem_objects):
        raise _violation('clEnqueueAcquireD3D10ObjectsKHR', 0, {'num_objects': num_objects, 'mem_objects': mem_objects})
    if (c_num_objects > 0 and not c_mem_objects):
        raise _violation('clEnqueueAcquireD3D10ObjectsKHR', 1, {'num_objects': num_objects, 'mem_objects': mem_objects})
    if (not c_event_wait_list and c_num_events_in_wait_list > 0):
        raise _violation(
            'clEnqueueAcquireD3D10ObjectsKHR',
            2,
            {'event_wait_list': event_wait_list, 'num_events_in_wait_list': num_events_in_wait_list},
        )
    if (c_event_wait_list and c_num_events_in_wait_list == 0):
        raise _violation(
            'clEnqueueAcquireD3D10ObjectsKHR',
            3,
            {'event_wait_list': event_wait_list, 'num_events_in_wait_list': num_events_in_wait_list},
        )
    k_mem_objects = _unpack(c_mem_objects, c_num_objects) if c_mem_objects else []  # its handles, read once
    function = _fn_clEnqueueAcquireD3D10ObjectsKHR.only if c_command_queue else None
    if function is None:
        function = _lookup_later('queue', c_command_queue, 'command_queue', _fn_clEnqueueAcquireD3D10ObjectsKHR)
    # the state check, the call and the record as one step for these objects
    code = _state.transit(
        'acquire',
        k_mem_objects,
        function,
        c_command_queue,
        c_num_objects,
        c_mem_objects,
        c_num_events_in_wait_list,
        c_event_wait_list,
        c_event,
    )
    if code != 0:
        if isinstance(code, _Refused):
            raise _violation('clEnqueueAcquireD3D10ObjectsKHR', 4, {'mem_objects': mem_objects}, code.found)
        raise _error(code, 'clEnqueueAcquireD3D10ObjectsKHR')


def clEnqueueReleaseD3D10ObjectsKHR(
    command_queue: Pointer,
    num_objects: int,
    mem_objects: Array,
    num_events_in_wait_list: int,
    event_wait_list: Array,
    event: Pointer,
) -> None:
    """`cl_int clEnqueueReleaseD3D10ObjectsKHR(cl_command_queue command_queue, cl_uint num_objects,
    const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event)` from cl_khr_d3d10_sharing [specs/cl_khr_d3d10_sharing.txt:52].

    Parameters:
    - command_queue (cl_command_queue)
    - num_objects (cl_uint): num_objects is the number of memory objects to be released in
      mem_objects.
    - mem_objects (const cl_mem *): mem_objects is a pointer to a list of OpenCL memory objects that
      were created from Direct3D 10 resources.
    - num_events_in_wait_list (cl_uint): event_wait_list and num_events_in_wait_list specify events
      that need to complete before this particular command can be executed. If event_wait_list is
      NULL, then this particular command does not wait on any event to complete. If event_wait_list
      is NULL, num_events_in_wait_list must be 0. If event_wait_list is not NULL, the list of events
      pointed to by event_wait_list must be valid and num_events_in_wait_list must be greater than
      0. The events specified in event returns an event object that identifies this particular
      command and can be used to query or queue a wait for this particular command to complete.
      event can be NULL in which case it will not be possible for the application to query the
      status of this command or queue a wait for this command to complete. If the event_wait_list
      and the event arguments are not NULL, the event argument should not refer to an element of the
      event_wait_list array.
    - event_wait_list (const cl_event *): event_wait_list and num_events_in_wait_list specify events
      that need to complete before this particular command can be executed. If event_wait_list is
      NULL, then this particular command does not wait on any event to complete. If event_wait_list
      is NULL, num_events_in_wait_list must be 0. If event_wait_list is not NULL, the list of events
      pointed to by event_wait_list must be valid and num_events_in_wait_list must be greater than
      0. The events specified in event returns an event object that identifies this particular
      command and can be used to query or queue a wait for this particular command to complete.
      event can be NULL in which case it will not be possible for the application to query the
      status of this command or queue a wait for this command to complete. If the event_wait_list
      and the event arguments are not NULL, the event argument should not refer to an element of the
      event_wait_list array.
    - event (cl_event *): event returns an event object that identifies this particular command and
      can be used to query or queue a wait for this particular command to complete. event can be
      NULL in which case it will not be possible for the application to query the status of this
      command or queue a wait for this command to complete.

    Raises (the spec's conditions; those marked [checked] are tested before the call, the others are
    left to the driver):
    - CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR: any of mem_objects are not currently acquired by OpenCL
      [checked]
    - CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR: memory objects in mem_objects have not previously been
      acquired using clEnqueueAcquireD3D10ObjectsKHR, or have been released using
      clEnqueueReleaseD3D10ObjectsKHR since the last time that they were acquired [checked]
    - CL_INVALID_VALUE: num_objects is zero and mem_objects is not a NULL value or if num_objects >
      0 and mem_objects is NULL [checked]
    - CL_INVALID_MEM_OBJECT: memory objects in mem_objects are not valid OpenCL memory objects or if
      memory objects in mem_objects have not been created from Direct3D 10 resources
    - CL_INVALID_COMMAND_QUEUE: command_queue is not a valid command-queue
    - CL_INVALID_CONTEXT: context associated with command_queue was not created from a Direct3D 10
      device
    - CL_INVALID_EVENT_WAIT_LIST: event_wait_list is NULL and num_events_in_wait_list > 0, or
      event_wait_list is not NULL and num_events_in_wait_list> is 0, or if event objects in
      event_wait_list are not valid events [partly checked]
    - CL_OUT_OF_HOST_MEMORY: there is a failure to allocate resources required by the OpenCL
      implementation on the host

    Reference page: khr_d3d10/clEnqueueReleaseD3D10ObjectsKHR.md in the reference docs
    """
    c_command_queue: Any = (
        command_queue if issubclass(type(command_queue), _CData) and _typeof(command_queue) is _type_cl_command_queue
        else _marshal.known(ffi, command_queue, 'cl_command_queue')
        or _marshal.pointer(
            ffi, command_queue, 'cl_command_queue', 'command_queue', 'clEnqueueReleaseD3D10ObjectsKHR', exact=True
        )
    )
    c_num_objects = (
        num_objects if type(num_objects) is int and _min_cl_uint <= num_objects <= _max_cl_uint
        else _marshal.integer(ffi, num_objects, 'cl_uint', 'num_objects', 'clEnqueueReleaseD3D10ObjectsKHR')
    )
    c_mem_objects: Any = (
        _NULL if mem_objects is None
        else mem_objects
        if issubclass(type(mem_objects), _CData)
        and _typeof(mem_objects) is _type_cl_mem_array and _length(mem_objects) >= c_num_objects
        else _marshal.array(
            ffi,
            mem_objects,
            'cl_mem',
            True,
            'mem_objects',
            'clEnqueueReleaseD3D10ObjectsKHR',
            c_num_objects,
            'num_objects',
        )
    )
    c_num_events_in_wait_list = (
        num_events_in_wait_list
        if type(num_events_in_wait_list) is int and _min_cl_uint <= num_events_in_wait_list <= _max_cl_uint
        else _marshal.integer(
            ffi, num_events_in_wait_list, 'cl_uint', 'num_events_in_wait_list', 'clEnqueueReleaseD3D10ObjectsKHR'
        )
    )
    c_event_wait_list: Any = (
        _NULL if event_wait_list is None
        else event_wait_list
        if issubclass(type(event_wait_list), _CData)
        and _typeof(event_wait_list) is _type_cl_event_array and _length(event_wait_list) >= c_num_events_in_wait_list
        else _marshal.array(
            ffi,
            event_wait_list,
            'cl_event',
            True,
            'event_wait_list',
            'clEnqueueReleaseD3D10ObjectsKHR',
            c_num_events_in_wait_list,
            'num_events_in_wait_list',
        )
    )
    c_event: Any = (
        _NULL if event is None
        else event if issubclass(type(event), _CData) and _typeof(event) is _type_cl_event_ptr
        else _marshal.pointer(
            ffi, event, 'cl_event *', 'event', 'clEnqueueReleaseD3D10ObjectsKHR', exact=True, access='out'
        )
    )
    if (c_num_objects == 0 and c_mem_objects):
        raise _violation('clEnqueueReleaseD3D10ObjectsKHR', 0, {'num_objects': num_objects, 'mem_objects': mem_objects})
    if (c_num_objects > 0 and not c_mem_objects):
        raise _violation('clEnqueueReleaseD3D10ObjectsKHR', 1, {'num_objects': num_objects, 'mem_objects': mem_objects})
    if (not c_event_wait_list and c_num_events_in_wait_list > 0):
        raise _violation(
            'clEnqueueReleaseD3D10ObjectsKHR',
            2,
            {'event_wait_list': event_wait_list, 'num_events_in_wait_list': num_events_in_wait_list},
        )
    if (c_event_wait_list and c_num_events_in_wait_list == 0):
        raise _violation(
            'clEnqueueReleaseD3D10ObjectsKHR',
            3,
            {'event_wait_list': event_wait_list, 'num_events_in_wait_list': num_events_in_wait_list},
        )
    k_mem_objects = _unpack(c_mem_objects, c_num_objects) if c_mem_objects else []  # its handles, read once
    function = _fn_clEnqueueReleaseD3D10ObjectsKHR.only if c_command_queue else None
    if function is None:
        function = _lookup_later('queue', c_command_queue, 'command_queue', _fn_clEnqueueReleaseD3D10ObjectsKHR)
    # the state check, the call and the record as one step for these objects
    code = _state.transit(
        'release',
        k_mem_objects,
        function,
        c_command_queue,
        c_num_objects,
        c_mem_objects,
        c_num_events_in_wait_list,
        c_event_wait_list,
        c_event,
    )
    if code != 0:
        if isinstance(code, _Refused):
            raise _violation('clEnqueueReleaseD3D10ObjectsKHR', 4, {'mem_objects': mem_objects}, code.found)
        raise _error(code, 'clEnqueueReleaseD3D10ObjectsKHR')


# -- the Pythonic layer: counts from lengths, outputs returned, errors raised ------


@overload
def get_device_ids_from_d3d10(
    platform: Pointer,
    d3d_device_source: D3DDeviceSource | Literal[16400, 16401],
    d3d_object: Pointer,
    d3d_device_set: D3DDeviceSet | Literal[16402, 16403],
    *,
    as_pyopencl: Literal[False] = False,
) -> list[CData]: ...


@overload
def get_device_ids_from_d3d10(
    platform: Pointer,
    d3d_device_source: D3DDeviceSource | Literal[16400, 16401],
    d3d_object: Pointer,
    d3d_device_set: D3DDeviceSet | Literal[16402, 16403],
    *,
    as_pyopencl: Literal[True],
) -> list[pyopencl.Device]: ...


@overload
def get_device_ids_from_d3d10(
    platform: Pointer,
    d3d_device_source: D3DDeviceSource | Literal[16400, 16401],
    d3d_object: Pointer,
    d3d_device_set: D3DDeviceSet | Literal[16402, 16403],
    *,
    as_pyopencl: bool = False,
) -> list[CData] | list[pyopencl.Device]: ...


def get_device_ids_from_d3d10(
    platform: Pointer,
    d3d_device_source: D3DDeviceSource | Literal[16400, 16401],
    d3d_object: Pointer,
    d3d_device_set: D3DDeviceSet | Literal[16402, 16403],
    *,
    as_pyopencl: bool = False,
) -> list[CData] | list[pyopencl.Device]:
    """clGetDeviceIDsFromD3D10KHR the Python way: returns the list the C function fills (asking for its
    length first); errors raise `errors.CLError`. Checks and conditions as for
    `clGetDeviceIDsFromD3D10KHR` [specs/cl_khr_d3d10_sharing.txt:20].

    Parameters:
    - platform: platform refers to the platform ID returned by clGetPlatformIDs.
    - d3d_device_source: d3d_device_source specifies the type of d3d_object, and must be one of the
      values shown in the table below.
    - d3d_object: d3d_object specifies the object whose corresponding OpenCL devices are being
      queried.
    - d3d_device_set: d3d_device_set specifies the set of devices to return, and must be one of the
      values shown in the table below.

    Reference page: khr_d3d10/clGetDeviceIDsFromD3D10KHR.md in the reference docs
    """
    if type(as_pyopencl) is not bool:
        as_pyopencl = _marshal.flag(as_pyopencl, 'as_pyopencl', 'get_device_ids_from_d3d10')
    o_num_devices = ffi.new(_type_cl_uint_ptr)
    clGetDeviceIDsFromD3D10KHR(platform, d3d_device_source, d3d_object, d3d_device_set, 0, None, o_num_devices)
    n_devices = _library.answered(o_num_devices[0], _library.MOST_ITEMS, 'clGetDeviceIDsFromD3D10KHR', 'devices')
    if n_devices == 0:
        return []
    o_devices = ffi.new(_type_cl_device_id_array, n_devices)
    clGetDeviceIDsFromD3D10KHR(platform, d3d_device_source, d3d_object, d3d_device_set, n_devices, o_devices, None)
    return [_lifetime.adopt(o_devices[i], 'cl_device_id', as_pyopencl) for i in range(min(n_devices, len(o_devices)))]


@overload
def create_from_d3d10_buffer(
    context: Pointer,
    flags: int,
    resource: Pointer,
    *,
    as_pyopencl: Literal[False] = False,
) -> CData: ...


@overload
def create_from_d3d10_buffer(
    context: Pointer,
    flags: int,
    resource: Pointer,
    *,
    as_pyopencl: Literal[True],
) -> pyopencl.MemoryObject: ...


@overload
def create_from_d3d10_buffer(
    context: Pointer,
    flags: int,
    resource: Pointer,
    *,
    as_pyopencl: bool = False,
) -> CData | pyopencl.MemoryObject: ...


def create_from_d3d10_buffer(
    context: Pointer,
    flags: int,
    resource: Pointer,
    *,
    as_pyopencl: bool = False,
) -> CData | pyopencl.MemoryObject:
    """clCreateFromD3D10BufferKHR the Python way: returns what the C function hands back, released when
    garbage-collected (a PyOpenCL object with `as_pyopencl=True`); errors raise `errors.CLError`.
    Checks and conditions as for `clCreateFromD3D10BufferKHR` [specs/cl_khr_d3d10_sharing.txt:28].

    Parameters:
    - context: context is a valid OpenCL context created from a Direct3D 10 device.
    - flags: flags is a bit-field that is used to specify usage information.
    - resource: resource is a pointer to the Direct3D 10 buffer to share.

    Reference page: khr_d3d10/clCreateFromD3D10BufferKHR.md in the reference docs
    """
    if type(as_pyopencl) is not bool:
        as_pyopencl = _marshal.flag(as_pyopencl, 'as_pyopencl', 'create_from_d3d10_buffer')
    result = clCreateFromD3D10BufferKHR(context, flags, resource, None)
    return _lifetime.adopt(result, 'cl_mem', as_pyopencl)


@overload
def create_from_d3d10_texture2d(
    context: Pointer,
    flags: int,
    resource: Pointer,
    subresource: int,
    *,
    as_pyopencl: Literal[False] = False,
) -> CData: ...


@overload
def create_from_d3d10_texture2d(
    context: Pointer,
    flags: int,
    resource: Pointer,
    subresource: int,
    *,
    as_pyopencl: Literal[True],
) -> pyopencl.MemoryObject: ...


@overload
def create_from_d3d10_texture2d(
    context: Pointer,
    flags: int,
    resource: Pointer,
    subresource: int,
    *,
    as_pyopencl: bool = False,
) -> CData | pyopencl.MemoryObject: ...


def create_from_d3d10_texture2d(
    context: Pointer,
    flags: int,
    resource: Pointer,
    subresource: int,
    *,
    as_pyopencl: bool = False,
) -> CData | pyopencl.MemoryObject:
    """clCreateFromD3D10Texture2DKHR the Python way: returns what the C function hands back, released
    when garbage-collected (a PyOpenCL object with `as_pyopencl=True`); errors raise
    `errors.CLError`. Checks and conditions as for `clCreateFromD3D10Texture2DKHR`
    [specs/cl_khr_d3d10_sharing.txt:33].

    Parameters:
    - context: context is a valid OpenCL context created from a Direct3D 10 device.
    - flags: flags is a bit-field that is used to specify usage information.
    - resource: resource is a pointer to the Direct3D 10 2D texture to share.
    - subresource: subresource is the subresource of resource to share.

    Reference page: khr_d3d10/clCreateFromD3D10Texture2DKHR.md in the reference docs
    """
    if type(as_pyopencl) is not bool:
        as_pyopencl = _marshal.flag(as_pyopencl, 'as_pyopencl', 'create_from_d3d10_texture2d')
    result = clCreateFromD3D10Texture2DKHR(context, flags, resource, subresource, None)
    return _lifetime.adopt(result, 'cl_mem', as_pyopencl)


@overload
def create_from_d3d10_texture3d(
    context: Pointer,
    flags: int,
    resource: Pointer,
    subresource: int,
    *,
    as_pyopencl: Literal[False] = False,
) -> CData: ...


@overload
def create_from_d3d10_texture3d(
    context: Pointer,
    flags: int,
    resource: Pointer,
    subresource: int,
    *,
    as_pyopencl: Literal[True],
) -> pyopencl.MemoryObject: ...


@overload
def create_from_d3d10_texture3d(
    context: Pointer,
    flags: int,
    resource: Pointer,
    subresource: int,
    *,
    as_pyopencl: bool = False,
) -> CData | pyopencl.MemoryObject: ...


def create_from_d3d10_texture3d(
    context: Pointer,
    flags: int,
    resource: Pointer,
    subresource: int,
    *,
    as_pyopencl: bool = False,
) -> CData | pyopencl.MemoryObject:
    """clCreateFromD3D10Texture3DKHR the Python way: returns what the C function hands back, released
    when garbage-collected (a PyOpenCL object with `as_pyopencl=True`); errors raise
    `errors.CLError`. Checks and conditions as for `clCreateFromD3D10Texture3DKHR`
    [specs/cl_khr_d3d10_sharing.txt:39].

    Parameters:
    - context: context is a valid OpenCL context created from a Direct3D 10 device.
    - flags: flags is a bit-field that is used to specify usage information.
    - resource: resource is a pointer to the Direct3D 10 3D texture to share.
    - subresource: subresource is the subresource of resource to share.

    Reference page: khr_d3d10/clCreateFromD3D10Texture3DKHR.md in the reference docs
    """
    if type(as_pyopencl) is not bool:
        as_pyopencl = _marshal.flag(as_pyopencl, 'as_pyopencl', 'create_from_d3d10_texture3d')
    result = clCreateFromD3D10Texture3DKHR(context, flags, resource, subresource, None)
    return _lifetime.adopt(result, 'cl_mem', as_pyopencl)


@overload
def enqueue_acquire_d3d10_objects(
    queue: Pointer,
    mem_objects: Sequence[Pointer],
    *,
    wait_for: Sequence[Pointer] | None = None,
    as_pyopencl: Literal[False] = False,
) -> CData: ...


@overload
def enqueue_acquire_d3d10_objects(
    queue: Pointer,
    mem_objects: Sequence[Pointer],
    *,
    wait_for: Sequence[Pointer] | None = None,
    as_pyopencl: Literal[True],
) -> pyopencl.Event: ...


@overload
def enqueue_acquire_d3d10_objects(
    queue: Pointer,
    mem_objects: Sequence[Pointer],
    *,
    wait_for: Sequence[Pointer] | None = None,
    as_pyopencl: bool = False,
) -> CData | pyopencl.Event: ...


def enqueue_acquire_d3d10_objects(
    queue: Pointer,
    mem_objects: Sequence[Pointer],
    *,
    wait_for: Sequence[Pointer] | None = None,
    as_pyopencl: bool = False,
) -> CData | pyopencl.Event:
    """clEnqueueAcquireD3D10ObjectsKHR the Python way: lists are sequences (their counts are their
    lengths), the wait list is `wait_for`; returns what the C function hands back, released when
    garbage-collected (a PyOpenCL object with `as_pyopencl=True`); errors raise `errors.CLError`.
    Checks and conditions as for `clEnqueueAcquireD3D10ObjectsKHR`
    [specs/cl_khr_d3d10_sharing.txt:45].

    Parameters:
    - queue: command_queue is a valid command-queue.
    - mem_objects: mem_objects is a pointer to a list of OpenCL memory objects that were created
      from Direct3D 10 resources.

    Reference page: khr_d3d10/clEnqueueAcquireD3D10ObjectsKHR.md in the reference docs
    """
    if type(as_pyopencl) is not bool:
        as_pyopencl = _marshal.flag(as_pyopencl, 'as_pyopencl', 'enqueue_acquire_d3d10_objects')
    l_mem_objects: CData | None = None
    if type(mem_objects) is list:
        for _item in mem_objects:
            if not issubclass(type(_item), _CData) or _typeof(_item) is not _type_cl_mem:
                break
        else:
            l_mem_objects, n_mem_objects = (
                (ffi.new(_type_cl_mem_array, mem_objects), len(mem_objects)) if mem_objects else (None, 0)
            )
    if l_mem_objects is None:
        l_mem_objects, n_mem_objects = _marshal.handle_list(
            ffi, mem_objects, 'cl_mem', 'mem_objects', 'enqueue_acquire_d3d10_objects'
        )
    l_event_wait_list: CData | None = None
    if type(wait_for) is list:
        for _item in wait_for:
            if not issubclass(type(_item), _CData) or _typeof(_item) is not _type_cl_event:
                break
        else:
            l_event_wait_list, n_event_wait_list = (
                (ffi.new(_type_cl_event_array, wait_for), len(wait_for)) if wait_for else (None, 0)
            )
    if l_event_wait_list is None:
        l_event_wait_list, n_event_wait_list = _marshal.handle_list(
            ffi, wait_for, 'cl_event', 'wait_for', 'enqueue_acquire_d3d10_objects'
        )
    o_event = ffi.new(_type_cl_event_ptr)
    clEnqueueAcquireD3D10ObjectsKHR(queue, n_mem_objects, l_mem_objects, n_event_wait_list, l_event_wait_list, o_event)
    return _lifetime.adopt(o_event[0], 'cl_event', as_pyopencl)


@overload
def enqueue_release_d3d10_objects(
    queue: Pointer,
    mem_objects: Sequence[Pointer],
    *,
    wait_for: Sequence[Pointer] | None = None,
    as_pyopencl: Literal[False] = False,
) -> CData: ...


@overload
def enqueue_release_d3d10_objects(
    queue: Pointer,
    mem_objects: Sequence[Pointer],
    *,
    wait_for: Sequence[Pointer] | None = None,
    as_pyopencl: Literal[True],
) -> pyopencl.Event: ...


@overload
def enqueue_release_d3d10_objects(
    queue: Pointer,
    mem_objects: Sequence[Pointer],
    *,
    wait_for: Sequence[Pointer] | None = None,
    as_pyopencl: bool = False,
) -> CData | pyopencl.Event: ...


def enqueue_release_d3d10_objects(
    queue: Pointer,
    mem_objects: Sequence[Pointer],
    *,
    wait_for: Sequence[Pointer] | None = None,
    as_pyopencl: bool = False,
) -> CData | pyopencl.Event:
    """clEnqueueReleaseD3D10ObjectsKHR the Python way: lists are sequences (their counts are their
    lengths), the wait list is `wait_for`; returns what the C function hands back, released when
    garbage-collected (a PyOpenCL object with `as_pyopencl=True`); errors raise `errors.CLError`.
    Checks and conditions as for `clEnqueueReleaseD3D10ObjectsKHR`
    [specs/cl_khr_d3d10_sharing.txt:52].

    Parameters:
    - queue
    - mem_objects: mem_objects is a pointer to a list of OpenCL memory objects that were created
      from Direct3D 10 resources.

    Reference page: khr_d3d10/clEnqueueReleaseD3D10ObjectsKHR.md in the reference docs
    """
    if type(as_pyopencl) is not bool:
        as_pyopencl = _marshal.flag(as_pyopencl, 'as_pyopencl', 'enqueue_release_d3d10_objects')
    l_mem_objects: CData | None = None
    if type(mem_objects) is list:
        for _item in mem_objects:
            if not issubclass(type(_item), _CData) or _typeof(_item) is not _type_cl_mem:
                break
        else:
            l_mem_objects, n_mem_objects = (
                (ffi.new(_type_cl_mem_array, mem_objects), len(mem_objects)) if mem_objects else (None, 0)
            )
    if l_mem_objects is None:
        l_mem_objects, n_mem_objects = _marshal.handle_list(
            ffi, mem_objects, 'cl_mem', 'mem_objects', 'enqueue_release_d3d10_objects'
        )
    l_event_wait_list: CData | None = None
    if type(wait_for) is list:
        for _item in wait_for:
            if not issubclass(type(_item), _CData) or _typeof(_item) is not _type_cl_event:
                break
        else:
            l_event_wait_list, n_event_wait_list = (
                (ffi.new(_type_cl_event_array, wait_for), len(wait_for)) if wait_for else (None, 0)
            )
    if l_event_wait_list is None:
        l_event_wait_list, n_event_wait_list = _marshal.handle_list(
            ffi, wait_for, 'cl_event', 'wait_for', 'enqueue_release_d3d10_objects'
        )
    o_event = ffi.new(_type_cl_event_ptr)
    clEnqueueReleaseD3D10ObjectsKHR(queue, n_mem_objects, l_mem_objects, n_event_wait_list, l_event_wait_list, o_event)
    return _lifetime.adopt(o_event[0], 'cl_event', as_pyopencl)


@contextmanager
def acquired(
    queue: Pointer,
    mem_objects: Sequence[Pointer],
    *,
    wait_for: Sequence[Pointer] | None = None,
    as_pyopencl: bool = False,
) -> Iterator[Any]:
    """`with acquired(...) as event:` enqueue_acquire_d3d10_objects on entry (giving its event),
    enqueue_release_d3d10_objects on exit, even when the body raises.
    """
    mem_objects = _marshal.snapshot(mem_objects, 'mem_objects', 'acquired')  # released as acquired
    _event = enqueue_acquire_d3d10_objects(queue, mem_objects, wait_for=wait_for, as_pyopencl=as_pyopencl)
    try:
        yield _event
    except BaseException as raised:
        try:
            enqueue_release_d3d10_objects(queue, mem_objects)
        except Exception as failed:  # the body's exception stays the one raised
            _errors.attach_release_failure(raised, failed, 'acquired')
        raise
    enqueue_release_d3d10_objects(queue, mem_objects)


# -- what the extension adds to core OpenCL: its context properties, its info queries ------


@overload
def create_context(
    devices: Sequence[Pointer],
    *,
    context_d3d10_device: Pointer = None,
    properties: Mapping[int, bool] | None = None,
    as_pyopencl: Literal[False] = False,
) -> CData: ...


@overload
def create_context(
    devices: Sequence[Pointer],
    *,
    context_d3d10_device: Pointer = None,
    properties: Mapping[int, bool] | None = None,
    as_pyopencl: Literal[True],
) -> pyopencl.Context: ...


@overload
def create_context(
    devices: Sequence[Pointer],
    *,
    context_d3d10_device: Pointer = None,
    properties: Mapping[int, bool] | None = None,
    as_pyopencl: bool = False,
) -> CData | pyopencl.Context: ...


def create_context(
    devices: Sequence[Pointer],
    *,
    context_d3d10_device: Pointer = None,
    properties: Mapping[int, bool] | None = None,
    as_pyopencl: bool = False,
) -> CData | pyopencl.Context:
    """A context on `devices` (their platform's) with cl_khr_d3d10_sharing's properties:
    `context_d3d10_device` is CL_CONTEXT_D3D10_DEVICE_KHR (ID3D10Device *); a property left None is
    not given. `properties` maps further core properties to their values
    (`CL_CONTEXT_INTEROP_USER_SYNC`: a bool), checked before anything is called. Calls
    `clCreateContext` once the platform lists the extension (`errors.ExtensionNotSupportedError`
    before, otherwise); returns a cffi handle released when garbage-collected, or a
    `pyopencl.Context` with `as_pyopencl=True`. [specs/cl_khr_d3d10_sharing.txt:79]

    Raises (the spec's conditions, left to the driver):
    - CL_INVALID_D3D10_DEVICE_KHR: the Direct3D 10 device specified for interoperability is not
      compatible with the devices against which the context is to be created
    - CL_INVALID_D3D10_DEVICE_KHR: the value of the property CL_CONTEXT_D3D10_DEVICE_KHR is non-NULL
      and does not specify a valid Direct3D 10 device with which the cl_device_ids against which
      this context is to be created may interoperate
    - CL_INVALID_OPERATION: Direct3D 10 interoperability is specified by setting
      CL_INVALID_D3D10_DEVICE_KHR to a non-NULL value, and interoperability with another graphics
      API is also specified
    """
    if type(as_pyopencl) is not bool:
        as_pyopencl = _marshal.flag(as_pyopencl, 'as_pyopencl', 'create_context')
    l_devices, n_devices = _marshal.handle_list(ffi, devices, 'cl_device_id', 'devices', 'create_context')
    if l_devices is None or not n_devices:
        raise ValueError("create_context() argument 'devices' must name at least one device")
    _core = _marshal.context_properties(
        properties, {CL_CONTEXT_D3D10_DEVICE_KHR: 'context_d3d10_device'}, 'create_context'
    )
    try:
        _platform = _library.device_platform(l_devices[0])
        _binding.require(_platform, [l_devices[i] for i in range(n_devices)], 'clCreateContext')
    except _library.QueryFailed as failed:
        raise _error(failed.code, 'clCreateContext', f"{failed.function} failed on argument 'devices'") from None
    _properties = [4228, _library.address(_platform)]
    if context_d3d10_device is not None:
        _properties += [
            CL_CONTEXT_D3D10_DEVICE_KHR,
            _library.address(
                _marshal.pointer(ffi, context_d3d10_device, 'ID3D10Device *', 'context_d3d10_device', 'create_context')
            ),
        ]
    try:
        _made = _library.create_context(_properties + _core, l_devices, n_devices)
    except _library.QueryFailed as failed:
        raise _error(failed.code, 'clCreateContext') from None
    return _lifetime.adopt(_made, 'cl_context', as_pyopencl)


def mem_d3d10_resource(memobj: Pointer) -> CData:
    """`clGetMemObjectInfo(memobj, CL_MEM_D3D10_RESOURCE_KHR)`: its answer, a ID3D10Resource *.
    [specs/cl_khr_d3d10_sharing.txt:97]

    Raises (the spec's conditions, left to the driver):
    - CL_INVALID_D3D10_RESOURCE_KHR: param_name is CL_MEM_D3D10_RESOURCE_KHR and memobj was not
      created by the function clCreateFromD3D10BufferKHR, clCreateFromD3D10Texture2DKHR, or
      clCreateFromD3D10Texture3DKHR
    """
    c_memobj = _marshal.pointer(ffi, memobj, 'cl_mem', 'memobj', 'mem_d3d10_resource', exact=True)
    found = ffi.new('ID3D10Resource * *')
    try:
        _library.info('clGetMemObjectInfo', c_memobj, CL_MEM_D3D10_RESOURCE_KHR, found, ffi.sizeof('ID3D10Resource *'))
    except _library.QueryFailed as failed:
        raise _error(failed.code, 'clGetMemObjectInfo') from None
    return found[0]


def image_d3d10_subresource(image: Pointer) -> int:
    """`clGetImageInfo(image, CL_IMAGE_D3D10_SUBRESOURCE_KHR)`: its answer, a UINT.
    [specs/cl_khr_d3d10_sharing.txt:104]

    Raises (the spec's conditions, left to the driver):
    - CL_INVALID_D3D10_RESOURCE_KHR: param_name is CL_MEM_D3D10_SUBRESOURCE_KHR and image was not
      created by the function clCreateFromD3D10Texture2DKHR, or clCreateFromD3D10Texture3DKHR
    """
    c_image = _marshal.pointer(ffi, image, 'cl_mem', 'image', 'image_d3d10_subresource', exact=True)
    found = ffi.new('UINT *')
    try:
        _library.info('clGetImageInfo', c_image, CL_IMAGE_D3D10_SUBRESOURCE_KHR, found, ffi.sizeof('UINT'))
    except _library.QueryFailed as failed:
        raise _error(failed.code, 'clGetImageInfo') from None
    return int(found[0])


def context_d3d10_prefer_shared_resources(context: Pointer) -> bool:
    """`clGetContextInfo(context, CL_CONTEXT_D3D10_PREFER_SHARED_RESOURCES_KHR)`: whether it is true.
    [specs/cl_khr_d3d10_sharing.txt:90]
    """
    c_context = _marshal.pointer(
        ffi, context, 'cl_context', 'context', 'context_d3d10_prefer_shared_resources', exact=True
    )
    found = ffi.new('cl_bool *')
    try:
        _library.info(
            'clGetContextInfo', c_context, CL_CONTEXT_D3D10_PREFER_SHARED_RESOURCES_KHR, found, ffi.sizeof('cl_bool')
        )
    except _library.QueryFailed as failed:
        raise _error(failed.code, 'clGetContextInfo') from None
    return bool(found[0])


# -- the same functions with the checks off (bound under their names when CL_D3D_SHARING_CHECKS=0) --


def _unchecked_clGetDeviceIDsFromD3D10KHR(
    platform: Pointer,
    d3d_device_source: int,
    d3d_object: Pointer,
    d3d_device_set: int,
    num_entries: int,
    devices: Pointer,
    num_devices: Pointer,
) -> None:
    c_platform: Any = (
        platform if issubclass(type(platform), _CData) and _typeof(platform) is _type_cl_platform_id
        else _marshal.known(ffi, platform, 'cl_platform_id')
        or _marshal.pointer(ffi, platform, 'cl_platform_id', 'platform', 'clGetDeviceIDsFromD3D10KHR', exact=True)
    )
    c_d3d_device_source = (
        d3d_device_source
        if type(d3d_device_source) is int
        and _min_cl_d3d10_device_source_khr <= d3d_device_source <= _max_cl_d3d10_device_source_khr
        else _marshal.integer(
            ffi, d3d_device_source, 'cl_d3d10_device_source_khr', 'd3d_device_source', 'clGetDeviceIDsFromD3D10KHR'
        )
    )
    c_d3d_object: Any = (
        _NULL if d3d_object is None
        else d3d_object if issubclass(type(d3d_object), _CData) and _typeof(d3d_object) is _type_void_ptr
        else _marshal.pointer(ffi, d3d_object, 'void *', 'd3d_object', 'clGetDeviceIDsFromD3D10KHR')
    )
    c_d3d_device_set = (
        d3d_device_set
        if type(d3d_device_set) is int
        and _min_cl_d3d10_device_set_khr <= d3d_device_set <= _max_cl_d3d10_device_set_khr
        else _marshal.integer(
            ffi, d3d_device_set, 'cl_d3d10_device_set_khr', 'd3d_device_set', 'clGetDeviceIDsFromD3D10KHR'
        )
    )
    c_num_entries = (
        num_entries if type(num_entries) is int and _min_cl_uint <= num_entries <= _max_cl_uint
        else _marshal.integer(ffi, num_entries, 'cl_uint', 'num_entries', 'clGetDeviceIDsFromD3D10KHR')
    )
    c_devices: Any = (
        _NULL if devices is None
        else _marshal.pointer(
            ffi,
            devices,
            'cl_device_id *',
            'devices',
            'clGetDeviceIDsFromD3D10KHR',
            exact=True,
            count=c_num_entries,
            count_name='num_entries',
            access='out',
        )
    )
    c_num_devices: Any = (
        _NULL if num_devices is None
        else num_devices if issubclass(type(num_devices), _CData) and _typeof(num_devices) is _type_cl_uint_ptr
        else _marshal.pointer(
            ffi, num_devices, 'cl_uint *', 'num_devices', 'clGetDeviceIDsFromD3D10KHR', exact=True, access='out'
        )
    )
    function = _fn_clGetDeviceIDsFromD3D10KHR.only if c_platform == _fn_clGetDeviceIDsFromD3D10KHR.platform else None
    if function is None:
        function = _lookup('platform', c_platform, 'platform', _fn_clGetDeviceIDsFromD3D10KHR)
    code = function(
        c_platform, c_d3d_device_source, c_d3d_object, c_d3d_device_set, c_num_entries, c_devices, c_num_devices
    )
    if code != 0:
        raise _error(code, 'clGetDeviceIDsFromD3D10KHR')


def _unchecked_clCreateFromD3D10BufferKHR(
    context: Pointer,
    flags: int,
    resource: Pointer,
    errcode_ret: Pointer,
) -> CData:
    c_context: Any = (
        context if issubclass(type(context), _CData) and _typeof(context) is _type_cl_context
        else _marshal.known(ffi, context, 'cl_context')
        or _marshal.pointer(ffi, context, 'cl_context', 'context', 'clCreateFromD3D10BufferKHR', exact=True)
    )
    c_flags = (
        flags if type(flags) is int and _min_cl_mem_flags <= flags <= _max_cl_mem_flags
        else _marshal.integer(ffi, flags, 'cl_mem_flags', 'flags', 'clCreateFromD3D10BufferKHR')
    )
    c_resource: Any = (
        _NULL if resource is None
        else resource if issubclass(type(resource), _CData) and _typeof(resource) is _type_ID3D10Buffer_ptr
        else _marshal.pointer(ffi, resource, 'ID3D10Buffer *', 'resource', 'clCreateFromD3D10BufferKHR')
    )
    given_errcode_ret: Any = (
        _NULL if errcode_ret is None
        else errcode_ret if issubclass(type(errcode_ret), _CData) and _typeof(errcode_ret) is _type_cl_int_ptr
        else _marshal.pointer(
            ffi, errcode_ret, 'cl_int *', 'errcode_ret', 'clCreateFromD3D10BufferKHR', exact=True, access='out'
        )
    )
    c_errcode_ret = ffi.new(_type_cl_int_ptr)
    function = _fn_clCreateFromD3D10BufferKHR.only if c_context else None
    if function is None:
        function = _lookup('context', c_context, 'context', _fn_clCreateFromD3D10BufferKHR)
    result = function(c_context, c_flags, c_resource, c_errcode_ret)
    if given_errcode_ret != _NULL:
        given_errcode_ret[0] = c_errcode_ret[0]
    if c_errcode_ret[0] != 0:
        raise _error(c_errcode_ret[0], 'clCreateFromD3D10BufferKHR')
    return result


def _unchecked_clCreateFromD3D10Texture2DKHR(
    context: Pointer,
    flags: int,
    resource: Pointer,
    subresource: int,
    errcode_ret: Pointer,
) -> CData:
    c_context: Any = (
        context if issubclass(type(context), _CData) and _typeof(context) is _type_cl_context
        else _marshal.known(ffi, context, 'cl_context')
        or _marshal.pointer(ffi, context, 'cl_context', 'context', 'clCreateFromD3D10Texture2DKHR', exact=True)
    )
    c_flags = (
        flags if type(flags) is int and _min_cl_mem_flags <= flags <= _max_cl_mem_flags
        else _marshal.integer(ffi, flags, 'cl_mem_flags', 'flags', 'clCreateFromD3D10Texture2DKHR')
    )
    c_resource: Any = (
        _NULL if resource is None
        else resource if issubclass(type(resource), _CData) and _typeof(resource) is _type_ID3D10Texture2D_ptr
        else _marshal.pointer(ffi, resource, 'ID3D10Texture2D *', 'resource', 'clCreateFromD3D10Texture2DKHR')
    )
    c_subresource = (
        subresource if type(subresource) is int and _min_UINT <= subresource <= _max_UINT
        else _marshal.integer(ffi, subresource, 'UINT', 'subresource', 'clCreateFromD3D10Texture2DKHR')
    )
    given_errcode_ret: Any = (
        _NULL if errcode_ret is None
        else errcode_ret if issubclass(type(errcode_ret), _CData) and _typeof(errcode_ret) is _type_cl_int_ptr
        else _marshal.pointer(
            ffi, errcode_ret, 'cl_int *', 'errcode_ret', 'clCreateFromD3D10Texture2DKHR', exact=True, access='out'
        )
    )
    c_errcode_ret = ffi.new(_type_cl_int_ptr)
    function = _fn_clCreateFromD3D10Texture2DKHR.only if c_context else None
    if function is None:
        function = _lookup('context', c_context, 'context', _fn_clCreateFromD3D10Texture2DKHR)
    result = function(c_context, c_flags, c_resource, c_subresource, c_errcode_ret)
    if given_errcode_ret != _NULL:
        given_errcode_ret[0] = c_errcode_ret[0]
    if c_errcode_ret[0] != 0:
        raise _error(c_errcode_ret[0], 'clCreateFromD3D10Texture2DKHR')
    return result


def _unchecked_clCreateFromD3D10Texture3DKHR(
    context: Pointer,
    flags: int,
    resource: Pointer,
    subresource: int,
    errcode_ret: Pointer,
) -> CData:
    c_context: Any = (
        context if issubclass(type(context), _CData) and _typeof(context) is _type_cl_context
        else _marshal.known(ffi, context, 'cl_context')
        or _marshal.pointer(ffi, context, 'cl_context', 'context', 'clCreateFromD3D10Texture3DKHR', exact=True)
    )
    c_flags = (
        flags if type(flags) is int and _min_cl_mem_flags <= flags <= _max_cl_mem_flags
        else _marshal.integer(ffi, flags, 'cl_mem_flags', 'flags', 'clCreateFromD3D10Texture3DKHR')
    )
    c_resource: Any = (
        _NULL if resource is None
        else resource if issubclass(type(resource), _CData) and _typeof(resource) is _type_ID3D10Texture3D_ptr
        else _marshal.pointer(ffi, resource, 'ID3D10Texture3D *', 'resource', 'clCreateFromD3D10Texture3DKHR')
    )
    c_subresource = (
        subresource if type(subresource) is int and _min_UINT <= subresource <= _max_UINT
        else _marshal.integer(ffi, subresource, 'UINT', 'subresource', 'clCreateFromD3D10Texture3DKHR')
    )
    given_errcode_ret: Any = (
        _NULL if errcode_ret is None
        else errcode_ret if issubclass(type(errcode_ret), _CData) and _typeof(errcode_ret) is _type_cl_int_ptr
        else _marshal.pointer(
            ffi, errcode_ret, 'cl_int *', 'errcode_ret', 'clCreateFromD3D10Texture3DKHR', exact=True, access='out'
        )
    )
    c_errcode_ret = ffi.new(_type_cl_int_ptr)
    function = _fn_clCreateFromD3D10Texture3DKHR.only if c_context else None
    if function is None:
        function = _lookup('context', c_context, 'context', _fn_clCreateFromD3D10Texture3DKHR)
    result = function(c_context, c_flags, c_resource, c_subresource, c_errcode_ret)
    if given_errcode_ret != _NULL:
        given_errcode_ret[0] = c_errcode_ret[0]
    if c_errcode_ret[0] != 0:
        raise _error(c_errcode_ret[0], 'clCreateFromD3D10Texture3DKHR')
    return result


def _unchecked_clEnqueueAcquireD3D10ObjectsKHR(
    command_queue: Pointer,
    num_objects: int,
    mem_objects: Array,
    num_events_in_wait_list: int,
    event_wait_list: Array,
    event: Pointer,
) -> None:
    # the anchor as with the checks on (it finds the driver's function); the rest as cffi takes it, as C would
    c_command_queue: Any = command_queue
    function = _fn_clEnqueueAcquireD3D10ObjectsKHR.only
    if function is None or not (type(command_queue) is _Handle and _typeof(command_queue) is _type_cl_command_queue):
        c_command_queue = (
            command_queue
            if issubclass(type(command_queue), _CData) and _typeof(command_queue) is _type_cl_command_queue
            else _marshal.known(ffi, command_queue, 'cl_command_queue')
            or _marshal.pointer(
                ffi, command_queue, 'cl_command_queue', 'command_queue', 'clEnqueueAcquireD3D10ObjectsKHR', exact=True
            )
        )
        function = _fn_clEnqueueAcquireD3D10ObjectsKHR.only if c_command_queue else None
        if function is None:
            function = _lookup('queue', c_command_queue, 'command_queue', _fn_clEnqueueAcquireD3D10ObjectsKHR)
    try:
        code = function(
            c_command_queue,
            num_objects,
            _NULL if mem_objects is None else mem_objects,
            num_events_in_wait_list,
            _NULL if event_wait_list is None else event_wait_list,
            _NULL if event is None else event,
        )
    except Exception:  # a value cffi does not take as it is: converted as with the checks on, or refused naming it
        c_num_objects = (
            num_objects if type(num_objects) is int and _min_cl_uint <= num_objects <= _max_cl_uint
            else _marshal.integer(ffi, num_objects, 'cl_uint', 'num_objects', 'clEnqueueAcquireD3D10ObjectsKHR')
        )
        c_mem_objects: Any = (
            _NULL if mem_objects is None
            else mem_objects
            if issubclass(type(mem_objects), _CData)
            and _typeof(mem_objects) is _type_cl_mem_array and _length(mem_objects) >= c_num_objects
            else _marshal.array(
                ffi,
                mem_objects,
                'cl_mem',
                True,
                'mem_objects',
                'clEnqueueAcquireD3D10ObjectsKHR',
                c_num_objects,
                'num_objects',
            )
        )
        c_num_events_in_wait_list = (
            num_events_in_wait_list
            if type(num_events_in_wait_list) is int and _min_cl_uint <= num_events_in_wait_list <= _max_cl_uint
            else _marshal.integer(
                ffi, num_events_in_wait_list, 'cl_uint', 'num_events_in_wait_list', 'clEnqueueAcquireD3D10ObjectsKHR'
            )
        )
        c_event_wait_list: Any = (
            _NULL if event_wait_list is None
            else event_wait_list
            if issubclass(type(event_wait_list), _CData)
            and _typeof(event_wait_list) is _type_cl_event_array
            and _length(event_wait_list) >= c_num_events_in_wait_list
            else _marshal.array(
                ffi,
                event_wait_list,
                'cl_event',
                True,
                'event_wait_list',
                'clEnqueueAcquireD3D10ObjectsKHR',
                c_num_events_in_wait_list,
                'num_events_in_wait_list',
            )
        )
        c_event: Any = (
            _NULL if event is None
            else event if issubclass(type(event), _CData) and _typeof(event) is _type_cl_event_ptr
            else _marshal.pointer(
                ffi, event, 'cl_event *', 'event', 'clEnqueueAcquireD3D10ObjectsKHR', exact=True, access='out'
            )
        )
        code = function(
            c_command_queue, c_num_objects, c_mem_objects, c_num_events_in_wait_list, c_event_wait_list, c_event
        )
    if code != 0:
        raise _error(code, 'clEnqueueAcquireD3D10ObjectsKHR')


def _unchecked_clEnqueueReleaseD3D10ObjectsKHR(
    command_queue: Pointer,
    num_objects: int,
    mem_objects: Array,
    num_events_in_wait_list: int,
    event_wait_list: Array,
    event: Pointer,
) -> None:
    # the anchor as with the checks on (it finds the driver's function); the rest as cffi takes it, as C would
    c_command_queue: Any = command_queue
    function = _fn_clEnqueueReleaseD3D10ObjectsKHR.only
    if function is None or not (type(command_queue) is _Handle and _typeof(command_queue) is _type_cl_command_queue):
        c_command_queue = (
            command_queue
            if issubclass(type(command_queue), _CData) and _typeof(command_queue) is _type_cl_command_queue
            else _marshal.known(ffi, command_queue, 'cl_command_queue')
            or _marshal.pointer(
                ffi, command_queue, 'cl_command_queue', 'command_queue', 'clEnqueueReleaseD3D10ObjectsKHR', exact=True
            )
        )
        function = _fn_clEnqueueReleaseD3D10ObjectsKHR.only if c_command_queue else None
        if function is None:
            function = _lookup('queue', c_command_queue, 'command_queue', _fn_clEnqueueReleaseD3D10ObjectsKHR)
    try:
        code = function(
            c_command_queue,
            num_objects,
            _NULL if mem_objects is None else mem_objects,
            num_events_in_wait_list,
            _NULL if event_wait_list is None else event_wait_list,
            _NULL if event is None else event,
        )
    except Exception:  # a value cffi does not take as it is: converted as with the checks on, or refused naming it
        c_num_objects = (
            num_objects if type(num_objects) is int and _min_cl_uint <= num_objects <= _max_cl_uint
            else _marshal.integer(ffi, num_objects, 'cl_uint', 'num_objects', 'clEnqueueReleaseD3D10ObjectsKHR')
        )
        c_mem_objects: Any = (
            _NULL if mem_objects is None
            else mem_objects
            if issubclass(type(mem_objects), _CData)
            and _typeof(mem_objects) is _type_cl_mem_array and _length(mem_objects) >= c_num_objects
            else _marshal.array(
                ffi,
                mem_objects,
                'cl_mem',
                True,
                'mem_objects',
                'clEnqueueReleaseD3D10ObjectsKHR',
                c_num_objects,
                'num_objects',
            )
        )
        c_num_events_in_wait_list = (
            num_events_in_wait_list
            if type(num_events_in_wait_list) is int and _min_cl_uint <= num_events_in_wait_list <= _max_cl_uint
            else _marshal.integer(
                ffi, num_events_in_wait_list, 'cl_uint', 'num_events_in_wait_list', 'clEnqueueReleaseD3D10ObjectsKHR'
            )
        )
        c_event_wait_list: Any = (
            _NULL if event_wait_list is None
            else event_wait_list
            if issubclass(type(event_wait_list), _CData)
            and _typeof(event_wait_list) is _type_cl_event_array
            and _length(event_wait_list) >= c_num_events_in_wait_list
            else _marshal.array(
                ffi,
                event_wait_list,
                'cl_event',
                True,
                'event_wait_list',
                'clEnqueueReleaseD3D10ObjectsKHR',
                c_num_events_in_wait_list,
                'num_events_in_wait_list',
            )
        )
        c_event: Any = (
            _NULL if event is None
            else event if issubclass(type(event), _CData) and _typeof(event) is _type_cl_event_ptr
            else _marshal.pointer(
                ffi, event, 'cl_event *', 'event', 'clEnqueueReleaseD3D10ObjectsKHR', exact=True, access='out'
            )
        )
        code = function(
            c_command_queue, c_num_objects, c_mem_objects, c_num_events_in_wait_list, c_event_wait_list, c_event
        )
    if code != 0:
        raise _error(code, 'clEnqueueReleaseD3D10ObjectsKHR')


def _unchecked_enqueue_acquire_d3d10_objects(
    queue: Pointer,
    mem_objects: Sequence[Pointer],
    *,
    wait_for: Sequence[Pointer] | None = None,
    as_pyopencl: bool = False,
) -> CData | pyopencl.Event:
    if type(as_pyopencl) is not bool:
        as_pyopencl = _marshal.flag(as_pyopencl, 'as_pyopencl', 'enqueue_acquire_d3d10_objects')
    l_mem_objects: CData | None
    try:
        l_mem_objects, n_mem_objects = (
            (ffi.new(_type_cl_mem_array, mem_objects), len(mem_objects)) if mem_objects else (None, 0)
        )
    except Exception:  # not a list or tuple of cffi handles: item by item, with the errors that name the item
        l_mem_objects, n_mem_objects = _marshal.handle_list(
            ffi, mem_objects, 'cl_mem', 'mem_objects', 'enqueue_acquire_d3d10_objects'
        )
    l_event_wait_list: CData | None
    try:
        l_event_wait_list, n_event_wait_list = (
            (ffi.new(_type_cl_event_array, wait_for), len(wait_for)) if wait_for else (None, 0)
        )
    except Exception:  # not a list or tuple of cffi handles: item by item, with the errors that name the item
        l_event_wait_list, n_event_wait_list = _marshal.handle_list(
            ffi, wait_for, 'cl_event', 'wait_for', 'enqueue_acquire_d3d10_objects'
        )
    o_event = ffi.new(_type_cl_event_ptr)
    clEnqueueAcquireD3D10ObjectsKHR(queue, n_mem_objects, l_mem_objects, n_event_wait_list, l_event_wait_list, o_event)
    return _lifetime.adopt(o_event[0], 'cl_event', as_pyopencl)


def _unchecked_enqueue_release_d3d10_objects(
    queue: Pointer,
    mem_objects: Sequence[Pointer],
    *,
    wait_for: Sequence[Pointer] | None = None,
    as_pyopencl: bool = False,
) -> CData | pyopencl.Event:
    if type(as_pyopencl) is not bool:
        as_pyopencl = _marshal.flag(as_pyopencl, 'as_pyopencl', 'enqueue_release_d3d10_objects')
    l_mem_objects: CData | None
    try:
        l_mem_objects, n_mem_objects = (
            (ffi.new(_type_cl_mem_array, mem_objects), len(mem_objects)) if mem_objects else (None, 0)
        )
    except Exception:  # not a list or tuple of cffi handles: item by item, with the errors that name the item
        l_mem_objects, n_mem_objects = _marshal.handle_list(
            ffi, mem_objects, 'cl_mem', 'mem_objects', 'enqueue_release_d3d10_objects'
        )
    l_event_wait_list: CData | None
    try:
        l_event_wait_list, n_event_wait_list = (
            (ffi.new(_type_cl_event_array, wait_for), len(wait_for)) if wait_for else (None, 0)
        )
    except Exception:  # not a list or tuple of cffi handles: item by item, with the errors that name the item
        l_event_wait_list, n_event_wait_list = _marshal.handle_list(
            ffi, wait_for, 'cl_event', 'wait_for', 'enqueue_release_d3d10_objects'
        )
    o_event = ffi.new(_type_cl_event_ptr)
    clEnqueueReleaseD3D10ObjectsKHR(queue, n_mem_objects, l_mem_objects, n_event_wait_list, l_event_wait_list, o_event)
    return _lifetime.adopt(o_event[0], 'cl_event', as_pyopencl)


if not _library.CHECKS:
    globals().update(_library.unchecked(globals(), (
        'clGetDeviceIDsFromD3D10KHR',
        'clCreateFromD3D10BufferKHR',
        'clCreateFromD3D10Texture2DKHR',
        'clCreateFromD3D10Texture3DKHR',
        'clEnqueueAcquireD3D10ObjectsKHR',
        'clEnqueueReleaseD3D10ObjectsKHR',
        'enqueue_acquire_d3d10_objects',
        'enqueue_release_d3d10_objects',
    )))
