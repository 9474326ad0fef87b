/* A CUDA programmer's C reference for softmax entropy: flat index math with size_t offsets,
 * H = log Z + m - sum(e * x) / Z (one pass for Z and sum(e * x) after the max). */
#include <math.h>
#include <stddef.h>

void entropy(int B, int T, int V, const _Float16 *logits, float *ent)
{
#pragma fuse kernel(entropy) parallel(bt)
	for (int bt = 0; bt < B * T; bt++) {
		const size_t base = (size_t)bt * V;
		float m = -INFINITY;
		for (int v = 0; v < V; v++) {
			float x = (float)logits[base + v];
			m = x > m ? x : m;
		}
		float Z = 0.0f, ZX = 0.0f;
		for (int v = 0; v < V; v++) {
			float x = (float)logits[base + v];
			float e = expf(x - m);
			Z += e;
			ZX += e * x;
		}
		ent[bt] = logf(Z) + m - ZX / Z;
	}
}
