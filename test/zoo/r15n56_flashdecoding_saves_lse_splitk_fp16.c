/* FlashDecoding reference that also returns the softmax LSE per (b, h) for merging with another
 * attention state (cascade / prefix sharing): split-k, fp16 values, D=128. */
#include <math.h>
#include <stdint.h>

void decode_with_lse(int B, int H, int L, const int32_t kv_len[B], const _Float16 q[B][H][128],
		     const _Float16 k[B][H][L][128], const _Float16 v[B][H][L][128], _Float16 o[B][H][128],
		     float lse[B][H])
{
#pragma fuse kernel(decode_with_lse) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s[L];
			float m = -INFINITY;
			for (int j = 0; j < kv_len[b]; j++) {
				float x = 0.0f;
				for (int d = 0; d < 128; d++) x += (float)q[b][h][d] * (float)k[b][h][j][d];
				s[j] = x * 0.08838834764831845f;
				m = fmaxf(m, s[j]);
			}
			float l = 0.0f;
			for (int j = 0; j < kv_len[b]; j++) l += expf(s[j] - m);
			for (int d = 0; d < 128; d++) {
				float a = 0.0f;
				for (int j = 0; j < kv_len[b]; j++) a += expf(s[j] - m) * (float)v[b][h][j][d];
				o[b][h][d] = (_Float16)(a / l);
			}
			lse[b][h] = m + logf(l);
		}
}
