/* SPDX-License-Identifier: MIT */
/* libcudart.so.13 over libwarpsim: the registration calls nvcc's start-up code makes and errors
 * (launches: cuda_launch.c; devices and kernel attributes: cuda_device.c). The machine is built at the first call
 * that needs it from WARPSIM_CONFIG (files, ':'-separated), WARPSIM_OVERRIDES (key=value
 * lines) or WARPSIM_FUNCTIONAL=1; stats go to WARPSIM_OUTDIR when the program exits. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudart_int.h"

struct cr_state cr;
static pthread_once_t cr_once = PTHREAD_ONCE_INIT;

/* Recursive: an entry point may call another (cudaMallocPitch calls cudaMalloc). */
static void cr_lock_init(void)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&cr.lock, &a);
	pthread_mutexattr_destroy(&a);
}

void cr_lock(void)
{
	pthread_once(&cr_once, cr_lock_init);
	pthread_mutex_lock(&cr.lock);
	cr.holder = pthread_self();
	cr.depth++;
}

void cr_unlock(void)
{
	cr.depth--;
	pthread_mutex_unlock(&cr.lock);
}

bool cr_lock_held_here(void)
{
	return cr.depth && pthread_equal(cr.holder, pthread_self());
}

cudaError_t cr_ret(cudaError_t e)
{
	if (e != cudaSuccess)
		cr.last_err = e;
	return e;
}

cudaError_t cr_fail(cudaError_t e, const char *call, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cr.last_msg, sizeof cr.last_msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "warpsim cudart: %s: %s\n", call, cr.last_msg);
	return cr_ret(e);
}

/* Split s at sep into its non-empty pieces (s is modified): an array the caller frees, n in
 * *n; NULL when out of memory. No limit on the count: every piece is passed on. */
static char **split(char *s, char sep, int *n_out)
{
	size_t cap = 1;
	for (const char *p = s; *p; p++)
		cap += *p == sep;
	char **out = calloc(cap, sizeof *out);
	if (!out)
		return NULL;
	int n = 0;
	for (char *p = s; p && *p;) {
		char *q = strchr(p, sep);
		if (q)
			*q++ = '\0';
		if (*p)
			out[n++] = p;
		p = q;
	}
	*n_out = n;
	return out;
}

struct warpsim *cr_machine(void)
{
	if (cr.ws || cr.ws_tried)
		return cr.ws;
	cr.ws_tried = true;
	const char *cfg_env = getenv("WARPSIM_CONFIG"), *ov_env = getenv("WARPSIM_OVERRIDES");
	const char *fn_env = getenv("WARPSIM_FUNCTIONAL");
	bool functional = fn_env && *fn_env && strcmp(fn_env, "0");
	char *cfgs = strdup(cfg_env ? cfg_env : ""), *ovs = strdup(ov_env ? ov_env : "");
	struct warpsim_options opt = {.functional = functional};
	char **c = cfgs ? split(cfgs, ':', &opt.n_configs) : NULL;
	char **o = ovs ? split(ovs, '\n', &opt.n_overrides) : NULL;
	opt.configs = (const char *const *)c;
	opt.overrides = (const char *const *)o;
	struct warpsim_error err;
	if (!c || !o) {
		fprintf(stderr, "warpsim cudart: out of memory reading WARPSIM_CONFIG and "
			"WARPSIM_OVERRIDES\n");
		cr.init_err = cudaErrorMemoryAllocation;
	} else if (!opt.n_configs && !functional) {
		fprintf(stderr, "warpsim cudart: no simulated GPU: set WARPSIM_CONFIG to a machine "
			"configuration (configs/gtx480.cfg) or WARPSIM_FUNCTIONAL=1, or run the "
			"program with `warpsim cuda -c CONFIG -- PROGRAM`\n");
		cr.init_err = cudaErrorNoDevice;
	} else if (!(cr.ws = warpsim_create(&opt, &err))) {
		fprintf(stderr, "warpsim cudart: %s\n", err.message);
		cr.init_err = cudaErrorInitializationError;
	} else {
		warpsim_set_printf(cr.ws, stdout);
		if (cr.limit_set[0])
			warpsim_set_stack_bytes(cr.ws, cr.limit[0]);
		cr_run_machine(cr.ws);
	}
	free(c);
	free(o);
	free(cfgs);
	free(ovs);
	return cr.ws;
}

/* Written once, when the last fat binary is unregistered (the program's atexit handlers), when
 * the library is unloaded, or on a signal (cuda_run.c): the outputs of the machine that ran the
 * last launch, which is the one cudaDeviceReset retired when no launch followed it (the samples
 * reset at the end). Outputs of one machine only: launches before an earlier reset are named,
 * not merged. */
void cr_finish(const char *incomplete)
{
	/* a signal came while the program went on to exit (it ended a sleep or a read early):
	 * the outputs are those of the signal, and so is the end; launches still queued run
	 * first, unless a signal or fault stops the program */
	if (!incomplete)
		cr_run_signal_check();
	if (!incomplete && !cr.finished && cr.ws)
		cr_queue_flush();
	if (cr.finished)
		return;
	cr.finished = true;
	cr_run_finished();
	struct warpsim *ws = cr.launches || !cr.retired ? cr.ws : cr.retired;
	if (!ws)
		return;
	fflush(stdout);
	const char *dir = getenv("WARPSIM_OUTDIR");
	uint64_t dropped = cr.dropped_launches + (ws == cr.ws ? cr.retired_launches : 0);
	struct warpsim_error err;
	if (dir && *dir && dropped)
		fprintf(stderr, "warpsim cudart: the statistics in %s are of the launches after the "
			"last cudaDeviceReset; the %llu launches before it are not in them\n", dir,
			(unsigned long long)dropped);
	if (!dir || !*dir)
		return;
	cr_run_provenance(ws, incomplete, dropped);
	if (warpsim_write_outputs(ws, dir, &err))
		fprintf(stderr, "warpsim cudart: %s\n", err.message);
}

__attribute__((destructor)) static void cr_unload(void)
{
	cr_lock();
	cr_finish(NULL);
	cr_unlock();
}

/* ---- registration (nvcc's start-up code) -------------------------------------------- */

void **__cudaRegisterFatBinary(void *fat_cubin)
{
	cr_lock();
	struct cr_fatbin *fb = calloc(1, sizeof *fb);
	struct cr_fatbin **nf = realloc(cr.fbs, (cr.n_fbs + 1) * sizeof *nf);
	if (!fb || !nf) {
		fprintf(stderr, "warpsim cudart: out of memory\n");
		abort();
	}
	cr.fbs = nf;
	fb->wrapper = fat_cubin;
	fb->registered = true;
	cr.fbs[cr.n_fbs++] = fb;
	cr.live_fbs++;
	cr_unlock();
	return (void **)fb;
}

void __cudaRegisterFatBinaryEnd(void **handle)
{
	(void)handle;
}

void __cudaUnregisterFatBinary(void **handle)
{
	cr_lock();
	/* only a handle __cudaRegisterFatBinary returned is read */
	struct cr_fatbin *fb = NULL;
	for (uint32_t i = 0; i < cr.n_fbs; i++)
		if (cr.fbs[i] == (struct cr_fatbin *)handle)
			fb = cr.fbs[i];
	if (fb && fb->registered) {
		fb->registered = false;
		if (!--cr.live_fbs)
			cr_finish(NULL);
	}
	cr_unlock();
}

char __cudaInitModule(void **handle)
{
	(void)handle;
	return 0;
}

void __cudaRegisterFunction(void **handle, const char *host_fun, char *device_fun,
			    const char *device_name, int thread_limit, void *tid, void *bid,
			    void *bdim, void *gdim, int *wsize)
{
	(void)device_fun, (void)thread_limit, (void)tid, (void)bid, (void)bdim, (void)gdim,
		(void)wsize;
	cr_lock();
	struct cr_func *nf = realloc(cr.funcs, (cr.n_funcs + 1) * sizeof *nf);
	if (!nf) {
		fprintf(stderr, "warpsim cudart: out of memory\n");
		abort();
	}
	cr.funcs = nf;
	cr.funcs[cr.n_funcs++] = (struct cr_func){.host_fun = host_fun,
						  .fb = (struct cr_fatbin *)handle,
						  .ptx_name = strdup(device_name),
						  .max_dyn_shared = 48 * 1024};
	cr_unlock();
}

void __cudaRegisterVar(void **handle, char *host_var, char *device_address,
		       const char *device_name, int ext, size_t size, int constant, int global)
{
	(void)device_address, (void)ext, (void)constant, (void)global;
	cr_lock();
	struct cr_var *nv = realloc(cr.vars, (cr.n_vars + 1) * sizeof *nv);
	if (!nv) {
		fprintf(stderr, "warpsim cudart: out of memory\n");
		abort();
	}
	cr.vars = nv;
	cr.vars[cr.n_vars++] = (struct cr_var){.host_var = host_var,
					       .fb = (struct cr_fatbin *)handle,
					       .name = strdup(device_name), .size = size};
	cr_unlock();
}

/* Managed variables, texture and surface references need mappings warpsim does not have:
 * registration is accepted (the program starts) and using them fails by name. */
void __cudaRegisterManagedVar(void **handle, void **host_var_ptr, char *device_address,
			      const char *device_name, int ext, size_t size, int constant,
			      int global)
{
	(void)handle, (void)host_var_ptr, (void)device_address, (void)ext, (void)size,
		(void)constant, (void)global;
	fprintf(stderr, "warpsim cudart: __managed__ variable %s is not supported\n", device_name);
}

struct cr_func *cr_func_find(const void *host_fun)
{
	for (uint32_t i = 0; i < cr.n_funcs; i++)
		if (cr.funcs[i].host_fun == host_fun)
			return &cr.funcs[i];
	return NULL;
}

struct cr_var *cr_var_find(const void *host_var)
{
	for (uint32_t i = 0; i < cr.n_vars; i++)
		if (cr.vars[i].host_var == host_var)
			return &cr.vars[i];
	return NULL;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			cap = cap ? 2 * cap : 65536;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		size_t r = fread(buf + n, 1, 4096, f);
		n += r;
		if (r < 4096)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	return buf;
}

cudaError_t cr_module(struct cr_fatbin *fb, const char *call)
{
	if (fb->mod || fb->tried)
		return fb->mod ? cudaSuccess : fb->load_err;
	fb->tried = true;
	struct warpsim *ws = cr_machine();
	if (!ws)
		return fb->load_err = cr.init_err;
	struct fatbin_code code;
	char why[256] = "";
	if (fatbin_read(fb->wrapper, &code, why, sizeof why)) {
		fb->load_err = cudaErrorInvalidKernelImage;
		cr_fail(fb->load_err, call, "cannot read the program's fat binary: %s", why);
		return fb->load_err;
	}
	const char *ptx_env = getenv("WARPSIM_PTX");
	char *ptx = code.ptx, *owned = NULL;
	const char *name = "embedded PTX";
	if (!ptx && ptx_env && *ptx_env) {
		ptx = owned = read_file(ptx_env);
		name = ptx_env;
		if (!ptx) {
			fatbin_code_fini(&code);
			fb->load_err = cudaErrorInvalidPtx;
			cr_fail(fb->load_err, call, "WARPSIM_PTX=%s cannot be read", ptx_env);
			return fb->load_err;
		}
	}
	if (!ptx) {
		fatbin_code_fini(&code);
		fb->load_err = cudaErrorNoKernelImageForDevice;
		cr_fail(fb->load_err, call, "the program carries no PTX for warpsim to run (build it "
			"with nvcc -gencode arch=compute_XX,code=compute_XX, the default embeds it) and "
			"WARPSIM_PTX names no PTX file");
		return fb->load_err;
	}
	struct warpsim_error err;
	if (warpsim_module_load_ptx(ws, name, ptx, &fb->mod, &err)) {
		fb->load_err = cudaErrorInvalidPtx;
		cr_fail(fb->load_err, call, "%s", err.message);
	} else {
		/* the cubin's register counts set occupancy as the hardware would see it */
		for (uint32_t i = 0; i < code.n_regs; i++) {
			int k = warpsim_kernel_find(fb->mod, code.regs[i].kernel, NULL);
			if (k >= 0 && code.regs[i].regs)
				warpsim_kernel_set_regs(fb->mod, (uint32_t)k, code.regs[i].regs, NULL);
		}
	}
	free(owned);
	fatbin_code_fini(&code);
	return fb->mod ? cudaSuccess : fb->load_err;
}

/* ---- errors -------------------------------------------------------------------------- */

/* Every cudaError value of CUDA 13's driver_types.h, with the text cudaGetErrorString gives:
 * a program may ask for the name of any code, ours or one it keeps from elsewhere. */
static const struct {
	cudaError_t e;
	const char *name, *text;
} cr_errors[] = {
#define E(v, n, t) {v, "cudaError" n, t}
	{0, "cudaSuccess", "no error"},
	E(1, "InvalidValue", "invalid argument"),
	E(2, "MemoryAllocation", "out of memory"),
	E(3, "InitializationError", "initialization error"),
	E(4, "CudartUnloading", "driver shutting down"),
	E(5, "ProfilerDisabled", "profiler disabled while using external profiling tool"),
	E(6, "ProfilerNotInitialized", "profiler not initialized: call cudaProfilerInitialize()"),
	E(7, "ProfilerAlreadyStarted", "profiler already started"),
	E(8, "ProfilerAlreadyStopped", "profiler already stopped"),
	E(9, "InvalidConfiguration", "invalid configuration argument"),
	E(12, "InvalidPitchValue", "invalid pitch argument"),
	E(13, "InvalidSymbol", "invalid device symbol"),
	E(16, "InvalidHostPointer", "invalid host pointer"),
	E(17, "InvalidDevicePointer", "invalid device pointer"),
	E(18, "InvalidTexture", "invalid texture reference"),
	E(19, "InvalidTextureBinding", "texture is not bound to a pointer"),
	E(20, "InvalidChannelDescriptor", "invalid channel descriptor"),
	E(21, "InvalidMemcpyDirection", "invalid copy direction for memcpy"),
	E(22, "AddressOfConstant", "invalid address of constant"),
	E(23, "TextureFetchFailed", "fetch from texture failed"),
	E(24, "TextureNotBound", "cannot fetch from a texture that is not bound"),
	E(25, "SynchronizationError", "incorrect use of __syncthreads()"),
	E(26, "InvalidFilterSetting", "linear filtering not supported for non-float type"),
	E(27, "InvalidNormSetting", "read as normalized float not supported for 32-bit non float type"),
	E(28, "MixedDeviceExecution", "device emulation mode and device execution mode cannot be mixed"),
	E(31, "NotYetImplemented", "feature not yet implemented"),
	E(32, "MemoryValueTooLarge", "memory size or pointer value too large to fit in 32 bit"),
	E(34, "StubLibrary", "CUDA driver is a stub library"),
	E(35, "InsufficientDriver", "CUDA driver version is insufficient for CUDA runtime version"),
	E(36, "CallRequiresNewerDriver", "API call is not supported in the installed CUDA driver"),
	E(37, "InvalidSurface", "invalid surface reference"),
	E(43, "DuplicateVariableName", "duplicate global variable looked up by string name"),
	E(44, "DuplicateTextureName", "duplicate texture looked up by string name"),
	E(45, "DuplicateSurfaceName", "duplicate surface looked up by string name"),
	E(46, "DevicesUnavailable", "CUDA-capable device(s) is/are busy or unavailable"),
	E(49, "IncompatibleDriverContext", "incompatible driver context"),
	E(52, "MissingConfiguration", "__global__ function call is not configured"),
	E(53, "PriorLaunchFailure", "unspecified launch failure in prior launch"),
	E(65, "LaunchMaxDepthExceeded", "launch would exceed maximum depth of nested launches"),
	E(66, "LaunchFileScopedTex", "launch failed because kernel uses unsupported, file-scoped textures"),
	E(67, "LaunchFileScopedSurf", "launch failed because kernel uses unsupported, file-scoped surfaces"),
	E(68, "SyncDepthExceeded", "cudaDeviceSynchronize failed because caller's grid depth exceeds cudaLimitDevRuntimeSyncDepth"),
	E(69, "LaunchPendingCountExceeded", "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount"),
	E(98, "InvalidDeviceFunction", "invalid device function"),
	E(100, "NoDevice", "no CUDA-capable device is detected"),
	E(101, "InvalidDevice", "invalid device ordinal"),
	E(102, "DeviceNotLicensed", "device doesn't have valid Grid license"),
	E(103, "SoftwareValidityNotEstablished", "integrity checks failed"),
	E(127, "StartupFailure", "startup failure in cuda runtime"),
	E(200, "InvalidKernelImage", "device kernel image is invalid"),
	E(201, "DeviceUninitialized", "invalid device context"),
	E(205, "MapBufferObjectFailed", "mapping of buffer object failed"),
	E(206, "UnmapBufferObjectFailed", "unmapping of buffer object failed"),
	E(207, "ArrayIsMapped", "array is mapped"),
	E(208, "AlreadyMapped", "resource already mapped"),
	E(209, "NoKernelImageForDevice", "no kernel image is available for execution on the device"),
	E(210, "AlreadyAcquired", "resource already acquired"),
	E(211, "NotMapped", "resource not mapped"),
	E(212, "NotMappedAsArray", "resource not mapped as array"),
	E(213, "NotMappedAsPointer", "resource not mapped as pointer"),
	E(214, "ECCUncorrectable", "uncorrectable ECC error encountered"),
	E(215, "UnsupportedLimit", "limit is not supported on this architecture"),
	E(216, "DeviceAlreadyInUse", "exclusive-thread device already in use by a different thread"),
	E(217, "PeerAccessUnsupported", "peer access is not supported between these two devices"),
	E(218, "InvalidPtx", "a PTX JIT compilation failed"),
	E(219, "InvalidGraphicsContext", "invalid OpenGL or DirectX context"),
	E(220, "NvlinkUncorrectable", "uncorrectable NVLink error detected during the execution"),
	E(221, "JitCompilerNotFound", "PTX JIT compiler library not found"),
	E(222, "UnsupportedPtxVersion", "the provided PTX was compiled with an unsupported toolchain."),
	E(223, "JitCompilationDisabled", "PTX JIT compilation was disabled"),
	E(224, "UnsupportedExecAffinity", "the provided execution affinity is not supported by the device"),
	E(225, "UnsupportedDevSideSync", "the provided PTX contains unsupported call to cudaDeviceSynchronize"),
	E(226, "Contained", "an exception occurred on the device that is now contained by the GPU's error containment capability"),
	E(300, "InvalidSource", "device kernel image is invalid"),
	E(301, "FileNotFound", "file not found"),
	E(302, "SharedObjectSymbolNotFound", "shared object symbol not found"),
	E(303, "SharedObjectInitFailed", "shared object initialization failed"),
	E(304, "OperatingSystem", "OS call failed or operation not supported on this OS"),
	E(400, "InvalidResourceHandle", "invalid resource handle"),
	E(401, "IllegalState", "the operation cannot be performed in the present state"),
	E(402, "LossyQuery", "attempted introspection would be semantically lossy"),
	E(500, "SymbolNotFound", "named symbol not found"),
	E(600, "NotReady", "device not ready"),
	E(700, "IllegalAddress", "an illegal memory access was encountered"),
	E(701, "LaunchOutOfResources", "too many resources requested for launch"),
	E(702, "LaunchTimeout", "the launch timed out and was terminated"),
	E(703, "LaunchIncompatibleTexturing", "launch uses incompatible texturing mode"),
	E(704, "PeerAccessAlreadyEnabled", "peer access is already enabled"),
	E(705, "PeerAccessNotEnabled", "peer access has not been enabled"),
	E(708, "SetOnActiveProcess", "cannot set while device is active in this process"),
	E(709, "ContextIsDestroyed", "context is destroyed"),
	E(710, "Assert", "device-side assert triggered"),
	E(711, "TooManyPeers", "peer mapping resources exhausted"),
	E(712, "HostMemoryAlreadyRegistered", "part or all of the requested memory range is already mapped"),
	E(713, "HostMemoryNotRegistered", "pointer does not correspond to a registered memory region"),
	E(714, "HardwareStackError", "hardware stack error"),
	E(715, "IllegalInstruction", "an illegal instruction was encountered"),
	E(716, "MisalignedAddress", "misaligned address"),
	E(717, "InvalidAddressSpace", "operation not supported on global/shared address space"),
	E(718, "InvalidPc", "invalid program counter"),
	E(719, "LaunchFailure", "unspecified launch failure"),
	E(720, "CooperativeLaunchTooLarge", "too many blocks in cooperative launch"),
	E(721, "TensorMemoryLeak", "tensor memory not completely freed"),
	E(800, "NotPermitted", "operation not permitted"),
	E(801, "NotSupported", "operation not supported"),
	E(802, "SystemNotReady", "system not yet initialized"),
	E(803, "SystemDriverMismatch", "system has unsupported display driver / cuda driver combination"),
	E(804, "CompatNotSupportedOnDevice", "forward compatibility was attempted on non supported HW"),
	E(805, "MpsConnectionFailed", "MPS client failed to connect to the MPS control daemon or the MPS server"),
	E(806, "MpsRpcFailure", "the remote procedural call between the MPS server and the MPS client failed"),
	E(807, "MpsServerNotReady", "MPS server is not ready to accept new MPS client requests"),
	E(808, "MpsMaxClientsReached", "the hardware resources required to create MPS client have been exhausted"),
	E(809, "MpsMaxConnectionsReached", "the hardware resources required to support device connections have been exhausted"),
	E(810, "MpsClientTerminated", "the MPS client has been terminated by the server"),
	E(811, "CdpNotSupported", "is using CUDA Dynamic Parallelism, but the current configuration, like MPS, does not support it"),
	E(812, "CdpVersionMismatch", "unsupported interaction between different versions of CUDA Dynamic Parallelism"),
	E(900, "StreamCaptureUnsupported", "operation not permitted when stream is capturing"),
	E(901, "StreamCaptureInvalidated", "operation failed due to a previous error during capture"),
	E(902, "StreamCaptureMerge", "operation would result in a merge of separate capture sequences"),
	E(903, "StreamCaptureUnmatched", "capture was not ended in the same stream as it began"),
	E(904, "StreamCaptureUnjoined", "capturing stream has unjoined work"),
	E(905, "StreamCaptureIsolation", "dependency created on uncaptured work in another stream"),
	E(906, "StreamCaptureImplicit", "operation would make the legacy stream depend on a capturing blocking stream"),
	E(907, "CapturedEvent", "operation not permitted on an event last recorded in a capturing stream"),
	E(908, "StreamCaptureWrongThread", "attempt to terminate a thread-local capture sequence from another thread"),
	E(909, "Timeout", "wait operation timed out"),
	E(910, "GraphExecUpdateFailure", "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update"),
	E(911, "ExternalDevice", "an async error has occured in external entity outside of CUDA"),
	E(912, "InvalidClusterSize", "a kernel launch error has occurred due to cluster misconfiguration"),
	E(913, "FunctionNotLoaded", "the function handle is not loaded when calling an API that requires a loaded function"),
	E(914, "InvalidResourceType", "one or more resources passed in are not valid resource types for the operation"),
	E(915, "InvalidResourceConfiguration", "one or more resources are insufficient or non-applicable for the operation"),
	E(999, "Unknown", "unknown error"),
#undef E
};

/* NULL when e is no cudaError value. */
static const char *error_field(cudaError_t e, bool name)
{
	for (size_t i = 0; i < sizeof cr_errors / sizeof cr_errors[0]; i++)
		if (cr_errors[i].e == e)
			return name ? cr_errors[i].name : cr_errors[i].text;
	return NULL;
}

/* A code CUDA does not define has no name: both calls say so, as CUDA's do (not
 * "cudaErrorUnknown", which is the name of 999). */
const char *cudaGetErrorString(cudaError_t e)
{
	const char *t = error_field(e, false);
	return t ? t : "unrecognized error code";
}

const char *cudaGetErrorName(cudaError_t e)
{
	const char *t = error_field(e, true);
	return t ? t : "unrecognized error code";
}

cudaError_t cudaGetLastError(void)
{
	cr_lock();
	cudaError_t e = cr.sticky_err ? cr.sticky_err : cr.last_err;
	cr.last_err = cudaSuccess;
	cr_unlock();
	return e;
}

cudaError_t cudaPeekAtLastError(void)
{
	cr_lock();
	cudaError_t e = cr.sticky_err ? cr.sticky_err : cr.last_err;
	cr_unlock();
	return e;
}
