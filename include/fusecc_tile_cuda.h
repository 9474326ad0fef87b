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
 * Shared-memory tiles of ROWS x COLS 16-bit elements are stored as COLS / 64 slabs of
 * ROWS x 64 (128-byte rows), and in a slab the 16-byte chunk index is XORed with the row
 * (mod 8): so ldmatrix and cp.async touch 8 different bank groups for 8 consecutive rows,
 * and a slab is the layout wgmma reads with 128-byte swizzling. COLS must be a multiple
 * of 64, and the tiles 1024-byte aligned.
 *
 * sm_90a: a CTA of 4 warps and 128 rows (two 16-row tiles per warp) is one warpgroup,
 * and its products run as wgmma (m64nNk16, N = 64 or 128) from shared memory, P from
 * registers. The thread layout above stays: warp w's rows 32 w .. + 31 are rows 16 w ..
 * + 15 of wgmma's two 64-row tiles, because the row operand is stored with its rows in
 * that order (fx::row_slot); the generated code cannot tell. Other shapes, and sm_80,
 * use mma.sync. */
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
/* Column of element c of a thread's row inside a tile: col_lane() + col_step(c), the
 * lane's first column and a constant once c is. */
__device__ __forceinline__ int col_lane() { return 2 * (lane() & 3); }
__device__ __forceinline__ constexpr int col_step(int c) { return 8 * (c >> 1) + (c & 1); }
__device__ __forceinline__ int col(int c) { return col_step(c) + col_lane(); }

__device__ __forceinline__ uint32_t smem_addr(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }


/* An L2 eviction policy for a tile's loads (cp.async's cache hint). */
struct L2Policy {
	uint64_t bits;
};
/* Data that one CTA alone reads, once (split-k decode's K and V when a CTA holds all
 * the rows): evict-first, so that streaming it through L2 replaces its own lines rather
 * than what other kernels left there (dirty lines cost a write back to HBM when
 * evicted); else the normal policy. */
__device__ __forceinline__ L2Policy l2_read_once(bool once)
{
	uint64_t first, normal;
	asm volatile("createpolicy.fractional.L2::evict_first.b64 %0;\n" : "=l"(first));
	asm volatile("createpolicy.fractional.L2::evict_normal.b64 %0;\n" : "=l"(normal));
	return {once ? first : normal};
}

/* 16 bytes from global to shared memory, asynchronously; zeros when !valid; with the
 * L2 policy *pol when given. */
__device__ __forceinline__ void cp_async16(void *dst, const void *src, bool valid, const L2Policy *pol = nullptr)
{
	if (pol)
		asm volatile("cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2, %3;\n" ::"r"(smem_addr(dst)), "l"(src), "r"(valid ? 16 : 0), "l"(pol->bits));
	else
		asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_addr(dst)), "l"(src), "r"(valid ? 16 : 0));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
/* Waits for all but the last N groups of copies. On sm_90a the copies are then made
 * visible to wgmma, which reads shared memory through the async proxy. */
template <int N> __device__ __forceinline__ void cp_async_wait()
{
	asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#if FX_WGMMA
	asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define FX_WGMMA 1
#else
#define FX_WGMMA 0
#endif

/* Offset, in elements, of 16-byte chunk `chunk` of row r of a ROWS x COLS tile. */
template <int ROWS, int COLS> __device__ __forceinline__ int soff(int r, int chunk)
{
	static_assert(COLS % 64 == 0, "shared tiles need rows of a multiple of 64 elements");
	return (chunk >> 3) * (ROWS * 64) + r * 64 + (((chunk & 7) ^ (r & 7)) << 3);
}

/* Whether the rows of the row operand are stored out of order: one warpgroup of 4 warps
 * with two 16-row tiles each (128 rows). */
template <int ROWS, int THREADS> __device__ __forceinline__ constexpr bool permuted() { return FX_WGMMA && ROWS == 128 && THREADS == 128; }

/* Whether a CTA of ROWS rows and THREADS threads runs its products on wgmma: the permuted
 * case, or warpgroups whose warps hold one 16-row tile each (warpgroup g's 64-row tile is
 * its warps' rows). */
template <int ROWS, int THREADS> __device__ __forceinline__ constexpr bool warpgroup()
{
	return permuted<ROWS, THREADS>() || (FX_WGMMA && THREADS % 128 == 0 && 2 * ROWS == THREADS);
}

/* Where row r of the row operand is stored: for the 4-warp warpgroup, warp w's rows 32 w
 * + 16 m .. + 15 are rows 64 m + 16 w .. + 15, what wgmma's 64-row tile m gives warp w. */
template <int ROWS, int THREADS> __device__ __forceinline__ int row_slot(int r)
{
	return permuted<ROWS, THREADS>() ? ((r >> 4) & 1) * 64 + (r >> 5) * 16 + (r & 15) : r;
}

/* Starts loading rows [0, ROWS) of a tile: row r comes from rowptr(r) when r < nvalid
 * (DATA contiguous elements of T, 16-byte aligned), else it is zero; it is stored as row
 * slot(r). Columns DATA .. COLS are zero (a head dim of 96 in tiles of 128). An fp32
 * tile is laid out as a 16-bit one of twice the columns (the same bytes). */
template <int ROWS, int COLS, int THREADS, class T, int DATA, class F, class S>
__device__ __forceinline__ void load_rows_as(uint16_t *s, F rowptr, int nvalid, S slot, const L2Policy *pol = nullptr)
{
	constexpr int EPC = 16 / sizeof(T); /* elements per 16-byte chunk */
	static_assert(DATA % EPC == 0 && DATA <= COLS, "a tile's data is whole 16-byte chunks");
	constexpr int CH = COLS / EPC, N = (ROWS * CH + THREADS - 1) / THREADS;
	/* Groups of G chunks: their row addresses first, then their copies. A row address may
	 * be a load (a paged cache's block table): computed apart from the copies, which the
	 * compiler keeps in order, the G loads are in flight together instead of one after
	 * another. Fully unrolled, a one-warp tile's 32 row addresses would stay live in
	 * registers: G = 8 at most. */
	constexpr int G = N > 8 ? 8 : N;
	const T *first = col_at(rowptr, 0, 0);
#pragma unroll 1
	for (int k0 = 0; k0 < N; k0 += G) {
		const T *src[G];
#pragma unroll
		for (int g = 0; g < G; g++) {
			int idx = threadIdx.x + (k0 + g) * THREADS, r = idx / CH, c = idx % CH;
			bool valid = (k0 + g < N) && (ROWS * CH % THREADS == 0 || idx < ROWS * CH) && r < nvalid && (DATA == COLS || c < DATA / EPC);
			src[g] = valid ? col_at(rowptr, r, EPC * c) : nullptr;
		}
#pragma unroll
		for (int g = 0; g < G; g++) {
			int idx = threadIdx.x + (k0 + g) * THREADS;
			if ((k0 + g < N) && (ROWS * CH % THREADS == 0 || idx < ROWS * CH)) {
				int r = idx / CH, c = idx % CH;
				cp_async16(s + soff<ROWS, COLS * sizeof(T) / 2>(slot(r), c), src[g] ? src[g] : first, src[g] != nullptr, pol);
			}
		}
	}
}

/* Starts copying the index values of a step's rows [0, min(nvalid, ROWS)) into s: row
 * r's is *idxptr(r), an int of 4 or 8 bytes (a page table's entry).
 * The copies join the caller's next commit group; the tile loads of a later step read
 * s for their rows' addresses, so that they wait on no global load. */
template <int ROWS, int THREADS, class T, class F>
__device__ __forceinline__ void load_index(T *s, F idxptr, int nvalid)
{
	static_assert(sizeof(T) == 4 || sizeof(T) == 8, "cp.async copies 4, 8 or 16 bytes");
#pragma unroll
	for (int k = 0; k < (ROWS + THREADS - 1) / THREADS; k++) {
		int r = threadIdx.x + k * THREADS;
		if (r < ROWS && r < nvalid) /* a CTA may have more threads than the step rows */
			asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(smem_addr(s + r)), "l"(idxptr(r)), "n"((int)sizeof(T)));
	}
}

/* Stores the row pointers of a step's tile, s[r] = rowptr(r) for rows [0, min(nvalid,
 * ROWS)), each computed by one thread: the tile loads read them (`[&](int r) { return
 * s[r]; }`) after the caller's next barrier, instead of each thread computing every row
 * it copies. */
template <int ROWS, int THREADS, class T, class F>
__device__ __forceinline__ void row_ptrs(const T **s, F rowptr, int nvalid)
{
#pragma unroll
	for (int k = 0; k < (ROWS + THREADS - 1) / THREADS; k++) {
		int r = threadIdx.x + k * THREADS;
		if (r < ROWS && r < nvalid)
			s[r] = rowptr(r);
	}
}

/* A column operand's tile; with an L2 policy for its loads. */
template <int ROWS, int COLS, int THREADS, class T, int DATA = COLS, class F>
__device__ __forceinline__ void load_tile(uint16_t *s, F rowptr, int nvalid)
{
	load_rows_as<ROWS, COLS, THREADS, T, DATA>(s, rowptr, nvalid, [](int r) { return r; });
}
template <int ROWS, int COLS, int THREADS, class T, int DATA = COLS, class F>
__device__ __forceinline__ void load_tile(uint16_t *s, F rowptr, int nvalid, L2Policy pol)
{
	load_rows_as<ROWS, COLS, THREADS, T, DATA>(s, rowptr, nvalid, [](int r) { return r; }, &pol);
}

/* A column operand stored as bytes, widened to T (load_tile_q8_at in fusecc_tile_common.h). */
template <int ROWS, int COLS, int THREADS, class T, class Q, int DATA = COLS, class F>
__device__ __forceinline__ void load_tile_q8(uint16_t *s, F rowptr, int nvalid)
{
	load_tile_q8_at<ROWS, COLS, THREADS, T, Q, DATA>(s, rowptr, nvalid, [](int r, int c) { return soff<ROWS, COLS>(r, c); });
}

/* A column operand's tile stored transposed (load_tile_t_at in fusecc_tile_common.h). */
template <int ROWS, int COLS, int THREADS, class T, int DATA = COLS, class F>
__device__ __forceinline__ void load_tile_t(uint16_t *s, F colptr, int nvalid)
{
	load_tile_t_at<ROWS, COLS, THREADS, T, DATA>(s, colptr, nvalid, [](int r, int c) { return soff<ROWS, COLS>(r, c); });
}

/* A 16-bit column operand stored transposed (kT[..][d][j]: colptr(c) = &kT[..][c][at]),
 * kept so: a tile of COLS rows (the products' k index) of ROWS keys, stored as a P.V
 * tile [K][N] is (soff<COLS, ROWS>), which dot_rows_t reads as dot_tile reads V. Keys
 * from nvalid and rows from DATA are zero. 16-byte asynchronous copies where a run of 8
 * keys is aligned and whole; plain loads where it is not (N not a multiple of 8), and
 * for the last run of a row past nvalid. */
template <int ROWS, int COLS, int THREADS, class T, int DATA = COLS, class F>
__device__ __forceinline__ void load_tile_kt(uint16_t *s, F colptr, int nvalid)
{
	static_assert(sizeof(T) == 2 && ROWS % 64 == 0 && DATA <= COLS, "a transposed tile is 16-bit, rows of 64-key slabs");
	constexpr int RC = ROWS / 8, N = (COLS * RC + THREADS - 1) / THREADS;
	const uint16_t *first = reinterpret_cast<const uint16_t *>(t_at(colptr, 0, 0));
#pragma unroll 4
	for (int k = 0; k < N; k++) {
		int idx = threadIdx.x + k * THREADS, c = idx / RC, r0 = idx % RC * 8;
		if (COLS * RC % THREADS != 0 && idx >= COLS * RC)
			break;
		uint16_t *dst = s + soff<COLS, ROWS>(c, r0 / 8);
		const bool any = c < DATA && r0 < nvalid;
		const uint16_t *p = any ? reinterpret_cast<const uint16_t *>(t_at(colptr, r0, c)) : first;
		if (!any || (r0 + 8 <= nvalid && (reinterpret_cast<uintptr_t>(p) & 15) == 0 && t_run(colptr, r0, c))) {
			cp_async16(dst, p, any);
		} else {
			uint32_t w[4] = {}; /* registers, once the loop is unrolled */
#pragma unroll
			for (int t = 0; t < 8; t++)
				if (r0 + t < nvalid)
					w[t / 2] |= (uint32_t)*reinterpret_cast<const uint16_t *>(t_at(colptr, r0 + t, c)) << (16 * (t % 2));
			*reinterpret_cast<uint4 *>(dst) = make_uint4(w[0], w[1], w[2], w[3]);
		}
	}
}

/* The row operand's tile (its rows as row_slot places them; in order for fp32, which
 * never runs on wgmma). */
template <int ROWS, int COLS, int THREADS, class T, int DATA = COLS, class F>
__device__ __forceinline__ void load_rows(uint16_t *s, F rowptr, int nvalid)
{
	load_rows_as<ROWS, COLS, THREADS, T, DATA>(s, rowptr, nvalid, [](int r) { return is_f32<T>() ? r : row_slot<ROWS, THREADS>(r); });
}
/* An fp32 row operand against 16-bit column operands T: two tiles, hi and lo (see
 * load_rows_split_at in fusecc_tile_common.h), their rows as row_slot places them. */
template <int ROWS, int COLS, int THREADS, class T, int DATA = COLS, class F>
__device__ __forceinline__ void load_rows_split(uint16_t *s, F rowptr, int nvalid)
{
	load_rows_split_at<ROWS, COLS, THREADS, T, DATA>(s, rowptr, nvalid, [](int r, int c) { return soff<ROWS, COLS>(row_slot<ROWS, THREADS>(r), c); });
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

/* fp32 products on tf32 tensor cores, to fp32 accuracy: x = big + small, both tf32
 * (10-bit mantissas, rounded to nearest), and a * b = a_big b_big + a_big b_small +
 * a_small b_big up to the a_small b_small term, about 2^-22 of a * b (3xTF32). */
struct tf32x2 {
	uint32_t big, small;
};
/* ONE (precision(tf32)): x rounded to tf32 once, no remainder (small is 0, never read). */
template <bool ONE = false> __device__ __forceinline__ tf32x2 split_tf32(float x)
{
	tf32x2 r;
	asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r.big) : "f"(x));
	if (ONE) {
		r.small = 0;
		return r;
	}
	r.big &= 0xffffe000u; /* the tf32 value exactly, whatever cvt leaves in the low bits */
	asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r.small) : "f"(x - __uint_as_float(r.big)));
	return r;
}
/* d += a * b, one m16n8k8 tf32 product (a: rows g, g + 8 x columns t, t + 4 of lane 4 g
 * + t; b: rows t, t + 4 x column g). Not volatile: the three products of a 3xTF32 step
 * depend on each other, and the compiler may interleave other accumulators' between. */
__device__ __forceinline__ void mma_tf32(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0, uint32_t b1)
{
	asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
	    : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
	    : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}
/* Term t of d += a * b to fp32 accuracy, a and b split: 0 a_small b_big, 1 a_big
 * b_small, 2 a_big b_big (the small terms first). A caller runs term 0 for all its
 * accumulators, then term 1, then 2, so that no product waits for the one before. */
__device__ __forceinline__ void mma_3xtf32(int t, float (&d)[4], const tf32x2 (&a)[4], tf32x2 b0, tf32x2 b1)
{
	if (t == 0)
		mma_tf32(d, a[0].small, a[1].small, a[2].small, a[3].small, b0.big, b1.big);
	else if (t == 1)
		mma_tf32(d, a[0].big, a[1].big, a[2].big, a[3].big, b0.small, b1.small);
	else
		mma_tf32(d, a[0].big, a[1].big, a[2].big, a[3].big, b0.big, b1.big);
}

/* Splits a step's fp32 column tile (raw: ROWS keys x COLS values as load_tile stored it)
 * into tf32 planes, once for all the warps that multiply it: big at out, small ROWS * COLS
 * values after (ONE, precision(tf32): the rounded values alone). TRANS, a P.V operand
 * (dot_tile): stored transposed, COLS rows of ROWS keys, the keys of each 8 in the order
 * dot_tile_f32 gives P's (2t, 2t + 1 at t, t + 4), so that ldmatrix reads B fragments as
 * it does a dot's. Lane = key: the reads (chunk c of 32 rows) and the transposed stores
 * (32 keys of one row) touch every bank once. */
template <int ROWS, int COLS, int THREADS, class T, bool TRANS>
__device__ __forceinline__ void split_tile(uint16_t *out, const uint16_t *raw)
{
	constexpr bool ONE = is_tf32<T>::value;
	constexpr int CH = COLS / 4, N = (ROWS * CH + THREADS - 1) / THREADS;
	static_assert(!TRANS || ROWS % 32 == 0, "transposed planes are rows of 32-key slabs");
#pragma unroll
	for (int i = 0; i < N; i++) {
		const int idx = threadIdx.x + i * THREADS, r = idx % ROWS, c = idx / ROWS;
		if (ROWS * CH % THREADS && idx >= ROWS * CH)
			break;
		const uint4 x = *reinterpret_cast<const uint4 *>(raw + soff<ROWS, 2 * COLS>(r, c));
		const uint32_t v[4] = {x.x, x.y, x.z, x.w};
		tf32x2 h[4];
#pragma unroll
		for (int e = 0; e < 4; e++)
			h[e] = split_tf32<ONE>(__uint_as_float(v[e]));
		if (TRANS) {
			const int pos = (r & ~7) | (r & 1) << 2 | (r & 7) >> 1;
#pragma unroll
			for (int e = 0; e < 4; e++) {
				uint32_t *at = reinterpret_cast<uint32_t *>(out + soff<COLS, 2 * ROWS>(4 * c + e, pos >> 2) + 2 * (pos & 3));
				at[0] = h[e].big;
				if (!ONE)
					at[ROWS * COLS] = h[e].small;
			}
		} else {
			uint4 *at = reinterpret_cast<uint4 *>(out + soff<ROWS, 2 * COLS>(r, c));
			at[0] = make_uint4(h[0].big, h[1].big, h[2].big, h[3].big);
			if (!ONE)
				at[ROWS * COLS / 4] = make_uint4(h[0].small, h[1].small, h[2].small, h[3].small);
		}
	}
}

/* The B fragments of k8 step k for rows 16 n .. + 15 of an fp32 tile [N][K] (16-bit
 * [N][2K]: the 8 x 4 fp32 blocks are ldmatrix's 8 x 8 matrices): bf[0], bf[1] of the
 * n8 block 2n, bf[2], bf[3] of 2n + 1. Split here, or (PRE) read from the planes
 * split_tile wrote, big at b and small N * K values after (ONE: no small). */
template <int N, int K, bool ONE, bool PRE>
__device__ __forceinline__ void b_frags(tf32x2 (&bf)[4], const uint16_t *b, int n, int k)
{
	uint32_t r[4];
	const int at = soff<N, 2 * K>(16 * n + (lane() >> 4) * 8 + (lane() & 7), 2 * k + ((lane() >> 3) & 1));
	ldmatrix_x4(r, b + at);
#pragma unroll
	for (int e = 0; e < 4; e++)
		bf[e] = PRE ? tf32x2{r[e], 0} : split_tf32<ONE>(__uint_as_float(r[e]));
	if (PRE && !ONE) {
		ldmatrix_x4(r, b + 2 * N * K + at);
#pragma unroll
		for (int e = 0; e < 4; e++)
			bf[e].small = r[e];
	}
}

#if FX_WGMMA
/* wgmma: d (a 64-row tile's part of this warp, N / 2 floats) += A * B (= A * B when an
 * _SS call's accumulate is 0, so a product needs no zeroed registers); A from shared
 * memory (descriptor da) or registers (the mma.sync A fragment of the warp's 16 rows), B
 * from shared memory (descriptor db, K-major; V's MN-major, transposed). */
#define FX_WGMMA_SS_64(T, TB) \
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n" "wgmma.mma_async.sync.aligned.m64n64k16.f32." T "." T " {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, " TB ";\n" "}\n" \
	             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]) \
	             : "l"(da), "l"(db), "r"(accumulate))

#define FX_WGMMA_RA_64(T) \
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n" "wgmma.mma_async.sync.aligned.m64n64k16.f32." T "." T " {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, {%32, %33, %34, %35}, %36, p, 1, 1, 1;\n" "}\n" \
	             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]) \
	             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db))

#define FX_WGMMA_SS_128(T, TB) \
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n" "wgmma.mma_async.sync.aligned.m64n128k16.f32." T "." T " {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, " TB ";\n" "}\n" \
	             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]) \
	             : "l"(da), "l"(db), "r"(accumulate))

#define FX_WGMMA_RA_128(T) \
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n" "wgmma.mma_async.sync.aligned.m64n128k16.f32." T "." T " {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, {%64, %65, %66, %67}, %68, p, 1, 1, 1;\n" "}\n" \
	             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]) \
	             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db))

/* TB: B is MN-major (stored [K][N], a column operand kept transposed: dot_rows_t). */
#define FX_WGMMA_SS_TB(M, T) \
	do { \
		if (TB) \
			M(T, "1"); \
		else \
			M(T, "0"); \
	} while (0)
template <bool BF16, int N, bool TB = false> __device__ __forceinline__ void wgmma_ss(float *d, uint64_t da, uint64_t db, int accumulate)
{
	if (N == 64) {
		if (BF16)
			FX_WGMMA_SS_TB(FX_WGMMA_SS_64, "bf16");
		else
			FX_WGMMA_SS_TB(FX_WGMMA_SS_64, "f16");
	} else {
		if (BF16)
			FX_WGMMA_SS_TB(FX_WGMMA_SS_128, "bf16");
		else
			FX_WGMMA_SS_TB(FX_WGMMA_SS_128, "f16");
	}
}
template <bool BF16, int N> __device__ __forceinline__ void wgmma_ra(float *d, const uint32_t (&a)[4], uint64_t db)
{
	if (N == 64) {
		if (BF16)
			FX_WGMMA_RA_64("bf16");
		else
			FX_WGMMA_RA_64("f16");
	} else {
		if (BF16)
			FX_WGMMA_RA_128("bf16");
		else
			FX_WGMMA_RA_128("f16");
	}
}
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit_wait()
{
	asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
	asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}

/* A shared-memory matrix descriptor with 128-byte swizzling: lbo, sbo in bytes. */
__device__ __forceinline__ uint64_t wgmma_desc(const uint16_t *p, uint32_t lbo, uint32_t sbo)
{
	return (uint64_t)((smem_addr(p) & 0x3FFFF) >> 4) | (uint64_t)((lbo >> 4) & 0x3FFF) << 16 | (uint64_t)((sbo >> 4) & 0x3FFF) << 32 | 1ull << 62;
}
#endif

/* Whether a product of N columns for this CTA shape runs on wgmma. */
template <int ROWS, int THREADS, int N> __device__ __forceinline__ constexpr bool use_wgmma() { return warpgroup<ROWS, THREADS>() && (N == 64 || N == 128); }

/* dot_rows for fp32 tiles: 16-bit tiles of 2K columns, so a k8 step is two 16-byte
 * chunks, and ldmatrix's 8 x 8 16-bit matrices are the 8 x 4 fp32 blocks of the tf32
 * fragments. The tensor cores truncate as they accumulate: each run of four k8 steps is
 * summed in a zeroed tile and added to acc in fp32 (at D = 256, 96 truncating additions
 * into one score gave errors of 1e-4 in the output).
 * ONE (precision(tf32)): one tf32 product of the values rounded, not three. PRE: B is
 * split_tile's planes. */
template <int MT, int N, int K, int BM, bool ONE, bool PRE>
__device__ __forceinline__ void dot_rows_f32(float (&acc)[MT][N / 8][4], const uint16_t *a, int row0, const uint16_t *b)
{
	clear(acc);
#pragma unroll
	for (int k0 = 0; k0 < K / 8; k0 += 4) {
		float part[MT][N / 8][4];
		clear(part);
#pragma unroll
		for (int k = k0; k < k0 + 4 && k < K / 8; k++) {
			tf32x2 af[MT][4];
#pragma unroll
			for (int m = 0; m < MT; m++) {
				uint32_t r[4];
				ldmatrix_x4(r, a + soff<BM, 2 * K>(row0 + 16 * m + (lane() & 15), 2 * k + (lane() >> 4)));
#pragma unroll
				for (int e = 0; e < 4; e++)
					af[m][e] = split_tf32<ONE>(__uint_as_float(r[e]));
			}
			tf32x2 bf[N / 16][4];
#pragma unroll
			for (int n = 0; n < N / 16; n++)
				b_frags<N, K, ONE, PRE>(bf[n], b, n, k);
#pragma unroll
			for (int t = ONE ? 2 : 0; t < 3; t++)
#pragma unroll
				for (int n = 0; n < N / 16; n++)
#pragma unroll
					for (int m = 0; m < MT; m++) {
						mma_3xtf32(t, part[m][2 * n], af[m], bf[n][0], bf[n][1]);
						mma_3xtf32(t, part[m][2 * n + 1], af[m], bf[n][2], bf[n][3]);
					}
		}
#pragma unroll
		for (int m = 0; m < MT; m++)
#pragma unroll
			for (int n = 0; n < N / 8; n++)
#pragma unroll
				for (int e = 0; e < 4; e++)
					acc[m][n][e] += part[m][n][e];
	}
}

/* BT: B is stored [K][N] (a column operand kept transposed, load_tile_kt): its fragments
 * read as dot_tile_16 reads V's, ldmatrix .trans, or on wgmma B MN-major. */
template <bool BF16, int MT, int N, int K, int BM, int THREADS, int PARTS, bool BT = false>
__device__ __forceinline__ void dot_rows_16(float (&acc)[MT][N / 8][4], const uint16_t *a, int row0, const uint16_t *b)
{
#if FX_WGMMA
	if constexpr (use_wgmma<BM, THREADS, N>()) {
		/* K-major, 128-byte swizzle: 8-row groups 1024 bytes apart; k16 steps 32 bytes
		 * apart in a 64-column slab. */
		wgmma_fence();
#pragma unroll
		for (int k = 0; k < K / 16; k++) {
			uint64_t db = BT ? wgmma_desc(b + k * 16 * 64, K * 128, 1024) : wgmma_desc(b + (k >> 2) * (N * 64) + (k & 3) * 16, 16, 1024);
#pragma unroll
			for (int p = 0; p < PARTS; p++)
#pragma unroll
				for (int m = 0; m < MT; m++) {
					/* the 64-row tile: m (one warpgroup), or the warpgroup's own */
					const int r64 = MT == 2 ? m : warp() >> 2;
					wgmma_ss<BF16, N, BT>(&acc[m][0][0], wgmma_desc(a + p * BM * K + (k >> 2) * (BM * 64) + r64 * 64 * 64 + (k & 3) * 16, 16, 1024), db,
					                      k != 0 || p != 0);
				}
		}
		wgmma_commit_wait();
		return;
	}
#endif
	clear(acc);
#pragma unroll
	for (int k = 0; k < K / 16; k++) {
		uint32_t af[PARTS][MT][4];
#pragma unroll
		for (int p = 0; p < PARTS; p++)
#pragma unroll
			for (int m = 0; m < MT; m++)
				ldmatrix_x4(af[p][m], a + p * BM * K + soff<BM, K>(row_slot<BM, THREADS>(row0 + 16 * m + (lane() & 15)), 2 * k + (lane() >> 4)));
#pragma unroll
		for (int n = 0; n < N / 16; n++) {
			uint32_t r[4];
			if constexpr (BT)
				ldmatrix_x4_trans(r, b + soff<K, N>(16 * k + ((lane() >> 3) & 1) * 8 + (lane() & 7), 2 * n + (lane() >> 4)));
			else
				ldmatrix_x4(r, b + soff<N, K>(16 * n + (lane() >> 4) * 8 + (lane() & 7), 2 * k + ((lane() >> 3) & 1)));
#pragma unroll
			for (int p = 0; p < PARTS; p++)
#pragma unroll
				for (int m = 0; m < MT; m++) {
					mma<BF16>(acc[m][2 * n], af[p][m], r[0], r[1]);
					mma<BF16>(acc[m][2 * n + 1], af[p][m], r[2], r[3]);
				}
		}
	}
}

/* acc[MT x 16 x N] = A * B^T: A the warp's MT * 16 rows of the row operand's shared tile
 * [BM][K] from row0 (re-read each call: keeping it in registers would cost 32 per 16
 * rows), B a shared tile [N][K] (the column operand indexed by the result's columns: keys
 * for q.k). Each B fragment serves the MT row tiles. PARTS = 2: A is the sum of two 16-bit
 * tiles [BM][K] one after the other (an fp32 row operand split by load_rows_split), and
 * each B fragment serves both. PRE (fp32): B is split_tile's planes. */
template <class T, int MT, int N, int K, int BM, int THREADS, int PARTS = 1, bool PRE = false>
__device__ __forceinline__ void dot_rows(float (&acc)[MT][N / 8][4], const uint16_t *a, int row0, const uint16_t *b)
{
	if constexpr (is_f32<T>())
		dot_rows_f32<MT, N, K, BM, is_tf32<T>::value, PRE>(acc, a, row0, b);
	else
		dot_rows_16<is_bf16<T>::value, MT, N, K, BM, THREADS, PARTS>(acc, a, row0, b);
}

/* dot_rows with B stored [K][N] (a column operand kept transposed, load_tile_kt). 16-bit only. */
template <class T, int MT, int N, int K, int BM, int THREADS, int PARTS = 1>
__device__ __forceinline__ void dot_rows_t(float (&acc)[MT][N / 8][4], const uint16_t *a, int row0, const uint16_t *b)
{
	static_assert(!is_f32<T>(), "a transposed column operand is 16-bit");
	dot_rows_16<is_bf16<T>::value, MT, N, K, BM, THREADS, PARTS, true>(acc, a, row0, b);
}

/* dot_tile for fp32 tiles. k8 step k is P's columns 8k .. + 7, taken in the order the
 * accumulator layout gives a lane (its columns 2t, 2t + 1 are the fragment's k = t, t +
 * 4), and B's rows in the same order: b0 = B[8k + 2t][n], b1 = B[8k + 2t + 1][n]. PRE:
 * from split_tile's transposed planes (ldmatrix, as dot_rows_f32); else single fp32 reads
 * of the tile as loaded, conflict-free under the swizzle (rows 2t differ in their low
 * bits), split here. P is split once (K / 2 registers a row tile).
 * The tensor cores add into their accumulator without rounding to nearest (truncating),
 * and acc collects every step of the pass: a step's products are summed in a zeroed tile
 * of four column blocks, which is then added to acc in fp32 (else the error grows with
 * the number of steps, 1e-4 at 8K keys). ONE: one tf32 product, as dot_rows_f32. */
template <int MT, int N, int K, bool ONE, bool PRE>
__device__ __forceinline__ void dot_tile_f32(float (&acc)[MT][N / 8][4], const float (&p)[MT][K / 8][4], const uint16_t *b)
{
	tf32x2 af[MT][K / 8][4];
#pragma unroll
	for (int m = 0; m < MT; m++)
#pragma unroll
		for (int k = 0; k < K / 8; k++) {
			af[m][k][0] = split_tf32<ONE>(p[m][k][0]);
			af[m][k][1] = split_tf32<ONE>(p[m][k][2]);
			af[m][k][2] = split_tf32<ONE>(p[m][k][1]);
			af[m][k][3] = split_tf32<ONE>(p[m][k][3]);
		}
	const int br = 2 * (lane() & 3);
#pragma unroll
	for (int n0 = 0; n0 < N / 16; n0 += 2) {
		float part[MT][4][4];
		clear(part);
#pragma unroll
		for (int k = 0; k < K / 8; k++) {
			tf32x2 bf[2][4]; /* n16 block n0 + n: b0, b1 of its two n8 blocks */
#pragma unroll
			for (int n = 0; n < 2; n++) {
				if (PRE) {
					b_frags<N, K, ONE, true>(bf[n], b, n0 + n, k);
					continue;
				}
#pragma unroll
				for (int e = 0; e < 4; e++) {
					const int c = 16 * (n0 + n) + 8 * (e >> 1) + (lane() >> 2);
					bf[n][e] = split_tf32<ONE>(*reinterpret_cast<const float *>(b + soff<K, 2 * N>(8 * k + br + (e & 1), c >> 2) + 2 * (c & 3)));
				}
			}
#pragma unroll
			for (int t = ONE ? 2 : 0; t < 3; t++)
#pragma unroll
				for (int n = 0; n < 4; n++)
#pragma unroll
					for (int m = 0; m < MT; m++)
						mma_3xtf32(t, part[m][n], af[m][k], bf[n >> 1][2 * (n & 1)], bf[n >> 1][2 * (n & 1) + 1]);
		}
#pragma unroll
		for (int m = 0; m < MT; m++)
#pragma unroll
			for (int n = 0; n < 4; n++)
#pragma unroll
				for (int e = 0; e < 4; e++)
					acc[m][2 * n0 + n][e] += part[m][n][e];
	}
}

/* SPLIT: P is multiplied as two 16-bit tiles, its rounding and what the rounding left
 * out (fp32's accuracy for weights that are not a softmax's, tile.h psplit). */
template <bool BF16, int MT, int N, int K, int THREADS, bool SPLIT = false>
__device__ __forceinline__ void dot_tile_16(float (&acc)[MT][N / 8][4], const float (&p)[MT][K / 8][4], const uint16_t *b)
{
	constexpr int PARTS = SPLIT ? 2 : 1;
	uint32_t a[PARTS][K / 16][MT][4];
#pragma unroll
	for (int k = 0; k < K / 16; k++)
#pragma unroll
		for (int m = 0; m < MT; m++)
#pragma unroll
			for (int h = 0; h < 2; h++)
#pragma unroll
				for (int e = 0; e < 2; e++) {
					const float x0 = p[m][2 * k + h][2 * e], x1 = p[m][2 * k + h][2 * e + 1];
					a[0][k][m][2 * h + e] = pack2<BF16>(x0, x1);
					if constexpr (SPLIT)
						a[PARTS - 1][k][m][2 * h + e] = BF16 ? pack2<BF16>(residual16<fusecc_bf16>(x0), residual16<fusecc_bf16>(x1))
						                                     : pack2<BF16>(residual16<__half>(x0), residual16<__half>(x1));
				}
#if FX_WGMMA
	if constexpr (use_wgmma<MT * 16 * (THREADS / 32), THREADS, N>()) {
		/* B = V [K][N], MN-major: 64-column slabs lbo = K * 128 bytes apart, 8-row groups
		 * 1024 bytes apart; a k16 step is 16 rows, 2048 bytes. */
		wgmma_fence();
#pragma unroll
		for (int k = 0; k < K / 16; k++) {
			uint64_t db = wgmma_desc(b + k * 16 * 64, K * 128, 1024);
#pragma unroll
			for (int q = 0; q < PARTS; q++)
#pragma unroll
				for (int m = 0; m < MT; m++)
					wgmma_ra<BF16, N>(&acc[m][0][0], a[q][k][m], db);
		}
		wgmma_commit_wait();
	} else
#endif
#pragma unroll
	for (int k = 0; k < K / 16; k++) {
#pragma unroll
		for (int n = 0; n < N / 16; n++) {
			uint32_t r[4];
			int br = 16 * k + ((lane() >> 3) & 1) * 8 + (lane() & 7);
			ldmatrix_x4_trans(r, b + soff<K, N>(br, 2 * n + (lane() >> 4)));
#pragma unroll
			for (int q = 0; q < PARTS; q++)
#pragma unroll
				for (int m = 0; m < MT; m++) {
					mma<BF16>(acc[m][2 * n], a[q][k][m], r[0], r[1]);
					mma<BF16>(acc[m][2 * n + 1], a[q][k][m], r[2], r[3]);
				}
		}
	}
}

/* acc[MT x 16 x N] += P (MT x 16 x K, the fp32 register tile p, rounded to 16 bits unless
 * T is float, or as two 16-bit tiles with SPLIT) * B, B columns c0 .. c0 + N - 1 of a
 * shared tile [K][LD] (the column operand indexed by the reduction: values for p.v; a
 * warp's columns of a wider accumulator, or the first columns of a key tile of two
 * parts). PRE (fp32): B is split_tile's transposed planes. Tiles are 64-column slabs
 * (soff), so c0, a multiple of 64 (0 for fp32 tiles), is the slab's offset and LD does
 * not change the layout. */
template <class T, int MT, int N, int K, int THREADS, bool PRE = false, bool SPLIT = false, int LD = N>
__device__ __forceinline__ void dot_tile(float (&acc)[MT][N / 8][4], const float (&p)[MT][K / 8][4], const uint16_t *b, int c0 = 0)
{
	static_assert(LD >= N && LD % 64 == 0, "a tile of at least N columns");
	if constexpr (is_f32<T>())
		dot_tile_f32<MT, N, K, is_tf32<T>::value, PRE>(acc, p, b);
	else
		dot_tile_16<is_bf16<T>::value, MT, N, K, THREADS, SPLIT>(acc, p, b + c0 * K);
}

/* dot_tile with B stored [N][K] (a value operand kept transposed, load_tile_kt: a paged
 * value cache stored d-major, v[page][h][d][slot], rows d of the step's keys), B's
 * columns c0 .. c0 + N - 1 of its LD rows. The B fragment of m16n8k16 is two consecutive
 * k (keys) of one n (d) a register: one 32-bit word of a row of this tile, so ldmatrix
 * reads it without .trans, as dot_rows reads a key tile [N][K] (dot_tile's V [K][N]
 * needs .trans). mma.sync on every target (16-bit; SPLIT as dot_tile's). */
template <class T, int MT, int N, int K, int THREADS, bool SPLIT = false, int LD = N>
__device__ __forceinline__ void dot_tile_t(float (&acc)[MT][N / 8][4], const float (&p)[MT][K / 8][4], const uint16_t *b, int c0 = 0)
{
	static_assert(!is_f32<T>() && LD >= N && K % 64 == 0, "a transposed value tile is 16-bit, rows of 64-key slabs");
	constexpr bool BF16 = is_bf16<T>::value;
	constexpr int PARTS = SPLIT ? 2 : 1;
#pragma unroll
	for (int k = 0; k < K / 16; k++) {
		uint32_t a[PARTS][MT][4];
#pragma unroll
		for (int m = 0; m < MT; m++)
#pragma unroll
			for (int h = 0; h < 2; h++)
#pragma unroll
				for (int e = 0; e < 2; e++) {
					const float x0 = p[m][2 * k + h][2 * e], x1 = p[m][2 * k + h][2 * e + 1];
					a[0][m][2 * h + e] = pack2<BF16>(x0, x1);
					if constexpr (SPLIT)
						a[PARTS - 1][m][2 * h + e] = BF16 ? pack2<BF16>(residual16<fusecc_bf16>(x0), residual16<fusecc_bf16>(x1))
						                                  : pack2<BF16>(residual16<__half>(x0), residual16<__half>(x1));
				}
#pragma unroll
		for (int n = 0; n < N / 16; n++) {
			uint32_t r[4];
			ldmatrix_x4(r, b + soff<LD, K>(c0 + 16 * n + (lane() >> 4) * 8 + (lane() & 7), 2 * k + ((lane() >> 3) & 1)));
#pragma unroll
			for (int q = 0; q < PARTS; q++)
#pragma unroll
				for (int m = 0; m < MT; m++) {
					mma<BF16>(acc[m][2 * n], a[q][m], r[0], r[1]);
					mma<BF16>(acc[m][2 * n + 1], a[q][m], r[2], r[3]);
				}
		}
	}
}

__device__ __forceinline__ float lane_xor(float x, int mask) { return __shfl_xor_sync(0xffffffffu, x, mask); }
__device__ __forceinline__ double lane_xor(double x, int mask) { return __shfl_xor_sync(0xffffffffu, x, mask); }
__device__ __forceinline__ int lane_xor(int x, int mask) { return __shfl_xor_sync(0xffffffffu, x, mask); }
__device__ __forceinline__ int wave_width() { return 32; }
/* A row kernel's group: blockDim.x lanes (8, 16 or 32) of a warp, threadIdx.y's. */
__device__ __forceinline__ unsigned group_lanes()
{
	const unsigned g = blockDim.x, first = threadIdx.y * g % 32;
	return g >= 32 ? 0xffffffffu : ((1u << g) - 1) << first;
}
__device__ __forceinline__ float group_xor(float x, int mask) { return __shfl_xor_sync(group_lanes(), x, mask); }
__device__ __forceinline__ double group_xor(double x, int mask) { return __shfl_xor_sync(group_lanes(), x, mask); }
__device__ __forceinline__ void group_sync() { __syncwarp(group_lanes()); }

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

/* 2^x on the MUFU unit (ex2.approx.ftz). Through the compiler's builtin, not inline asm:
 * the compiler merges equal calls (a sum of e^(s - m) and P = e^(s - m) written as two
 * loops compute one exponential per element), which it never does for asm. */
__device__ __forceinline__ float exp2(float x)
{
#ifdef __CUDA_ARCH__
	return __nvvm_ex2_approx_ftz_f(x);
#else
	return exp2f(x); /* nvcc's host pass parses device bodies but knows no NVVM builtin */
#endif
}

/* Split-k's two kernels, chained by programmatic dependent launch (sm_90): the chunk
 * kernel lets the merge launch as soon as all of its CTAs have started (let_next_start),
 * so the merge's launch and set-up overlap the chunks' last wave instead of following
 * it, and the merge waits for the chunk kernel's partials (after_previous) before it
 * reads them. Both are no-ops before sm_90. */
__device__ __forceinline__ void let_next_start()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
	asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void after_previous()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
	asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}

/* k<<<grid, block, smem, stream>>>(args...), allowed to start before the stream's kernel
 * before it ends where the device has programmatic dependent launch (compute capability
 * 9 and later; elsewhere an ordinary launch). k must call after_previous() before it
 * reads what that kernel wrote. */
template <class... P, class... A>
inline cudaError_t launch_after(void (*k)(P...), dim3 grid, dim3 block, size_t smem, cudaStream_t stream, A... args)
{
	int dev = 0, major = 0;
	cudaError_t err;
	if ((err = cudaGetDevice(&dev)) != cudaSuccess || (err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev)) != cudaSuccess)
		return err;
	cudaLaunchAttribute attr[1];
	attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
	attr[0].val.programmaticStreamSerializationAllowed = 1;
	cudaLaunchConfig_t cfg = {};
	cfg.gridDim = grid;
	cfg.blockDim = block;
	cfg.dynamicSmemBytes = smem;
	cfg.stream = stream;
	cfg.attrs = attr;
	cfg.numAttrs = major >= 9 ? 1 : 0;
	return cudaLaunchKernelEx(&cfg, k, static_cast<P>(args)...);
}

/* The CTA's dynamic shared memory (its size given at launch), 16-byte aligned. */
__device__ __forceinline__ unsigned char *dyn_smem()
{
	extern __shared__ __align__(16) unsigned char fx_dyn_smem[];
	return fx_dyn_smem;
}

} /* namespace fx */

#endif
