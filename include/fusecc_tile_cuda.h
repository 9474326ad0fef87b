/* fusecc_tile_cuda.h: the device tile primitives that fusecc's CUDA kernels are written in
 * (sm_80 and later: mma.sync m16n8k16, ldmatrix, cp.async).
 *
 * Layouts. A warp owns MT * 16 rows of every register tile (MT row tiles of 16). A tile of
 * MT x 16 x W fp32 values is `float t[MT][W / 8][4]`, the accumulator layout of mma.m16n8:
 * element [m][n][k] of lane L sits at row 16 * m + L / 4 + 8 * (k / 2) and column
 * 8 * n + 2 * (L % 4) + k % 2. Generated code walks a thread's elements as (row slot h,
 * column c), h < 2 * MT: t[h / 2][c / 2][2 * (h % 2) + c % 2], row fx::row(h) = L / 4 + 8 * h,
 * column fx::col(c) = 8 * (c / 2) + 2 * (L % 4) + c % 2.
 *
 * Shared-memory tiles hold 16-bit elements, rows of COLS elements, in 16-byte chunks
 * swizzled by fx::swz (fusecc_tile_common.h), so that ldmatrix and cp.async touch 8
 * different bank groups for 8 consecutive rows. COLS must be a multiple of 64. */
#ifndef FUSECC_TILE_CUDA_H
#define FUSECC_TILE_CUDA_H

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include "fusecc.h"
#include "fusecc_tile_common.h"

namespace fx {

__device__ __forceinline__ int lane() { return threadIdx.x & 31; }
__device__ __forceinline__ int warp() { return threadIdx.x >> 5; }
/* Row of slot h of a thread's elements inside its warp's rows. */
__device__ __forceinline__ int row(int h) { return (lane() >> 2) + 8 * h; }
/* Column of element c of a thread's row inside a tile. */
__device__ __forceinline__ int col(int c) { return 8 * (c >> 1) + 2 * (lane() & 3) + (c & 1); }

__device__ __forceinline__ uint32_t smem_addr(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

/* 16 bytes from global to shared memory, asynchronously; zeros when !valid. */
__device__ __forceinline__ void cp_async16(void *dst, const void *src, bool valid)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_addr(dst)), "l"(src), "r"(valid ? 16 : 0));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

/* Starts loading rows [0, ROWS) of a tile: row r comes from rowptr(r) when r < nvalid
 * (COLS contiguous 16-bit elements, 16-byte aligned), else it is zero. */
template <int ROWS, int COLS, int THREADS, class T, class F>
__device__ __forceinline__ void load_tile(uint16_t *s, F rowptr, int nvalid)
{
	constexpr int CH = COLS / 8, N = (ROWS * CH + THREADS - 1) / THREADS;
	/* Fully unrolled, a one-warp tile's 32 row addresses would stay live in registers. */
	constexpr int UNROLL = N > 8 ? 4 : N;
	const T *first = rowptr(0);
#pragma unroll UNROLL
	for (int k = 0; k < N; k++) {
		int idx = threadIdx.x + k * THREADS;
		if (ROWS * CH % THREADS == 0 || idx < ROWS * CH) {
			int r = idx / CH, c = idx % CH;
			bool valid = r < nvalid;
			const T *src = valid ? rowptr(r) : first;
			cp_async16(s + swz<COLS>(r, c), src + 8 * c, valid);
		}
	}
}

__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], const uint16_t *p)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
	             : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
	             : "r"(smem_addr(p)));
}
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], const uint16_t *p)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
	             : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
	             : "r"(smem_addr(p)));
}

/* d += a * b, one m16n8k16 tensor-core product, fp16 or bf16 inputs, fp32 accumulation. */
template <bool BF16> __device__ __forceinline__ void mma(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1)
{
	if (BF16)
		asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
		             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
		             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
	else
		asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
		             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
		             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

/* Two floats packed as two 16-bit values (round to nearest). */
template <bool BF16> __device__ __forceinline__ uint32_t pack2(float lo, float hi)
{
	uint32_t r;
	if (BF16) {
		__nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
		r = *reinterpret_cast<uint32_t *>(&h);
	} else {
		__half2 h = __floats2half2_rn(lo, hi);
		r = *reinterpret_cast<uint32_t *>(&h);
	}
	return r;
}

/* acc[MT x 16 x N] = A * B^T: A the warp's MT * 16 rows of a shared tile [rows][K] from
 * row0 (the row operand, re-read each call: keeping it in registers would cost 32 per
 * 16 rows), B a shared tile [N][K] (the column operand indexed by the result's columns:
 * keys for q.k). Each B fragment serves the MT row tiles. */
template <bool BF16, int MT, int N, int K>
__device__ __forceinline__ void dot_rows(float (&acc)[MT][N / 8][4], const uint16_t *a, int row0, const uint16_t *b)
{
#pragma unroll
	for (int m = 0; m < MT; m++)
#pragma unroll
		for (int n = 0; n < N / 8; n++)
#pragma unroll
			for (int e = 0; e < 4; e++)
				acc[m][n][e] = 0.0f;
#pragma unroll
	for (int k = 0; k < K / 16; k++) {
		uint32_t af[MT][4];
#pragma unroll
		for (int m = 0; m < MT; m++)
			ldmatrix_x4(af[m], a + swz<K>(row0 + 16 * m + (lane() & 15), 2 * k + (lane() >> 4)));
#pragma unroll
		for (int n = 0; n < N / 16; n++) {
			uint32_t r[4];
			int br = 16 * n + (lane() >> 4) * 8 + (lane() & 7);
			ldmatrix_x4(r, b + swz<K>(br, 2 * k + ((lane() >> 3) & 1)));
#pragma unroll
			for (int m = 0; m < MT; m++) {
				mma<BF16>(acc[m][2 * n], af[m], r[0], r[1]);
				mma<BF16>(acc[m][2 * n + 1], af[m], r[2], r[3]);
			}
		}
	}
}

/* acc[MT x 16 x N] += P (MT x 16 x K, the fp32 register tile p, rounded to 16 bits) * B, B
 * a shared tile [K][N] (the column operand indexed by the reduction: values for p.v). */
template <bool BF16, int MT, int N, int K>
__device__ __forceinline__ void dot_tile(float (&acc)[MT][N / 8][4], const float (&p)[MT][K / 8][4], const uint16_t *b)
{
#pragma unroll
	for (int k = 0; k < K / 16; k++) {
		uint32_t a[MT][4];
#pragma unroll
		for (int m = 0; m < MT; m++) {
			a[m][0] = pack2<BF16>(p[m][2 * k][0], p[m][2 * k][1]);
			a[m][1] = pack2<BF16>(p[m][2 * k][2], p[m][2 * k][3]);
			a[m][2] = pack2<BF16>(p[m][2 * k + 1][0], p[m][2 * k + 1][1]);
			a[m][3] = pack2<BF16>(p[m][2 * k + 1][2], p[m][2 * k + 1][3]);
		}
#pragma unroll
		for (int n = 0; n < N / 16; n++) {
			uint32_t r[4];
			int br = 16 * k + ((lane() >> 3) & 1) * 8 + (lane() & 7);
			ldmatrix_x4_trans(r, b + swz<N>(br, 2 * n + (lane() >> 4)));
#pragma unroll
			for (int m = 0; m < MT; m++) {
				mma<BF16>(acc[m][2 * n], a[m], r[0], r[1]);
				mma<BF16>(acc[m][2 * n + 1], a[m], r[2], r[3]);
			}
		}
	}
}

/* Completes a row reduction: the four lanes of a quad hold one row's partial values. */
__device__ __forceinline__ float row_sum(float x)
{
	x += __shfl_xor_sync(0xffffffffu, x, 1);
	return x + __shfl_xor_sync(0xffffffffu, x, 2);
}
__device__ __forceinline__ float row_max(float x)
{
	x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 1));
	return fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 2));
}
__device__ __forceinline__ float row_min(float x)
{
	x = fminf(x, __shfl_xor_sync(0xffffffffu, x, 1));
	return fminf(x, __shfl_xor_sync(0xffffffffu, x, 2));
}

/* e^x through the exp2 unit (ex2.approx, relative error ~2^-22): what expf costs in a tile
 * kernel. -inf gives 0, as expf does. */
__device__ __forceinline__ float exp(float x)
{
	float y;
	asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x * 1.4426950408889634f));
	return y;
}
/* e^(a - b) as 2^(a log2 e - b log2 e): one FFMA once b log2 e is hoisted (b the row's
 * max, the same for every element). */
__device__ __forceinline__ float exp_sub(float a, float b)
{
	float y;
	asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(__fmaf_rn(a, 1.4426950408889634f, -(b * 1.4426950408889634f))));
	return y;
}
__device__ __forceinline__ float exp2(float x)
{
	float y;
	asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
	return y;
}

/* tanh through the exp2 unit (see tanh_via). */
__device__ __forceinline__ float tanh(float x)
{
	return tanh_via(x, [](float y) { return exp2(y); });
}

} /* namespace fx */

#endif
