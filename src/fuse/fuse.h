/* fuse.h: the fuser. It finds the cascade of reductions over one loop axis in a region,
 * derives the repair terms (DESIGN §4), and rewrites the region into one pass over that
 * axis (rolling) or into chunks merged afterwards (split-k). */
#ifndef FUSECC_FUSE_H
#define FUSECC_FUSE_H

#include "../ir/ir.h"

typedef enum Reducer { RED_ADD, RED_MAX, RED_MIN } Reducer;

typedef enum Strategy { STRAT_ROLLING, STRAT_SPLITK } Strategy;

/* A producer: the value of an earlier level that a reduction's contribution reads. It is
 * either a reduction result or a map of reduction results (`inv = 1/sqrtf(ss/K + eps)`). */
typedef struct Producer {
	Var *var;
	int level;          /* the level after which it is final for the current tile */
	bool in_factor;     /* appears in a producer-only factor (needs != 0) */
	Var *used, *prev;   /* fused program: the sanitised value used this step and the last one */
	Var *used_part;     /* split-k: used, per chunk */
	Var *deferred;      /* the tag some accumulators carry instead of used (1: their factor
	                     * of this producer is applied once after the pass), or NULL */
} Producer;

/* The repair of one accumulator: how a partial value computed with producer values r is
 * re-tagged to r'. For RED_ADD: t * exp(sum lin_e) * exp2(sum lin_2) * prod factor(r')/factor(r);
 * for RED_MAX/MIN: t + sum lin_e (lin_2 and factors unused). lin_* are linear forms
 * sum coef_k * producer_k: coef[k] NULL means 0. */
typedef struct Repair {
	Expr **coef_e;  /* per producer of the region */
	Expr **coef_2;
	Expr **factors; /* producer-only factors P(r) (numerator) */
	int nfactors;
	Expr **inv_factors; /* producer-only factors in the denominator */
	int ninv_factors;
	bool *uses;        /* per producer: does this repair depend on it */
} Repair;

/* One accumulator over the fused axis: `X (f)= g` statements on the same variable. */
typedef struct Accum {
	Var *var;      /* scalar or array accumulator, declared outside the fused loops */
	Reducer red;
	int level;
	Stmt *stmt;    /* one of its reduction statements (for locations) */
	Stmt **nest;   /* loops between the level loop and the statement binding var's indices */
	int nnest;
	Expr *g;       /* the contribution, locals of the level inlined */
	Repair *repair; /* NULL when it reads no producer */
	Var *part;     /* split-k: the per-chunk partial */
	bool *defer;   /* per producer: tagged with its `deferred` value during the pass */
	Var *step_sum; /* a group of an expanded sum: each step's terms are summed here
	                * first, then added to var (or NULL) */
	Var *whole;    /* a group of an expanded sum: the accumulator the user wrote (or NULL) */
	/* An argmax (argmin) pair, var its value (red RED_MAX or RED_MIN): the index local
	 * the user keeps (idx = idx_f, idx_f a function of the loop's iterator) and the
	 * position the fuser keeps instead (argred.c), with its partial under split-k;
	 * last: ties go to the last position (`>=`), else to the first. NULL when not. */
	Var *idx;
	Expr *idx_f;
	Var *at, *at_part;
	bool last;
} Accum;

typedef struct Cascade {
	Program *prog;
	Region *region;
	const char *axis;      /* the fused loop's name */
	Strategy strategy;
	const char *why;       /* how the strategy was chosen, for the echo */
	long tile;             /* step of the fused loop (0: none given) */
	long splitk;           /* chunk count; 0: chosen at run time */
	bool twin;             /* rolling asked on the GPU for a decode: a split-k twin may run small grids */
	Stmt *row;             /* the block holding the fused loops (after normalisation) */
	Stmt **pre, **init, **levels, **post; /* partition of row->body; see fuse.c */
	int npre, ninit, nlevels, npost;
	Stmt ***mids;          /* maps evaluated after level k (mids[k][0..nmids[k]-1]) */
	int *nmids;
	Accum *accums;
	int naccums;
	Producer *producers;
	int nproducers;
	Stmt **recombined;     /* the sums fused as sums of separable terms: `x = sum_k c_k * x_k` */
	int nrecombined;
	StrVec *names;         /* every name in the function, generated ones included */
	Var *unresolved;       /* a local whose definitions inline_locals could not follow, or NULL */
	const char *concat_why; /* why two loops in a row over key sources were not read as one (fuse.c ConcatMatch), or NULL */
} Cascade;

/* Analyses and fuses every region of the program in place; each region's loop is replaced
 * by its fused form and its Cascade recorded for the printers. Reports refusals with
 * error_at and returns false. */
bool fuse_program(Program *p);

/* The cascade fused for a region of the program fused last, or NULL if the region has no
 * reductions to fuse. */
Cascade *fuse_cascade_of(const Region *r);

/* ---- specialize.c ---- */
enum { MAX_SPEC_PARAMS = 4, MAX_SPEC_COMBOS = 64 };
/* The run-time int parameters of a function that its GPU kernels are compiled for, and
 * the combinations of values: one set of kernels each. */
typedef struct SpecPlan {
	const Var *params[MAX_SPEC_PARAMS];
	int nparams; /* 0: nothing to specialise */
	long values[MAX_SPEC_COMBOS][MAX_SPEC_PARAMS];
	int ncombos;
	/* params[k] is the innermost stride of strided view unit_of[k] (Var.strides), compiled
	 * for 1 only: the tiles and row kernels read contiguous rows; NULL: a size. */
	const Var *unit_of[MAX_SPEC_PARAMS];
} SpecPlan;
/* Plans the specialisation of fused function f: the parameters a `specialize` clause
 * names (with its values), and the head dims (with the default values): parameters that
 * bound a contraction inside a fused pass (q.k), and then those that size the local
 * arrays of its regions (P.V's columns); and the innermost strides of strided views
 * (value 1). false after a located error. */
bool fuse_spec_plan(const Func *f, SpecPlan *sp);

/* Human-readable account of a cascade: levels, accumulators, producers, derived repairs. */
void fuse_describe(StrBuf *b, const Cascade *c);

/* ---- repair.c ---- */
/* The index of v among the cascade's producers, or -1. */
int producer_index(const Cascade *c, const Var *v);
/* Derives the repair of `a` (its g over the producers of c). false, after an error at the
 * statement that says why, when g is not separable. */
bool repair_derive(Cascade *c, Accum *a);
/* Whether a's contribution has a repair repair_derive can derive; if not, *why says why
 * (nothing is reported). */
bool repair_separable(Cascade *c, Accum *a, const char **why);
/* The producer e reads other than through tests of its finiteness (`m == -INFINITY`,
 * `isfinite(m)`: constant in the fused program, which reads producers sanitised); NULL:
 * none. */
const Var *repair_reads_producer(const Cascade *c, const Expr *e);
/* The value cond tests for infinity (`x == -INFINITY`, `x != -INFINITY`, `x > -INFINITY`,
 * `isfinite(x)`, negated), casts stripped, with *val cond's value at a finite x; NULL
 * when cond is no such test. */
const Expr *repair_infinity_test(const Expr *cond, bool *val);
/* Whether cond only tests a value for NaN or infinity (isnan, isinf, isfinite, negated):
 * in the fused program, which reads producers sanitised, the data decides such a test of
 * a value computed from them (`if (isnan(p)) p = 0;`), not the producers' partial
 * values. */
bool repair_nan_test(const Expr *cond);
/* A sum's contribution written as a sum of separable terms (repair.c, "sums of separable
 * terms"): group k accumulates contrib[k] on its own, and the sum is
 *   sum_k (neg[k] ? -1 : 1) * coef[k] * acc_k     (coef[k] NULL: 1)
 * with coef[k] reading only producers and row-level values. */
typedef struct Expansion {
	int ngroups;
	Expr **contrib;
	Expr **coef;
	bool *neg;
	const char **names; /* a suffix for group k's accumulator: the arrays it reads */
	int nshifts;        /* the shifts the terms read (x - x_shift): locals set before the pass */
	Var **shift_vars;
	Expr **shift_inits;
} Expansion;
/* Expands a's contribution: 1 on success (checked numerically at random points), 0 with
 * *why when it does not expand, -1 after an error (the check failed). */
int repair_expand(Cascade *c, const Accum *a, Expansion *x, const char **why);
/* The recombined sum of an expansion, with accs[k] group k's accumulator (its element). */
Expr *repair_expansion_sum(Cascade *c, const Expansion *x, Expr **accs, Loc l);
/* Checks the derived repair numerically at random points: h(g(r, x), r, r') == g(r', x). */
bool repair_validate(Cascade *c, Accum *a);
/* The repaired value of accumulator element `t` going from producer values `from` to `to`
 * (arrays of Var* indexed like c->producers). */
Expr *repair_apply(Cascade *c, const Accum *a, Expr *t, Var **from, Var **to);
/* Whether the producer values differ between `from` and `to` for this repair (guard). */
Expr *repair_changed(Cascade *c, const Accum *a, Var **from, Var **to);
void repair_describe(StrBuf *b, const Cascade *c, const Accum *a);

/* ---- reduce.c ---- */
/* Recognises `s` as a reduction statement: `x += e`, `x = x + e`, `x = e + x`, `x -= e` (as
 * + of -e), `x = fmaxf(x, e)`, `x = fminf(x, e)`, `x = x > e ? x : e` (and the other
 * orders), `if (e > x) x = e`. On success fills target (the lhs expression), red and g. */
bool reduce_match(Program *p, Stmt *s, Expr **target, Reducer *red, Expr **g);
Expr *reducer_identity(Program *p, Reducer r, ScalarType ty, Loc loc);
const char *reducer_name(Reducer r);
/* Accumulator a quoted for a message, as the user wrote it: "'acc'", or for a group of
 * an expanded sum "'acc' (a term of it, summed apart)" (its own name is the fuser's). */
const char *accum_quoted(Program *p, const Accum *a);
/* An argmax (argmin) step: `if (g > x) { x = g; i = f; }` (the two assignments in either
 * order; `x < g`; `<` keeps the smallest; `>=` and `<=` give ties to the last index), x
 * and i scalars, g and f reading neither. */
typedef struct ArgStep {
	Expr *val, *idx; /* x and i */
	Expr *g, *f;
	Stmt *set_idx;   /* the statement `i = f` */
	Reducer red;     /* RED_MAX or RED_MIN */
	bool last;
} ArgStep;
bool arg_match(const Stmt *s, ArgStep *a);
/* Whether cmp compares x with a value g (`g > x`, `x < g`, `>=`, ...): *red whether x
 * then takes a max or a min, *last whether ties go to the later element. */
bool arg_compare_of(const Expr *cmp, const Expr *x, Expr **g, Reducer *red, bool *last);

/* ---- argred.c: argmax and argmin pairs in a cascade ---- */
/* Checks an argmax step of level loop lvl for the fuser: scalar targets declared outside
 * the level, an index that is a function of the level's iterator (recomputed after the
 * pass from the position kept). false after a located error. */
bool arg_check(const Stmt *lvl, const Stmt *s, const ArgStep *m);
/* Rewrites each argmax pair of the cascade to keep the position of its value (an int
 * local, declared with the inits at a sentinel: no element taken) instead of the user's
 * index, which is set from the position after the pass (the first statement of post). */
void arg_positions(Cascade *c);
/* A best value and its index kept under a guard as well, `if (e != i1 && p > p2) { p2 =
 * p; i2 = e; }` (the second of a top-2, skipping the first), becomes the guard around the
 * update, `if (e != i1) { if (p > p2) { ... } }`: the same statement in C (&& does not
 * evaluate its right side when its left is false), in the form the update is read in. */
void arg_nest_guards(Program *p, Stmt *s);
/* An argmax arm that sets values besides the best one and its position (`if (key >
 * best) { best = key; tok = v; logit = l; }`) keeps the position alone, and the values
 * are computed again at it after the loop (argred.c, "payloads"); left alone where one
 * cannot be. */
void arg_payloads(Cascade *c, Stmt *s);
/* The statement of if s's arm that takes the compared value, `best = key` under `if (key >
 * best)`: an argmax's (arg_compare_of); NULL when s is no such if. */
const Stmt *arg_arm_value(const Stmt *s);
/* Split-k: the declaration of accumulator a's position partial (int at_part[nchunks]). */
Stmt *arg_part_decl(Cascade *c, Accum *a, Var *nchunks);
/* Split-k: store chunk ch's pair (store), or merge it into the pair: the larger (smaller)
 * value wins, equal values go to the lower (last: higher) position; a chunk that took no
 * element holds the sentinel, which never wins. */
Stmt *arg_part_stmt(Cascade *c, const Accum *a, Var *ch, bool store);
/* The index of a position accumulator: a whose `at` is v, or NULL. */
const Accum *arg_accum_of_at(const Cascade *c, const Var *v);

/* ---- gridsum.c: sums across the rows into one output element ---- */
enum { MAX_GRID_SUMS = 8 };
/* The elements of parameter arrays a region adds to from every row (`loss[0] += l;`,
 * `-=`; or takes the maximum or minimum with, `amax[0] = fmaxf(amax[0], a);`): a float,
 * double or (sums) integer array of one dimension, literal subscripts, and no other access
 * to the array in the region (each element a sum of its own, one kind of step each); or
 * a set-up scalar so accumulated (Var.accum).
 * Such a sum carries no dependence that stops a loop from being parallel (any order
 * gives the sum up to rounding). elems[i]: the element (the EX_VAR of a scalar). */
typedef struct GridSums {
	Var *vars[MAX_GRID_SUMS];
	const Expr *elems[MAX_GRID_SUMS];
	AccumKind kinds[MAX_GRID_SUMS]; /* a sum, or a maximum or minimum (fmaxf, fminf) */
	int n;
} GridSums;
void grid_sums(const Stmt *region, GridSums *g);
/* The type a row's part of a grid sum into v adds in: v's own float type; 64-bit
 * integers for integer counts. */
ScalarType grid_sum_type(const Var *v);
/* The start of a row's part of a grid step of kind k in type ty: 0, -INFINITY, INFINITY. */
Expr *grid_identity(Program *p, AccumKind k, ScalarType ty, Loc loc);
/* The grid sum of g that e (an element, or a set-up scalar) adds to, or -1. */
int grid_sum_of(const GridSums *g, const Expr *e);
/* The name grid sum k's locals start with: its variable's, with the subscript when g sums
 * into another element of it too (`stats0`, `stats1`). */
const char *grid_sum_base(Program *p, const GridSums *g, int k);

/* ---- expression helpers (expr.c) ---- */
/* Whether s declares v (a local, or the iterator of a loop in s). */
bool stmt_declares(const Stmt *s, const Var *v);
/* Copy of e with every read of `from` (EX_VAR or EX_INDEX base) replaced. */
Expr *expr_subst_var(Program *p, const Expr *e, const Var *from, Var *to);
Stmt *stmt_subst_var(Program *p, const Stmt *s, const Var *from, Var *to);
Stmt *stmt_copy(Program *p, const Stmt *s);
/* Copy of s with every read and write of scalar `from` (EX_VAR, lhs included) replaced by
 * a copy of `to` (an element of an expanded array, say); ST_DECL of `from` becomes an
 * assignment of its initialiser (or nothing). */
Stmt *stmt_expand_scalar(Program *p, const Stmt *s, const Var *from, const Expr *to);
Stmt *st_block(Program *p, Stmt **body, int n, Loc loc);
Stmt *st_assign(Program *p, Expr *lhs, AssignOp op, Expr *rhs, Loc loc);
Stmt *st_decl(Program *p, Var *v, Expr *init, Loc loc);
Stmt *st_for(Program *p, Var *v, Expr *lo, Expr *hi, long step, Stmt *body, Loc loc);
Expr *ex_min(Program *p, Expr *a, Expr *b, Loc loc); /* a < b ? a : b, ints */
/* A fresh local whose name does not clash with any name used in the function. */
Var *fresh_var(Cascade *c, const char *base, ScalarType ty, VarKind kind);
/* Evaluates e in double precision with leaves from env; NaN if it cannot. */
typedef double (*LeafFn)(const Expr *leaf, void *ctx);
double expr_eval(const Expr *e, LeafFn leaf, void *ctx);
/* A pseudo-random value for a leaf (an element or a variable) fixed by its printed form and
 * the seed, so that two evaluations see the same leaf alike: in [-1.5, 1.5), or a small
 * non-negative integer for integer leaves. */
double leaf_random(const Expr *e, unsigned seed);
double leaf_random_ctx(const Expr *e, void *seed); /* a LeafFn: seed points to the unsigned */
/* Copy of e with every subexpression equal to x (an element, a variable, any expression)
 * replaced by a copy of to. */
Expr *expr_subst_equal(Program *p, const Expr *e, const Expr *x, const Expr *to);
/* expr_subst_equal as an ExprMap: ctx points to the pair {x, to}. */
Expr *expr_subst_equal_map(Program *p, const Expr *e, void *ctx);
/* Whether e reads only literals and scalar parameters (no iterator, local or array): a
 * value the same in every iteration, a flag rather than a mask. */
bool expr_reads_params_only(const Expr *e);
/* Whether e reads elem's array only at elem (an array element). */
bool expr_reads_only_elem(const Expr *e, const Expr *elem);
/* The statements held at *slot (a loop's body, an if's arm): a block's, or the one
 * statement; *n of them (0 for a NULL slot or an empty arm). */
Stmt **slot_stmts(Stmt **slot, int *n);
/* Whether an assignment in s stores a variable that e reads. */
bool stmt_stores_read_by(const Stmt *s, const Expr *e);
/* The first local array declared among decls[0..nd) that a statement of mid[0..nm) writes
 * and one of after[0..na) reads before any of them writes it, or NULL: a value that
 * crosses from a split-k region's chunks to what follows them, which the chunks'
 * partials do not carry (an accumulator is set again, to its identity, before its merge). */
const Var *stmts_carried_array(Stmt *const *decls, int nd, Stmt *const *mid, int nm, Stmt *const *after, int na);
/* Replaces statement `old` inside s by repl[0..n), spliced into its block; false if s does
 * not hold it. */
bool stmt_replace(Program *p, Stmt *s, const Stmt *old, Stmt **repl, int n);
/* Removes from the blocks of s the declarations of scalar locals that nothing in scope
 * reads or assigns any more; true if one went (a removal may free others: call again). */
bool stmt_drop_dead_locals(const Stmt *scope, Stmt *s);
/* A copy of s, and of what it nests, with each of its expressions e (bounds, sides,
 * conditions) replaced by f(p, e, ctx). */
typedef Expr *(*ExprMap)(Program *p, const Expr *e, void *ctx);
Stmt *stmt_map_exprs(Program *p, const Stmt *s, ExprMap f, void *ctx);
/* Whether f(e, ctx) holds for every expression e of s and of what it nests (bounds,
 * sides, conditions; true for s NULL), stopping at the first for which it does not. */
typedef bool (*ExprTest)(const Expr *e, void *ctx);
bool stmt_all_exprs(const Stmt *s, ExprTest f, void *ctx);

/* ---- stores.c ---- */
/* Leaves out each store to an output element, made in a loop with a value that reads a
 * result of the row, that a later loop over the same range rewrites in place (y /= s):
 * the loop reads the value it computed instead, and the rewrite computes it again. */
void fuse_defer_stores(Program *p, Stmt *s);
/* In each block of s (stores.c): first gives a row of products that a later loop over
 * `axis` overwrites in place (scores turned into probabilities in the same array) a local
 * row of its own up to the overwrite; then moves each store to an output row, made in a
 * loop over `axis` with a value that reads a result of the row where the fused pass would
 * see it partial, to a copy of its loop after the row (computing the value again there),
 * later reads of the row reading a local row instead; then each loop over `axis` after the
 * pass that reads a local row defined by a product in an earlier loop (scores s[j] =
 * q.k[j]), or by values of such a row, computes the row's element again, so that the row
 * need not outlive the pass. */
void fuse_store_rows(Cascade *c, Stmt *s, const char *axis);

/* e with `x / E * E + x % E` folded to x, and terms added and subtracted in one integer
 * sum cancelled (a collapsed block nest's subscripts); a copy. */
Expr *fuse_fold_divmod(Program *p, const Expr *e);

/* ---- blocks.c ---- */
/* An online softmax by blocks of keys (a Triton port's `start_n += BLOCK_N` loop with loops
 * over each block's keys) as the same loop with one key per block: a new loop over the
 * keys, which online.c then undoes (only where its rescales are checked exact: the grouping
 * of the keys into blocks does not change the result then). NULL where loop is not such a
 * loop (*why NULL) or does not fit (*why says what, located). */
Stmt *fuse_unblock_online(Program *p, const Stmt *loop, const char **why);

/* ---- online.c ---- */
/* Rewrites each loop in s that keeps a running max and rescales its sums by hand (online
 * softmax written out) into the max's loop and the sums' loop at the final max, when the
 * rescales are checked to be exact; other loops are left as written. Returns why the first
 * loop that looked like one was left as written, or NULL. */
const char *fuse_undo_online(Program *p, Stmt *s);

#endif
