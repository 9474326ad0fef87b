/* Paged KV prefill with a run-time page size PS: key j of sequence b lives in page
 * table[b][j / PS] at slot j % PS; causal with the query at position ctx - nq + i. */
#include <math.h>
#include <stdint.h>

void paged_prefill(int B, int H, int NQ, int CTX, int PS, int NPAGES, int MAXP, float scale,
		   const _Float16 q[B][NQ][H][64], const _Float16 kpool[NPAGES][PS][H][64],
		   const _Float16 vpool[NPAGES][PS][H][64], const int32_t table[B][MAXP],
		   _Float16 o[B][NQ][H][64])
{
#pragma fuse kernel(paged_prefill) parallel(b, i, h)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < NQ; i++)
			for (int h = 0; h < H; h++) {
				const int last = CTX - NQ + i;
				float s[CTX];
				float m = -INFINITY;
				for (int j = 0; j <= last; j++) {
					const int pg = table[b][j / PS];
					float t = 0.0f;
					for (int d = 0; d < 64; d++)
						t += (float)q[b][i][h][d] * (float)kpool[pg][j % PS][h][d];
					s[j] = t * scale;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j <= last; j++) {
					s[j] = expf(s[j] - m);
					l += s[j];
				}
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j <= last; j++)
						a += s[j] * (float)vpool[table[b][j / PS]][j % PS][h][d];
					o[b][i][h][d] = (_Float16)(a / l);
				}
			}
}
