/* args.h: the command line, parsed by a hand-written loop with exact matches (getopt's
 * abbreviations and its -M/-O handling do not fit gcc-style flags). */
#ifndef FUSECC_ARGS_H
#define FUSECC_ARGS_H

#include "../util/util.h"

typedef enum Emit {
	EMIT_NONE, /* from the output's extension */
	EMIT_C,
	EMIT_CUDA,
	EMIT_HIP,
	EMIT_IR,
	EMIT_TORCH, /* a PyTorch C++ extension over the CUDA launchers (emit_torch.c) */
} Emit;

typedef struct Args {
	const char *input;
	const char *output; /* "-" for standard output; NULL: derived from the input */
	Emit emit;
	StrVec clang_args; /* -I/-D/-U/-std= and everything after `--` */
	bool syntax_only, help, version, print_include_dir, help_pragmas;
	bool md, mmd, mp; /* -MD, -MMD, -MP */
	const char *mf, *mt;
	bool line_directives; /* #line in generated code (off by default: clean diffs) */
	bool werror;
	bool no_warn_fallback; /* -Wno-fallback */
} Args;

/* Parses argv[1..argc-1]. On a bad command line reports `fusecc: error: ...` and returns
 * false. Strings point into argv. */
bool args_parse(Args *a, int argc, char **argv);
void args_free(Args *a);
/* The emit kind named by a file name's extension, or EMIT_NONE. */
Emit emit_from_path(const char *path);
extern const char args_usage[];

#endif
