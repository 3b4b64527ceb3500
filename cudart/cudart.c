/* SPDX-License-Identifier: MIT */
/* libcudart.so.13 over libwarpsim: the registration calls nvcc's start-up code makes, kernel
 * launches, errors, devices and kernel attributes. The machine is built at the first call
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

/* ---- launches ------------------------------------------------------------------------ */

unsigned __cudaPushCallConfiguration(struct dim3 grid, struct dim3 block, size_t shared,
				     void *stream)
{
	cr_lock();
	unsigned rc = 1;
	if (cr.cfg_depth < sizeof cr.cfg_stack / sizeof cr.cfg_stack[0]) {
		cr.cfg_stack[cr.cfg_depth].grid = grid;
		cr.cfg_stack[cr.cfg_depth].block = block;
		cr.cfg_stack[cr.cfg_depth].shared = shared;
		cr.cfg_stack[cr.cfg_depth++].stream = stream;
		rc = 0;
	}
	cr_unlock();
	return rc;
}

cudaError_t __cudaPopCallConfiguration(struct dim3 *grid, struct dim3 *block, size_t *shared,
				       void *stream)
{
	cr_lock();
	cudaError_t rc = cudaErrorInvalidConfiguration;
	if (cr.cfg_depth) {
		cr.cfg_depth--;
		*grid = cr.cfg_stack[cr.cfg_depth].grid;
		*block = cr.cfg_stack[cr.cfg_depth].block;
		*shared = cr.cfg_stack[cr.cfg_depth].shared;
		memcpy(stream, &cr.cfg_stack[cr.cfg_depth].stream, sizeof(void *));
		rc = cudaSuccess;
	}
	cr_unlock();
	return rc;
}

cudaError_t __cudaGetKernel(void **kernel, const void *host_fun)
{
	/* the kernel's handle is its host stub, as stable as the program: a pointer into
	 * cr.funcs would dangle when a later registration grows the array */
	cr_lock();
	struct cr_func *f = cr_func_find(host_fun);
	*kernel = f ? (void *)f->host_fun : NULL;
	cr_unlock();
	return f ? cudaSuccess : cr_ret(cudaErrorInvalidDeviceFunction);
}

/* Per-block limits of the device as cudaGetDeviceProperties reports them. */
static uint32_t shared_per_block_bytes(void)
{
	int64_t kb = 48;
	if (cr.ws && warpsim_config_int(cr.ws, "gpu.core.shared_kb", &kb) && kb > 48)
		kb = 48;
	return (uint32_t)kb * 1024u;
}

/* The CUDA code of a kernel fault from its message, "...pc N 'instruction': what" (the
 * frontend's fe_exec_fault): only what is read, so a kernel or file named "assert" or
 * "trap" cannot change the code. */
static cudaError_t fault_code(const char *msg)
{
	const char *what = msg;
	for (const char *p = strstr(msg, "': "); p; p = strstr(p + 1, "': "))
		what = p + 3;
	if (!strncmp(what, "misaligned", 10))
		return cudaErrorMisalignedAddress;
	if (!strncmp(what, "assertion failed", 16))
		return cudaErrorAssert;
	if (!strncmp(what, "trap executed", 13))
		return cudaErrorLaunchFailure;
	return cudaErrorIllegalAddress; /* out of bounds, unallocated texel, bad texture object */
}

static cudaError_t run_launch(struct warpsim_module *m, int k, const char *kname,
			      struct dim3 grid, struct dim3 block, size_t shared,
			      const void *params, uint32_t param_bytes, const char *call);

/* Refused launches are counted and named (cuda_run.c): the message is cr_fail's. */
static cudaError_t refused(struct cr_func *f, const char *call, cudaError_t e)
{
	const char *name = f ? f->ptx_name : NULL;
	if (f && f->fb->mod) {
		int k = warpsim_kernel_find(f->fb->mod, f->ptx_name, NULL);
		if (k >= 0)
			name = warpsim_kernel_name(f->fb->mod, (uint32_t)k);
	}
	if (e == cr.sticky_err)
		snprintf(cr.last_msg, sizeof cr.last_msg, "an earlier launch faulted (%s): the device "
			 "runs no more launches", cudaGetErrorName(e));
	cr_run_refused(name, call, e);
	return e;
}

static cudaError_t launch_checked(struct cr_func *f, struct dim3 grid, struct dim3 block,
				  void **args, size_t shared, void *stream, const char *call);

static cudaError_t launch(struct cr_func *f, struct dim3 grid, struct dim3 block, void **args,
			  size_t shared, void *stream, const char *call)
{
	cudaError_t e = launch_checked(f, grid, block, args, shared, stream, call);
	return e ? refused(f, call, e) : e;
}

static cudaError_t launch_checked(struct cr_func *f, struct dim3 grid, struct dim3 block,
				  void **args, size_t shared, void *stream, const char *call)
{
	if (cr.sticky_err)
		return cr.sticky_err;
	/* a stream being captured takes the launch into its graph (cr_stream_check refuses
	 * every other use of it) */
	bool capture = cr_capturing(stream);
	cudaError_t se = capture ? cudaSuccess : cr_stream_check(stream, call);
	if (se)
		return se;
	if (!f)
		return cr_fail(cudaErrorInvalidDeviceFunction, call,
			       "the function is no kernel of this program (not registered)");
	cudaError_t e = cr_module(f->fb, call);
	if (e)
		return cr_ret(e);
	struct warpsim_module *m = f->fb->mod;
	struct warpsim_error err;
	int k = warpsim_kernel_find(m, f->ptx_name, &err);
	if (k < 0)
		return cr_fail(cudaErrorInvalidDeviceFunction, call, "kernel %s is not in the PTX: %s",
			       f->ptx_name, err.message);
	const char *kname = warpsim_kernel_name(m, (uint32_t)k);
	struct warpsim_kernel_attrs a;
	if (warpsim_kernel_attrs(m, (uint32_t)k, &a, &err))
		return cr_fail(cudaErrorInvalidDeviceFunction, call, "%s", err.message);
	uint64_t threads = (uint64_t)block.x * block.y * block.z;
	if (!threads || block.x > 1024 || block.y > 1024 || block.z > 64 ||
	    threads > a.max_threads_per_block)
		return cr_fail(cudaErrorInvalidConfiguration, call,
			       "%s: block (%u,%u,%u) has %llu threads; at most %u per block, x and y "
			       "1..1024, z 1..64", kname, block.x, block.y, block.z,
			       (unsigned long long)threads, a.max_threads_per_block);
	if (!grid.x || !grid.y || !grid.z || grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535)
		return cr_fail(cudaErrorInvalidConfiguration, call,
			       "%s: grid (%u,%u,%u) out of bounds (x 1..2^31-1, y and z 1..65535)",
			       kname, grid.x, grid.y, grid.z);
	uint32_t dyn_limit = f->max_dyn_shared > shared_per_block_bytes() ? f->max_dyn_shared
									   : shared_per_block_bytes();
	if (shared > dyn_limit || a.shared_static_bytes + shared > dyn_limit)
		return cr_fail(cudaErrorInvalidValue, call,
			       "%s: %u bytes of static and %zu of dynamic shared memory exceed the "
			       "%u bytes a block may have", kname, a.shared_static_bytes, shared,
			       dyn_limit);
	if ((uint64_t)a.regs_per_thread * threads > 65536)
		return cr_fail(cudaErrorLaunchOutOfResources, call,
			       "%s: %u registers x %llu threads exceed 65536 registers per block",
			       kname, a.regs_per_thread, (unsigned long long)threads);
	/* the launch holds cr.lock: one buffer serves every launch */
	unsigned char *params = cr.param_buf;
	if (a.param_bytes > sizeof cr.param_buf)
		return cr_fail(cudaErrorInvalidValue, call, "%s: %u bytes of parameters exceed the %zu "
			       "bytes CUDA allows", kname, a.param_bytes, sizeof cr.param_buf);
	memset(params, 0, a.param_bytes);
	for (uint32_t i = 0; i < a.n_params; i++) {
		uint32_t off, size;
		if (warpsim_kernel_param(m, (uint32_t)k, i, &off, &size, &err))
			return cr_fail(cudaErrorInvalidValue, call, "%s", err.message);
		if (!args || !args[i])
			return cr_fail(cudaErrorInvalidValue, call, "%s: argument %u is missing", kname, i);
		memcpy(params + off, args[i], size);
	}
	if (capture)
		return cr_capture_kernel(f, grid, block, shared, params, a.param_bytes, call);
	if (cr_queue_on())
		return cr_queue_launch(m, (uint32_t)k, grid, block, shared, params, a.param_bytes,
				       stream, call);
	return run_launch(m, k, kname, grid, block, shared, params, a.param_bytes, call);
}

/* Run a launch whose shape and parameters were checked (now or when a graph captured it). */
static cudaError_t run_launch(struct warpsim_module *m, int k, const char *kname,
			      struct dim3 grid, struct dim3 block, size_t shared,
			      const void *params, uint32_t param_bytes, const char *call)
{
	struct warpsim_error err;
	struct warpsim_launch l = {.grid = {grid.x, grid.y, grid.z},
				   .block = {block.x, block.y, block.z},
				   .dynamic_shared_bytes = (uint32_t)shared, .params = params,
				   .params_bytes = param_bytes};
	cr_run_launch_begin(kname);
	int rc = warpsim_launch(m, (uint32_t)k, &l, NULL, &err);
	cr_run_launch_end();
	return cr_launch_outcome(rc, &err, kname, call, 1);
}

cudaError_t cr_launch_outcome(int rc, const struct warpsim_error *err, const char *kname,
			      const char *call, uint64_t n)
{
	if (!rc) {
		cr.launches += n;
		return cudaSuccess;
	}
	/* Shape and resource errors are the launch's; a fault in the kernel is reported, as by
	 * the hardware, at the next call that synchronises, and sticks. */
	switch (err->code) {
	case WARPSIM_ERR_INPUT:
	case WARPSIM_ERR_CONFIG:
		return cr_fail(cudaErrorLaunchOutOfResources, call, "%s: %s", kname, err->message);
	case WARPSIM_ERR_PROGRAM:
		cr.sticky_err = fault_code(err->message);
		break;
	case WARPSIM_ERR_FAULT:
		cr.sticky_err = cudaErrorLaunchTimeout;
		break;
	case WARPSIM_ERR_BUDGET:
		/* sim.on_budget = stop: the program ends here, cleanly (exit 0), with the statistics
		 * of what was simulated (stats.json "budget"); nothing of it runs after the cap,
		 * whose results would be incomplete */
		fprintf(stderr, "warpsim cudart: kernel %s: %s; the program ends here\n", kname,
			err->message);
		cr.launches += n;
		cr_finish(NULL);
		fflush(NULL);
		_exit(0);
	default:
		cr.sticky_err = cudaErrorLaunchFailure;
		break;
	}
	cr.launches += n; /* it ran: its statistics are in the machine's */
	cr_run_faulted(kname, cr.sticky_err, err->message);
	fprintf(stderr, "warpsim cudart: kernel %s: %s\n", kname, err->message);
	return cudaSuccess;
}

cudaError_t cr_launch_params(struct cr_func *f, struct dim3 grid, struct dim3 block,
			     size_t shared, const void *params, uint32_t param_bytes)
{
	if (cr.sticky_err || cr_queue_flush())
		return refused(f, "cudaGraphLaunch", cr.sticky_err);
	cudaError_t e = cr_module(f->fb, "cudaGraphLaunch");
	if (e)
		return refused(f, "cudaGraphLaunch", e);
	struct warpsim_error err;
	int k = warpsim_kernel_find(f->fb->mod, f->ptx_name, &err);
	if (k < 0)
		return refused(f, "cudaGraphLaunch",
			       cr_fail(cudaErrorInvalidDeviceFunction, "cudaGraphLaunch",
				       "kernel %s is not in the PTX: %s", f->ptx_name, err.message));
	return run_launch(f->fb->mod, k, warpsim_kernel_name(f->fb->mod, (uint32_t)k), grid, block,
			  shared, params, param_bytes, "cudaGraphLaunch");
}

cudaError_t __cudaLaunchKernel(void *kernel, struct dim3 grid, struct dim3 block, void **args,
			       size_t shared, void *stream)
{
	/* streams run in order, each launch to completion: the stream is only checked */
	cr_lock();
	struct cr_func *f = kernel ? cr_func_find(kernel) : NULL;
	cudaError_t e = launch(f, grid, block, args, shared, stream, "kernel launch");
	cr_unlock();
	return e;
}

cudaError_t __cudaLaunchKernel_ptsz(void *kernel, struct dim3 grid, struct dim3 block,
				    void **args, size_t shared, void *stream)
{
	return __cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

cudaError_t cudaLaunchKernel(const void *func, struct dim3 grid, struct dim3 block, void **args,
			     size_t shared, void *stream)
{
	cr_lock();
	cudaError_t e = launch(cr_func_find(func), grid, block, args, shared, stream,
			       "cudaLaunchKernel");
	cr_unlock();
	return e;
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, struct dim3 grid, struct dim3 block,
				  void **args, size_t shared, void *stream)
{
	return cudaLaunchKernel(func, grid, block, args, shared, stream);
}

/* ---- kernels' attributes ------------------------------------------------------------- */

static void put_int(void *base, size_t off, int v) { memcpy((char *)base + off, &v, sizeof v); }
static void put_size(void *base, size_t off, size_t v) { memcpy((char *)base + off, &v, sizeof v); }

cudaError_t cudaFuncGetAttributes(void *attr, const void *func)
{
	cr_lock();
	struct cr_func *f;
	struct warpsim_kernel_attrs a;
	cudaError_t e = cr_kernel(func, &f, &a, "cudaFuncGetAttributes");
	if (!e && !attr)
		e = cudaErrorInvalidValue;
	if (!e) {
		memset(attr, 0, CR_FUNC_ATTR_BYTES);
		put_size(attr, 0, a.shared_static_bytes);
		put_size(attr, 16, a.local_bytes);
		put_int(attr, 24, (int)cr_max_threads_per_block(&a));
		put_int(attr, 28, (int)a.regs_per_thread);
		put_int(attr, 32, 75);
		put_int(attr, 36, 75);
		put_int(attr, 44, (int)(f->max_dyn_shared - a.shared_static_bytes));
		put_int(attr, 48, -1);
	}
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaFuncSetCacheConfig(const void *func, int config)
{
	(void)config; /* the L1/shared split is the machine's configuration */
	cr_lock();
	cudaError_t e = cr_func_find(func) ? cudaSuccess : cudaErrorInvalidDeviceFunction;
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value)
{
	cr_lock();
	struct cr_func *f = cr_func_find(func);
	cudaError_t e = f ? cudaSuccess : cudaErrorInvalidDeviceFunction;
	if (f && attr == 8) { /* cudaFuncAttributeMaxDynamicSharedMemorySize */
		int64_t kb = 48;
		if (cr_machine())
			warpsim_config_int(cr.ws, "gpu.core.shared_kb", &kb);
		if (value < 0 || value > kb * 1024)
			e = cr_fail(cudaErrorInvalidValue, "cudaFuncSetAttribute",
				    "%d bytes of dynamic shared memory exceed the core's %lld KB", value,
				    (long long)kb);
		else
			f->max_dyn_shared = (uint32_t)value;
	} else if (f && attr != 9) { /* 9: preferred carveout, a hint */
		e = cr_fail(cudaErrorNotSupported, "cudaFuncSetAttribute", "attribute %d", attr);
	}
	cr_unlock();
	return cr_ret(e);
}

/* ---- devices ------------------------------------------------------------------------- */

static int64_t cfg_or(const char *key, int64_t def)
{
	int64_t v = def;
	if (cr.ws)
		warpsim_config_int(cr.ws, key, &v);
	return v;
}

cudaError_t cudaGetDeviceCount(int *count)
{
	cr_lock();
	cudaError_t e = cr_machine() ? cudaSuccess : cr.init_err;
	if (count)
		*count = e ? 0 : 1;
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaSetDevice(int dev)
{
	cr_lock();
	cudaError_t e = !cr_machine() ? cr.init_err : dev ? cudaErrorInvalidDevice : cudaSuccess;
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaGetDevice(int *dev)
{
	if (dev)
		*dev = 0;
	return dev ? cudaSuccess : cr_ret(cudaErrorInvalidValue);
}

cudaError_t cudaSetDeviceFlags(unsigned flags)
{
	(void)flags;
	return cudaSuccess;
}

/* Device attributes (cudaDeviceAttr numbers) from the configuration. */
/* A block can use at most a core's register file (32768 on Fermi), and at most 64 K on any
 * CUDA device: a program that sizes its blocks from regsPerBlock must see the config's limit. */
static int64_t regs_per_block(void)
{
	int64_t regs = cfg_or("gpu.core.registers", 32768);
	return regs < 65536 ? regs : 65536;
}

/* The DRAM's clock as CUDA states it: half the transfer rate (GDDR5's 924 MHz command clock at
 * 4 transfers a cycle is the GTX 480's 1848 MHz). */
static int64_t memory_clock_khz(void)
{
	return cfg_or("gpu.dram.clock_mhz", 800) * cfg_or("gpu.dram.data_rate", 2) / 2 * 1000;
}

/* Every channel's bus side by side (gtx480: 6 x 64 bits). */
static int64_t memory_bus_bits(void)
{
	return cfg_or("gpu.dram.channels", 8) * cfg_or("gpu.dram.bus_bytes", 8) * 8;
}

static bool device_attr(int attr, int *v)
{
	int64_t cores = cfg_or("gpu.core.count", 15), clk = cfg_or("gpu.core.clock_mhz", 700);
	switch (attr) {
	case 1: *v = 1024; return true;                                   /* max threads/block */
	case 2: case 3: *v = 1024; return true;                           /* max block x, y */
	case 4: *v = 64; return true;                                     /* max block z */
	case 5: *v = 2147483647; return true;                             /* max grid x */
	case 6: case 7: *v = 65535; return true;                          /* max grid y, z */
	case 8: *v = (int)shared_per_block_bytes(); return true;          /* shared/block */
	case 9: *v = 65536; return true;                                  /* constant memory */
	case 10: *v = (int)cfg_or("gpu.core.warp_size", 32); return true; /* warp size */
	case 12: *v = (int)regs_per_block(); return true;
	case 11: *v = 2147483647; return true;                            /* max pitch */
	case 13: *v = (int)(clk * 1000); return true;                     /* clock kHz */
	case 14: *v = 512; return true;                                   /* texture alignment */
	case 16: *v = (int)cores; return true;                            /* SM count */
	case 36: *v = (int)memory_clock_khz(); return true;
	case 37: *v = (int)memory_bus_bits(); return true;
	/* device pickers (the CUDA samples' findCudaDevice) read these: a discrete GPU in the
	 * default compute mode, no watchdog, no mapped host memory, one kernel at a time */
	case 15: case 17: case 18: case 19: case 31: case 32: case 35: case 40:
		*v = 0; return true;
	case 20: *v = 0; return true;                                     /* cudaComputeModeDefault */
	case 38: *v = (int)(cfg_or("gpu.l2.size_kb", 0) * 1024 * cfg_or("gpu.dram.channels", 1));
		return true;                                              /* as l2CacheSize */
	case 39: *v = (int)cfg_or("gpu.core.max_threads", 1536); return true;
	case 41: *v = 1; return true;                                     /* unified addressing */
	case 75: *v = 7; return true;                                     /* compute capability */
	case 76: *v = 5; return true;
	case 81: *v = (int)cfg_or("gpu.core.shared_kb", 48) * 1024; return true;
	case 82: *v = (int)cfg_or("gpu.core.registers", 32768); return true;
	case 79: case 80: *v = 1; return true;         /* global and local loads cached in L1 */
	case 97: *v = (int)cfg_or("gpu.core.shared_kb", 48) * 1024; return true; /* opt-in limit */
	case 106: *v = (int)cfg_or("gpu.core.max_ctas", 8); return true;
	case 115: *v = 1; return true;                 /* stream-ordered allocation (default pool) */
	default: return false;
	}
}

/* Whether attr is a cudaDeviceAttr of CUDA 13 (driver_types.h: 1..147 but for the gaps). The
 * ones device_attr does not answer are features the simulated device lacks (managed memory,
 * cooperative launches, clusters, stream priorities, IPC, textures beyond the linear ones...)
 * or figures it has no counterpart of (PCI ids, NUMA): 0, as a device without them says. */
static bool device_attr_known(int attr)
{
	switch (attr) {
	case 44: case 102: case 103: case 104: case 105: case 107: case 110: case 136: case 137:
	case 146:
		return false;
	default:
		return attr >= 1 && attr <= 147;
	}
}

cudaError_t cudaDeviceGetAttribute(int *value, int attr, int dev)
{
	cr_lock();
	cudaError_t e = !cr_machine() ? cr.init_err : dev ? cudaErrorInvalidDevice : cudaSuccess;
	if (!e && !value)
		e = cr_fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute", "NULL value pointer");
	else if (!e && !device_attr(attr, value)) {
		if (device_attr_known(attr))
			*value = 0;
		else
			e = cr_fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute",
				    "attribute %d is no cudaDeviceAttr of CUDA 13", attr);
	}
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaGetDeviceProperties(void *prop, int dev)
{
	cr_lock();
	cudaError_t e = !cr_machine() ? cr.init_err : dev ? cudaErrorInvalidDevice :
		       !prop ? cudaErrorInvalidValue : cudaSuccess;
	if (!e) {
		memset(prop, 0, CR_PROP_BYTES);
		const char *name = warpsim_config_str(cr.ws, "gpu.name");
		if (name && *name)
			snprintf(prop, 256, "%s (warpsim)", name);
		else
			snprintf(prop, 256, "warpsim simulated GPU");
		int v;
		put_size(prop, 288, (size_t)4 << 30);                  /* totalGlobalMem */
		put_size(prop, 296, shared_per_block_bytes());         /* sharedMemPerBlock */
		put_int(prop, 304, (int)regs_per_block());             /* regsPerBlock */
		device_attr(10, &v);
		put_int(prop, 308, v);                                 /* warpSize */
		put_size(prop, 312, (size_t)2147483647);               /* memPitch */
		put_int(prop, 320, 1024);                              /* maxThreadsPerBlock */
		put_int(prop, 324, 1024), put_int(prop, 328, 1024), put_int(prop, 332, 64);
		put_int(prop, 336, 2147483647), put_int(prop, 340, 65535), put_int(prop, 344, 65535);
		put_size(prop, 352, 65536);                            /* totalConstMem */
		put_int(prop, 360, 7), put_int(prop, 364, 5);          /* major, minor */
		put_size(prop, 368, 512), put_size(prop, 376, 32);     /* texture alignments */
		device_attr(16, &v);
		put_int(prop, 384, v);                                 /* multiProcessorCount */
		put_int(prop, 588, 1);                                 /* unifiedAddressing */
		put_int(prop, 592, (int)memory_bus_bits());            /* memoryBusWidth */
		int64_t l2 = cfg_or("gpu.l2.size_kb", 0) * 1024 * cfg_or("gpu.dram.channels", 1); /* per channel */
		put_int(prop, 596, (int)l2);                           /* l2CacheSize */
		device_attr(39, &v);
		put_int(prop, 604, v);                                 /* maxThreadsPerMultiProcessor */
		put_size(prop, 624, (size_t)cfg_or("gpu.core.shared_kb", 48) * 1024);
		put_int(prop, 632, (int)cfg_or("gpu.core.registers", 32768));
		put_size(prop, 672, (size_t)cfg_or("gpu.core.shared_kb", 48) * 1024);
		put_int(prop, 688, (int)cfg_or("gpu.core.max_ctas", 8));
	}
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaDriverGetVersion(int *v)
{
	if (v)
		*v = 13000;
	return v ? cudaSuccess : cr_ret(cudaErrorInvalidValue);
}

cudaError_t cudaRuntimeGetVersion(int *v)
{
	return cudaDriverGetVersion(v);
}

cudaError_t cudaDeviceSynchronize(void)
{
	cr_lock();
	cudaError_t e = cr.sticky_err ? cr.sticky_err : cr_machine() ? cr_queue_flush() : cr.init_err;
	cr_unlock();
	return cr_ret(e);
}

/* A fresh device, as after the hardware's reset: the machine (a faulted one must not launch
 * again, libwarpsim says) with its allocations, modules and texture objects is retired and the
 * next call that needs the device builds a new one from the environment; kernels reload their
 * PTX (__device__ variables start from their initial values), events and streams die, the
 * sticky and the last error are cleared. Host buffers of cudaMallocHost stay: the program may
 * still read them, and freeing them here would turn that into a use after free. */
cudaError_t cudaDeviceReset(void)
{
	cr_lock();
	if (cr.ws)
		cr_queue_flush(); /* the work before the reset completes, as CUDA's does */
	cr_queue_reset();
	if (cr.ws && cr.launches) {
		/* kept for the statistics until a launch on the new machine replaces them */
		if (cr.retired) {
			cr.dropped_launches += cr.retired_launches;
			warpsim_destroy(cr.retired);
		}
		cr.retired = cr.ws;
		cr.retired_launches = cr.launches;
	} else if (cr.ws) {
		warpsim_destroy(cr.ws);
	}
	cr.ws = NULL;
	cr.ws_tried = false;
	cr.init_err = cudaSuccess;
	cr.launches = 0;
	for (uint32_t i = 0; i < cr.n_fbs; i++) {
		cr.fbs[i]->mod = NULL; /* owned by the machine just retired */
		cr.fbs[i]->tried = false;
		cr.fbs[i]->load_err = cudaSuccess;
	}
	for (uint32_t i = 0; i < cr.n_funcs; i++)
		cr.funcs[i].max_dyn_shared = 48 * 1024;
	cr_handles_reset();
	cr_pool_reset();
	cr_graph_reset();
	memset(cr.limit_set, 0, sizeof cr.limit_set); /* a new context has the defaults */
	cr.sticky_err = cudaSuccess;
	cr.last_err = cudaSuccess;
	cr_unlock();
	return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(int config)
{
	(void)config;
	return cudaSuccess;
}

/* Programs bracket their timed region for an external profiler (the CUDA samples' matrixMul,
 * asyncAPI); there is none to start, and warpsim's statistics are per launch regardless. */
cudaError_t cudaProfilerStart(void)
{
	return cudaSuccess;
}

cudaError_t cudaProfilerStop(void)
{
	return cudaSuccess;
}

/* cudaLimit values 0-4 (stack, printf FIFO, malloc heap, device-runtime sync depth and pending
 * launches) and CUDA's defaults for them (the CUDA C++ Programming Guide: 1 KB stack, 1 MB printf
 * FIFO, 8 MB heap; dynamic parallelism's depth 2 and 2,048 pending launches). The stack size is
 * honoured: recursion deeper than it faults (frontend/NOTES.md); the others are kept and read
 * back (warpsim's printf output and device heap have no bound, and it has no device runtime).
 * The L2 fetch granularity and persisting-L2 limits are refused as unsupported, named. */
#define CR_LIMITS 5
static const size_t limit_default[CR_LIMITS] = {1024, 1048576, 8388608, 2, 2048};

cudaError_t cudaDeviceSetLimit(int limit, size_t value)
{
	if (limit < 0 || limit >= CR_LIMITS)
		return cr_fail(cudaErrorUnsupportedLimit, "cudaDeviceSetLimit",
			       "limit %d is not supported by warpsim", limit);
	cr_lock();
	cr.limit[limit] = value;
	cr.limit_set[limit] = true;
	if (limit == 0 && cr.ws)
		warpsim_set_stack_bytes(cr.ws, value);
	cr_unlock();
	return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t *value, int limit)
{
	if (!value)
		return cr_ret(cudaErrorInvalidValue);
	if (limit < 0 || limit >= CR_LIMITS)
		return cr_fail(cudaErrorUnsupportedLimit, "cudaDeviceGetLimit",
			       "limit %d is not supported by warpsim", limit);
	cr_lock();
	*value = cr.limit_set[limit] ? cr.limit[limit] : limit_default[limit];
	cr_unlock();
	return cudaSuccess;
}
