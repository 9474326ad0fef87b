/* prologue.h: operands of the pass's q.k computed once per key and per row, before the
 * tile kernel. A score whose dot product over d computes its operands inside the d loop
 * (RoPE, QK-norm's per-row and per-key factors, a per-channel dequantisation scale), or
 * reads a local row filled before the key loop (`qr[d]`: a decode rotating the query alone), is a
 * sum over terms t and d of R_t(row, d) * K_t(key, d): prologue_rewrite finds the factors,
 * makes a workspace per side that is not a plain operand (the shape of the array the
 * side's factors follow, its last extent the terms' columns side by side: t * P + d; fp32,
 * or with 16-bit operands an fp32 row side against a key side of hi + lo: prologue.c,
 * ws_types, and docs/gpu-kernels.md), and
 * rewrites the pass's dot to read the workspaces (`s += (float)q_ws[..i..][d] *
 * (float)k_ws[..j..][d]`), which the tile planner takes as a plain product. Each
 * workspace is filled by a kernel of PRO_LANES threads per row of it (the side's statements
 * the factors read, per-key reductions included, then its columns), which the launcher
 * runs before the region's kernel. The rewrite is undone after printing (fused C and
 * other targets never see it). */
#ifndef FUSECC_PROLOGUE_H
#define FUSECC_PROLOGUE_H

#include "tile.h"

/* PRO_LANES: threads per row of a workspace, each storing every PRO_LANES-th column (the
 * stores of a row's columns coalesce; the row's other statements, its locals and per-key
 * reductions, run in each of them, their reads the same address across the lanes). */
enum { PRO_MAX_SIDES = 2, PRO_MAX_UNDO = 32, PRO_MAX_DIMS = 8, PRO_LANES = 32 };

/* One workspace and the kernel that fills it. */
typedef struct ProSide {
	Var *ws;        /* [leading extents of main][width]: fp32, or the 16-bit type (ws_types) */
	const Var *main; /* the parameter array whose rows the side's factors follow */
	GridLoop grid[PRO_MAX_DIMS]; /* the workspace's rows: one thread each */
	int ngrid;
	Stmt *body;     /* a thread's statements (its row's locals, then the row's columns) */
	const char *kernel; /* the kernel's name */
	/* 16-bit operands (prologue.c, ws_types): 2, the key side, each value as hi + lo; 1, the
	 * row side, each value twice; 0, neither (width W) */
	int split;
	Var *lane; /* the thread's lane among the PRO_LANES of its row; the columns' loop starts there */
} ProSide;

typedef struct Prologue {
	ProSide sides[PRO_MAX_SIDES];
	int nsides;
	/* blocks changed by the rewrite and the statements holding them, with their statements
	 * before it */
	Stmt *undo_blk[PRO_MAX_UNDO];
	Stmt **undo_body[PRO_MAX_UNDO];
	int undo_n[PRO_MAX_UNDO];
	int nundo;
} Prologue;

/* Rewrites region r of f as above when its pass has such a dot and a side needs a
 * workspace; false (r unchanged) otherwise. names: names the workspaces and kernels must
 * not take (the printer's unique_name), as a callback. */
bool prologue_rewrite(Program *p, const Func *f, Region *r, Prologue *pl, const char *(*unique)(Program *, const Func *, const Region *, const char *));
/* Puts r's statements back as they were before prologue_rewrite. */
void prologue_restore(Prologue *pl);

#endif
