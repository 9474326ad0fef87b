/* tile.h: tile lowering. Reads a fused region (the rolling pass the fuser wrote) and says
 * how it maps onto tensor-core tiles: which parallel loops make the grid, which loop's
 * rows a CTA shares, which reductions over the shared index are matrix products (the row
 * operand times a column operand, or a per-element tile times a column operand), and the
 * role every local plays (one value per row, a register tile, a per-step tile). The CUDA
 * printer (emit_tile.c) prints the plan; a region the plan does not fit keeps the
 * one-thread-per-row fallback, and the reason is echoed in its kernel's comment. */
#ifndef FUSECC_TILE_H
#define FUSECC_TILE_H

#include "../fuse/fuse.h"

/* A parallel loop of the region's outer nest, as the grid sees it. */
typedef struct GridLoop {
	Var *var;
	Expr *lo, *hi;
	long tile; /* the row tile the fuser made of it (its step), 0 if none */
	Expr *guard; /* the loop's own end where hi was narrowed to a bound the launcher can
	              * count (grid_host_ends in src/emit/emit_gpu.c): a row at or past it
	              * returns; NULL otherwise */
} GridLoop;

/* Query heads regrouped by heads.c: the user's loop nest, and the head count and group
 * size of `h / G` (H and G); read as `h * k / n`, G is n / k and knum, kden are n and k
 * (NULL otherwise). */
typedef struct HeadGroup {
	Stmt *orig;
	const Expr *num, *den;
	const Expr *knum, *kden;
	bool kvmajor; /* K and V read at h % G (heads interleaved): the rows of a KV head kv are g * G + kv */
} HeadGroup;

enum { MAX_GRID = 16, MAX_TILE_VARS = 32, MAX_OPERANDS = 4 };
/* The widest product the tiles take (q.k's k, P.V's columns), where shared memory holds
 * its tiles: a CTA's row tile and a step of column tiles (1024 bf16 columns: 16 rows and
 * 32 keys in 96 KB). */
enum { TILE_MAX_WIDTH = 1024 };

/* Steps whose rows' index values (TilePlan.gather) shared memory holds, step n's in slot
 * n % TILE_INDEX_RING. Two would do (step n's are last read at the end of step n - 2,
 * before the barrier after which step n - 1 would copy step n + 2's into the slot); the
 * kernels checked on the GPU have three. */
enum { TILE_INDEX_RING = 3 };
/* A decode under `rolling` takes its split-k twin below this many CTAs an SM: its CTAs are
 * one warp each, and a few of them an SM leave the memory idle (bench/RESULTS.md, session
 * 24: 256 CTAs on 132 SMs ran at 0.6 of split-k). */
enum { TILE_TWIN_CTAS_PER_SM = 4 };
/* The steps a block layout keeps are found from a window of this many steps marked in
 * shared memory (tile_kept_window, fx::KeptSteps): two bits a step. */
enum { TILE_KEPT_WINDOW = 512 };

/* The outer nest of parallel loops (a row-tile pair counts as its inner loop over the
 * outer's range) and the statement they wrap. */
Stmt *grid_loops(const Region *r, GridLoop *out, int *n);
/* grid_loops, then a loop over rows right inside them whose iterations are independent
 * and hold loops (`for (i)` under parallel(b, h)): it joins the grid. */
Stmt *grid_and_row_loops(const Region *r, GridLoop *out, int *n);

/* The row block of a split-k region, as build_splitk (src/fuse/fuse.c) writes it: [pre...,
 * int nchunks = ..., int chunk = ..., partials X_part[nchunks][cols]..., for (ch = 0; ch <
 * nchunks; ch++) {range, setup, pass, stores}, merge...]. The tile planner and the GPU
 * printer's fallback both read it through split_block. */
typedef struct SplitBlock {
	Stmt *chunks;        /* the loop over the chunks, the block's statement ichunks */
	int ichunks;
	Stmt *ndecl, *cdecl; /* int nchunks = ...; int chunk = ...; */
	Var *parts[MAX_TILE_VARS];
	int part_cols[MAX_TILE_VARS]; /* elements per chunk: 1, or an accumulator's columns */
	int nparts;
} SplitBlock;

/* Fills sb from `body`; false when body is not such a block. */
bool split_block(Stmt *body, SplitBlock *sb);
/* Whether s declares the block's chunk count, chunk size or a partial. */
bool split_block_decl(const SplitBlock *sb, const Stmt *s);
/* The split axis's length as the launcher sizes the chunks: *len = NULL when lo and hi
 * read only scalar parameters (hi - lo), else an upper bound of hi - lo the host computes:
 * the smallest of a static bound of the ends (hi a min with one, lo a max with one) and
 * the extents of the parameter arrays every element of the pass reads (k[b][h][j][d]
 * gives L, a page table bt[b][j / P] gives MAXP * P). Chunks of that size cover every
 * row; each clips its range to its row's (j_hi = min(j_lo + chunk, len[b])), and a chunk
 * past the row's end gives the identity partials. false when there is no such bound.
 * pass is the chunk's `for (j0 = j_lo; j0 < j_hi; j0 += T)`. */
bool split_host_len(Program *p, const Stmt *pass, const Expr *lo, const Expr *hi, Expr **len);
/* Workspace floats per row and chunk before partial k (its offset in units of rows *
 * nchunks); k = nparts gives them all. */
int split_part_offset(const SplitBlock *sb, int k);

/* What the lowering needs to know of the machine's tensor-core tiles. Both targets give
 * every thread the same share of a tile's columns (a quarter of a 16-row tile's); they
 * differ in how many threads share a tile and how its rows are spread over them. */
typedef struct TileTarget {
	int wave;      /* threads that execute a tile product together: a warp (32) or a wavefront (64) */
	int row_slots; /* rows of each 16-row tile a thread holds: 2 (mma m16n8k16), 1 (mfma 16x16x16) */
	int frag_cols; /* columns of a tile that one [4]-float fragment block covers: 8 or 16 */
	int stages;    /* column-operand tiles in shared memory: 2 when copies are asynchronous, else 1 */
	int smem_max;  /* shared memory one CTA may have, in bytes */
	int smem_sm;   /* shared memory an SM (a CU) has for its CTAs, in bytes (each CTA's share
	                * and 1 KB the hardware reserves for it) */
	bool f32;      /* fp32 products to fp32 accuracy (CUDA: three tf32 products each; HIP: mfma
	                * 16x16x4f32): else 16-bit only */
	bool group64;  /* 64-row tiles are multiplied by a group of 4 warps of 16 rows (sm_90a wgmma):
	                * a CTA of 64 rows has 4 warps of one 16-row tile, not 2 of two */
	bool presplit; /* fp32 column tiles may be split into tf32 planes once per step (split_tile) */
} TileTarget;

typedef enum TileRole {
	TR_NONE,
	TR_ROW,     /* a scalar with one value per row of the CTA (m, l, m_used): `float x[2]` per thread */
	TR_ROWTILE, /* an array over a product's columns, per row (acc[D]): an mma accumulator tile */
	TR_ELEM,    /* an array over the fused loop's step, per row (s[j - j0]): a register tile */
	TR_PART,    /* split-k: a partial per chunk (m_part[ch], acc_part[ch][d]): in the workspace */
	TR_ROWCOPY, /* a copy of the row operand made before the pass (qs[d] = (float)q[..][d] * c),
	             * read only by the products, which read its definition instead: not printed */
} TileRole;

/* One product over the k loop: S(i, j) = sum_k a(i, k) * b(j, k), one per column
 * operand; each statement that reads it adds its own initial value and scale. */
typedef struct TileDot {
	Expr *a, *b; /* canonical references (fused iterator jc, k iterator kc) */
	int colop;   /* which column operand b is */
} TileDot;

typedef struct TilePlan {
	const Region *region;
	const TileTarget *tt;
	Cascade *c;
	GridLoop grid[MAX_GRID];
	int ngrid;
	int rowdim;       /* index in grid of the loop whose rows a CTA shares */
	Expr *rows_host;  /* the row loop's end as the launcher counts tiles, where its own end is
	                   * read per CTA (i < len[b]): the extent of the row operand's dimension
	                   * the row indexes; NULL when the end is the launcher's own */
	int pack;         /* packed rows (a varlen batch, q[cu[s] + i], tile.c packed_seq): the
	                   * index in grid of the sequence loop s, whose sequences' rows together
	                   * are at most rows_host; the grid then has a CTA per row tile of the
	                   * batch (at most rows_host / bm + one per sequence), not per row tile
	                   * and sequence, and each finds its own (fx::packed_tile). -1: none */
	Stmt **pro, **epi; /* the row block's statements before and after the pass */
	int npro, nepi;
	Stmt *step;       /* for (j0 = lo; j0 < hi; j0 += bn) */
	Var *jc, *kc;     /* canonical fused and k iterators of the operand references */
	int bm, bn, warps, threads; /* warps: tt->wave threads each (a wavefront on HIP) */
	int stages;       /* column-operand tiles in shared memory: tt->stages, or 1 where two do not fit */
	bool pv_one;      /* two stages: the P.V operand's (V's) tile has one, loaded at the start of
	                   * its step and waited for before the step's first P.V product (q.k and the
	                   * softmax cover its load), the others two: where that lets two CTAs share
	                   * an SM and two stages of every tile would not (tile_plan) */
	bool presplit;    /* fp32: each step's column tiles are split into tf32 planes in shared
	                   * memory by the CTA, once, instead of by every warp at every product;
	                   * the next step's tiles load meanwhile (tile_presplit) */
	int mt;           /* 16-row tiles per warp: 2 shares each column operand fragment between two */
	int cw;           /* warps that share a warp's rows and split the accumulator tiles' columns
	                   * (ncols / cw each), 1 but over 256 columns (absorbed MLA's 512): each
	                   * computes the rows' products with the row operand and their softmax
	                   * (the same values), and its own columns of P.V; warp w has row warp
	                   * w % (warps / cw) and column slice w / (warps / cw) */
	int kdim;         /* k extent of the products with the row operand */
	int ncols;        /* extent of the accumulator tiles (the second product's columns) */
	int kdata, ndata; /* the extents that hold data (set with kdim and ncols, which the
	                   * plan's end rounds up to a multiple of 64 with zero columns: a head
	                   * dim of 96 in tiles of 128) */
	ScalarType elem;  /* TY_HALF, TY_BF16 or TY_FLOAT (targets with f32): the column operands' type,
	                   * and the row operand's unless row_parts is 2 */
	Expr *rowop;      /* the row operand (q[..i..][k]), canonical */
	/* A product of two parts (tile_match_dot): the row operand's columns [kseg, kdata)
	 * are rowop2's [0, kdata - kseg), and each column operand of a dot has its colop2
	 * likewise (NULL for the others, and everywhere when kseg is 0). */
	Expr *rowop2;
	int kseg;
	bool tf32;        /* fp32 tiles multiplied as one tf32 product each (precision(tf32)), not
	                   * three (fp32 accuracy) */
	int row_parts;    /* 16-bit tiles the row operand is held as: 1, or 2 for an fp32 row operand
	                   * against 16-bit column operands (x = hi + lo, two products each) */
	bool psplit;      /* the weights of the second product (P of P.V) are multiplied as two
	                   * 16-bit tiles, hi + lo: they are not a softmax's exp(s - m) in [0, 1]
	                   * (sigmoid or linear attention), whose 16-bit rounding the output's
	                   * normalisation bounds, so they keep fp32's accuracy */
	bool pscale;      /* psplit with fp16 values: each row's weights are scaled by 2^-E before
	                   * the split, E from the largest |weight| of the row so far (running,
	                   * per accumulator: the largest then lies in [2^14, 2^15), inside fp16's
	                   * range with the split's low part above its subnormals), and the
	                   * accumulator, which holds its sum times 2^-E, by 2^(E_old - E) when E
	                   * grows and by 2^E after the pass: all exact, powers of two. Weights
	                   * below 2^-39 of the row's largest flush, as a softmax's do. */
	Expr *colop[MAX_OPERANDS]; /* column operands, canonical (k[..j..][k], v[..j..][k]) */
	Expr *colop2[MAX_OPERANDS];
	/* column operand k stored transposed, its k index before its row's (kT[..][k][j], a
	 * key cache kept as K^T): loaded column by column (fx::load_tile_t), 16-bit only */
	bool colop_t[MAX_OPERANDS];
	bool colop_pv[MAX_OPERANDS]; /* read by a P.V product (dot_tile), not only by dots */
	int colop_cols[MAX_OPERANDS], colop_data[MAX_OPERANDS]; /* padded, and holding data */
	int ncolop;
	/* Reads of read-only int arrays in the column operands' row addresses that move
	 * with the key index (a page table, kc[bt[b][j / P]][j % P]): with two stages, each
	 * step's rows' values are copied into shared memory two steps ahead of its tiles
	 * (a ring of TILE_INDEX_RING steps), and the step before computes each row's
	 * pointer once from them (a table in shared memory), so that no tile copy waits on
	 * a global load, nor each thread computes the addresses of all its rows (a division
	 * by a page size known at run time is a dozen instructions). Canonical (jc), each
	 * once; none with one stage. */
	Expr *gather[MAX_OPERANDS];
	int ngather;
	TileDot dots[MAX_OPERANDS];
	int ndots;
	Var *vars[MAX_TILE_VARS]; /* the locals with a role, and their roles */
	TileRole roles[MAX_TILE_VARS];
	int nvars;
	/* A mask written as `s = c ? x : -INFINITY` or `if (c) s = -INFINITY` whose masked
	 * elements provably contribute nothing (every reduction gets its identity, every
	 * product a zero factor) narrows each row's range instead: mask_lo <= j < mask_hi
	 * (canonical, NULL when unbounded), and the mask statements drop out. */
	Expr *mask_lo, *mask_hi;
	const Stmt *mask_stmts[MAX_TILE_VARS];
	int nmask;
	/* A mask that is no range (a block layout, a key padding mask) skips the steps where
	 * it hides every element of the CTA's rows: skip_hidden is its hidden-when condition
	 * with the row's `i / skip_ci` read as skip_bi and the column's `j / skip_cj` (or j,
	 * skip_cj = 1) as skip_bj; skip_bi NULL when it does not read the row. NULL: none.
	 * The mask statements (mask_stmts) run as written in a step the mask does not keep
	 * whole, and drop out of one it keeps whole. */
	Expr *skip_hidden;
	Var *skip_bi, *skip_bj;
	int skip_ci, skip_cj;
	/* Split-k: the plan's pass is one chunk of the split axis (the chunk kernel, one CTA
	 * per chunk and row tile); its epilogue stores the partials, which live in a
	 * workspace of [rows][nchunks][cols] floats per partial; the merge statements run
	 * after it in a second kernel, one CTA per row, the accumulator tiles' columns one
	 * per thread. */
	/* heads.c regrouped the query heads: the launcher refuses num % den != 0 */
	const HeadGroup *heads;
	bool splitk;
	bool row_made;    /* the row loop is not the user's: one row (decode) */
	/* Split-k over a parallel loop of the grid as the rows, whose row tile the schedule
	 * leaves open (tile_plan_wide): how many rows a grid point has is known at launch
	 * only, a few (a decode's draft tokens) or thousands (cross attention's queries).
	 * wide: the same region's plan with 128 rows per CTA (64 where those do not fit),
	 * whose kernel the launcher runs where a grid point has TILE_WIDE_ROWS rows or
	 * more; kernel: the suffix of its kernel's name ("" for every other plan). */
	bool widen;
	struct TilePlan *wide;
	const char *kernel;
	/* The launcher of a split-k twin of this rolling plan (a decode under `rolling`),
	 * which the launcher calls where the grid has fewer CTAs than the GPU has
	 * multiprocessors; NULL where there is none. */
	const char *twin_launch;
	SplitBlock split;
	int npre;         /* pro[0 .. npre): the row's statements before the split (both kernels) */
	Stmt **cta_decls; /* the chunk's range (int j_lo = ..., j_hi): once per CTA */
	int ncta_decls;
	Stmt **merge;
	int nmerge;
	Expr *axis_lo, *axis_hi; /* the split axis's range */
	Expr *axis_len;          /* where the range is read on the device (`j < len[b]`): a
	                          * bound of its length the launcher computes; NULL: hi - lo */
	bool axis_open;          /* axis_len is a ring's size, no bound: the last chunk runs
	                          * to its row's end (see plan_ring_split) */
	const char *ws_name, *nrow_name; /* the kernels' names for the workspace and its rows */
	bool line_directives;            /* printer option (--line), set by the caller */
	const char *why; /* set by the matchers when a shape is refused */
	StrVec *names;   /* every name of the function, the printer's own included */
	/* Per-score reads: reads of an input array at a subscript of the element's row and
	 * column (an additive mask[i][j], bias[h][i][j], ggml's KQ mask row) that every element of a
	 * pass's range makes, written with iterator sj (the step's first per-element loop's):
	 * each is loaded once a step into registers, before the products, and every pass
	 * reads the registers. sread_pair: columns j and j + 1 are adjacent elements. */
	const Expr *sread[MAX_TILE_VARS];
	bool sread_pair[MAX_TILE_VARS];
	int nsread;
	Var *sj;
} TilePlan;

/* Whether epilogue statement s of tp is a loop over the pass's range that stores a row
 * computed again from the pass's products (`for (j) { float s = q.k; P[i][j] = e^(s - m)
 * / l; }`, stores.c's recompute_row): the tiles run it as a second pass over the column
 * tiles, products on the tensor cores, instead of one row per thread. */
bool tile_store_pass(TilePlan *tp, Stmt *s);

/* Fills tp for region r (fused rolling) on target tt. false with *why set (a phrase for
 * the echo) when the region's shape does not map onto tensor-core tiles. */
bool tile_plan(TilePlan *tp, const Region *r, const TileTarget *tt, const char **why);

/* The rows of a grid point from which the launcher runs a split-k plan's wide kernel, and
 * the fewest a CTA of a wide plan has (fewer would re-read the column tiles still). */
#define TILE_WIDE_ROWS 64

/* The wide plan of split-k plan tp (tp->widen) into *wide, its kernel named with suffix
 * (a name the function does not use); false, *wide freed, where tp has no row loop of
 * the grid to widen or the wide plan gets fewer than TILE_WIDE_ROWS rows a CTA. */
bool tile_plan_wide(TilePlan *wide, const TilePlan *tp, const char *suffix);

/* Dynamic shared memory of the plan's kernel, in bytes. */
int tile_smem_bytes(const TilePlan *tp);
/* Whether the steps a block layout keeps (skip_hidden, read by block of columns) are
 * found from a window of TILE_KEPT_WINDOW steps in shared memory, after the plan's
 * tiles where they leave room (a key padding mask, read by column, is tested step by
 * step by the CTA). */
bool tile_kept_window(const TilePlan *tp);
/* Bytes of gather g's ring of index values (a multiple of 16). */
int tile_index_ring_bytes(const TilePlan *tp, int g);
/* Whether column operand k's part (0, or 1: colop2) has its tiles' row pointers in
 * shared memory, a step's computed once per row: it reads a gather, and is not stored
 * transposed (loaded column by column, it keeps its reads). */
bool tile_row_table(const TilePlan *tp, int k, int part);
/* Stages of column operand k's tiles in shared memory: tp->stages, 1 for V's where pv_one. */
int tile_stages(const TilePlan *tp, int k);

/* Whether column operand k, stored transposed, is kept so in shared memory (a tile [K][N]
 * as a P.V product's, fx::load_tile_kt, asynchronous copies of runs of 8 keys) and its
 * products read it transposed (fx::dot_rows_t): read by dots only, of one part, in steps
 * of a multiple of 64 keys, in CTAs of 128 rows with two 16-row tiles a warp (the shape
 * checked on the GPU). Else it is transposed as loaded (fx::load_tile_t, plain loads on
 * the step's critical path). */
bool tile_kt(const TilePlan *tp, int k);
/* (Also a value operand stored transposed and addressed by its keys, tile_t_rows, read by
 * P.V alone in steps of a multiple of 64 keys: kept [N][K] and multiplied by
 * fx::dot_tile_t, whose B fragments that layout gives without a transposition.) */
/* Column operand k read with its k split into chunks, A[..][k / X][..][k % X] (vLLM's
 * key cache [..][D / X][BS][X]): X, and *pos the place of `k / X`; 0 (*pos -1) for an
 * operand whose rows are contiguous. The loaders read its rows through fx::chunked. */
int tile_chunk(const TilePlan *tp, int k, int *pos);
/* Whether column operand k is stored transposed with its keys' places read through other
 * subscripts too (v[bt[j / BS]][h][d][j % BS], a paged value cache kept d-major): loaded
 * by its keys' row pointers (fx::strided, a row table where it reads a gather), not by
 * its columns'. */
bool tile_t_rows(const TilePlan *tp, int k);
/* Frees what tile_plan allocated outside the program's arena (after printing). */
void tile_plan_free(TilePlan *tp);

TileRole tile_role(const TilePlan *tp, const Var *v);

/* A column operand may pick each row from one of two arrays by key position (`j < P ?
 * kc[..][j][d] : k[..][j - P][d]`, a prefix cache then the chunk's keys): its canonical
 * reference is then EX_COND(c, A1, A2), of A1's type, and its tiles' row pointers are
 * `c ? &A1[..] : &A2[..]`. tile_operand_read: the array read that names and types it
 * (A1, or ref itself); tile_operand_is: whether ref reads array v as its row (either
 * source). */
const Expr *tile_operand_read(const Expr *ref);
bool tile_operand_is(const Expr *ref, const Var *v);

/* Whether e reads scalar parameters and literals only: the launcher can compute it. */
bool tile_host_expr(const Expr *e);

/* The names of r's function, kernel parameters and loops (the fuser's list is gone), as
 * the cascade's list, which fresh_var extends: the printer's names must not clash. */
StrVec *tile_names(const Region *r);

/* A decode written per query head with K and V read at h / G (heads.c): its loop nest
 * rewritten into KV-head and group loops, whose G heads share one CTA's K and V tiles; the
 * same program when den divides num, which the launcher checks. heads_candidate says
 * whether r would be rewritten; heads_tile_plan plans r: tile_plan's plan, or where that
 * gives one query row per CTA (or none) the rewritten nest's when it has rows of its own:
 * then tp->heads is hg and r keeps the rewritten nest until heads_restore puts the user's
 * back (after printing). */
bool heads_candidate(const Region *r);
void heads_restore(Region *r, const HeadGroup *hg);
bool heads_tile_plan(Program *p, Region *r, const TileTarget *tt, TilePlan *tp, HeadGroup *hg, const char **why);

/* Matches `x = init; for (k) x += a * b` at body[i], body[i + 1]: the dot's index in the
 * plan, or -1. The product may carry factors that do not change with k (a scale) and
 * read the row operand through a local copy made before the pass; *scale (when wanted)
 * gets their product, NULL for none. A dot of two parts over different operands (MLA's
 * q_nope . k_nope + q_pe . k_pe) is one product over the parts side by side: a second
 * loop into x (`for (k) x += c * d`, 3 statements), or `y = init; for (k) y += c * d`
 * with x and y read nowhere but in `x + y` (4 statements), the same factors in both;
 * then x holds the whole product and y its initial value. *len (when wanted) gets the
 * statements the match takes. Used by the planner and the printer alike. */
int tile_match_dot(TilePlan *tp, Stmt **body, int n, int i, Var *jvar, bool add, Expr **scale, int *len);

/* Whether loop l's iterations touch disjoint data (locals it declares, elements of
 * parameter arrays it never reads subscripted by its iterator plus terms without it), so
 * that they may run in parallel. */
bool tile_independent_loop(const Region *r, const Stmt *l);

/* Whether s is the loop that fills a local copy of the row operand (TR_ROWCOPY). */
bool tile_is_copy_loop(const TilePlan *tp, const Stmt *s);

/* Matches `for (k) X[k] += g * col[..j..][k]` (X a TR_ROWTILE array): the column
 * operand's index, or -1; *g gets the per-element factor. */
int tile_match_pv(TilePlan *tp, const Stmt *s, Var *jvar, Expr **g, Var **acc, bool add);

/* For a mask statement of the plan: the value it keeps (x of `c ? x : -INFINITY`), or
 * NULL for `if (c) s = -INFINITY` (nothing to print). Not a mask statement: false. */
bool tile_mask_stmt(const TilePlan *tp, const Stmt *s, Expr **kept);

/* Whether s reads or writes an accumulator tile (then its loops run over tile columns). */
bool tile_touches_rowtile(const TilePlan *tp, const Stmt *s);

/* Whether loop s runs over the columns of an accumulator tile or a partial: its iterator
 * is the last subscript of one of them in its body. */
bool tile_is_col_loop(const TilePlan *tp, const Stmt *s);


/* Whether s is one of the pass's per-element loops (for (j = j0; ...)). */
bool tile_is_elem_loop(const TilePlan *tp, const Stmt *s);
/* The statements of a loop's body as an array (*n of them). */
Stmt **loop_body(const Stmt *loop, int *n);
/* Whether int expression e is c * jv + (terms without jv) with constant c (*coef), its
 * other variables the row's, the step's or the function's parameters. */
bool tile_affine_in(const TilePlan *tp, const Expr *e, const Var *jv, long long *coef);
/* Whether int expression e is the same for the whole CTA: constants, scalar parameters,
 * and the grid's coordinates other than the row's. */
bool tile_cta_level(const TilePlan *tp, const Expr *e);
/* The index of per-score read e (in the loop over j) in tp->sread, or -1. */
int tile_sread_index(const TilePlan *tp, const Expr *e, const Var *j);

#endif
