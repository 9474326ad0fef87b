#!/bin/sh
# hip_mutations.sh: on the GPU machine, after make gpu-prep: shows that the HIP check through
# bench/hip_on_cuda/ can fail. Each mutation of include/fusecc_tile_hip.h (a wrong column
# layout, a row reduction over 32 lanes, a wrong gather of V) must make gpu_check fail.
set -u
root=$(pwd)
survived=0
for mut in 'col:s/int col_lane() { return 4 \* (lane() >> 4); }/int col_lane() { return 4 * ((lane() >> 4) ^ 1); }/' \
           'rowsum:s/for (int o = 16; o < wave::size(); o <<= 1)/for (int o = 16; o < 32; o <<= 1)/' \
           'vgather:s/bf |= (uint64_t)b\[swz<N>(16 \* k + kq + e,/bf |= (uint64_t)b[swz<N>(16 * k + kq + (e ^ 1),/'; do
	name=${mut%%:*}; expr=${mut#*:}
	rm -rf /tmp/mut && mkdir -p /tmp/mut && cp -r bench include samples test build /tmp/mut/ 2>/dev/null
	cd /tmp/mut
	sed -i "$expr" include/fusecc_tile_hip.h
	if cmp -s include/fusecc_tile_hip.h "$root/include/fusecc_tile_hip.h"; then echo "MUTATION $name: sed did not apply"; survived=$((survived + 1)); cd "$root"; continue; fi
	TARGETS=hip SEEDS=7 SANITIZE=first OUT=/tmp/mut sh bench/gpu_check.sh > /tmp/mut/log 2>&1
	rc=$?
	[ $rc = 0 ] && survived=$((survived + 1))
	echo "MUTATION $name: $([ $rc = 0 ] && echo SURVIVED || echo caught): $(grep -c '^FAIL' /tmp/mut/log) failing checks; $(tail -1 /tmp/mut/log)"
	cd "$root"
done
[ $survived = 0 ]
