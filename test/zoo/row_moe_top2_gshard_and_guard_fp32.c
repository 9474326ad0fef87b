/* row_moe_top2_gshard_and_guard_fp32.c: GShard-style top-2 gating as a C port writes it:
 * softmax over the experts, the best expert, then the second best skipping the first with
 * one guard, `if (e != i1 && p > p2)`, and the two gates renormalised (w1 = p1 / (p1 + p2)).
 * Style: fp32 router logits, int64 expert ids, parallel(t) with no strategy clause. */
#include <math.h>
#include <stdint.h>

void top2_gate(int T, int E, const float logits[T][E], int64_t idx[T][2], float gates[T][2])
{
#pragma fuse kernel(top2_gate) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int e = 0; e < E; e++) m = fmaxf(m, logits[t][e]);
		float z = 0.0f;
		for (int e = 0; e < E; e++) z += expf(logits[t][e] - m);
		float p1 = -1.0f;
		int64_t i1 = 0;
		for (int e = 0; e < E; e++) {
			float p = expf(logits[t][e] - m) / z;
			if (p > p1) { p1 = p; i1 = e; }
		}
		float p2 = -1.0f;
		int64_t i2 = 0;
		for (int e = 0; e < E; e++) {
			float p = expf(logits[t][e] - m) / z;
			if (e != i1 && p > p2) { p2 = p; i2 = e; }
		}
		idx[t][0] = i1;
		idx[t][1] = i2;
		gates[t][0] = p1 / (p1 + p2);
		gates[t][1] = p2 / (p1 + p2);
	}
}
