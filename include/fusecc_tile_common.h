/* fusecc_tile_common.h: the parts of the device tile library that do not depend on the
 * GPU (included by fusecc_tile_cuda.h and fusecc_tile_hip.h): the masked/unmasked step
 * dispatch, clearing a register tile, the CTAs' launch order, the exponentials and tanh
 * through the target's exp2. */
#ifndef FUSECC_TILE_COMMON_H
#define FUSECC_TILE_COMMON_H

#if __cplusplus < 201402L
#error "fusecc's kernels are C++14 or later: compile with -std=c++17 (Debian's hipcc defaults to c++11)"
#endif

#include <atomic>

namespace fx {

/* The tiles' element types: __half and fusecc_bf16 (16-bit products), float (fp32
 * products where the target has them). */
template <class T> struct is_bf16 {
	static constexpr bool value = false;
};
template <> struct is_bf16<fusecc_bf16> {
	static constexpr bool value = true;
};
/* The tag of fp32 tiles multiplied as one tf32 product each (precision(tf32)); float
 * tiles are multiplied to fp32 accuracy (3xTF32). Both hold fp32 values. */
struct tf32 {
	float x;
};
template <class T> __device__ __forceinline__ constexpr bool is_f32() { return sizeof(T) == 4; }
template <class T> struct is_tf32 {
	static constexpr bool value = false;
};
template <> struct is_tf32<tf32> {
	static constexpr bool value = true;
};

/* The loaders' rows: rowptr(r) points at row r's elements; col_at(rowptr, r, c) is
 * element c of row r. A row made of two arrays side by side (a product of two parts,
 * MLA's q_nope | q_pe against k_nope | k_pe) is a Concat: columns [0, K1) from a(r), the
 * rest from b(r); K1 is a multiple of 8, so no 16-byte chunk straddles the two. */
template <class F> __device__ __forceinline__ auto col_at(F &rowptr, int r, int c) { return rowptr(r) + c; }
template <int K1, class A, class B> struct Concat {
	A a;
	B b;
};
template <int K1, class A, class B> __device__ __forceinline__ Concat<K1, A, B> concat(A a, B b) { return {a, b}; }
template <int K1, class A, class B> __device__ __forceinline__ auto col_at(Concat<K1, A, B> &p, int r, int c)
{
	return c < K1 ? p.a(r) + c : p.b(r) + (c - K1);
}

/* A row whose elements come in chunks of X contiguous ones, chunk c / X at c / X *
 * stride from the row's first (vLLM's key cache, k[page][h][d / X][slot][d % X]: a key's
 * row is D / X chunks of 16 bytes, block_size * X elements apart). The loaders ask for
 * whole 16-byte chunks, and X * sizeof(T) is a multiple of 16 (tile.c), so no copy
 * straddles two chunks. */
template <int X, class F> struct Chunked {
	F rows;
	long long stride;
};
template <int X, class F> __device__ __forceinline__ Chunked<X, F> chunked(F rows, long long stride) { return {rows, stride}; }
template <int X, class F> __device__ __forceinline__ auto col_at(Chunked<X, F> &p, int r, int c) { return p.rows(r) + (c / X) * p.stride + c % X; }
/* The transposed loaders' operands (load_tile_t, load_tile_kt): t_at(p, r, c) is element
 * (key r, column c) and t_run(p, r0, c) whether keys r0 .. r0 + 7 of column c follow each
 * other in memory. A lambda is colptr(c) (&kT[..][c][at]: every column contiguous). A
 * Strided is a transposed operand addressed by its keys, element (r, c) at rows(r) + c *
 * stride: a paged value cache stored d-major, v[page][h][d][slot] (vLLM's), whose keys
 * follow each other within a page only; rows(r) may read a row table the CTA filled for
 * keys below nvalid, so t_run is asked for whole runs only. */
template <class F> __device__ __forceinline__ auto t_at(F &colptr, int r, int c) { return colptr(c) + r; }
template <class F> __device__ __forceinline__ bool t_run(F &, int, int) { return true; }
template <class F> struct Strided {
	F rows;
	long long stride;
};
template <class F> __device__ __forceinline__ Strided<F> strided(F rows, long long stride) { return {rows, stride}; }
template <class F> __device__ __forceinline__ auto t_at(Strided<F> &p, int r, int c) { return p.rows(r) + c * p.stride; }
template <class F> __device__ __forceinline__ bool t_run(Strided<F> &p, int r0, int) { return p.rows(r0 + 7) == p.rows(r0) + 7; }

template <bool B> struct bool_c {
	static constexpr bool value = B;
};

/* Calls f(bool_c<true>) or f(bool_c<false>): the masked and unmasked copies of a step. */
template <class F> __device__ __forceinline__ void dispatch(bool masked, F &&f)
{
	if (masked)
		f(bool_c<true>{});
	else
		f(bool_c<false>{});
}

/* Two neighbouring columns of a per-score input (an additive mask, a bias) for one row of
 * a thread's fragment, read once a step into registers (emit_tile.c, load_score_reads). */
template <class T> struct alignas(2 * sizeof(T)) Pair {
	T v[2];
};
/* Whether a pair of T may be read at p in one load. */
template <class T> __device__ __forceinline__ bool pair_aligned(const T *p) { return ((uintptr_t)p & (sizeof(Pair<T>) - 1)) == 0; }
/* Reads the elements at a0 (where ok0) and a1 (where ok1) into p: one load of both where
 * the caller found them adjacent and aligned (pair) and both are in range, else one load
 * each; an element out of range is left as it was (no pass reads it). */
template <class T> __device__ __forceinline__ void load_pair(Pair<T> &p, const T *a0, const T *a1, bool pair, bool ok0, bool ok1)
{
	if (pair && ok0 && ok1) {
		p = *reinterpret_cast<const Pair<T> *>(a0);
	} else {
		if (ok0)
			p.v[0] = *a0;
		if (ok1)
			p.v[1] = *a1;
	}
}

/* The smaller and the larger of two bounds, as fx:: names: a user's local called min or
 * max (ONNX Runtime's `float max = -INFINITY`) hides the global overloads in the kernel. */
template <typename A, typename B> __device__ __forceinline__ auto imin(A a, B b) -> decltype(a + b) { return a < b ? a : b; }
template <typename A, typename B> __device__ __forceinline__ auto imax(A a, B b) -> decltype(a + b) { return a < b ? b : a; }

/* Zeros a register tile. A step's per-element tile is cleared first so that no element
 * (those a masked step skips) lives on from the step before, in registers, for nothing. */
template <typename T, int MT, int W> __device__ __forceinline__ void clear(T (&t)[MT][W][4])
{
#pragma unroll
	for (int m = 0; m < MT; m++)
#pragma unroll
		for (int n = 0; n < W; n++)
#pragma unroll
			for (int e = 0; e < 4; e++)
				t[m][n][e] = T{};
}

/* The CTA's grid coordinates in launch order (blockIdx.x fastest, then .y): `head` the
 * flattened parallel loops outside the row loop (gridDim.x of them), `tile` the row tile
 * counted from the last (gridDim.y of them). CTAs start in launch order, which decides
 * L2 reuse and balance.
 * - Reuse: the CTAs running at once should share few heads, so that each head's columns
 *   stay in L2 while its tiles read them. So a head's tiles are consecutive (with the
 *   heads fastest, batched prefill re-read K and V from HBM for every CTA).
 * - Balance: under a causal mask the last tiles are the longest and should start early;
 *   a long tile started near the end of the grid leaves the GPU idle behind it. Only
 *   the end matters (earlier, the next heads fill the gaps), so only the last heads,
 *   TAIL_CTAS CTAs' worth (twice a large GPU's CTA slots), go tile by tile: all their
 *   longest tiles first, their heads fastest. */
__device__ __forceinline__ void cta_order(long long &head, int &tile)
{
	constexpr long long TAIL_CTAS = 1024;
	const long long heads = gridDim.x, tiles = gridDim.y;
	const long long lin = blockIdx.x + heads * blockIdx.y;
	long long tail = (TAIL_CTAS + tiles - 1) / tiles;
	tail = tail < heads ? tail : heads;
	const long long start = (heads - tail) * tiles;
	if (lin < start) {
		head = lin / tiles;
		tile = (int)(lin % tiles);
	} else {
		head = heads - tail + (lin - start) % tail;
		tile = (int)((lin - start) / tail);
	}
}

/* The target's wavefront (fusecc_tile_cuda.h, fusecc_tile_hip.h): a thread's lane, the
 * lanes per wavefront, and lane ^ mask's value of x. */
__device__ int lane();
__device__ int wave_width();
__device__ int lane_xor(int x, int mask);

/* op (associative, commutative) over the lanes' x, in every lane: a butterfly. Every
 * lane of the wavefront must call it alike. */
template <class Op> __device__ __forceinline__ int wave_all(int x, Op op)
{
	for (int o = 1; o < wave_width(); o <<= 1)
		x = op(x, lane_xor(x, o));
	return x;
}

/* Packed rows (a varlen batch: sequence s in [lo, hi) has rows(s) rows, all sequences'
 * rows stored one after the other): the CTA of tile t of the batch's BM-row tiles finds
 * its sequence *seq and its row tile *tile in it (rows tile * BM ...); false when t is past
 * the batch's last tile. The tiles are numbered sequence by sequence, each sequence's
 * from its last (the longest under a causal mask) down. The launcher cannot read the
 * lengths without a copy to the host, so every CTA finds its tile from them; each
 * wavefront alone (no barrier, no shared memory), in one pass: each lane counts the
 * tiles of its own run of consecutive sequences, a butterfly gives every lane the count
 * before its run, and the lane whose run holds t walks it again. (On 64 sequences of
 * 128 ... 2K, a table of the tiles written by a kernel before this one was 3% faster,
 * binary searches over the lengths 6% slower, with the tiles in this order or longest
 * first across sequences alike.) cap
 * (gridDim.y, the launcher's bound on the tile count, > t) saturates every count:
 * offsets that give more are the caller's broken contract, and no count overflows. */
template <int BM, class F> __device__ __forceinline__ bool packed_tile(int lo, int hi, int t, int cap, F rows, int &seq, int &tile)
{
	auto tiles = [&](int s) {
		const int n = rows(s);
		return n > 0 ? min((n - 1) / BM + 1, cap) : 0;
	};
	const int w = wave_width(), ln = lane();
	const int per = (int)(((long long)hi - lo + w - 1) / w);
	const long long first = lo + (long long)ln * per, last = min(first + per, (long long)hi);
	int mine = 0;
	for (long long s = first; s < last; s++)
		mine = min(mine + tiles((int)s), cap);
	/* before: the tiles of the lanes below; total: of the aligned group of o lanes */
	int before = 0, total = mine;
	for (int o = 1; o < w; o <<= 1) {
		const int other = lane_xor(total, o);
		if (ln & o)
			before = min(before + other, cap);
		total = min(total + other, cap);
	}
	if (total <= t)
		return false;
	/* one lane finds it: the others give 0 to the sums */
	int found = 0, at = 0;
	if (before <= t && t < min(before + mine, cap)) {
		int c = before;
		for (long long s = first; s < last; s++) {
			const int k = tiles((int)s);
			if (t < c + k) {
				found = (int)(s - lo) + 1;
				at = k - 1 - (t - c);
				break;
			}
			c += k;
		}
	}
	auto plus = [](int x, int y) { return x + y; };
	seq = lo + wave_all(found, plus) - 1;
	tile = wave_all(at, plus);
	return true;
}

/* The steps of a pass that a block layout keeps (a mask that hides whole steps of the
 * CTA's rows: tile.h, skip_hidden), steps at begin + n * bn up to end. A test read at
 * each step would wait on the layout's load before the next step's tiles could be asked
 * for, once per step skipped and again for each step kept. Instead the CTA's threads
 * test a window of STEPS steps together (STEPS / THREADS each, every thread's loads in
 * flight at once) and mark in `bits` (2 * STEPS / 32 words of shared memory) the steps
 * that keep some element (live) and, after them, those that keep every element (whole);
 * the walk then finds the next live step in shared memory, 32 steps a word, as Flex's
 * kv_indices list it. kept(at) tests the step at `at`: bit 0 some element kept, bit 1
 * every element. next refills the window between barriers when the walk leaves it:
 * every thread of the CTA must call it alike. */
template <int STEPS, int THREADS> struct KeptSteps {
	unsigned *bits;
	int begin, end, bn;
	int win = -1; /* the window's first step n; -1 before the first fill */

	/* The first step at or after step `at` that the layout keeps, or end. */
	template <class F> __device__ __forceinline__ int next(int at, F kept)
	{
		for (long long x = at; x < end;) {
			const int n = (int)((x - begin) / bn);
			if (win < 0 || n < win || n >= win + STEPS)
				fill(n, kept);
			const int o = n - win;
			const unsigned w = bits[o >> 5] >> (o & 31);
			if (w) /* no step at or past end is marked */
				return (int)(x + (long long)(__ffs(w) - 1) * bn);
			x += (long long)(32 - (o & 31)) * bn; /* the next word's first step */
		}
		return end;
	}

	/* Whether the layout keeps every element of step `at` (tested again when the window
	 * has moved past it: the walk looked ahead of the step being computed). */
	template <class F> __device__ __forceinline__ bool whole(int at, F kept) const
	{
		const int o = (at - begin) / bn - win;
		if (o < 0 || o >= STEPS)
			return (kept(at) & 2) != 0;
		return (bits[STEPS / 32 + (o >> 5)] >> (o & 31)) & 1;
	}

	/* The window from step n: the tests first (their loads overlap the barrier's wait). */
	template <class F> __device__ __forceinline__ void fill(int n, F kept)
	{
		constexpr int PER = (STEPS + THREADS - 1) / THREADS;
		int k[PER];
#pragma unroll
		for (int r = 0; r < PER; r++) {
			const int o = r * THREADS + (int)threadIdx.x;
			const long long at = begin + (long long)(n + o) * bn;
			k[r] = o < STEPS && at < end ? kept((int)at) : 0;
		}
		__syncthreads(); /* every thread is done with the window held */
		for (int w = threadIdx.x; w < 2 * STEPS / 32; w += THREADS)
			bits[w] = 0;
		__syncthreads();
#pragma unroll
		for (int r = 0; r < PER; r++) {
			const int o = r * THREADS + (int)threadIdx.x;
			if (k[r] & 1)
				atomicOr(&bits[o >> 5], 1u << (o & 31));
			if (k[r] & 2)
				atomicOr(&bits[STEPS / 32 + (o >> 5)], 1u << (o & 31));
		}
		__syncthreads();
		win = n;
	}
};

/* Stores the first DATA columns of rows r < nvalid of the ROWS-row tile s (rows of
 * PITCH elements of T in shared memory) to rowptr(r), by the CTA's THREADS threads, each
 * 16 bytes of a row at a time, consecutive threads on consecutive bytes of a row (an
 * accumulator fragment's own stores write an element each, strided over 8 rows); a row
 * not 16-byte aligned element by element. DATA is a multiple of 16 bytes; the caller
 * has synchronised the tile's writes. */
template <int ROWS, int PITCH, int DATA, int THREADS, class T, class F> __device__ __forceinline__ void store_rows(const T *s, F rowptr, int nvalid)
{
	constexpr int V = 16 / sizeof(T), CHUNKS = DATA / V;
	static_assert(DATA % V == 0 && PITCH % V == 0, "rows of whole 16-byte chunks");
	for (int c = threadIdx.x; c < ROWS * CHUNKS; c += THREADS) {
		const int r = c / CHUNKS, k = c % CHUNKS;
		if (r >= nvalid)
			return; /* the rows go in order */
		T *p = rowptr(r) + k * V;
		const T *q = s + r * PITCH + k * V;
		if ((reinterpret_cast<uintptr_t>(p) & 15) == 0)
			*reinterpret_cast<uint4 *>(p) = *reinterpret_cast<const uint4 *>(q);
		else
			for (int e = 0; e < V; e++)
				p[e] = q[e];
	}
}

/* 2^x, the target's (defined by fusecc_tile_cuda.h: ex2.approx on the MUFU unit, relative
 * error ~2^-22; fusecc_tile_hip.h: exp2f). The kernels' exponentials go through it. */
__device__ __forceinline__ float exp2(float x);

/* e^x as 2^(x log2 e): what expf costs in a kernel. -inf gives 0, as expf does. */
__device__ __forceinline__ float exp(float x) { return exp2(x * 1.4426950408889634f); }

/* e^(a - b) as 2^(a log2 e - b log2 e): one FMA once b's part is hoisted (b the row's max,
 * the same for every element). b log2 e is rounded, which multiplies every exponential of
 * a row by the same 2^d, |d| <= ulp(b log2 e) / 2: a factor that cancels in p / l, small
 * while |b| < 2^14 (|d| <= 2^-9). Beyond, it would not be (a row whose max is a -1e9 mask
 * so far: d up to 64, p = 2^64 overflows the 16-bit P of the products, then 0 * inf).
 * There 2^((a - b) log2 e) is exact to rounding (a - b once, then the product); from
 * |b| = 2^31 on (HF's torch.finfo.min), an ulp of b is 256 or more, and it gives 1, 0 or
 * inf as e^(a - b) does. The factor depends on b only; still, a factor in a register costs
 * 1-7% of a prefill on H100 (a constant scale of a no longer folds into it; registers at
 * the limit spill): Moderate, where the printer knows |b| < 2^14 (no literal or mask array
 * that large in the scores), keeps the FMA alone. */
__device__ __forceinline__ bool exp_moderate(float b) { return fabsf(b) < 16384.0f; }

template <bool Moderate = false> __device__ __forceinline__ float exp_sub(float a, float b)
{
	const float c = 1.4426950408889634f;
	return exp2(Moderate || exp_moderate(b) ? fmaf(a, c, -(b * c)) : (a - b) * c);
}

/* tanh through exp2: 1 - 2 / (e^2x + 1), absolute error about 1e-7 (tanhf costs several
 * times more and dominates a soft-capped score). |x| >= 9 rounds to +-1. */
__device__ __forceinline__ float tanh(float x)
{
	x = fminf(fmaxf(x, -9.0f), 9.0f);
	return 1.0f - __fdividef(2.0f, exp2(2.8853900817779268f * x) + 1.0f);
}

/* x rounded to nearest as T (__half or fusecc_bf16; __float2half rounds to nearest on
 * both targets): its bits, and its value in *v. */
template <class T> __device__ __forceinline__ uint16_t round16(float x, float *v)
{
	if (is_bf16<T>::value) {
		fusecc_bf16 h = fusecc_float_to_bf16(x);
		*v = fusecc_bf16_to_float(h);
		return h.bits;
	}
	__half h = __float2half(x);
	*v = __half2float(h);
	uint16_t bits;
	__builtin_memcpy(&bits, &h, 2);
	return bits;
}

/* What rounding x to T leaves out: x = round16(x) + residual16(x), nearly exactly. */
template <class T> __device__ __forceinline__ float residual16(float x)
{
	float v;
	round16<T>(x, &v);
	return x - v;
}

/* Softmax-free weights in fp16 tiles (tile.h pscale): each row's weights are multiplied
 * by 2^-E before they are split into fp16 hi + lo, E the row's running exponent, so that
 * the largest |weight| so far lies in [2^14, 2^15): below fp16's 65504 once rounded, and
 * the low parts of weights down to 2^-17 of it above fp16's subnormals. E stays in
 * [WEIGHT_EXP_MIN, WEIGHT_EXP_MAX], where 2^E and 2^-E are normal floats. */
enum { WEIGHT_EXP_MIN = -112, WEIGHT_EXP_MAX = 113 };

/* 2^d, exactly, for d in [-126, 127]; 0 below (a factor that flushes what it scales). */
__device__ __forceinline__ float pow2(int d)
{
	const uint32_t bits = d < -126 ? 0u : (uint32_t)(d + 127) << 23;
	float x;
	__builtin_memcpy(&x, &bits, 4);
	return x;
}

/* The row's exponent after a tile whose largest |weight| is big (0: none), e before:
 * never smaller than e (the weights already multiplied keep their scale). From big's
 * bits: an infinity gives WEIGHT_EXP_MAX, and infinity times 2^-E stays one. */
__device__ __forceinline__ int weight_exp(float big, int e)
{
	uint32_t bits;
	__builtin_memcpy(&bits, &big, 4);
	int x = (int)((bits >> 23) & 0xffu) - 127 - 14;
	x = x > WEIGHT_EXP_MAX ? WEIGHT_EXP_MAX : x;
	return x > e ? x : e;
}

/* load_tile_t: a 16-bit column operand stored transposed, its element (r, c) at
 * t_at(colptr, r, c) (a key cache kept as K^T, kT[..][d][j]; a d-major paged value cache
 * through a Strided): rows [0, ROWS) of the tile, zero at
 * rows from nvalid and columns from DATA; element (r, c) goes to at(r, c / 8) + c % 8 (at:
 * the 16-byte chunk's place, as the other loaders store it). Plain loads and stores,
 * consecutive threads reading one column's consecutive rows: 8 rows per 16-byte load
 * where the column is aligned, one element at a time otherwise. */
template <int ROWS, int COLS, int THREADS, class T, int DATA, class F, class At>
__device__ __forceinline__ void load_tile_t_at(uint16_t *s, F colptr, int nvalid, At at)
{
	static_assert(sizeof(T) == 2 && ROWS % 8 == 0 && DATA <= COLS, "a transposed tile is 16-bit, in runs of 8 rows");
	constexpr int RC = ROWS / 8, N = (COLS * RC + THREADS - 1) / THREADS;
#pragma unroll 1
	for (int k = 0; k < N; k++) {
		int idx = threadIdx.x + k * THREADS, c = idx / RC, r0 = idx % RC * 8;
		if (COLS * RC % THREADS != 0 && idx >= COLS * RC)
			break;
		alignas(16) uint16_t e[8] = {};
		if (c < DATA && r0 < nvalid) {
			const uint16_t *p = reinterpret_cast<const uint16_t *>(t_at(colptr, r0, c));
			if (r0 + 8 <= nvalid && (reinterpret_cast<uintptr_t>(p) & 15) == 0 && t_run(colptr, r0, c))
				*reinterpret_cast<uint4 *>(e) = *reinterpret_cast<const uint4 *>(p);
			else
				for (int t = 0; t < 8 && r0 + t < nvalid; t++)
					e[t] = *reinterpret_cast<const uint16_t *>(t_at(colptr, r0 + t, c));
		}
#pragma unroll
		for (int t = 0; t < 8; t++)
			s[at(r0 + t, c / 8) + c % 8] = e[t];
	}
}

/* load_rows_split: the rows [0, ROWS) of an fp32 row operand that multiplies 16-bit
 * column operands (T), as two 16-bit tiles of ROWS x COLS, hi at s and lo at s + ROWS *
 * COLS: element x is hi + lo, hi = x rounded to T, lo = x - hi (exact in fp32) rounded to
 * T; a product with the row operand is then hi * B + lo * B (dot_rows with PARTS = 2),
 * 22 bits of x for fp16, 16 for bf16. Row r comes from rowptr(r) (DATA contiguous floats,
 * 16-byte aligned) when r < nvalid, else it is zero; columns DATA .. COLS are zero; chunk
 * c (8 elements, 16 bytes of a 16-bit tile) of row r goes to element at(r, c) of each
 * tile. Plain loads and stores: the row tile is loaded once per CTA. A value past T's
 * range (fp16: 65504) overflows. */
template <int ROWS, int COLS, int THREADS, class T, int DATA, class F, class At>
__device__ __forceinline__ void load_rows_split_at(uint16_t *s, F rowptr, int nvalid, At at)
{
	static_assert(DATA % 8 == 0 && DATA <= COLS, "a tile's data is whole 16-byte chunks");
	constexpr int CH = COLS / 8, N = (ROWS * CH + THREADS - 1) / THREADS;
#pragma unroll 1
	for (int k = 0; k < N; k++) {
		int idx = threadIdx.x + k * THREADS, r = idx / CH, c = idx % CH;
		if (ROWS * CH % THREADS != 0 && idx >= ROWS * CH)
			break;
		alignas(16) float e[8] = {};
		if (r < nvalid && (DATA == COLS || c < DATA / 8)) {
			reinterpret_cast<uint4 *>(e)[0] = reinterpret_cast<const uint4 *>(col_at(rowptr, r, 8 * c))[0];
			reinterpret_cast<uint4 *>(e)[1] = reinterpret_cast<const uint4 *>(col_at(rowptr, r, 8 * c))[1];
		}
		alignas(16) uint16_t hi[8], lo[8];
#pragma unroll
		for (int i = 0; i < 8; i++) {
			float h, l;
			hi[i] = round16<T>(e[i], &h);
			lo[i] = round16<T>(e[i] - h, &l);
		}
		*reinterpret_cast<uint4 *>(s + at(r, c)) = *reinterpret_cast<const uint4 *>(hi);
		*reinterpret_cast<uint4 *>(s + ROWS * COLS + at(r, c)) = *reinterpret_cast<const uint4 *>(lo);
	}
}

/* The 16-bit values (T: fp16 or bf16) of the four bytes of q (Q: int8_t or uint8_t, the
 * first in the low byte), exactly, in full-rate integer ops and adds: a conversion
 * instruction per byte (int to float, float to half) runs at a quarter of the rate, and a
 * decode CTA widens 512 bytes a thread per step. The byte u (x + 128 for int8) as the low
 * mantissa bits of 1024 (fp16) or 2^23 (fp32) is 1024 + u (2^23 + u), exactly; less the
 * offset, x. A float that holds an integer below 2^8 is a bf16's bits in its high half. */
template <class T, class Q> __device__ __forceinline__ void widen4(uint32_t q, uint16_t *w)
{
	constexpr bool sgn = (Q)-1 < 0;
	if (sgn)
		q ^= 0x80808080u;
	if (is_bf16<T>::value) {
#pragma unroll
		for (int i = 0; i < 4; i++) {
			float f = __uint_as_float(0x4B000000u | ((q >> (8 * i)) & 0xffu)) - (sgn ? 8388736.0f : 8388608.0f);
			w[i] = (uint16_t)(__float_as_uint(f) >> 16);
		}
		return;
	}
	uint32_t lo = 0x64006400u | (q & 0xffu) | ((q & 0xff00u) << 8), hi = 0x64006400u | ((q >> 16) & 0xffu) | ((q >> 8) & 0xff0000u);
	__half2 off = __float2half2_rn(sgn ? 1152.0f : 1024.0f), a, b;
	__builtin_memcpy(&a, &lo, 4);
	__builtin_memcpy(&b, &hi, 4);
	a = __hsub2(a, off);
	b = __hsub2(b, off);
	__builtin_memcpy(w, &a, 4);
	__builtin_memcpy(w + 2, &b, 4);
}

/* load_tile_q8: a column operand stored as bytes (an int8 KV cache, Q int8_t or uint8_t),
 * as a 16-bit tile of T (fp16 or bf16): every byte's value is exact in either, so the
 * products are those of the C, and the per-row scales the C multiplies by stay outside
 * them (on the scores, on P). Row r comes from rowptr(r) (DATA contiguous bytes, 16-byte
 * aligned) when r < nvalid, else it is zero; columns DATA .. COLS are zero; chunk c (8
 * elements, 16 bytes of the 16-bit tile) of row r goes to element at(r, c). Plain loads,
 * up to 16 chunks of 16 bytes in flight per thread before any is widened (a one-warp
 * decode CTA's whole 64 x 128 tile): half the bytes of a 16-bit cache cross the bus, the
 * widening is in registers. */
template <int ROWS, int COLS, int THREADS, class T, class Q, int DATA, class F, class At>
__device__ __forceinline__ void load_tile_q8_at(uint16_t *s, F rowptr, int nvalid, At at)
{
	static_assert(sizeof(Q) == 1 && DATA % 16 == 0 && DATA <= COLS && COLS % 16 == 0, "a byte tile's data is whole 16-byte chunks");
	constexpr int CH = COLS / 16, N = (ROWS * CH + THREADS - 1) / THREADS, G = N > 16 ? 16 : N;
#pragma unroll 1
	for (int k0 = 0; k0 < N; k0 += G) {
		uint4 raw[G];
#pragma unroll
		for (int g = 0; g < G; g++) {
			int idx = threadIdx.x + (k0 + g) * THREADS, r = idx / CH, c = idx % CH;
			bool valid = k0 + g < N && (ROWS * CH % THREADS == 0 || idx < ROWS * CH) && r < nvalid && (DATA == COLS || c < DATA / 16);
			raw[g] = valid ? *reinterpret_cast<const uint4 *>(col_at(rowptr, r, 16 * c)) : make_uint4(0, 0, 0, 0);
		}
#pragma unroll
		for (int g = 0; g < G; g++) {
			int idx = threadIdx.x + (k0 + g) * THREADS, r = idx / CH, c = idx % CH;
			if (k0 + g >= N || (ROWS * CH % THREADS != 0 && idx >= ROWS * CH))
				continue;
			alignas(16) uint16_t w[16];
			widen4<T, Q>(raw[g].x, w);
			widen4<T, Q>(raw[g].y, w + 4);
			widen4<T, Q>(raw[g].z, w + 8);
			widen4<T, Q>(raw[g].w, w + 12);
			*reinterpret_cast<uint4 *>(s + at(r, 2 * c)) = *reinterpret_cast<const uint4 *>(w);
			*reinterpret_cast<uint4 *>(s + at(r, 2 * c + 1)) = *reinterpret_cast<const uint4 *>(w + 8);
		}
	}
}

/* The target's lane exchange and wave width (defined by fusecc_tile_cuda.h or
 * fusecc_tile_hip.h). */
__device__ __forceinline__ float lane_xor(float x, int mask);
__device__ __forceinline__ double lane_xor(double x, int mask);
__device__ __forceinline__ int wave_width();
/* A row kernel's group of blockDim.x threads (a wave or a part of one, threadIdx.y's,
 * cta_rows): the exchange within it, and its threads' shared-memory stores made visible
 * to each other. */
__device__ __forceinline__ float group_xor(float x, int mask);
__device__ __forceinline__ double group_xor(double x, int mask);
__device__ __forceinline__ void group_sync();

/* x combined over the CTA's threads with op (every thread gets the result): across each
 * wave by exchanges, then across the waves through `scratch`, 32 values of shared memory.
 * T is float, or double for an accumulator the C declares double (merged in double, as
 * the C adds). Every thread of the CTA must call it; it synchronises the CTA. */
template <class T, class Op> __device__ __forceinline__ T cta_reduce(T x, T *scratch, Op op)
{
	if (blockDim.y > 1) { /* a row kernel's CTA of several rows (cta_rows): the row is the group */
		for (int m = (int)blockDim.x / 2; m > 0; m >>= 1)
			x = op(x, group_xor(x, m));
		return x;
	}
	const int w = wave_width(), nw = ((int)blockDim.x + w - 1) / w;
	for (int m = w / 2; m > 0; m >>= 1)
		x = op(x, lane_xor(x, m));
	__syncthreads(); /* scratch is free: the readers of an earlier reduction are done */
	if ((int)threadIdx.x % w == 0)
		scratch[threadIdx.x / w] = x;
	__syncthreads();
	x = scratch[0];
	for (int k = 1; k < nw; k++)
		x = op(x, scratch[k]);
	return x;
}
/* The reductions of a float or a double (T from the scratch only: a contribution of
 * another type converts, as the C's `+=` into the accumulator does). */
template <class T> struct same {
	typedef T type;
};
template <class T> __device__ __forceinline__ T cta_sum(typename same<T>::type x, T *scratch)
{
	return cta_reduce(x, scratch, [](T a, T b) { return a + b; });
}
template <class T> __device__ __forceinline__ T cta_max(typename same<T>::type x, T *scratch)
{
	return cta_reduce(x, scratch, [](T a, T b) {
		if constexpr (sizeof(T) == 4)
			return fmaxf(a, b);
		else
			return fmax(a, b);
	});
}
template <class T> __device__ __forceinline__ T cta_min(typename same<T>::type x, T *scratch)
{
	return cta_reduce(x, scratch, [](T a, T b) {
		if constexpr (sizeof(T) == 4)
			return fminf(a, b);
		else
			return fmin(a, b);
	});
}

/* An int carried in a float's bits through cta_reduce (which moves values, never rounds
 * them: its op below returns one of its arguments). */
__device__ __forceinline__ float int_bits(int i)
{
	float f;
	__builtin_memcpy(&f, &i, sizeof f);
	return f;
}
__device__ __forceinline__ int bits_int(float f)
{
	int i;
	__builtin_memcpy(&i, &f, sizeof i);
	return i;
}
/* An argmax (MAX) or argmin over the CTA: each thread's (v, at), a value and the position
 * it was taken at, becomes in every thread the best value and, among the threads holding
 * it, the lowest position (LAST: the highest), as the C loop with `>` (`>=`) would keep.
 * A thread that took no element holds the sentinel position INT_MAX (LAST: INT_MIN), which
 * loses every tie. */
template <bool MAX, bool LAST> __device__ __forceinline__ void cta_arg(float &v, int &at, float *scratch)
{
	const float m = MAX ? cta_max(v, scratch) : cta_min(v, scratch);
	const int none = LAST ? -2147483647 - 1 : 2147483647;
	const float c = cta_reduce(int_bits(v == m ? at : none), scratch, [](float a, float b) {
		const int x = bits_int(a), y = bits_int(b);
		return (LAST ? x > y : x < y) ? a : b;
	});
	at = bits_int(c);
	v = m;
}

/* The CTA-per-row kernels (src/emit/emit_rows.c). A thread's elements of a row move in
 * vectors of 16 bytes: BYTES (a multiple of 16) from s to d, both 16-byte aligned (a row
 * in global or shared memory, an alignas(16) register array); or, for an array of bytes
 * beside wider ones (a quantiser's int8 codes of fp32 or fp16 values), 4 or 8 bytes, both
 * aligned to that. */
template <int BYTES> __device__ __forceinline__ void copy(void *d, const void *s)
{
	static_assert(BYTES % 16 == 0, "whole vectors of 16 bytes");
#pragma unroll
	for (int i = 0; i < BYTES / 16; i++)
		reinterpret_cast<uint4 *>(d)[i] = reinterpret_cast<const uint4 *>(s)[i];
}
template <> __device__ __forceinline__ void copy<8>(void *d, const void *s) { *reinterpret_cast<uint2 *>(d) = *reinterpret_cast<const uint2 *>(s); }
template <> __device__ __forceinline__ void copy<4>(void *d, const void *s) { *reinterpret_cast<unsigned *>(d) = *reinterpret_cast<const unsigned *>(s); }
__device__ __forceinline__ bool aligned16(const void *p) { return (reinterpret_cast<unsigned long long>(p) & 15) == 0; }
template <int BYTES> __device__ __forceinline__ bool aligned(const void *p) { return (reinterpret_cast<unsigned long long>(p) & (BYTES - 1)) == 0; }
/* x rounded down to a multiple of a (a > 0), for negative x too. */
__device__ __forceinline__ int align_down(int x, int a)
{
	int m = x % a;
	return x - (m < 0 ? m + a : m);
}
/* The shared memory a kept row of n elements of `size` bytes takes: whole 16-byte
 * vectors, so that the next one is aligned; nothing for n <= 0. */
__host__ __device__ __forceinline__ constexpr size_t row_bytes(long long n, size_t size) { return n > 0 ? ((size_t)n * size + 15) / 16 * 16 : 0; }

/* The rows a CTA of a row kernel takes (src/emit/emit_rows.c) with T threads a row: one
 * per thread row of the CTA (threadIdx.y), 128 threads in all when T is a wave or a part
 * of one (rows shorter than a CTA's step), else one. A CTA of several rows never meets at
 * __syncthreads: its reductions stay in the row's group (cta_reduce), its barriers are
 * the group's (row_sync), so a group past the last row may leave at once. */
__host__ __device__ __forceinline__ constexpr int cta_rows(int t) { return t < 128 ? 128 / t : 1; }
template <int T> __device__ __forceinline__ void row_sync()
{
	if constexpr (cta_rows(T) > 1)
		group_sync();
	else
		__syncthreads();
}

/* A row kernel's threads per row, chosen at launch (the launcher of src/emit/emit_rows.c):
 * of least, 2 * least, ... up to a wave (`wave`; cta_rows(t) rows a CTA), 128, 256 and
 * 512 threads, the size that works on the most elements of rows at once on a
 * multiprocessor: the CTAs that fit (resident(t), the occupancy query: the kernel's
 * registers and the shared memory it keeps decide; a CTA of 512 threads with 88
 * registers each is alone on an SM, where five of 128 fit) times the rows a CTA takes
 * times the elements a row takes in a step (t * per_thread, or the whole row when it is
 * shorter); the larger of equals. A group smaller than 128 threads is a candidate only
 * where the row fits in two of its steps (measured on an H100: softmax over 1000 fp32 or
 * logsumexp over 2000 fp16 elements are faster on a warp than on 128 threads, over 2000
 * fp32 not).
 * The queries cost microseconds: the choice is kept for the next launch with the same
 * shared memory and row length. Any choice computes the same. */
struct RowThreads {
	std::atomic<long long> key{-1};
	std::atomic<int> threads{0};
	template <class F> int get(long long smem, long long len, int per_thread, int least, int wave, F resident)
	{
		const long long k = smem << 32 | (len & 0xffffffffLL);
		int t = key.load() == k ? threads.load() : 0;
		if (t)
			return t;
		long long most = -1;
		for (int c = least; c <= 512; c = c == wave ? 128 : 2 * c) {
			long long step = (long long)c * per_thread;
			if (c < 128 && len > 2 * step)
				continue;
			long long work = (long long)resident(c) * cta_rows(c) * (len < step ? len : step);
			if (work >= most) {
				most = work;
				t = c;
			}
		}
		threads.store(t);
		key.store(k);
		return t;
	}
};

} /* namespace fx */

#endif
