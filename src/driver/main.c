/* main.c: the fusecc driver: command line, pipeline, and writing the output so that a
 * failed run never leaves a half-written file behind. */
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../emit/emit.h"
#include "../front/front.h"
#include "../front/pragma.h"
#include "../fuse/fuse.h"
#include "../version.h"
#include "args.h"
#include "resource.h"

/* fusecc's own headers (fusecc.h), found from the binary that runs (resource.c). */
static const char *include_dir;

/* The temporary output, removed if fusecc dies: no half-written output, even on a crash. */
static char tmp_path[4096];

static void on_crash(int sig)
{
	static const char msg[] = "fusecc: internal error: crashed (this is a bug in fusecc; please report it with the input)\n";
	if (tmp_path[0])
		unlink(tmp_path);
	ssize_t r = write(2, msg, sizeof msg - 1);
	(void)r;
	(void)sig;
	_exit(EXIT_INTERNAL);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* Default output: the input's base name with the emit kind's extension, in the current
 * directory, as a C compiler places its objects. */
static char *default_output(const char *input, Emit e)
{
	static const char *const ext[] = {[EMIT_C] = ".fused.c", [EMIT_CUDA] = ".cu", [EMIT_HIP] = ".hip", [EMIT_IR] = ".ir", [EMIT_TORCH] = "_torch.cpp"};
	const char *b = base_name(input);
	size_t n = strlen(b);
	if (n > 2 && !strcmp(b + n - 2, ".c"))
		n -= 2;
	char *r = malloc(n + 16);
	memcpy(r, b, n);
	strcpy(r + n, ext[e]);
	return r;
}

/* A temporary file next to `path`, renamed over it once complete. */
static bool write_atomic(const char *path, const char *text, size_t len)
{
	if (snprintf(tmp_path, sizeof tmp_path, "%s.tmp.XXXXXX", path) >= (int)sizeof tmp_path) {
		error_plain("output path too long");
		tmp_path[0] = 0;
		return false;
	}
	int fd = mkstemp(tmp_path);
	if (fd < 0) {
		error_plain("cannot write '%s': %s", path, strerror(errno));
		tmp_path[0] = 0;
		return false;
	}
	FILE *f = fdopen(fd, "wb");
	bool ok = f && fwrite(text, 1, len, f) == len;
	ok = (f ? fclose(f) == 0 : (close(fd), false)) && ok;
	/* mkstemp makes the file 0600; outputs are ordinary files. */
	mode_t mask = umask(0);
	umask(mask);
	ok = ok && chmod(tmp_path, 0666 & ~mask) == 0;
	if (!ok || rename(tmp_path, path) != 0) {
		error_plain("cannot write '%s': %s", path, strerror(errno ? errno : EIO));
		unlink(tmp_path);
		tmp_path[0] = 0;
		return false;
	}
	tmp_path[0] = 0;
	return true;
}

/* Writes to something that is not a regular file (/dev/null, a pipe) in place. */
static bool write_in_place(const char *path, const char *text, size_t len)
{
	errno = 0;
	FILE *f = fopen(path, "wb");
	bool ok = f && fwrite(text, 1, len, f) == len;
	ok = (f ? fclose(f) == 0 : false) && ok;
	if (!ok)
		error_plain("cannot write '%s': %s", path, strerror(errno ? errno : EIO));
	return ok;
}

/* Writes `len` bytes to `path` through a temporary file in the same directory and a
 * rename, so readers (and make) see the old file or the whole new one. A symbolic link
 * is written through (its target is replaced, not the link); a device or a pipe is
 * written in place: renaming over /dev/null would replace it with a file. */
static bool write_output(const char *path, const char *text, size_t len)
{
	if (!strcmp(path, "-")) {
		fwrite(text, 1, len, stdout);
		return fflush(stdout) == 0;
	}
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return write_in_place(path, text, len);
	char *real = NULL;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		if (!(real = realpath(path, NULL)))
			return write_in_place(path, text, len); /* a dangling link: creates its target */
		path = real;
	}
	bool ok = write_atomic(path, text, len);
	free(real);
	return ok;
}

/* Make's dependency syntax: spaces and '#' escaped, '$' doubled. */
static void put_make_name(StrBuf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == ' ' || *s == '#')
			sb_putc(b, '\\');
		if (*s == '$')
			sb_putc(b, '$');
		sb_putc(b, *s);
	}
}

/* Whether `path` lies under directory `dir` (at a '/' boundary). */
static bool under_dir(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	return n > 0 && !strncmp(path, dir, n) && path[n] == '/';
}

/* The headers -MMD leaves out: those in the compiler's system directories, in fusecc's
 * own include/ (searched with -idirafter, a system directory), and in directories given
 * with -isystem or -idirafter after `--`. */
static bool is_system_header(const Args *a, const char *path)
{
	const char *const sys[] = {"/usr/include", "/usr/local/include", "/usr/lib", "/usr/lib64", include_dir};
	for (size_t i = 0; i < sizeof sys / sizeof sys[0]; i++)
		if (under_dir(path, sys[i]))
			return true;
	for (int i = 0; i < a->clang_args.n; i++) {
		const char *s = a->clang_args.v[i], *dir = NULL;
		if (!strcmp(s, "-isystem") || !strcmp(s, "-idirafter"))
			dir = i + 1 < a->clang_args.n ? a->clang_args.v[i + 1] : NULL;
		else if (!strncmp(s, "-isystem", 8))
			dir = s + 8;
		else if (!strncmp(s, "-idirafter", 10))
			dir = s + 10;
		if (dir && under_dir(path, dir))
			return true;
	}
	return false;
}

/* The dependency file: -MF, else the output with its last extension replaced by .d
 * (x.cu -> x.d, x.fused.c -> x.fused.d), as a C compiler names it. */
static char *deps_path(const Args *a, const char *output)
{
	if (a->mf)
		return strdup(a->mf);
	char *mf = malloc(strlen(output) + 3);
	strcpy(mf, output);
	char *dot = strrchr(mf, '.');
	char *slash = strrchr(mf, '/');
	if (dot && dot != mf && (!slash || dot > slash + 1))
		*dot = 0;
	strcat(mf, ".d");
	return mf;
}

/* A header next to an input in the current directory is "./k.h" to libclang: "k.h",
 * as a C compiler writes it. */
static const char *dep_name(const char *path)
{
	while (path[0] == '.' && path[1] == '/' && path[2])
		path += 2;
	return path;
}

static bool write_deps(const Args *a, const char *output, const char *path, const StrVec *deps)
{
	StrBuf b = {0};
	const char *target = a->mt ? a->mt : output;
	put_make_name(&b, target);
	sb_putc(&b, ':');
	for (int i = 0; i < deps->n; i++) {
		if (a->mmd && i > 0 && is_system_header(a, deps->v[i]))
			continue;
		sb_puts(&b, " \\\n ");
		put_make_name(&b, dep_name(deps->v[i]));
	}
	sb_putc(&b, '\n');
	for (int i = 1; a->mp && i < deps->n; i++) {
		if (a->mmd && is_system_header(a, deps->v[i]))
			continue;
		sb_putc(&b, '\n');
		put_make_name(&b, dep_name(deps->v[i]));
		sb_puts(&b, ":\n");
	}
	bool ok = write_output(path, b.s, b.len);
	sb_free(&b);
	return ok;
}

/* Whether two paths name one file: the same inode, or the same name when one of them
 * does not exist yet. */
static bool same_file(const char *x, const char *y)
{
	struct stat sx, sy;
	if (stat(x, &sx) == 0 && stat(y, &sy) == 0)
		return sx.st_dev == sy.st_dev && sx.st_ino == sy.st_ino;
	return !strcmp(x, y);
}

static void emit_ir(StrBuf *out, const Program *p, const char *input_name)
{
	emit_banner(out, "/*", input_name);
	for (int f = 0; f < p->nfuncs; f++) {
		const Func *fn = p->funcs[f];
		sb_printf(out, "\nfunction %s(", fn->name);
		for (int i = 0; i < fn->nparams; i++) {
			if (i)
				sb_puts(out, ", ");
			print_decl(out, fn->params[i]);
		}
		sb_puts(out, ")\n");
		for (int r = 0; r < fn->nregions; r++) {
			sb_printf(out, "region %s: ", fn->regions[r]->name);
			print_schedule(out, fn->regions[r]->loop->sched);
			sb_putc(out, '\n');
			const Cascade *c = fuse_cascade_of(fn->regions[r]);
			if (c)
				fuse_describe(out, c);
			print_stmt(out, fn->regions[r]->loop, 0);
		}
	}
}

/* The split-k twin of function f, a decode whose one region is under `rolling` (the
 * fuser's Cascade.twin), parsed with the options o and fused with split-k: printed into
 * out with suffix + "_sk" where it gets split-k tensor-core tiles without a diagnostic,
 * and its launcher's name returned (in arena); else nothing printed, its diagnostics
 * dropped, and NULL. */
static const char *emit_twin(StrBuf *out, const Args *a, const FrontOptions *o, int f, const char *suffix, GpuKind kind, Arena *arena)
{
	DiagMark mark = diag_mark();
	FILE *saved = diag_stream;
	char *held = NULL;
	size_t nheld = 0;
	if (!(diag_stream = open_memstream(&held, &nheld))) {
		diag_stream = saved;
		return NULL;
	}
	Program *q = front_parse(a->input, o, NULL);
	const char *name = NULL;
	StrBuf tw = {0};
	if (q && q->nfuncs > f && q->funcs[f]->nregions == 1) {
		q->split_rows = q->decode_splitk = true;
		const char *sfx = arena_printf(&q->arena, "%s_sk", suffix ? suffix : "");
		Region *r = q->funcs[f]->regions[0];
		r->name = arena_printf(&q->arena, "%s%s", r->name, sfx);
		if (fuse_program(q) && emit_gpu_splitk_tiles(q, r, kind) && emit_gpu_function(&tw, q, q->funcs[f], kind, sfx, NULL) && error_count() == mark.errors &&
		    warning_count() == mark.warnings)
			name = arena_printf(arena, "%s_launch%s", q->funcs[f]->name, sfx);
	}
	program_free(q);
	fclose(diag_stream);
	free(held);
	diag_stream = saved;
	if (name)
		sb_puts(out, tw.s);
	else
		diag_rewind(mark);
	sb_free(&tw);
	return name;
}

/* The CUDA or HIP file. A function whose kernels need run-time sizes as constants (a head
 * dim given as `int D`) is parsed and fused again once per combination of values, with
 * the sizes read as constants, and gets a launcher that picks the combination at run time;
 * so is one with a split-k twin (emit_twin); the other functions print from p as they are. */
static bool emit_gpu_file(StrBuf *out, const Args *a, const FrontOptions *fo, Program *p, const char *name, GpuKind kind)
{
	SpecPlan *plans = calloc((size_t)p->nfuncs + 1, sizeof *plans);
	bool *twins = calloc((size_t)p->nfuncs + 1, sizeof *twins);
	bool ok = true, any = false;
	for (int f = 0; f < p->nfuncs; f++) {
		ok &= fuse_spec_plan(p->funcs[f], &plans[f]);
		const Cascade *c = p->funcs[f]->nregions == 1 ? fuse_cascade_of(p->funcs[f]->regions[0]) : NULL;
		twins[f] = c && c->twin;
		any |= plans[f].nparams > 0 || twins[f];
	}
	GpuOptions go = {a->line_directives, !a->no_warn_fallback};
	if (ok && !any)
		ok = emit_gpu(out, p, name, kind, &go);
	else if (ok)
		emit_gpu_begin(out, name, kind, &go, true);
	for (int f = 0; ok && any && f < p->nfuncs; f++) {
		const SpecPlan *sp = &plans[f];
		for (int c = 0; ok && c < (sp->nparams ? sp->ncombos : 1); c++) {
			const char *names[MAX_SPEC_PARAMS];
			FrontOptions o = *fo;
			o.reparse = true;
			if (sp->nparams) {
				for (int k = 0; k < sp->nparams; k++)
					names[k] = sp->params[k]->name;
				o.spec_fn = p->funcs[f]->name;
				o.spec_names = names;
				o.spec_values = sp->values[c];
				o.nspec = sp->nparams;
			}
			Program *q = front_parse(a->input, &o, NULL);
			ok = q && q->nfuncs == p->nfuncs;
			if (q)
				q->split_rows = true;
			const char *suffix = ok && sp->nparams ? spec_suffix(&q->arena, sp, c) : NULL;
			for (int r = 0; suffix && r < q->funcs[f]->nregions; r++)
				q->funcs[f]->regions[r]->name = arena_printf(&q->arena, "%s%s", q->funcs[f]->regions[r]->name, suffix);
			const char *twin = ok && twins[f] ? emit_twin(out, a, &o, f, suffix, kind, &p->arena) : NULL;
			ok = ok && fuse_program(q) && emit_gpu_function(out, q, q->funcs[f], kind, suffix, twin);
			program_free(q);
		}
		if (ok && sp->nparams)
			emit_gpu_dispatch(out, &p->arena, p->funcs[f], kind, sp);
		if (ok)
			emit_gpu_struct_launcher(out, p->funcs[f], kind);
	}
	free(plans);
	free(twins);
	return ok;
}

static int run_pipeline(const Args *a, const char *output, const char *dpath)
{
	FrontOptions fo = {a->clang_args.v, a->clang_args.n, include_dir};
	StrVec deps = {0};
	Program *p = front_parse(a->input, &fo, (a->md || a->mmd) ? &deps : NULL);
	if (!p || error_count()) {
		program_free(p);
		vec_free(deps);
		return EXIT_INPUT;
	}
	if (p)
		p->split_rows = a->emit == EMIT_CUDA || a->emit == EMIT_HIP;
	if (!fuse_program(p)) {
		program_free(p);
		vec_free(deps);
		return internal_error_count() ? EXIT_INTERNAL : EXIT_INPUT;
	}
	int status = EXIT_OK;
	/* `specialize` is checked for every output kind (the GPU and PyTorch printers plan
	 * with it; the fused C does not need it, but a misspelt parameter is an error there too) */
	if (a->emit != EMIT_CUDA && a->emit != EMIT_HIP && a->emit != EMIT_TORCH) {
		SpecPlan *sp = calloc(1, sizeof *sp);
		for (int f = 0; f < p->nfuncs && status == EXIT_OK; f++)
			if (!fuse_spec_plan(p->funcs[f], sp))
				status = EXIT_INPUT;
		free(sp);
	}
	if (a->werror && warning_count())
		status = EXIT_INPUT;
	if (!a->syntax_only && status == EXIT_OK) {
		StrBuf out = {0};
		const char *name = base_name(a->input);
		switch (a->emit) {
		case EMIT_C: emit_c(&out, p, name, a->line_directives); break;
		case EMIT_IR: emit_ir(&out, p, name); break;
		case EMIT_CUDA:
		case EMIT_HIP:
			if (!emit_gpu_file(&out, a, &fo, p, name, a->emit == EMIT_CUDA ? GPU_CUDA : GPU_HIP))
				status = internal_error_count() ? EXIT_INTERNAL : EXIT_INPUT;
			break;
		case EMIT_TORCH:
			if (!emit_torch(&out, p, name))
				status = EXIT_INPUT;
			break;
		case EMIT_NONE: break;
		}
		if (status == EXIT_OK && a->werror && warning_count())
			status = EXIT_INPUT;
		if (status == EXIT_OK && !write_output(output, out.s ? out.s : "", out.len))
			status = EXIT_INPUT;
		if (status == EXIT_OK && dpath && !write_deps(a, output, dpath, &deps))
			status = EXIT_INPUT;
		sb_free(&out);
	}
	program_free(p);
	vec_free(deps);
	return status;
}

/* What this run will write is checked before anything is: never the input, and the
 * dependency file never over the output. */
static int run(const Args *a)
{
	char *def = a->syntax_only || a->output ? NULL : default_output(a->input, a->emit);
	const char *output = a->output ? a->output : def;
	char *dpath = !a->syntax_only && (a->md || a->mmd) ? deps_path(a, output) : NULL;
	int status = EXIT_OK;
	if (!a->syntax_only && strcmp(output, "-") && same_file(a->input, output)) {
		error_plain("'%s' is the input file: fusecc will not overwrite it", output);
		status = EXIT_USAGE;
	} else if (dpath && same_file(a->input, dpath)) {
		error_plain("'%s' is the input file: fusecc will not overwrite it", dpath);
		status = EXIT_USAGE;
	} else if (dpath && strcmp(output, "-") && same_file(output, dpath)) {
		error_plain("the dependency file '%s' would overwrite the output: name it with -MF", dpath);
		status = EXIT_USAGE;
	} else {
		status = run_pipeline(a, output, dpath);
	}
	free(def);
	free(dpath);
	return status;
}

int main(int argc, char **argv)
{
	signal(SIGSEGV, on_crash);
	signal(SIGBUS, on_crash);
	signal(SIGFPE, on_crash);
	signal(SIGILL, on_crash);
	signal(SIGABRT, on_crash);
	include_dir = fusecc_include_dir(argv[0]);
	Args a;
	if (!args_parse(&a, argc, argv)) {
		args_free(&a);
		return EXIT_USAGE;
	}
	int status = EXIT_OK;
	if (a.help) {
		fputs(args_usage, stdout);
	} else if (a.version) {
		char *v = front_clang_version();
		printf("fusecc %s\nusing libclang: %s\n", FUSECC_VERSION, v);
		free(v);
	} else if (a.print_include_dir) {
		puts(include_dir);
	} else if (a.help_pragmas) {
		StrBuf b = {0};
		print_pragma_reference(&b);
		fputs(b.s ? b.s : "", stdout);
		sb_free(&b);
	} else {
		status = run(&a);
		front_release();
	}
	args_free(&a);
	return status;
}
