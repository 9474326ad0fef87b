# harness_build.sh: sourced by bench/gpu_check.sh and bench/zoo_time.sh (sh, from the
# repository root, with $out, $NVCC and $ARCH set).
# Builds one sample's check program for target $3 ($out/NAME.EXT.run; .built on success).
build_one() {
	src=$1 name=$2 ext=$3 harness=build/gpu/$2.harness.cu
	ref64_flags=$(sed -n 's|^// ref64-flags: ||p' "$harness" 2>/dev/null)
	t=$out/$name.$ext
	rm -f "$t.built"
	if [ "$ext" = hip ]; then
		kflags="-x cu -Ibench/hip_on_cuda"
	else
		kflags=
	fi
	# shellcheck disable=SC2086
	gcc -std=gnu11 -O2 -Iinclude -Wno-unknown-pragmas -c "$src" -o "$t.orig.o" 2>"$t.gcc" &&
		gcc -std=gnu11 -O2 -Iinclude -Wno-unknown-pragmas -include test/roundtrip/fp64.h $ref64_flags -c "$src" -o "$t.ref64.o" 2>>"$t.gcc" &&
		"$NVCC" -std=c++17 -O3 -arch="$ARCH" $kflags -Iinclude -w -c "build/gpu/$name.$ext" -o "$t.kernel.o" 2>"$t.nvcc" &&
		"$NVCC" -std=c++17 -O3 -arch="$ARCH" -Iinclude -w "$harness" "$t.kernel.o" "$t.orig.o" "$t.ref64.o" -lm -o "$t.run" 2>>"$t.nvcc" &&
		touch "$t.built"
}

