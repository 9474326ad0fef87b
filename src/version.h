/* version.h: the one place the version is written. */
#ifndef FUSECC_VERSION_H
#define FUSECC_VERSION_H
#define FUSECC_VERSION "0.1.0"
#endif
