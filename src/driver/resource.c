/* resource.c: where fusecc's own headers are (fusecc.h and the tile libraries), found
 * from the binary that runs, as clang finds its resource directory: an installed
 * fusecc at PREFIX/bin/fusecc reads PREFIX/include/fusecc/, so an install can be moved
 * and a DESTDIR staging tree works as it is. A binary with no headers beside it (the
 * in-tree build/fusecc) uses the source tree's include/ named when it was built
 * (FUSECC_INCLUDE_DIR). */
#include "resource.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FUSECC_INCLUDE_DIR
#define FUSECC_INCLUDE_DIR "include"
#endif

/* The directory an installed fusecc's headers go to, below the prefix (the Makefile's
 * install target uses the same name). */
#define INSTALLED_INCLUDE "/include/fusecc"

static bool has_header(const char *dir)
{
	char path[PATH_MAX + 16];
	struct stat st;
	if (snprintf(path, sizeof path, "%s/fusecc.h", dir) >= (int)sizeof path)
		return false;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The running binary as an absolute path with links resolved: /proc/self/exe, else
 * argv[0], a path or a name looked up in PATH as the shell did. NULL when unknown. */
static char *self_path(const char *argv0)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n > 0) {
		buf[n] = 0;
		return strdup(buf);
	}
	if (!argv0 || !*argv0)
		return NULL;
	if (strchr(argv0, '/'))
		return realpath(argv0, NULL);
	const char *path = getenv("PATH");
	while (path && *path) {
		const char *end = strchr(path, ':');
		size_t len = end ? (size_t)(end - path) : strlen(path);
		char cand[PATH_MAX];
		if (snprintf(cand, sizeof cand, "%.*s/%s", (int)len, len ? path : ".", argv0) < (int)sizeof cand && access(cand, X_OK) == 0)
			return realpath(cand, NULL);
		path = end ? end + 1 : NULL;
	}
	return NULL;
}

/* PREFIX/include/fusecc for the binary PREFIX/bin/fusecc (whatever the bin directory is
 * called): the parent of the binary's directory. */
static char *installed_dir(const char *exe)
{
	char *s = malloc(strlen(exe) + sizeof INSTALLED_INCLUDE);
	strcpy(s, exe);
	for (int up = 0; up < 2; up++) {
		char *slash = strrchr(s, '/');
		if (!slash) {
			free(s);
			return NULL;
		}
		*slash = 0;
	}
	strcat(s, INSTALLED_INCLUDE);
	return s;
}

const char *fusecc_include_dir(const char *argv0)
{
	static char *dir;
	if (dir)
		return dir;
	char *exe = self_path(argv0);
	char *inst = exe ? installed_dir(exe) : NULL;
	free(exe);
	if (inst && has_header(inst))
		return dir = inst;
	if (has_header(FUSECC_INCLUDE_DIR) || !inst) {
		free(inst);
		return dir = strdup(FUSECC_INCLUDE_DIR);
	}
	return dir = inst; /* neither has fusecc.h: name where an install puts it */
}
