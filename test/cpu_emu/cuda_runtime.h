/* cpu_emu/cuda_runtime.h: runs fusecc's CUDA kernels that need no tensor cores (the
 * CTA-per-row kernels of src/emit/emit_rows.c and the one-thread-per-row fallbacks) on the
 * CPU, for test/rows_cpu.sh. Testing only, never shipped; compile with a C++20 compiler
 * and -pthread, this folder before include/ on the include path.
 *
 * A launch runs the blocks one after another; a block's threads are real threads, which
 * meet at a std::barrier for each __syncthreads() and at the end of the block. __shared__
 * is `static` (one block at a time uses it). A warp exchange (fx::lane_xor, in the shims
 * of fusecc_tile_cuda.h and fusecc_tile_hip.h here) goes through a block-wide buffer
 * between two barriers. Under -fsanitize=thread, two threads of a block touching an
 * element without a barrier between them (one writing) is a reported data race: the check
 * that a kernel's barriers are where they must be. Launch syntax (k<<<cfg>>>(args)) is not
 * C++: test/rows_cpu.sh rewrites it as emu::Launch(cfg).run([&] { k(args); }). */
#ifndef FUSECC_CPU_EMU_CUDA_RUNTIME_H
#define FUSECC_CPU_EMU_CUDA_RUNTIME_H

#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static

typedef enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorInvalidConfiguration = 9 } cudaError_t;
typedef struct CUstream_st *cudaStream_t;
enum cudaMemcpyKind { cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice };
enum cudaDeviceAttr { cudaDevAttrMultiProcessorCount, cudaDevAttrMaxSharedMemoryPerMultiprocessor, cudaDevAttrComputeCapabilityMajor, cudaDevAttrMaxSharedMemoryPerBlockOptin };
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize };

struct dim3 {
	unsigned x, y, z;
	dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
struct emu_uint3 {
	unsigned x, y, z;
};
struct alignas(8) uint2 {
	unsigned x, y;
};
struct alignas(16) uint4 {
	unsigned x, y, z, w;
};

namespace emu {
inline thread_local emu_uint3 tid, bid;
inline dim3 bdim, gdim;
inline std::barrier<> *bar;
inline std::vector<std::barrier<> *> group_bars; /* a row kernel's groups: one per threadIdx.y */
inline cudaError_t last_error = cudaSuccess;
inline std::vector<uint4> dyn_smem; /* a launch's dynamic shared memory */

/* One launch: grid and block as CUDA takes them. */
struct Launch {
	dim3 g, b;
	Launch(dim3 g_, dim3 b_, size_t smem = 0, cudaStream_t = 0) : g(g_), b(b_) { dyn_smem.assign(smem / 16 + 1, uint4{}); }
	template <class F> void run(F f)
	{
		long long nb = (long long)g.x * g.y * g.z;
		int nt = (int)(b.x * b.y * b.z);
		if (nb <= 0 || nt <= 0 || nt > 1024 || g.x > 2147483647u || g.y > 65535 || g.z > 65535) {
			last_error = cudaErrorInvalidConfiguration;
			return;
		}
		std::barrier<> br(nt);
		bar = &br;
		std::vector<std::unique_ptr<std::barrier<>>> gb;
		group_bars.clear();
		for (unsigned y = 0; y < b.y * b.z; y++) {
			gb.push_back(std::make_unique<std::barrier<>>((std::ptrdiff_t)b.x));
			group_bars.push_back(gb.back().get());
		}
		gdim = g;
		bdim = b;
		std::vector<std::thread> ts;
		for (int t = 0; t < nt; t++)
			ts.emplace_back([&, t] {
				tid = {t % b.x, (t / b.x) % b.y, t / (b.x * b.y)};
				for (long long k = 0; k < nb; k++) {
					bid = {(unsigned)(k % g.x), (unsigned)((k / g.x) % g.y), (unsigned)(k / ((long long)g.x * g.y))};
					f();
					br.arrive_and_wait(); /* the block is done before the next uses __shared__ */
				}
			});
		for (auto &t : ts)
			t.join();
	}
};
} /* namespace emu */

#define threadIdx (emu::tid)
#define blockIdx (emu::bid)
#define blockDim (emu::bdim)
#define gridDim (emu::gdim)

inline void __syncthreads() { emu::bar->arrive_and_wait(); }
/* The threads of one threadIdx.y meet (a row kernel's group of a CTA of several rows). */
inline void emu_group_sync() { emu::group_bars[threadIdx.y + blockDim.y * threadIdx.z]->arrive_and_wait(); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fdividef(float a, float b) { return a / b; }
inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
[[noreturn]] inline void __trap() { abort(); }

inline cudaError_t cudaGetLastError()
{
	cudaError_t e = emu::last_error;
	emu::last_error = cudaSuccess;
	return e;
}
inline const char *cudaGetErrorString(cudaError_t e) { return e == cudaSuccess ? "no error" : e == cudaErrorInvalidValue ? "invalid argument" : "invalid configuration"; }
template <class T> inline cudaError_t cudaMalloc(T **p, size_t n)
{
	*p = (T *)malloc(n ? n : 1);
	return *p ? cudaSuccess : cudaErrorInvalidValue;
}
template <class T> inline cudaError_t cudaMallocAsync(T **p, size_t n, cudaStream_t) { return cudaMalloc(p, n); }
inline cudaError_t cudaFree(void *p)
{
	free(p);
	return cudaSuccess;
}
inline cudaError_t cudaFreeAsync(void *p, cudaStream_t) { return cudaFree(p); }
inline cudaError_t cudaMemcpy(void *d, const void *s, size_t n, cudaMemcpyKind)
{
	memcpy(d, s, n);
	return cudaSuccess;
}
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
/* CUDA's integer min and max of device code. */
inline int min(int a, int b) { return a < b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline unsigned atomicOr(unsigned *p, unsigned v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }
inline int atomicOr(int *p, int v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }
/* The harness's timing (its time= option): wall-clock times on the host. */
typedef struct CUevent_st {
	double ms;
} *cudaEvent_t;
inline cudaError_t cudaEventCreate(cudaEvent_t *e)
{
	*e = (cudaEvent_t)calloc(1, sizeof **e);
	return *e ? cudaSuccess : cudaErrorInvalidValue;
}
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	e->ms = t.tv_sec * 1e3 + t.tv_nsec / 1e6;
	return cudaSuccess;
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
	*ms = (float)(b->ms - a->ms);
	return cudaSuccess;
}
inline cudaError_t cudaEventDestroy(cudaEvent_t e)
{
	free(e);
	return cudaSuccess;
}
inline cudaError_t cudaGetDevice(int *d)
{
	*d = 0;
	return cudaSuccess;
}
inline cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int)
{
	/* EMU_SMEM_PER_BLOCK (bytes) makes a CTA's shared memory smaller: the row kernels then
	 * read their rows again, and hold their local arrays in a workspace. */
	const char *small = getenv("EMU_SMEM_PER_BLOCK");
	*v = a == cudaDevAttrMultiProcessorCount ? 132 : a == cudaDevAttrComputeCapabilityMajor ? 9 : a == cudaDevAttrMaxSharedMemoryPerBlockOptin && small ? atoi(small) : 227 * 1024;
	return cudaSuccess;
}
template <class K> inline cudaError_t cudaFuncSetAttribute(K, cudaFuncAttribute, int) { return cudaSuccess; }
/* Any CTA size: the emulation runs one block at a time. */
template <class K> inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, K, int, size_t)
{
	*n = 1;
	return cudaSuccess;
}

#endif
