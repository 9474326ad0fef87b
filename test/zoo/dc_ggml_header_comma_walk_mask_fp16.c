/* ggml-style single-query attention (ggml_compute_forward_flash_attn_ext without the
 * online part): pointers advanced in the for header with a comma (t++, kp += D), keys
 * masked by an fp16 mask row with -INFINITY entries, fp32 q, fp16 cache. */
#include <math.h>
#define D 128
void attn_decode(int H, int L, float scale, const float q[H][D], const _Float16 k[H][L][D],
		 const _Float16 v[H][L][D], const _Float16 mask[L], float out[H][D])
{
#pragma fuse kernel(attn_decode) parallel(h) splitk(t: 8)
	for (int h = 0; h < H; h++) {
		float s[L];
		const _Float16 *kp = &k[h][0][0];
		float M = -INFINITY;
		for (int t = 0; t < L; t++, kp += D) {
			if ((float)mask[t] == -INFINITY) {
				s[t] = -INFINITY;
				continue;
			}
			float dot = 0.0f;
			for (int d = 0; d < D; d++)
				dot += q[h][d] * (float)kp[d];
			s[t] = dot * scale + (float)mask[t];
			M = fmaxf(M, s[t]);
		}
		float S = 0.0f;
		for (int t = 0; t < L; t++) {
			s[t] = expf(s[t] - M);
			S += s[t];
		}
		for (int d = 0; d < D; d++) {
			float acc = 0.0f;
			for (int t = 0; t < L; t++)
				acc += s[t] * (float)v[h][t][d];
			out[h][d] = S > 0.0f ? acc / S : 0.0f;
		}
	}
}
