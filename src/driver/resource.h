/* resource.h: the directory of fusecc's own headers, found from the running binary. */
#ifndef FUSECC_RESOURCE_H
#define FUSECC_RESOURCE_H

#include <stdbool.h>

/* PREFIX/include/fusecc when the running binary is PREFIX/BIN/fusecc and that directory
 * holds fusecc.h (an install, wherever it was moved); otherwise the source tree's
 * include/ the binary was built with (the in-tree build). argv0 serves where
 * /proc/self/exe does not. The string lives as long as the process. */
const char *fusecc_include_dir(const char *argv0);

#endif
