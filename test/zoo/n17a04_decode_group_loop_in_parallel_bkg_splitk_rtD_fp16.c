/* Decode with GQA written as a loop over the KV head and the G query heads sharing it, the group
 * loop named in parallel(b, kh, g); per-sequence lengths, run-time head dim, split-k. */
#include <math.h>

void decode_grouped(int B, int KH, int G, int D, int L, const int seqlen[B], const _Float16 q[B][KH][G][D],
		    const _Float16 kc[B][KH][L][D], const _Float16 vc[B][KH][L][D], _Float16 o[B][KH][G][D])
{
	const float sc = 1.0f / sqrtf((float)D);
#pragma fuse kernel(decode_grouped) parallel(b, kh, g) splitk(j)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < KH; kh++)
			for (int g = 0; g < G; g++) {
				float logit[L];
				float mx = -INFINITY;
				for (int j = 0; j < seqlen[b]; j++) {
					float t = 0.0f;
					for (int d = 0; d < D; d++) t += (float)q[b][kh][g][d] * (float)kc[b][kh][j][d];
					logit[j] = t * sc;
					if (logit[j] > mx) mx = logit[j];
				}
				float z = 0.0f;
				for (int j = 0; j < seqlen[b]; j++) { logit[j] = expf(logit[j] - mx); z += logit[j]; }
				for (int d = 0; d < D; d++) {
					float a = 0.0f;
					for (int j = 0; j < seqlen[b]; j++) a += logit[j] * (float)vc[b][kh][j][d];
					o[b][kh][g][d] = (_Float16)(a / z);
				}
			}
}
