/* fuzz_front.c: libFuzzer target for the front end and the fuser. Each input is written
 * to a temporary .c file, parsed by front_parse (libclang, pragma parser, IR builder) and,
 * when that succeeds, fused by fuse_program and printed as fused C and CUDA, as fusecc
 * does; diagnostics go to /dev/null. Everything is freed, so LeakSanitizer sees what one
 * run leaks. Built and run by `make fuzz` and `make fuzz-short` (test/robustness.mk). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit/emit.h"
#include "front/front.h"
#include "fuse/fuse.h"
#include "util/util.h"

#ifndef FUSECC_INCLUDE_DIR
#define FUSECC_INCLUDE_DIR "include"
#endif

static char path[64];

static void remove_input(void)
{
	if (path[0])
		unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *dir = getenv("TMPDIR");
	snprintf(path, sizeof path, "%s/fuzz_front_XXXXXX.c", dir && strlen(dir) < 32 ? dir : "/tmp");
	int fd = mkstemps(path, 2);
	if (fd < 0) {
		perror("fuzz_front: mkstemps");
		exit(1);
	}
	close(fd);
	atexit(remove_input);
	diag_stream = fopen("/dev/null", "w");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	diag_reset();
	FrontOptions fo = {NULL, 0, FUSECC_INCLUDE_DIR};
	Program *p = front_parse(path, &fo, NULL);
	if (p && !error_count() && fuse_program(p)) {
		StrBuf out = {0};
		bool lines = size & 1; /* --line or not, fixed by the input */
		emit_c(&out, p, "fuzz.c", lines);
		sb_free(&out);
		emit_gpu(&out, p, "fuzz.c", GPU_CUDA, &(GpuOptions){lines, false});
		sb_free(&out);
	}
	program_free(p);
	front_release();
	return 0;
}
