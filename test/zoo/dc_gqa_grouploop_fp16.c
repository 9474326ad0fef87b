/* dc_gqa_grouploop_fp16.c: GQA decode with a group loop: for each KV head kh, the G query
 * heads kh * G + g of a flat [B][HKV * G][D] query tensor.
 * Style: fp16, run-time `int D`, stored scores s[L] declared inside the g loop, max with
 * a ternary from -INFINITY, sum, d-outer P.V normalised before (expf(..) / l * v).
 * parallel(b, kh) so a CTA reads its KV head once for all G rows; splitk(j). */
#include <math.h>

void gqa_decode_group(int B, int HKV, int G, int L, int D, float scale,
		      const _Float16 q[B][HKV * G][D], const _Float16 k[B][HKV][L][D],
		      const _Float16 v[B][HKV][L][D], _Float16 o[B][HKV * G][D])
{
#pragma fuse kernel(gqa_decode_group) parallel(b, kh) splitk(j)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < HKV; kh++)
			for (int g = 0; g < G; g++) {
				float s[L];
				for (int j = 0; j < L; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += (float)q[b][kh * G + g][d] * (float)k[b][kh][j][d];
					s[j] = dot * scale;
				}
				float m = -INFINITY;
				for (int j = 0; j < L; j++)
					m = s[j] > m ? s[j] : m;
				float l = 0.0f;
				for (int j = 0; j < L; j++)
					l += expf(s[j] - m);
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < L; j++)
						acc += expf(s[j] - m) / l * (float)v[b][kh][j][d];
					o[b][kh * G + g][d] = (_Float16)acc;
				}
			}
}
