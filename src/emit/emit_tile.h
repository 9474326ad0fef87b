/* emit_tile.h: the CUDA and HIP printer of tile plans (src/lower/tile.h). */
#ifndef FUSECC_EMIT_TILE_H
#define FUSECC_EMIT_TILE_H

#include "../lower/tile.h"
#include "emit.h"

/* What the CUDA and HIP printers spell differently (emit_gpu.c's table). */
typedef struct GpuTarget {
	const char *name;     /* for messages */
	const char *includes; /* the runtime, fp16 and tile library headers */
	const char *err_t, *stream_t, *success, *invalid, *last_error;
	const char *malloc_async, *free_async; /* stream-ordered workspace (split-k) */
	const char *get_device, *device_attr, *attr_sms, *attr_smem_per_sm; /* split-k's chunk count */
	const char *func_set_attr, *kernel_cast, *attr_max_dyn_smem; /* `func_set_attr(<kernel_cast>kernel, <attr>, bytes)` */
	const char *attr_smem_per_block; /* the shared memory a CTA may have (opted in) */
	const char *occupancy;           /* CTAs of a kernel that fit on a multiprocessor */
	const char *lowering, *wave_name;              /* for the kernel's comment */
	const char *f32_products;                      /* how fp32 products run, for the comment */
	TileTarget tile;
	int row_group; /* the fewest threads a row kernel gives a short row (a part of a wave whose
	                * exchanges need not involve the rest of it: CUDA's masked shuffles) */
} GpuTarget;

/* emit_gpu.c: the device spelling of a scalar type (__half for _Float16), and the trip
 * count of a grid loop, (hi) or (hi - (lo)). */
const char *gpu_type(ScalarType t);
void print_extent(StrBuf *b, const GridLoop *g, const PrintTarget *t);
/* The first statements of a split-k chunk kernel and of its merge kernel, which
 * print_splitk_launches chains with fx::launch_after. */
#define SPLITK_CHUNK_START "fx::let_next_start(); /* the merge may launch now */"
#define SPLITK_MERGE_START "fx::after_previous(); /* the chunks' partials (launched before they are done) */"
/* emit_gpu.c: the end of a split-k launch, shared by the tile and fallback launchers
 * (`err` declared before): a workspace of cols * nrow * nchunks ws_t (float, or double
 * where a partial is double; stream-ordered),
 * the chunk kernel launched as `<region>_kernel<kernel><<<chunk_cfg>>>(args, ws, nrow, nchunks,
 * chunk)`, the merge as `fx::launch_after(<region>_merge, merge_cfg, args, ws, nrow,
 * nchunks)` if that went well, the workspace freed; the first error is returned. */
void print_splitk_launches(StrBuf *out, const GpuTarget *tg, const char *region, const char *kernel, const char *ws_t, long cols, const char *nrow, const SplitBlock *sb, const char *chunk_cfg,
                           const char *merge_cfg, const char *args);

/* emit_gpu.c: the launchers' own names (and the grid-sum kernel's) are printed `@name`
 * (C has no '@'); name_generated replaces each in b from byte `from` by name, or name2,
 * name3, ...: one no parameter or set-up scalar of f has, nor another such name, so that
 * a user's `int rows` or `int threads` is never shadowed by the launcher's own. */
void name_generated(StrBuf *b, size_t from, const Func *f);

/* emit_gpu.c: the trip counts of the grid loops multiplied, in 64 bits; the grid loops'
 * iterators from row index `rv` (consumed, innermost fastest) as `int` declarations. */
void print_rows(StrBuf *b, const GridLoop *g, int n);
void print_row_coords(StrBuf *out, const GridLoop *g, int n, const char *rv);
/* For a thread-per-row or CTA-per-row grid: where a grid loop's end reads an outer grid
 * loop or an array (`t < min(seqlen[b], L)`, a guard the front end narrowed into the loop),
 * the launcher cannot count its rows; the grid then runs to the side of the min that reads
 * neither, a bound of every row's end, and a row at or past its own end returns (g->guard).
 * false, with g unchanged, where no such side exists. */
bool grid_host_ends(GridLoop *g, int n);
/* emit_tile.c: the device name of a math function for the fast paths (fx::exp), or NULL;
 */
const char *device_fn(MathFn fn, ScalarType ty);

/* emit_rows.c: the CTA-per-row lowering of row reductions (no products), from the
 * split-k row block the fuser writes for them, or from the row's passes as written when
 * the fuser left the region as it is (nothing to fuse). */
typedef struct RowRed {
	Expr *target;     /* a scalar of the row, or an element of a float array the row owns */
	Reducer red;
	const char *part; /* the thread's partial */
	/* An argmax (argmin) pair (target its value): the index `idx = idx_f`, kept as the
	 * position of the value (`at`, from a sentinel: none taken) and set after the merge;
	 * last: ties go to the last position (`>=`). idx NULL when not. */
	const Expr *idx, *idx_f;
	const char *at;
	bool last;
} RowRed;
/* An array a sweep reads or writes at the element its iteration owns (x[r][c], a local
 * row[c]): held in registers for a step (`x_v`), loaded at the step's start (16 bytes at a
 * time where the step is whole and aligned) and stored at its end. */
typedef struct RowArr {
	Var *var;
	Expr *at;          /* its access, with `it` the iterator of the loop it is in */
	const Var *it;
	const char *reg;   /* the registers */
	bool load, store;
	int keep;          /* the row kept in shared memory it is read from (rp->keeps), or -1 */
	bool fill;         /* this sweep reads it from global memory and fills the kept row */
} RowArr;
/* One walk over the row's elements, in steps of THREADS * VW * NV elements. */
typedef struct RowSweep {
	Stmt *loop;        /* a loop over the row's elements, or (fused) the chunk's pass */
	bool pass;         /* the chunk's pass: element loops, and statements once per step */
	Expr *lo, *hi;     /* the elements */
	const char *step;  /* the step iterator */
	RowRed *reds;      /* reductions into values of the row (partials, merged after) */
	int nreds;
	RowArr *arrs;
	int narrs;
	int nv;            /* vectors per thread and step */
} RowSweep;
typedef RowSweep RowPass;
/* A row kept in shared memory between sweeps: the elements [lo, hi) of a read-only
 * parameter array that a later sweep reads again, or a local array of the row. */
typedef struct RowKeep {
	Var *var;
	const char *name;  /* its pointer in the kernel (a local array keeps its own name) */
	Expr *lo, *hi;     /* a parameter's kept elements; a local: NULL (its size) */
	long long base;    /* a parameter: element base (the kept row starts there, a multiple of VW), when lo is a constant */
	bool local;
} RowKeep;
typedef enum RowKeepMode {
	KEEP_NONE,   /* nothing kept */
	KEEP_ALWAYS, /* a size known here, small enough for any GPU: always kept */
	KEEP_LAUNCH, /* decided at launch: kept when the device's shared memory per CTA allows */
} RowKeepMode;
typedef struct RowPlan {
	const Region *region;
	Cascade *c;       /* NULL: the row's passes as written (passes below) */
	GridLoop grid[MAX_GRID];
	int ngrid;
	Stmt *block; /* the row block */
	bool columns; /* rows_plan failed: the row's elements lie down a column (x[b][c][p] over c),
	               * where one thread per row, neighbouring rows contiguous, reads them coalesced */
	SplitBlock sb;
	Stmt *pass;   /* the chunk's pass */
	Expr *lo, *hi; /* the fused axis's range */
	/* Without a cascade: the row's statements and, for each loop among them, its pass. */
	Stmt **stmts;
	int nstmts;
	RowPass *passes; /* passes[i] for stmts[i] (loop NULL: a statement of the row) */
	int npasses;     /* the loops */
	/* Every sweep in order (the passes, or the fused pass and the loops after the merge). */
	RowSweep **sweeps;
	int nsweeps;
	RowKeep *keeps;
	int nkeeps;
	RowKeepMode keep_mode;
	bool locals;     /* a local array among the kept rows (a workspace when not kept) */
	int vw, nv;      /* elements per vector (16 bytes of the narrowest array); vectors per thread and step, at most (the CTA size is chosen by it) */
	Expr *len;       /* the row's length for the CTA size (NULL: not known on the host) */
	const char *row_name, *vec_name, *scratch_name; /* the kernel's own names */
	const char *scratch_d_name; /* the double reductions' scratch; NULL when every reduction is in float */
	const char *elem_name, *t_name, *keep_name, *smem_name, *ws_name, *base_name;
	const char **part_rows; /* the fused row's partial arrays (sb.parts), one per row of the CTA */
	/* Sums across the rows into one output element (gridsum.c): each row's contributions
	 * in a register (gs_acc[i]), stored to the workspace gs_name ([sum][row]), which the
	 * kernel `<region>_gsum` adds up in a fixed order. */
	GridSums gs;
	const char *gs_acc[MAX_GRID_SUMS];
	const char *gs_name;
} RowPlan;
/* Fills rp for region r of program p; false with *why (a phrase) when the region is of
 * neither form. */
bool rows_plan(RowPlan *rp, Program *p, const Region *r, const char **why);
/* Whether the plan's kernel makes a CTA reduction. */
bool rows_plan_reduces(const RowPlan *rp);
/* The kernel `<region>_kernel`, one CTA per row (or a wave per row, cta_rows(FX_T) rows a
 * CTA, for short rows), and the launcher's block for it. */
void emit_rows_kernel(StrBuf *out, const GpuTarget *tg, const RowPlan *rp, void (*print_params)(StrBuf *, const Func *, bool));
void emit_rows_launch(StrBuf *out, const GpuTarget *tg, const RowPlan *rp, const char *args);
/* The largest CTA a row kernel is compiled for (128, 256 and 512 threads: the launcher picks one). */
enum { ROW_THREADS_MAX = 512 };

/* The kernel `<region>_kernel`; print_params prints the function's parameters. */
void emit_tile_kernel(StrBuf *out, const GpuTarget *tg, TilePlan *tp, void (*print_params)(StrBuf *, const Func *, bool));
/* Split-k: the merge kernel `<region>_merge`, and its threads per CTA. */
void emit_merge_kernel(StrBuf *out, const GpuTarget *tg, TilePlan *tp, void (*print_params)(StrBuf *, const Func *, bool));
int tile_merge_threads(const TilePlan *tp);
/* The launcher's block for this region: checks, then the launch with `args`. */
void emit_tile_launch(StrBuf *out, const GpuTarget *tg, TilePlan *tp, const char *args);

#endif
