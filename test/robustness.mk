# robustness.mk: sanitizer, valgrind and fuzzing targets; included by the Makefile.
#
#   make sanitize     unit tests, goldens, bad inputs, stress inputs, the round trip of the
#                     samples and fusion tests and every zoo input to CUDA with a fusecc built
#                     with ASan + UBSan (build/asan/), leaks included
#   make valgrind     fusecc on every sample and fusion test under valgrind memcheck
#   make fuzz         libFuzzer on the front end and the fuser for FUZZ_SECONDS (30)
#   make fuzz-short   the same for a fixed number of runs from a fixed seed (for check)
#
# Needs clang-16's fuzzer runtime (Debian: libclang-rt-16-dev) and valgrind.

ASAN_B = $(B)/asan
FUZZ_B = $(B)/fuzz
SAN_CC ?= $(CC)
FUZZ_CC ?= clang-16
SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SAN_CFLAGS = -O1 -g $(SAN_FLAGS)

# Every sanitizer finding stops the process with status 86 (never 1, which is fusecc's
# "error in the input"). fusecc's own SIGSEGV handler is overridden so ASan reports the
# crash. LSan suppressions cover libclang/libLLVM only (test/lsan.supp).
SAN_ENV = ASAN_OPTIONS=detect_leaks=1:exitcode=86:allow_user_segv_handler=0:strict_string_checks=1:detect_stack_use_after_return=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=86 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/test/lsan.supp:print_suppressions=0

SAN_LIB_OBJ = $(LIB_SRC:%.c=$(ASAN_B)/%.o) $(ARGS_SRC:%.c=$(ASAN_B)/%.o)

$(ASAN_B)/src/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(SAN_CC) $(WARN) $(SAN_CFLAGS) $(CPPFLAGS_ALL) -MMD -MP -c $< -o $@

$(ASAN_B)/test/%.o: test/%.c
	@mkdir -p $(dir $@)
	$(SAN_CC) $(WARN) $(SAN_CFLAGS) $(CPPFLAGS_ALL) $(CHECK_CFLAGS) -Isrc -MMD -MP -c $< -o $@

$(ASAN_B)/libfusecc.a: $(SAN_LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(ASAN_B)/fusecc: $(ASAN_B)/src/driver/main.o $(ASAN_B)/libfusecc.a
	$(SAN_CC) $(SAN_CFLAGS) $^ $(LDLIBS_ALL) -o $@

$(ASAN_B)/unit_tests: $(UNIT_SRC:%.c=$(ASAN_B)/%.o) $(ASAN_B)/libfusecc.a
	$(SAN_CC) $(SAN_CFLAGS) $^ $(LDLIBS_ALL) $(CHECK_LIBS) -o $@

$(ASAN_B)/roundtrip_gen: $(ASAN_B)/test/roundtrip/gen.o $(ASAN_B)/libfusecc.a
	$(SAN_CC) $(SAN_CFLAGS) $^ $(LDLIBS_ALL) -o $@

sanitize: $(ASAN_B)/fusecc $(ASAN_B)/unit_tests $(ASAN_B)/roundtrip_gen
	@echo "== unit tests (ASan + UBSan)"
	$(SAN_ENV) CK_FORK=yes $(ASAN_B)/unit_tests
	@echo "== golden outputs and bad inputs (ASan + UBSan)"
	$(SAN_ENV) COMPILE=0 sh test/golden.sh $(ASAN_B)/fusecc
	@echo "== generated and hostile inputs (ASan + UBSan)"
	$(SAN_ENV) STRESS_QUICK=1 sh test/stress.sh $(ASAN_B)/fusecc
	@echo "== numeric round trip of the samples and fusion tests (ASan + UBSan)"
	$(SAN_ENV) SIZES=test/roundtrip/sizes sh test/roundtrip.sh $(ASAN_B)/fusecc $(ASAN_B)/roundtrip_gen
	@# The zoo's fused C is checked by `make check`; here fusecc runs on every zoo input to
	@# CUDA (the front end, the fuser, the lowering and a printer) with the status compared.
	@echo "== natural inputs to CUDA (ASan + UBSan)"
	$(SAN_ENV) KINDS=cu sh test/zoo.sh $(ASAN_B)/fusecc
	@echo "== sanitize: all passed"

# ---- valgrind: the optimised fusecc that users run ----
VALGRIND = valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=3 \
	--suppressions=$(CURDIR)/test/valgrind.supp
VALGRIND_INPUTS = $(filter-out %.fused.c,$(wildcard samples/*.c test/fuse/*.c))

valgrind: $(B)/fusecc
	@echo "== fusecc under valgrind: $(words $(VALGRIND_INPUTS)) inputs, to fused C and CUDA in turn"
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && k=0 && \
	for f in $(VALGRIND_INPUTS); do k=$$((k + 1)); n=$$(basename $$f .c); \
		if [ $$((k % 2)) = 0 ]; then echo "$$f $$tmp/$$n.fused.c"; else echo "$$f $$tmp/$$n.cu"; fi; done | \
	xargs -P 2 -n 2 sh -c '$(VALGRIND) --log-file="$$1.vg" $(B)/fusecc "$$0" -o "$$1" 2>/dev/null; s=$$?; \
		if [ $$s != 0 ] && [ $$s != 1 ]; then echo "FAIL: valgrind fusecc $$0 -o $$(basename $$1): status $$s"; cat "$$1.vg"; exit 255; fi; \
		if [ -s "$$1.vg" ]; then echo "FAIL: valgrind fusecc $$0 -o $$(basename $$1)"; cat "$$1.vg"; exit 255; fi' && \
	echo "valgrind: $(words $(VALGRIND_INPUTS)) passed, 0 failed"

# ---- libFuzzer: the front end and the fuser on arbitrary bytes ----
FUZZ_SECONDS ?= 30
FUZZ_RUNS ?= 1500
FUZZ_FLAGS = -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_LIB_OBJ = $(LIB_SRC:%.c=$(FUZZ_B)/%.o)
# -timeout: a hang is a finding.
FUZZ_OPTS = -timeout=20 -rss_limit_mb=4096 -max_len=8192 -dict=test/fuzz/pragma.dict

$(FUZZ_B)/src/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(CPPFLAGS_ALL) -MMD -MP -c $< -o $@

$(FUZZ_B)/fuzz_front: test/fuzz/fuzz_front.c $(FUZZ_LIB_OBJ)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer $(CPPFLAGS_ALL) -Isrc $^ $(LDLIBS_ALL) -o $@

# New inputs go to build/fuzz/corpus (test/fuzz/corpus stays as committed); crashes,
# timeouts and leaks to build/fuzz/artifacts/.
fuzz: $(FUZZ_B)/fuzz_front
	@mkdir -p $(FUZZ_B)/corpus $(FUZZ_B)/artifacts
	$(SAN_ENV) $(FUZZ_B)/fuzz_front $(FUZZ_OPTS) -max_total_time=$(FUZZ_SECONDS) \
		-artifact_prefix=$(FUZZ_B)/artifacts/ $(FUZZ_B)/corpus test/fuzz/corpus

# Deterministic: the committed corpus, then FUZZ_RUNS mutations from seed 1 (new inputs go
# to a scratch folder emptied first, so every run starts from the same state).
fuzz-short: $(FUZZ_B)/fuzz_front
	@rm -rf $(FUZZ_B)/short && mkdir -p $(FUZZ_B)/short $(FUZZ_B)/artifacts
	$(SAN_ENV) $(FUZZ_B)/fuzz_front $(FUZZ_OPTS) -seed=1 -runs=$(FUZZ_RUNS) \
		-artifact_prefix=$(FUZZ_B)/artifacts/ $(FUZZ_B)/short test/fuzz/corpus

.PHONY: sanitize valgrind fuzz fuzz-short
