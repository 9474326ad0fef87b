/* fusecc_tile_hip.h: the device tile primitives that fusecc's HIP kernels are written in
 * (CDNA GPUs: gfx908, gfx90a, gfx94x; 64-lane wavefronts, mfma 16x16x16 with fp32
 * accumulation; fp32 operands through mfma 16x16x4f32, fp32 products). The same functions, with the same meaning, as fusecc_tile_cuda.h: one
 * lowering prints both.
 *
 * Layouts. A wavefront owns MT * 16 rows of every register tile (MT row tiles of 16). A
 * tile of MT x 16 x W fp32 values is `float t[MT][W / 16][4]`: element [m][n][k] of lane L
 * sits at row 16 * m + L % 16 and column 16 * n + 4 * (L / 16) + k. So each lane holds one
 * row of each row tile and four adjacent columns of each 16; the four lanes L, L ^ 16,
 * L ^ 32, L ^ 48 share a row. Generated code walks a lane's elements as (row slot h,
 * column c), h < MT: t[h][c / 4][c % 4], row fx::row(h), column fx::col(c).
 *
 * Why that layout: mfma 16x16x16 gives lane L the column L % 16 and rows 4 * (L / 16) ..
 * + 3 of its 16 x 16 result D = A * B, and takes its A operand's row L % 16 and B
 * operand's column L % 16 (k = 4 * (L / 16) .. + 3). Computing the transposed products
 * (S^T = K * Q^T, O^T = V^T * P^T) puts a query row per lane, so row reductions stay in
 * the lane but for the 4 lanes above, and the per-element tile P is, element for element,
 * the B operand of the next product: no shuffle between the two products.
 *
 * Shared memory (LDS) tiles hold 16-bit elements, rows of COLS elements, swizzled by
 * fx::swz; an fp32 tile is a 16-bit one of twice the columns. There is no asynchronous copy to LDS here: tiles are loaded
 * through registers, and the kernels keep one tile of each column operand. */
#ifndef FUSECC_TILE_HIP_H
#define FUSECC_TILE_HIP_H

#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <stdint.h>

#include "fusecc.h"
#include "fusecc_tile_common.h"

#if defined(__HIP_DEVICE_COMPILE__) && !defined(__gfx908__) && !defined(__gfx90a__) && !defined(__gfx940__) && !defined(__gfx941__) && \
	!defined(__gfx942__)
#error "fusecc's HIP kernels need a CDNA GPU (mfma, 64-lane wavefronts): gfx908, gfx90a or gfx94x"
#endif

namespace fx {

/* The wavefront's primitives: its lane and index, a butterfly shuffle and the matrix
 * instruction. FUSECC_WAVE64_EMULATION (bench/hip_on_cuda/, for testing on NVIDIA GPUs)
 * provides them instead, from the instruction's documented semantics. */
#ifndef FUSECC_WAVE64_EMULATION
namespace wave {
typedef float f32x4 __attribute__((ext_vector_type(4)));
typedef _Float16 f16x4 __attribute__((ext_vector_type(4)));
typedef short bf16x4 __attribute__((ext_vector_type(4)));

__device__ __forceinline__ int size() { return warpSize; }
__device__ __forceinline__ int lane() { return (int)__lane_id(); }
__device__ __forceinline__ int index() { return (int)threadIdx.x / warpSize; }
__device__ __forceinline__ float shfl_xor(float x, int mask) { return __shfl_xor(x, mask); }
__device__ __forceinline__ double shfl_xor(double x, int mask) { return __shfl_xor(x, mask); }
__device__ __forceinline__ int shfl_xor(int x, int mask) { return __shfl_xor(x, mask); }
/* The wavefront runs in lockstep: its shared-memory stores need only be complete. */
__device__ __forceinline__ void sync()
{
	__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
	__builtin_amdgcn_wave_barrier();
	__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}

/* d += A * B, 16 x 16 x 16: a holds A[L % 16][4 * (L / 16) + e] and b holds B[4 * (L / 16)
 * + e][L % 16] as 16-bit element e of the 64-bit value; d gets D[4 * (L / 16) + e][L % 16]. */
template <bool BF16> __device__ __forceinline__ void mfma16(float (&d)[4], uint64_t a, uint64_t b)
{
	f32x4 c = {d[0], d[1], d[2], d[3]};
	if (BF16)
		c = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(__builtin_bit_cast(bf16x4, a), __builtin_bit_cast(bf16x4, b), c, 0, 0, 0);
	else
		c = __builtin_amdgcn_mfma_f32_16x16x16f16(__builtin_bit_cast(f16x4, a), __builtin_bit_cast(f16x4, b), c, 0, 0, 0);
	d[0] = c[0];
	d[1] = c[1];
	d[2] = c[2];
	d[3] = c[3];
}

/* d += A * B, 16 x 16 x 4 in fp32 (v_mfma_f32_16x16x4f32): a is A[L % 16][L / 16], b is
 * B[L / 16][L % 16]; d as mfma16's. */
__device__ __forceinline__ void mfma4f32(float (&d)[4], float a, float b)
{
	f32x4 c = {d[0], d[1], d[2], d[3]};
	c = __builtin_amdgcn_mfma_f32_16x16x4f32(a, b, c, 0, 0, 0);
	d[0] = c[0];
	d[1] = c[1];
	d[2] = c[2];
	d[3] = c[3];
}
} /* namespace wave */
#endif

/* Offset, in elements, of 16-byte chunk `chunk` of row `r` in a swizzled tile: the chunk
 * index is XORed with the row (mod 8), so that 8 consecutive rows read at one column
 * touch 8 different bank groups. */
template <int COLS> __device__ __forceinline__ int swz(int r, int chunk)
{
	static_assert(COLS % 64 == 0, "shared tiles need rows of a multiple of 64 elements");
	return r * COLS + ((chunk ^ (r & 7)) << 3);
}

__device__ __forceinline__ int lane() { return wave::lane(); }
__device__ __forceinline__ int warp() { return wave::index(); }
/* Row of slot h of a lane's elements inside its wavefront's rows. */
__device__ __forceinline__ int row(int h) { return 16 * h + (lane() & 15); }
/* Column of element c of a lane's row inside a tile: col_lane() + col_step(c), the lane's
 * first column and a constant once c is. */
__device__ __forceinline__ int col_lane() { return 4 * (lane() >> 4); }
__device__ __forceinline__ constexpr int col_step(int c) { return 16 * (c >> 2) + (c & 3); }
__device__ __forceinline__ int col(int c) { return col_step(c) + col_lane(); }

/* Loads rows [0, ROWS) of a tile: row r comes from rowptr(r) when r < nvalid (DATA
 * contiguous elements of T, 16-byte aligned), else it is zero; columns DATA .. COLS are
 * zero. An fp32 tile is laid out as a 16-bit one of twice the columns (the same bytes). */
template <int ROWS, int COLS, int THREADS, class T, int DATA = COLS, class F>
__device__ __forceinline__ void load_tile(uint16_t *s, F rowptr, int nvalid)
{
	constexpr int EPC = 16 / sizeof(T); /* elements per 16-byte chunk */
	static_assert(DATA % EPC == 0 && DATA <= COLS, "a tile's data is whole 16-byte chunks");
	constexpr int CH = COLS / EPC, N = (ROWS * CH + THREADS - 1) / THREADS;
#pragma unroll
	for (int k = 0; k < N; k++) {
		int idx = threadIdx.x + k * THREADS;
		if (ROWS * CH % THREADS == 0 || idx < ROWS * CH) {
			int r = idx / CH, c = idx % CH;
			uint4 v = make_uint4(0, 0, 0, 0);
			if (r < nvalid && (DATA == COLS || c < DATA / EPC))
				v = *reinterpret_cast<const uint4 *>(col_at(rowptr, r, EPC * c));
			*reinterpret_cast<uint4 *>(s + swz<COLS * sizeof(T) / 2>(r, c)) = v;
		}
	}
}

/* A 16-bit column operand stored transposed (colptr(c) = &kT[..][c][at]), kept so: a
 * tile of COLS rows of ROWS keys, stored as a P.V tile [K][N] is (dot_rows_t). Keys from
 * nvalid and rows from DATA are zero; 16-byte loads where a run of 8 keys is aligned and
 * whole. */
template <int ROWS, int COLS, int THREADS, class T, int DATA = COLS, class F>
__device__ __forceinline__ void load_tile_kt(uint16_t *s, F colptr, int nvalid)
{
	static_assert(sizeof(T) == 2 && ROWS % 64 == 0 && DATA <= COLS, "a transposed tile is 16-bit, rows of 64-key slabs");
	constexpr int RC = ROWS / 8, N = (COLS * RC + THREADS - 1) / THREADS;
#pragma unroll
	for (int k = 0; k < N; k++) {
		int idx = threadIdx.x + k * THREADS, c = idx / RC, r0 = idx % RC * 8;
		if (COLS * RC % THREADS != 0 && idx >= COLS * RC)
			break;
		uint4 v = make_uint4(0, 0, 0, 0);
		if (c < DATA && r0 < nvalid) {
			const uint16_t *p = reinterpret_cast<const uint16_t *>(t_at(colptr, r0, c));
			if (r0 + 8 <= nvalid && (reinterpret_cast<uintptr_t>(p) & 15) == 0 && t_run(colptr, r0, c)) {
				v = *reinterpret_cast<const uint4 *>(p);
			} else {
				uint32_t w[4] = {};
#pragma unroll
				for (int t = 0; t < 8; t++)
					if (r0 + t < nvalid)
						w[t / 2] |= (uint32_t)*reinterpret_cast<const uint16_t *>(t_at(colptr, r0 + t, c)) << (16 * (t % 2));
				v = make_uint4(w[0], w[1], w[2], w[3]);
			}
		}
		*reinterpret_cast<uint4 *>(s + swz<ROWS>(c, r0 / 8)) = v;
	}
}

/* L2 eviction hints (fusecc_tile_cuda.h) have no HIP counterpart here: the policy is
 * taken and ignored. */
struct L2Policy {};
__device__ __forceinline__ L2Policy l2_read_once(bool) { return {}; }
template <int ROWS, int COLS, int THREADS, class T, int DATA = COLS, class F>
__device__ __forceinline__ void load_tile(uint16_t *s, F rowptr, int nvalid, L2Policy)
{
	load_tile<ROWS, COLS, THREADS, T, DATA>(s, rowptr, nvalid);
}

/* A column operand stored as bytes, widened to T (load_tile_q8_at in fusecc_tile_common.h). */
template <int ROWS, int COLS, int THREADS, class T, class Q, int DATA = COLS, class F>
__device__ __forceinline__ void load_tile_q8(uint16_t *s, F rowptr, int nvalid)
{
	load_tile_q8_at<ROWS, COLS, THREADS, T, Q, DATA>(s, rowptr, nvalid, [](int r, int c) { return swz<COLS>(r, c); });
}

/* A column operand's tile stored transposed (load_tile_t_at in fusecc_tile_common.h). */
template <int ROWS, int COLS, int THREADS, class T, int DATA = COLS, class F>
__device__ __forceinline__ void load_tile_t(uint16_t *s, F colptr, int nvalid)
{
	load_tile_t_at<ROWS, COLS, THREADS, T, DATA>(s, colptr, nvalid, [](int r, int c) { return swz<COLS>(r, c); });
}

/* The row operand's tile: the same as a column operand's here. */
template <int ROWS, int COLS, int THREADS, class T, int DATA = COLS, class F>
__device__ __forceinline__ void load_rows(uint16_t *s, F rowptr, int nvalid)
{
	load_tile<ROWS, COLS, THREADS, T, DATA>(s, rowptr, nvalid);
}

/* An fp32 row operand against 16-bit column operands T: two tiles, hi and lo (see
 * load_rows_split_at in fusecc_tile_common.h). */
template <int ROWS, int COLS, int THREADS, class T, int DATA = COLS, class F>
__device__ __forceinline__ void load_rows_split(uint16_t *s, F rowptr, int nvalid)
{
	load_rows_split_at<ROWS, COLS, THREADS, T, DATA>(s, rowptr, nvalid, [](int r, int c) { return swz<COLS>(r, c); });
}

/* Four values of a lane's k slice of a product operand (k = 4 * (L / 16) .. + 3 of a
 * 16-deep step): 16-bit ones packed in 64 bits, the first in the low bits (mfma
 * 16x16x16's operand), or fp32 ones, one for each of four mfma 16x16x4f32 (F32). */
template <bool F32> struct Frag4 {
	uint64_t v;
};
template <> struct Frag4<true> {
	float v[4];
};

/* Elements k .. k + 3 (k a multiple of 4) of row r of a shared tile of COLS elements of T. */
template <class T, int COLS> __device__ __forceinline__ Frag4<is_f32<T>()> load4(const uint16_t *s, int r, int k)
{
	Frag4<is_f32<T>()> f;
	if constexpr (is_f32<T>()) {
		const float4 x = *reinterpret_cast<const float4 *>(s + swz<2 * COLS>(r, k >> 2));
		f.v[0] = x.x, f.v[1] = x.y, f.v[2] = x.z, f.v[3] = x.w;
	} else {
		f.v = *reinterpret_cast<const uint64_t *>(s + swz<COLS>(r, k >> 3) + (k & 7));
	}
	return f;
}

/* Elements [r + e][c], e < 4, of a shared tile of COLS elements of T: four rows of a column. */
template <class T, int COLS> __device__ __forceinline__ Frag4<is_f32<T>()> column4(const uint16_t *s, int r, int c)
{
	Frag4<is_f32<T>()> f;
	if constexpr (is_f32<T>()) {
#pragma unroll
		for (int e = 0; e < 4; e++)
			f.v[e] = *reinterpret_cast<const float *>(s + swz<2 * COLS>(r + e, c >> 2) + 2 * (c & 3));
	} else {
		f.v = 0;
#pragma unroll
		for (int e = 0; e < 4; e++)
			f.v |= (uint64_t)s[swz<COLS>(r + e, c >> 3) + (c & 7)] << (16 * e);
	}
	return f;
}

/* Four floats as a fragment of T: rounded to 16 bits (to nearest) and packed, or as
 * they are for fp32. */
template <class T> __device__ __forceinline__ Frag4<is_f32<T>()> pack4(const float (&x)[4])
{
	Frag4<is_f32<T>()> f;
	if constexpr (is_f32<T>()) {
#pragma unroll
		for (int e = 0; e < 4; e++)
			f.v[e] = x[e];
	} else {
		f.v = 0;
#pragma unroll
		for (int e = 0; e < 4; e++) {
			uint64_t bits = is_bf16<T>::value ? fusecc_float_to_bf16(x[e]).bits : __half_as_ushort(__float2half_rn(x[e]));
			f.v |= bits << (16 * e);
		}
	}
	return f;
}

/* d += A * B, 16 x 16 x 16, the fragments a of A and b of B (mfma16's layout). fp32 (also
 * precision(tf32), which asks for no more than fp32 gives): four mfma 16x16x4f32, call e
 * taking k = 4 * (L / 16) + e in lane L, which covers the same 16 k as the 16-bit layout. */
template <class T> __device__ __forceinline__ void mma(float (&d)[4], const Frag4<is_f32<T>()> &a, const Frag4<is_f32<T>()> &b)
{
	if constexpr (is_f32<T>()) {
#pragma unroll
		for (int e = 0; e < 4; e++)
			wave::mfma4f32(d, a.v[e], b.v[e]);
	} else {
		wave::mfma16<is_bf16<T>::value>(d, a.v, b.v);
	}
}

/* acc[MT x 16 x N] = A * B^T: A the wavefront's MT * 16 rows of a shared tile [rows][K]
 * from row0 (the row operand), B a shared tile [N][K] (the column operand indexed by the
 * result's columns: keys for q.k). Computed as B * A^T, so that a lane holds a row.
 * PARTS = 2: A is the sum of two 16-bit tiles [BM][K] one after the other (an fp32 row
 * operand split by load_rows_split), and each B fragment serves both. */
template <class T, int MT, int N, int K, int BM, int THREADS, int PARTS = 1, bool BT = false>
__device__ __forceinline__ void dot_rows(float (&acc)[MT][N / 16][4], const uint16_t *a, int row0, const uint16_t *b)
{
	clear(acc);
	const int r = lane() & 15, kq = 4 * (lane() >> 4);
#pragma unroll
	for (int k = 0; k < K; k += 16) {
		Frag4<is_f32<T>()> af[PARTS][MT];
#pragma unroll
		for (int p = 0; p < PARTS; p++)
#pragma unroll
			for (int m = 0; m < MT; m++)
				af[p][m] = load4<T, K>(a + p * BM * K, row0 + 16 * m + r, k + kq);
#pragma unroll
		for (int n = 0; n < N / 16; n++) {
			/* BT: B^T's row 16n + r, columns k + kq .. + 3 are a column of B, four rows */
			Frag4<is_f32<T>()> bf;
			if constexpr (BT)
				bf = column4<T, N>(b, k + kq, 16 * n + r);
			else
				bf = load4<T, K>(b, 16 * n + r, k + kq);
#pragma unroll
			for (int p = 0; p < PARTS; p++)
#pragma unroll
				for (int m = 0; m < MT; m++)
					mma<T>(acc[m][n], bf, af[p][m]);
		}
	}
}

/* dot_rows with B stored [K][N] (a column operand kept transposed, load_tile_kt), read as
 * dot_tile reads V. */
template <class T, int MT, int N, int K, int BM, int THREADS, int PARTS = 1>
__device__ __forceinline__ void dot_rows_t(float (&acc)[MT][N / 16][4], const uint16_t *a, int row0, const uint16_t *b)
{
	dot_rows<T, MT, N, K, BM, THREADS, PARTS, true>(acc, a, row0, b);
}

/* acc[MT x 16 x N] += P (MT x 16 x K, the fp32 register tile p, rounded to 16 bits unless
 * T is fp32, or as two 16-bit tiles, its rounding and what that left out, with SPLIT) * B,
 * B columns c0 .. c0 + N - 1 of a shared tile [K][LD] (the column operand indexed by the
 * reduction: values for p.v; see CUDA's).
 * Computed as B^T * P^T: a lane's four elements of P in a 16-column block are the B
 * operand as they are. PRE is CUDA's (its fp32 planes); HIP has none. */
template <class T, int MT, int N, int K, int THREADS, bool PRE = false, bool SPLIT = false, int LD = N>
__device__ __forceinline__ void dot_tile(float (&acc)[MT][N / 16][4], const float (&p)[MT][K / 16][4], const uint16_t *b, int c0 = 0)
{
	static_assert(LD >= N && LD % 64 == 0, "a tile of at least N columns");
	constexpr int PARTS = SPLIT && !is_f32<T>() ? 2 : 1;
	const int c = lane() & 15, kq = 4 * (lane() >> 4);
#pragma unroll
	for (int k = 0; k < K / 16; k++) {
		Frag4<is_f32<T>()> pf[PARTS][MT];
#pragma unroll
		for (int m = 0; m < MT; m++) {
			pf[0][m] = pack4<T>(p[m][k]);
			if constexpr (PARTS == 2) {
				float r[4];
#pragma unroll
				for (int e = 0; e < 4; e++)
					r[e] = residual16<T>(p[m][k][e]);
				pf[PARTS - 1][m] = pack4<T>(r);
			}
		}
#pragma unroll
		for (int n = 0; n < N / 16; n++) {
			/* B^T's row 16n + c, columns 16k + kq .. + 3: a column of B, four rows. */
			const Frag4<is_f32<T>()> bf = column4<T, LD>(b, 16 * k + kq, c0 + 16 * n + c);
#pragma unroll
			for (int q = 0; q < PARTS; q++)
#pragma unroll
				for (int m = 0; m < MT; m++)
					mma<T>(acc[m][n], bf, pf[q][m]);
		}
	}
}

/* dot_tile with B stored [N][K] (a value operand kept transposed, load_tile_kt; see
 * CUDA's): B^T's row c0 + 16n + c, keys 16k + kq .. + 3, are four consecutive elements of
 * a row of the tile. */
template <class T, int MT, int N, int K, int THREADS, bool SPLIT = false, int LD = N>
__device__ __forceinline__ void dot_tile_t(float (&acc)[MT][N / 16][4], const float (&p)[MT][K / 16][4], const uint16_t *b, int c0 = 0)
{
	static_assert(!is_f32<T>() && LD >= N && K % 64 == 0, "a transposed value tile is 16-bit, rows of 64-key slabs");
	constexpr int PARTS = SPLIT ? 2 : 1;
	const int c = lane() & 15, kq = 4 * (lane() >> 4);
#pragma unroll
	for (int k = 0; k < K / 16; k++) {
		Frag4<false> pf[PARTS][MT];
#pragma unroll
		for (int m = 0; m < MT; m++) {
			pf[0][m] = pack4<T>(p[m][k]);
			if constexpr (PARTS == 2) {
				float r[4];
#pragma unroll
				for (int e = 0; e < 4; e++)
					r[e] = residual16<T>(p[m][k][e]);
				pf[PARTS - 1][m] = pack4<T>(r);
			}
		}
#pragma unroll
		for (int n = 0; n < N / 16; n++) {
			const Frag4<false> bf = load4<T, K>(b, c0 + 16 * n + c, 16 * k + kq);
#pragma unroll
			for (int q = 0; q < PARTS; q++)
#pragma unroll
				for (int m = 0; m < MT; m++)
					mma<T>(acc[m][n], bf, pf[q][m]);
		}
	}
}

__device__ __forceinline__ float lane_xor(float x, int mask) { return wave::shfl_xor(x, mask); }
__device__ __forceinline__ double lane_xor(double x, int mask) { return wave::shfl_xor(x, mask); }
__device__ __forceinline__ int lane_xor(int x, int mask) { return wave::shfl_xor(x, mask); }
__device__ __forceinline__ int wave_width() { return wave::size(); }
/* A row kernel's group is the wavefront (the HIP launcher offers no smaller). */
__device__ __forceinline__ float group_xor(float x, int mask) { return wave::shfl_xor(x, mask); }
__device__ __forceinline__ double group_xor(double x, int mask) { return wave::shfl_xor(x, mask); }
__device__ __forceinline__ void group_sync() { wave::sync(); }

/* Completes a row reduction: lanes L, L ^ 16, L ^ 32, ... (every 16th lane of the
 * wavefront) hold one row's partial values. */
__device__ __forceinline__ float row_sum(float x)
{
	for (int o = 16; o < wave::size(); o <<= 1)
		x += wave::shfl_xor(x, o);
	return x;
}
__device__ __forceinline__ float row_max(float x)
{
	for (int o = 16; o < wave::size(); o <<= 1)
		x = fmaxf(x, wave::shfl_xor(x, o));
	return x;
}
__device__ __forceinline__ float row_min(float x)
{
	for (int o = 16; o < wave::size(); o <<= 1)
		x = fminf(x, wave::shfl_xor(x, o));
	return x;
}

/* 2^x (exp, exp_sub and tanh of fusecc_tile_common.h go through it). */
__device__ __forceinline__ float exp2(float x) { return exp2f(x); }

/* Split-k's kernel chaining (see fusecc_tile_cuda.h): HIP has no programmatic dependent
 * launch, so the merge is an ordinary launch after the chunk kernel. */
__device__ __forceinline__ void let_next_start() {}
__device__ __forceinline__ void after_previous() {}
template <class... P, class... A>
inline hipError_t launch_after(void (*k)(P...), dim3 grid, dim3 block, size_t smem, hipStream_t stream, A... args)
{
	k<<<grid, block, smem, stream>>>(static_cast<P>(args)...);
	return hipGetLastError();
}

/* The CTA's dynamic shared memory (its size given at launch), 16-byte aligned. */
__device__ __forceinline__ unsigned char *dyn_smem()
{
	extern __shared__ __align__(16) unsigned char fx_dyn_smem[];
	return fx_dyn_smem;
}

} /* namespace fx */

#endif
