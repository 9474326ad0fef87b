/* unit.c: helpers shared by the unit tests. */
#include <string.h>
#include <unistd.h>

#include "unit.h"

Program *unit_parse(const char *src, Captured *cap)
{
	char path[64];
	strcpy(path, "/tmp/fusecc_unit_XXXXXX.c");
	int fd = mkstemps(path, 2);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, src, strlen(src)), (ssize_t)strlen(src));
	close(fd);
	free(cap->text);
	capture_begin(cap);
	FrontOptions fo = {NULL, 0, FUSECC_INCLUDE_DIR};
	Program *p = front_parse(path, &fo, NULL);
	capture_end(cap);
	unlink(path);
	return p;
}
