/* args.c: fusecc's argument loop. */
#include "args.h"

#include <string.h>

const char args_usage[] =
	"usage: fusecc [options] FILE.c [-o OUT]\n"
	"\n"
	"  -o FILE              write to FILE ('-' for standard output); the kind of output\n"
	"                       follows its extension (.cu CUDA, .hip HIP, .c fused C, .ir IR,\n"
	"                       _torch.cpp PyTorch operators)\n"
	"  --emit=KIND          c, cuda, hip, ir or torch, whatever the extension\n"
	"  -I DIR, -D NAME[=V], -U NAME, -std=STD\n"
	"                       passed to the C parser, like a C compiler's\n"
	"  -- ARGS...           everything after '--' goes to the parser unchanged\n"
	"  -fsyntax-only        parse, check the pragmas and analyse; write nothing\n"
	"  -MD, -MMD            also write a make dependency file, OUT with .d for its\n"
	"                       extension unless -MF; -MMD leaves out system headers\n"
	"  -MF FILE, -MT TARGET, -MP\n"
	"                       dependency file name, target, phony header targets\n"
	"  --line, --no-line    #line directives in generated code (default: off)\n"
	"  -Werror              warnings are errors\n"
	"  -Wno-fallback        no warning when a GPU kernel falls back to one thread per row\n"
	"  --print-include-dir  the directory with fusecc's headers (for -I)\n"
	"  --help-pragmas       the #pragma fuse reference (Markdown)\n"
	"  --version, --help\n"
	"\n"
	"Without -o the output goes to the current directory: the input's base name with\n"
	"the kind's extension (.cu unless --emit says otherwise).\n"
	"Exit status: 0 success, 1 errors in the input, 2 bad command line, 70 internal error.\n";

Emit emit_from_path(const char *path)
{
	size_t n = strlen(path);
	static const struct {
		const char *ext;
		Emit e;
	} t[] = {{".cu", EMIT_CUDA}, {".hip", EMIT_HIP}, {".c", EMIT_C}, {".ir", EMIT_IR}, {"_torch.cpp", EMIT_TORCH}};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		size_t m = strlen(t[i].ext);
		if (n > m && !strcmp(path + n - m, t[i].ext))
			return t[i].e;
	}
	return EMIT_NONE;
}

/* An option that takes a value either glued (`-Ifoo`, `-std=c11`) or as the next word. */
static const char *value_of(const char *opt, int *i, int argc, char **argv)
{
	const char *a = argv[*i];
	size_t n = strlen(opt);
	if (a[n])
		return a + n;
	if (*i + 1 >= argc) {
		error_plain("missing argument after '%s'", opt);
		return NULL;
	}
	return argv[++*i];
}

bool args_parse(Args *a, int argc, char **argv)
{
	memset(a, 0, sizeof *a);
	bool ok = true;
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		const char *v;
		if (!strcmp(s, "--")) {
			for (i++; i < argc; i++)
				vec_push(a->clang_args, argv[i]);
			break;
		}
		if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
			a->help = true;
		} else if (!strcmp(s, "--version")) {
			a->version = true;
		} else if (!strcmp(s, "--print-include-dir")) {
			a->print_include_dir = true;
		} else if (!strcmp(s, "--help-pragmas")) {
			a->help_pragmas = true;
		} else if (!strcmp(s, "-fsyntax-only")) {
			a->syntax_only = true;
		} else if (!strcmp(s, "-MD")) {
			a->md = true;
		} else if (!strcmp(s, "-MMD")) {
			a->mmd = true;
		} else if (!strcmp(s, "-MP")) {
			a->mp = true;
		} else if (!strcmp(s, "-Werror")) {
			a->werror = true;
		} else if (!strcmp(s, "-Wno-fallback")) {
			a->no_warn_fallback = true;
		} else if (!strcmp(s, "-Wfallback")) {
			a->no_warn_fallback = false;
		} else if (!strcmp(s, "--line")) {
			a->line_directives = true;
		} else if (!strcmp(s, "--no-line")) {
			a->line_directives = false;
		} else if (!strncmp(s, "-MF", 3)) {
			if (!(a->mf = value_of("-MF", &i, argc, argv)))
				ok = false;
		} else if (!strncmp(s, "-MT", 3)) {
			if (!(a->mt = value_of("-MT", &i, argc, argv)))
				ok = false;
		} else if (!strncmp(s, "-o", 2)) {
			if (!(v = value_of("-o", &i, argc, argv)))
				ok = false;
			else if (a->output) {
				error_plain("more than one '-o'");
				ok = false;
			} else
				a->output = v;
		} else if (!strncmp(s, "--emit=", 7)) {
			static const char *const kinds[] = {"c", "cuda", "hip", "ir", "torch"};
			static const Emit ek[] = {EMIT_C, EMIT_CUDA, EMIT_HIP, EMIT_IR, EMIT_TORCH};
			a->emit = EMIT_NONE;
			for (int k = 0; k < 5; k++)
				if (!strcmp(s + 7, kinds[k]))
					a->emit = ek[k];
			if (a->emit == EMIT_NONE) {
				error_plain("unknown output kind '%s' in '--emit' (c, cuda, hip, ir or torch)", s + 7);
				ok = false;
			}
		} else if (!strncmp(s, "-I", 2) || !strncmp(s, "-D", 2) || !strncmp(s, "-U", 2)) {
			const char *opt = s[1] == 'I' ? "-I" : s[1] == 'D' ? "-D" : "-U";
			if (!(v = value_of(opt, &i, argc, argv))) {
				ok = false;
			} else if (v == s + 2) {
				vec_push(a->clang_args, s);
			} else {
				vec_push(a->clang_args, opt);
				vec_push(a->clang_args, v);
			}
		} else if (!strncmp(s, "-std=", 5)) {
			vec_push(a->clang_args, s);
		} else if (s[0] == '-' && s[1]) {
			static const char *const known[] = {"--help", "--version", "--print-include-dir", "--help-pragmas",
			                                    "-fsyntax-only", "-MD", "-MMD", "-MP", "-MF", "-MT", "-Werror", "-Wno-fallback",
			                                    "--line", "--no-line", "--emit=c", "--emit=cuda", "--emit=torch", "-o", "-std="};
			const char *best = closest_word(s, known, (int)(sizeof known / sizeof known[0]));
			if (best)
				error_plain("unknown option '%s'; did you mean '%s'?", s, best);
			else
				error_plain("unknown option '%s' (see 'fusecc --help')", s);
			ok = false;
		} else if (a->input) {
			error_plain("more than one input file ('%s' and '%s')", a->input, s);
			ok = false;
		} else {
			a->input = s;
		}
	}
	if (ok && !a->input && !a->help && !a->version && !a->print_include_dir && !a->help_pragmas) {
		error_plain("no input file (see 'fusecc --help')");
		ok = false;
	}
	if (ok && a->input && a->output && !strcmp(a->output, "-") && a->emit == EMIT_NONE)
		a->emit = EMIT_CUDA;
	if (ok && a->input && a->emit == EMIT_NONE && a->output && !a->syntax_only) {
		a->emit = emit_from_path(a->output);
		if (a->emit == EMIT_NONE) {
			error_plain("cannot tell the output kind from '%s': use --emit=c|cuda|hip|ir|torch", a->output);
			ok = false;
		}
	}
	if (ok && a->emit == EMIT_NONE)
		a->emit = EMIT_CUDA;
	if (ok && (a->mf || a->mt || a->mp) && !a->md && !a->mmd) {
		error_plain("-MF, -MT and -MP need -MD or -MMD");
		ok = false;
	}
	/* Standard output has no name to derive the dependency file and its target from. */
	if (ok && (a->md || a->mmd) && !a->syntax_only && a->output && !strcmp(a->output, "-") && (!a->mf || !a->mt)) {
		error_plain("with '-o -', -MD and -MMD need -MF FILE and -MT TARGET");
		ok = false;
	}
	return ok;
}

void args_free(Args *a) { vec_free(a->clang_args); }
