/* A lying OpenCL library, for test_library.py: it exports every core function the package calls, and answers
 * as the environment variable LYING says. A real driver cannot be made to lie, so this is the one way to test
 * what the package does with a broken library's answers (a stand-in, said so in the test):
 *
 *   (unset)              one platform listing the four Direct3D sharing extensions, one device, honest answers;
 *   platform_count       clGetPlatformIDs says there are 4294967295 platforms (and writes one);
 *   platform_name_size   clGetPlatformInfo says its answers take SIZE_MAX bytes (2**64 - 1);
 *   platform_info_size   clGetPlatformInfo says its answers take 2**40 bytes;
 *   device_count         clGetDeviceIDs says there are 4294967295 devices (and writes one);
 *   device_info_size     clGetDeviceInfo says its answers take SIZE_MAX bytes;
 *   direct3d_count       each extension's clGetDeviceIDsFromD3D1x says there are 4294967295 devices;
 *   platform_garbage     clGetPlatformIDs lists 0x1234, which is no object (nothing is mapped there).
 *
 * Every object it hands out starts with the same word, as an ICD's objects start with their dispatch table.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int lying(const char *how) {
    const char *mode = getenv("LYING");
    return mode != NULL && strcmp(mode, how) == 0;
}

static void *dispatch[64];
static struct _cl_platform_id { void *dispatch; } platform = {dispatch};
static struct _cl_device_id { void *dispatch; } device = {dispatch};

/* A text answer, whose size is said to be `said` (0: its own). */
static cl_int text(const char *answer, size_t size, void *value, size_t *size_ret, size_t said) {
    size_t needed = strlen(answer) + 1;
    if (size_ret != NULL)
        *size_ret = said ? said : needed;
    if (value != NULL)
        memcpy(value, answer, size < needed ? size : needed);
    return CL_SUCCESS;
}

cl_int clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms) {
    if (num_platforms != NULL)
        *num_platforms = lying("platform_count") ? 0xFFFFFFFFu : 1;
    if (platforms != NULL && num_entries > 0)
        platforms[0] = lying("platform_garbage") ? (cl_platform_id)(uintptr_t)0x1234 : &platform;
    return CL_SUCCESS;
}

cl_int clGetPlatformInfo(cl_platform_id p, cl_platform_info name, size_t size, void *value, size_t *size_ret) {
    const char *answer = name == CL_PLATFORM_EXTENSIONS
        ? "cl_khr_icd cl_khr_d3d10_sharing cl_khr_d3d11_sharing cl_nv_d3d10_sharing cl_nv_d3d11_sharing"
        : "Lying";
    size_t said = lying("platform_name_size") ? SIZE_MAX : lying("platform_info_size") ? (size_t)1 << 40 : 0;
    return text(answer, size, value, size_ret, said);
}

cl_int clGetDeviceIDs(cl_platform_id p, cl_device_type type, cl_uint num_entries, cl_device_id *devices,
                      cl_uint *num_devices) {
    if (num_devices != NULL)
        *num_devices = lying("device_count") ? 0xFFFFFFFFu : 1;
    if (devices != NULL && num_entries > 0)
        devices[0] = &device;
    return CL_SUCCESS;
}

cl_int clGetDeviceInfo(cl_device_id d, cl_device_info name, size_t size, void *value, size_t *size_ret) {
    if (name == CL_DEVICE_PLATFORM) {
        if (value != NULL)
            *(cl_platform_id *)value = &platform;
        if (size_ret != NULL)
            *size_ret = sizeof(cl_platform_id);
        return CL_SUCCESS;
    }
    return text("Lying device", size, value, size_ret, lying("device_info_size") ? SIZE_MAX : 0);
}

cl_int clGetContextInfo(cl_context c, cl_context_info name, size_t size, void *value, size_t *size_ret) {
    if (size_ret != NULL)
        *size_ret = sizeof(cl_device_id);
    if (value != NULL && size >= sizeof(cl_device_id))
        *(cl_device_id *)value = &device;
    return CL_SUCCESS;
}

cl_int clGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info name, size_t size, void *value,
                             size_t *size_ret) {
    if (value != NULL && size >= sizeof(cl_device_id))
        *(cl_device_id *)value = &device;
    return CL_SUCCESS;
}

cl_context clCreateContext(const cl_context_properties *properties, cl_uint num_devices, const cl_device_id *devices,
                           void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *user_data,
                           cl_int *errcode_ret) {
    if (errcode_ret != NULL)
        *errcode_ret = CL_OUT_OF_RESOURCES;
    return NULL;
}

cl_command_queue clCreateCommandQueue(cl_context c, cl_device_id d, cl_command_queue_properties p, cl_int *errcode_ret) {
    if (errcode_ret != NULL)
        *errcode_ret = CL_OUT_OF_RESOURCES;
    return NULL;
}

cl_int clGetMemObjectInfo(cl_mem m, cl_mem_info n, size_t s, void *v, size_t *r) { return CL_INVALID_MEM_OBJECT; }
cl_int clGetImageInfo(cl_mem m, cl_image_info n, size_t s, void *v, size_t *r) { return CL_INVALID_MEM_OBJECT; }
cl_int clReleaseCommandQueue(cl_command_queue q) { return CL_SUCCESS; }
cl_int clReleaseContext(cl_context c) { return CL_SUCCESS; }
cl_int clRetainContext(cl_context c) { return CL_SUCCESS; }
cl_int clReleaseEvent(cl_event e) { return CL_SUCCESS; }
cl_int clReleaseMemObject(cl_mem m) { return CL_SUCCESS; }
cl_int clRetainMemObject(cl_mem m) { return CL_SUCCESS; }
cl_int clSetMemObjectDestructorCallback(cl_mem m, void (CL_CALLBACK *notify)(cl_mem, void *), void *user_data) {
    return CL_SUCCESS;
}

/* clGetDeviceIDsFromD3D10KHR and its three siblings take the same seven arguments. */
static cl_int device_ids(cl_platform_id p, cl_uint source, void *object, cl_uint set, cl_uint num_entries,
                         cl_device_id *devices, cl_uint *num_devices) {
    if (num_devices != NULL)
        *num_devices = lying("direct3d_count") ? 0xFFFFFFFFu : 1;
    if (devices != NULL && num_entries > 0)
        devices[0] = &device;
    return CL_SUCCESS;
}

void *clGetExtensionFunctionAddressForPlatform(cl_platform_id p, const char *name) {
    return strncmp(name, "clGetDeviceIDsFromD3D1", 22) == 0 ? (void *)device_ids : NULL;
}
