# fusecc: `make` builds build/fusecc; `make check` runs every test that needs no GPU.
LLVM_DIR ?= /usr/lib/llvm-16
CC ?= cc
CFLAGS ?= -O2 -g
WARN = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-missing-field-initializers
ABS_INCLUDE := $(abspath include)
CPPFLAGS_ALL = -I$(LLVM_DIR)/include -DFUSECC_INCLUDE_DIR='"$(ABS_INCLUDE)"' $(CPPFLAGS)
LDLIBS_ALL = -L$(LLVM_DIR)/lib -lclang -Wl,-rpath,$(LLVM_DIR)/lib $(shell pkg-config --libs isl 2>/dev/null || echo -lisl) -lm $(LDLIBS)
B = build

# One folder per pipeline stage; the driver is the only file outside the library.
LIB_SRC = $(wildcard src/util/*.c src/ir/*.c src/front/*.c src/analysis/*.c src/fuse/*.c src/lower/*.c src/emit/*.c)
DRIVER_SRC = src/driver/main.c
ARGS_SRC = src/driver/args.c src/driver/resource.c
LIB_OBJ = $(LIB_SRC:%.c=$(B)/%.o) $(ARGS_SRC:%.c=$(B)/%.o)
UNIT_SRC = $(wildcard test/unit/*.c)
CHECK_CFLAGS = $(shell pkg-config --cflags check)
CHECK_LIBS = $(shell pkg-config --libs check)

all: $(B)/fusecc

include test/robustness.mk

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) -MMD -MP -c $< -o $@

$(B)/libfusecc.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(B)/fusecc: $(B)/src/driver/main.o $(B)/libfusecc.a
	$(CC) $(CFLAGS) $^ $(LDLIBS_ALL) $(LDFLAGS) -o $@

$(B)/test/unit/%.o: test/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) $(CHECK_CFLAGS) -Isrc -MMD -MP -c $< -o $@

$(B)/unit_tests: $(UNIT_SRC:%.c=$(B)/%.o) $(B)/libfusecc.a
	$(CC) $(CFLAGS) $^ $(LDLIBS_ALL) $(CHECK_LIBS) -o $@

$(B)/roundtrip_gen: $(B)/test/roundtrip/gen.o $(B)/libfusecc.a
	$(CC) $(CFLAGS) $^ $(LDLIBS_ALL) -o $@

$(B)/test/roundtrip/%.o: test/roundtrip/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) -Isrc -MMD -MP -c $< -o $@

# The README's first command: dependencies, the build, and the quick-start sample.
setup:
	sh .ci/install-deps
	$(MAKE) all
	$(B)/fusecc samples/attention.c -o $(B)/attention.cu
	$(B)/fusecc samples/attention.c -o $(B)/attention.fused.c
	@echo "fusecc is built: $(B)/fusecc"
	@echo "samples/attention.c compiled to $(B)/attention.cu (CUDA, build it with: nvcc -I$$($(B)/fusecc --print-include-dir) -c $(B)/attention.cu)"
	@echo "and to $(B)/attention.fused.c (the fused C program, the CPU proof of the fusion)"

# ---- install: PREFIX/bin/fusecc, its headers in PREFIX/include/fusecc (found from the
# binary: the tree can be moved, DESTDIR staging works as is), the man page, the docs, the
# CMake package and the Python package (docs/install.md) ----
PREFIX ?= /usr/local
DESTDIR ?=
INSTALL ?= install
PYTHON_DIR = $(PREFIX)/share/fusecc/python
DOC_FILES = $(wildcard docs/*.md)
PY_FILES = $(wildcard python/fusecc/*.py)
VERSION = $(shell sed -n 's/^\#define FUSECC_VERSION "\(.*\)"/\1/p' src/version.h)

install: all
	$(INSTALL) -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include/fusecc $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/doc/fusecc/docs $(DESTDIR)$(PREFIX)/share/cmake/fusecc $(DESTDIR)$(PYTHON_DIR)/fusecc
	$(INSTALL) -m 755 $(B)/fusecc $(DESTDIR)$(PREFIX)/bin/fusecc
	$(INSTALL) -m 644 include/*.h $(DESTDIR)$(PREFIX)/include/fusecc/
	$(INSTALL) -m 644 docs/fusecc.1 $(DESTDIR)$(PREFIX)/share/man/man1/fusecc.1
	$(INSTALL) -m 644 README.md LICENSE $(DESTDIR)$(PREFIX)/share/doc/fusecc/
	$(INSTALL) -m 644 $(DOC_FILES) $(DESTDIR)$(PREFIX)/share/doc/fusecc/docs/
	$(INSTALL) -m 644 cmake/fusecc-config.cmake $(DESTDIR)$(PREFIX)/share/cmake/fusecc/
	sed 's/@FUSECC_VERSION@/$(VERSION)/' cmake/fusecc-config-version.cmake >$(DESTDIR)$(PREFIX)/share/cmake/fusecc/fusecc-config-version.cmake
	$(INSTALL) -m 644 $(PY_FILES) $(DESTDIR)$(PYTHON_DIR)/fusecc/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/fusecc $(DESTDIR)$(PREFIX)/share/man/man1/fusecc.1
	rm -rf $(DESTDIR)$(PREFIX)/include/fusecc $(DESTDIR)$(PREFIX)/share/doc/fusecc \
		$(DESTDIR)$(PREFIX)/share/cmake/fusecc $(DESTDIR)$(PREFIX)/share/fusecc

# ---- tests ----
check: all $(B)/unit_tests $(B)/roundtrip_gen
	@echo "== unit tests"
	CK_FORK=yes $(B)/unit_tests
	@echo "== golden outputs and bad inputs"
	sh test/golden.sh $(B)/fusecc
	@echo "== numeric round trip (fused C against the original)"
	sh test/roundtrip.sh $(B)/fusecc $(B)/roundtrip_gen
	@echo "== natural inputs (test/zoo): which path each gets"
	sh test/zoo.sh $(B)/fusecc
	@echo "== command line"
	sh test/cli.sh $(B)/fusecc
	@echo "== install, CMake, PyTorch extension, Python package"
	sh test/tools.sh $(B)/fusecc
	@echo "== generated and hostile inputs"
	sh test/stress.sh $(B)/fusecc
	@echo "== fuzzing, short (libFuzzer, fixed seed)"
	$(MAKE) --no-print-directory fuzz-short
	@echo "== directive reference is generated from pragmas/"
	$(B)/fusecc --help-pragmas | diff -u docs/directives.md -
	@echo "== all checks passed"

# The GPU machine's inputs: every kernel fusecc can print today and its check harness.
gpu-prep: all $(B)/roundtrip_gen
	@mkdir -p $(B)/gpu
	@# The commit the kernels come from, for bench.py's JSON (the GPU machine's copy has no history).
	@{ git rev-parse HEAD; git diff --quiet HEAD -- src include || echo "with uncommitted changes to src/ or include/"; } >$(B)/gpu/COMMIT 2>/dev/null || true
	@for f in samples/*.c test/fuse/*.c test/zoo/*.c; do case $$f in *.fused.c) continue;; esac; n=$$(basename $$f .c); rm -f $(B)/gpu/$$n.cu $(B)/gpu/$$n.hip $(B)/gpu/$$n.harness.cu; \
		if $(B)/fusecc $$f -o $(B)/gpu/$$n.cu 2>/dev/null; then $(B)/roundtrip_gen --gpu $$f > $(B)/gpu/$$n.harness.cu; \
		else echo "gpu-prep: $$n: not printable for the GPU yet"; fi; \
		$(B)/fusecc $$f -o $(B)/gpu/$$n.hip 2>/dev/null || echo "gpu-prep: $$n: not printable for HIP yet"; done

# bench/torch_check.py's inputs for a GPU machine where fusecc cannot run (no libclang):
# the CUDA file and the PyTorch extension of the samples it loads.
torch-prep: all
	@mkdir -p $(B)/gpu/torch
	for n in attention xent_index xent_int64; do $(B)/fusecc samples/$$n.c -o $(B)/gpu/torch/$$n.cu && \
		$(B)/fusecc samples/$$n.c --emit=torch -o $(B)/gpu/torch/$${n}_torch.cpp || exit 1; done

# Regenerates the golden files after an intended change; review the diff like code.
update-golden: all
	UPDATE=1 sh test/golden.sh $(B)/fusecc
	$(B)/fusecc --help-pragmas > docs/directives.md

clean:
	rm -rf $(B)

.PHONY: all check clean gpu-prep install setup torch-prep uninstall update-golden
-include $(shell find $(B) -name '*.d' 2>/dev/null)
