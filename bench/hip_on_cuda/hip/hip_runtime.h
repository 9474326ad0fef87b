/* hip_on_cuda/hip/hip_runtime.h: lets nvcc compile fusecc's generated .hip files, to run
 * them on an NVIDIA GPU in bench/gpu_check.sh (TARGET=hip). Testing only, never shipped.
 *
 * The HIP runtime calls the generated launchers make are spelled as CUDA's; the
 * wavefront primitives of include/fusecc_tile_hip.h (fx::wave) are emulated: a wavefront
 * is 64 threads (two warps) that meet at a named barrier for every cross-lane operation,
 * and mfma 16x16x16 is computed from its documented operand layout (lane L holds A[L % 16]
 * [4 * (L / 16) + e], B[4 * (L / 16) + e][L % 16] and D[4 * (L / 16) + e][L % 16]), as is
 * mfma 16x16x4f32 (A[L % 16][L / 16], B[L / 16][L % 16], D the same). This
 * checks everything fusecc prints for HIP and everything the tile library does with the
 * lanes, against that documented layout; not hipcc's code nor the hardware. */
#ifndef FUSECC_HIP_ON_CUDA_H
#define FUSECC_HIP_ON_CUDA_H

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
#define hipSuccess cudaSuccess
#define hipErrorInvalidValue cudaErrorInvalidValue
#define hipGetLastError cudaGetLastError
#define hipMallocAsync cudaMallocAsync
#define hipFreeAsync cudaFreeAsync
#define hipGetDevice cudaGetDevice
#define hipDeviceGetAttribute cudaDeviceGetAttribute
#define hipDeviceAttributeMultiprocessorCount cudaDevAttrMultiProcessorCount
#define hipDeviceAttributeMaxSharedMemoryPerMultiprocessor cudaDevAttrMaxSharedMemoryPerMultiprocessor
#define hipDeviceAttributeMaxSharedMemoryPerBlock cudaDevAttrMaxSharedMemoryPerBlock
#define hipFuncSetAttribute cudaFuncSetAttribute
#define hipOccupancyMaxActiveBlocksPerMultiprocessor cudaOccupancyMaxActiveBlocksPerMultiprocessor
#define hipFuncAttributeMaxDynamicSharedMemorySize cudaFuncAttributeMaxDynamicSharedMemorySize

#define FUSECC_WAVE64_EMULATION 1

namespace fx {
namespace wave {

enum { MAX_WAVES = 8 };

__device__ __forceinline__ int size() { return 64; }
/* Threads are numbered along x, then y (a row kernel's CTA of several rows is 2-D). */
__device__ __forceinline__ int tid() { return threadIdx.x + blockDim.x * threadIdx.y; }
__device__ __forceinline__ int lane() { return tid() & 63; }
__device__ __forceinline__ int index() { return tid() >> 6; }

/* The wavefront's 64 threads wait for each other (barrier 0 is __syncthreads'). */
__device__ __forceinline__ void sync()
{
	if (index() >= MAX_WAVES)
		__trap();
	asm volatile("bar.sync %0, 64;" ::"r"(1 + index()) : "memory");
}

struct Scratch {
	union { /* one exchange at a time */
		float f[64];
		double d[64];
	};
	uint64_t a[64], b[64];
};
__device__ __forceinline__ Scratch &scratch()
{
	__shared__ Scratch s[MAX_WAVES];
	return s[index()];
}

__device__ __forceinline__ float shfl_xor(float x, int mask)
{
	Scratch &s = scratch();
	s.f[lane()] = x;
	sync();
	float y = s.f[lane() ^ mask];
	sync();
	return y;
}

__device__ __forceinline__ double shfl_xor(double x, int mask)
{
	Scratch &s = scratch();
	s.d[lane()] = x;
	sync();
	double y = s.d[lane() ^ mask];
	sync();
	return y;
}

__device__ __forceinline__ int shfl_xor(int x, int mask) { return __float_as_int(shfl_xor(__int_as_float(x), mask)); }

template <bool BF16> __device__ __forceinline__ float elem(uint64_t v, int e)
{
	unsigned short bits = (unsigned short)(v >> (16 * e));
	return BF16 ? __bfloat162float(__ushort_as_bfloat16(bits)) : __half2float(__ushort_as_half(bits));
}

/* d += A * B, 16 x 16 x K: lane L's operands a and b exchanged, A[i][k] = at(a's of every
 * lane, i, k) and B[k][j] = at(b's, j, k); lane L's d[e] is D[4 * (L / 16) + e][L % 16]. */
template <int K, class F> __device__ __forceinline__ void product(float (&d)[4], uint64_t a, uint64_t b, F at)
{
	Scratch &s = scratch();
	s.a[lane()] = a;
	s.b[lane()] = b;
	sync();
	const int j = lane() & 15, i0 = 4 * (lane() >> 4);
	for (int e = 0; e < 4; e++) {
		const int i = i0 + e;
		float acc = d[e];
		for (int k = 0; k < K; k++)
			acc = fmaf(at(s.a, i, k), at(s.b, j, k), acc);
		d[e] = acc;
	}
	sync();
}

/* mfma 16x16x16 (f16 or bf16): lane L holds A[L % 16][4 * (L / 16) + e] and B[4 * (L / 16)
 * + e][L % 16] as 16-bit element e of its 64 bits. */
template <bool BF16> __device__ __forceinline__ void mfma16(float (&d)[4], uint64_t a, uint64_t b)
{
	product<16>(d, a, b, [](const uint64_t *x, int r, int k) { return elem<BF16>(x[r + 16 * (k >> 2)], k & 3); });
}

/* v_mfma_f32_16x16x4f32: lane L holds A[L % 16][L / 16] and B[L / 16][L % 16], fp32. */
__device__ __forceinline__ void mfma4f32(float (&d)[4], float a, float b)
{
	product<4>(d, __float_as_uint(a), __float_as_uint(b), [](const uint64_t *x, int r, int k) { return __uint_as_float((uint32_t)x[r + 16 * k]); });
}

} /* namespace wave */
} /* namespace fx */

#endif
