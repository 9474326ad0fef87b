/* specialize.c: which run-time sizes the GPU kernels are compiled for. A head dim given
 * as `int D` sizes the registers and shared-memory tiles of a kernel, so the GPU printers
 * need it as a constant: fusecc compiles the function once per value (the front end reads
 * the parameter as that constant) and the launcher picks the kernels at run time. */
#include "fuse.h"

#include <string.h>

/* The head dims models use; MLA pairs a q.k dim of 192 with values of 128. */
static const long default_values[] = {64, 96, 128, 192, 256};
enum { NDEFAULT = sizeof default_values / sizeof default_values[0] };

/* The sizes that may be specialised: f's int parameters, then the set-up quotients the
 * subscripts read as sizes (`int hs = C / NH;`, Func.divs), which the launcher computes. */
static int nsizes(const Func *f) { return f->nparams + f->ndivs; }

static const Var *size_at(const Func *f, int i)
{
	const Var *v = i < f->nparams ? f->params[i] : f->divs[i - f->nparams].q;
	return !v->ndim && v->ty == TY_INT ? v : NULL;
}

static int spec_index(const SpecPlan *sp, const Var *v)
{
	for (int k = 0; k < sp->nparams; k++)
		if (sp->params[k] == v)
			return k;
	return -1;
}

/* Adds int parameter v to the plan (once). */
static bool add_param(SpecPlan *sp, const Var *v, Loc loc)
{
	if (spec_index(sp, v) >= 0)
		return true;
	if (sp->nparams == MAX_SPEC_PARAMS) {
		error_at(loc, "more than %d run-time sizes need specialising: give some of them as constants", MAX_SPEC_PARAMS);
		return false;
	}
	sp->params[sp->nparams++] = v;
	return true;
}

/* The int parameters read by the extents of the local arrays in s. */
static bool add_local_extents(SpecPlan *sp, const Func *f, const Stmt *s)
{
	if (!s)
		return true;
	if (s->kind == ST_DECL)
		for (int d = 0; d < s->var->ndim; d++)
			for (int i = 0; i < nsizes(f); i++)
				if (size_at(f, i) && expr_reads_var(s->var->dims[d], size_at(f, i)) && !add_param(sp, size_at(f, i), s->loc))
					return false;
	for (int i = 0; i < s->nbody; i++)
		if (!add_local_extents(sp, f, s->body[i]))
			return false;
	return true;
}

/* Whether loop l accumulates across its iterations: some assignment in it updates a
 * value (reads it, or compounds it) at a place that does not move with l's iterator. */
static bool accumulates(const Stmt *s, const Var *iv)
{
	if (s->kind == ST_ASSIGN) {
		bool moves = false;
		for (int i = 0; i < s->lhs->nargs; i++)
			moves |= expr_reads_var(s->lhs->args[i], iv);
		if (!moves && (s->aop != AS_SET || expr_reads_var(s->rhs, s->lhs->var)))
			return true;
	}
	for (int i = 0; i < s->nbody; i++)
		if (accumulates(s->body[i], iv))
			return true;
	return false;
}

/* Whether e reads an element with a subscript that reads d and, as with_j says, one that
 * reads j or none that does. */
static bool reads_at(const Expr *e, const Var *d, const Var *j, bool with_j)
{
	if (e->kind == EX_INDEX) {
		bool at_d = false, at_j = false;
		for (int i = 0; i < e->nargs; i++) {
			at_d |= expr_reads_var(e->args[i], d);
			at_j |= expr_reads_var(e->args[i], j);
		}
		if (at_d && at_j == with_j)
			return true;
	}
	for (int i = 0; i < e->nargs; i++)
		if (reads_at(e->args[i], d, j, with_j))
			return true;
	return false;
}

/* Whether e is an element of an integer array, through casts (`(float)mask[b][t]`): the
 * tiles multiply no such operand (a masked mean over tokens is a row kernel's sum, its
 * token count no head dim). */
static bool int_operand(const Expr *e)
{
	while (e->kind == EX_CAST)
		e = e->args[0];
	return e->kind == EX_INDEX && !scalar_is_float(e->var->ty);
}

/* Whether e holds a product the tiles multiply on the tensor cores: a row operand read
 * along d and not along the pass's iterator j (q[..][i][d], a local copy qs[d]) times a
 * column operand read along both (k[..][j][d]). GroupNorm's `sum += x[..][cc][p]` and
 * `sq += dev * dev` are none. */
static bool contraction(const Expr *e, const Var *d, const Var *j)
{
	if (!e)
		return false;
	if (e->kind == EX_BIN && e->bop == OP_MUL && !int_operand(e->args[0]) && !int_operand(e->args[1]))
		for (int a = 0; a < 2; a++)
			if (reads_at(e->args[a], d, j, false) && reads_at(e->args[1 - a], d, j, true))
				return true;
	for (int i = 0; i < e->nargs; i++)
		if (contraction(e->args[i], d, j))
			return true;
	return false;
}

static bool stmt_contracts(const Stmt *s, const Var *d, const Var *j)
{
	if (!s)
		return false;
	if (s->kind == ST_ASSIGN && contraction(s->rhs, d, j))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (stmt_contracts(s->body[i], d, j))
			return true;
	return false;
}

/* The int parameters that bound a contraction inside the fused loop over the iterator j
 * (NULL outside it): the head dim of q.k (`for d < D: dot += q * k[..][j][d]`). *found
 * tells whether any did. A width that is only an output's (a GEMM's N) is not one, nor a
 * row kernel's inner loop (GroupNorm's `p < HW`): the fallback and row kernels take any
 * value at run time. */
static bool add_head_dims(SpecPlan *sp, const Func *f, const Stmt *s, const char *axis, const Var *j, bool *found)
{
	if (!s)
		return true;
	if (s->kind == ST_FOR) {
		if (j && accumulates(s->body[0], s->var) && stmt_contracts(s->body[0], s->var, j))
			for (int i = 0; i < nsizes(f); i++)
				if (size_at(f, i) && expr_reads_var(s->hi, size_at(f, i))) {
					*found = true;
					if (!add_param(sp, size_at(f, i), s->loc))
						return false;
				}
		if (!strcmp(s->var->name, axis))
			j = s->var;
	}
	for (int i = 0; i < s->nbody; i++)
		if (!add_head_dims(sp, f, s->body[i], axis, j, found))
			return false;
	return true;
}

static const Var *int_param(const Func *f, const char *name)
{
	for (int i = 0; i < nsizes(f); i++)
		if (size_at(f, i) && !strcmp(size_at(f, i)->name, name))
			return size_at(f, i);
	return NULL;
}

/* Appends combination `vals` (nparams values) unless it is there already. */
static bool add_combo(SpecPlan *sp, const long *vals, Loc loc)
{
	for (int c = 0; c < sp->ncombos; c++)
		if (!memcmp(sp->values[c], vals, sizeof(long) * (size_t)sp->nparams))
			return true;
	if (sp->ncombos == MAX_SPEC_COMBOS) {
		error_at(loc, "more than %d combinations of specialised sizes: list fewer values in 'specialize'", MAX_SPEC_COMBOS);
		return false;
	}
	memcpy(sp->values[sp->ncombos++], vals, sizeof(long) * (size_t)sp->nparams);
	return true;
}

bool fuse_spec_plan(const Func *f, SpecPlan *sp)
{
	memset(sp, 0, sizeof *sp);
	const TuneAxis *listed[MAX_SPEC_PARAMS] = {0};
	Loc loc = f->loc;
	for (int r = 0; r < f->nregions; r++) {
		const Schedule *s = f->regions[r]->loop->sched;
		for (int k = 0; k < s->nspec; k++) {
			const Var *v = int_param(f, s->spec[k].key);
			if (!v) {
				error_at(s->spec[k].loc, "'%s' in 'specialize' is not an int parameter of '%s'", s->spec[k].key, f->name);
				return false;
			}
			if (!add_param(sp, v, s->spec[k].loc))
				return false;
			listed[spec_index(sp, v)] = &s->spec[k];
			loc = s->spec[k].loc;
		}
	}
	/* A function with a head dim gets every size of its local arrays specialised too (MLA's
	 * values of DV columns next to q.k over DK); one without keeps run-time widths. */
	bool head = false;
	for (int r = 0; r < f->nregions; r++) {
		const Cascade *c = fuse_cascade_of(f->regions[r]);
		if (c && !add_head_dims(sp, f, f->regions[r]->loop, c->axis, NULL, &head))
			return false;
	}
	for (int r = 0; head && r < f->nregions; r++)
		if (!add_local_extents(sp, f, f->regions[r]->loop))
			return false;
	/* `q[b * sqb + i * sqm + d * sqd]`: the kernels are compiled for sqd = 1 */
	for (int i = 0; i < f->nparams; i++) {
		const Var *a = f->params[i];
		const Expr *st = a->strides ? a->strides[a->ndim - 1] : NULL;
		if (!st || st->kind != EX_VAR || !int_param(f, st->var->name))
			continue;
		if (!add_param(sp, st->var, a->loc))
			return false;
		int k = spec_index(sp, st->var);
		if (!listed[k] && !sp->unit_of[k])
			sp->unit_of[k] = a;
	}
	if (!sp->nparams)
		return true;
	/* The unlisted parameters take the default values together (all equal, and the MLA
	 * pairs when there are two); the listed ones every value given, in every combination. */
	long vals[MAX_SPEC_PARAMS];
	int nfree = 0;
	for (int k = 0; k < sp->nparams; k++)
		nfree += !listed[k] && !sp->unit_of[k];
	long defaults[NDEFAULT + 2][MAX_SPEC_PARAMS];
	int ndef = 0;
	for (int d = 0; d < NDEFAULT; d++, ndef++)
		for (int k = 0; k < MAX_SPEC_PARAMS; k++)
			defaults[ndef][k] = default_values[d];
	if (nfree == 2) {
		defaults[ndef][0] = 192, defaults[ndef++][1] = 128;
		defaults[ndef][0] = 128, defaults[ndef++][1] = 192;
	}
	if (!nfree)
		ndef = 1;
	/* Odometer over the listed parameters' values, times the default rows. */
	int pos[MAX_SPEC_PARAMS] = {0};
	for (;;) {
		for (int d = 0; d < ndef; d++) {
			int fk = 0;
			for (int k = 0; k < sp->nparams; k++)
				vals[k] = listed[k] ? listed[k]->values[pos[k]] : sp->unit_of[k] ? 1 : defaults[d][fk++];
			if (!add_combo(sp, vals, loc))
				return false;
		}
		int k = 0;
		for (; k < sp->nparams; k++) {
			if (!listed[k])
				continue;
			if (++pos[k] < listed[k]->nvalues)
				break;
			pos[k] = 0;
		}
		if (k == sp->nparams)
			break;
	}
	return true;
}
