/* deps.h: the polyhedral model of a region and its dependences (computed with isl).
 * The fuser asks two questions of it: does a loop carry a dependence (may it become
 * the grid, or a split-k chunk loop), and may two sibling loops be fused. */
#ifndef FUSECC_DEPS_H
#define FUSECC_DEPS_H

#include "../ir/ir.h"

typedef struct DepInfo DepInfo;

/* Builds the polyhedral model of region `r` and computes its dependences with isl.
 * Statements: every ST_ASSIGN and every ST_DECL with an initialiser is one isl statement; its
 * domain is the box of its enclosing loops' bounds (lo <= v < hi, bounds affine in outer
 * iterators and int parameters); the conditions of enclosing ST_IF are ignored (an
 * over-approximation, safe for dependences), but the reads in an if's condition count as reads
 * of every statement inside that if. Accesses: array elements (EX_INDEX) with affine
 * subscripts; scalar variables (EX_VAR of VAR_LOCAL) as 0-d accesses; params and iterators
 * are not memory. Locals (scalars and arrays, VAR_LOCAL) are privatised: a local declared
 * inside loops L1..Lk is an isl array indexed first by the iterators of L1..Lk, then by its own
 * subscripts -- so a local declared inside a loop carries no dependence across that loop.
 * A non-affine subscript or loop bound (e.g. x[i*j], x[(int)f], i/G with G a parameter, a
 * bound that reads an array) is an error at the offending expression ("non-affine subscript
 * ...: subscripts must be affine in loop iterators and int parameters"); integer division or
 * modulo by a positive integer constant is fine (isl handles floor). Returns NULL after
 * reporting errors. The DepInfo points into the IR: free it before the Program. */
DepInfo *deps_compute(Program *p, const Region *r);

/* Whether `loop` (an ST_FOR inside the region, or the region's loop itself) carries a
 * dependence: two dependent statement instances (flow, anti or output: at least one writes the
 * same memory) that agree on every loop enclosing `loop` and differ on `loop`'s iterator.
 * Dependences through the variables in `ignore` (e.g. the target of a recognised reduction)
 * are not counted. If it does and `witness` is not NULL, *witness is the location of the
 * statement at one end of such a dependence (prefer the write), for diagnostics.
 * A loop that is not part of the region answers true (conservatively) with its own location. */
bool deps_loop_carries(DepInfo *d, const Stmt *loop, Var *const *ignore, int nignore, Loc *witness);

/* Whether every dependence between a statement inside sibling loop `a` and a statement inside
 * sibling loop `b` (a before b in the same block, iterating over the same range) relates
 * instances with the same value of the two loops' iterators, so that fusing a and b into one
 * loop (or one tile at a time) preserves it. Same ignore/witness semantics. Loops that are
 * not siblings of the region with a before b answer false with b's location. */
bool deps_fusable(DepInfo *d, const Stmt *a, const Stmt *b, Var *const *ignore, int nignore, Loc *witness);

/* The dependences as text (isl notation), for `--emit=ir` and debugging; the caller frees.
 * Lists the statements, the domain, the schedule, then the dependences array by array. */
char *deps_describe(DepInfo *d);

void deps_free(DepInfo *d);

#endif
