/* HPC style: `long` indices, the key loop counting down from i to 0 (causal), the P.V written as a
 * while loop counting down too, ALiBi slope per head from a table, restrict pointers. */
#include <math.h>

void alibi_down(long B, long H, long N, const float *restrict slopes, const float *restrict q,
		const float *restrict k, const float *restrict v, float *restrict o)
{
#pragma fuse kernel(alibi_down) parallel(b, h, i)
	for (long b = 0; b < B; b++)
		for (long h = 0; h < H; h++)
			for (long i = 0; i < N; i++) {
				const long base = (b * H + h) * N;
				float sc[N];
				float mx = -INFINITY;
				for (long j = i; j >= 0; j--) {
					float s = 0.0f;
					for (long d = 0; d < 64; d++) s += q[(base + i) * 64 + d] * k[(base + j) * 64 + d];
					sc[j] = s * 0.125f - slopes[h] * (float)(i - j);
					mx = sc[j] > mx ? sc[j] : mx;
				}
				float den = 0.0f;
				for (long j = i; j >= 0; j--) den += expf(sc[j] - mx);
				for (long d = 0; d < 64; d++) {
					float acc = 0.0f;
					long j = i;
					while (j >= 0) {
						acc += expf(sc[j] - mx) * v[(base + j) * 64 + d];
						j--;
					}
					o[(base + i) * 64 + d] = acc / den;
				}
			}
}
