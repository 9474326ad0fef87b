/* Liger's fused-linear-cross-entropy style LSE over the vocabulary in chunks of CHUNK columns:
 * a running max and sum updated once per chunk (the chunk's own max, then a rescale), the
 * chunk end min(c0 + CHUNK, V) as a ternary; writes lse and the target logit's loss. */
#include <math.h>
#include <stdint.h>

#define CHUNK 256

void chunked_lse_xent(int BT, int V, const float logits[BT][V], const int64_t target[BT], float lse[BT], float loss[BT])
{
#pragma fuse kernel(chunked_lse_xent) parallel(r)
	for (int r = 0; r < BT; r++) {
		float m = -INFINITY, d = 0.0f;
		for (int c0 = 0; c0 < V; c0 += CHUNK) {
			const int c1 = c0 + CHUNK < V ? c0 + CHUNK : V;
			float cm = -INFINITY;
			for (int c = c0; c < c1; c++) cm = fmaxf(cm, logits[r][c]);
			const float nm = fmaxf(m, cm);
			float cs = 0.0f;
			for (int c = c0; c < c1; c++) cs += expf(logits[r][c] - nm);
			d = d * expf(m - nm) + cs;
			m = nm;
		}
		lse[r] = m + logf(d);
		loss[r] = lse[r] - logits[r][target[r]];
	}
}
