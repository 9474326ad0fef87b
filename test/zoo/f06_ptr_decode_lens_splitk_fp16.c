/* Decode over flat pointers: one query per (b, h), KV cache [B][H][L][D] read through a
 * local bh = b * H + h, lens[b] valid keys, run-time D, split-k over the keys. */
#include <math.h>
/* Decode: one query per (b, h) against a KV cache [B, H, L, D]; lens[b] valid keys. */
void decode(int B, int H, int L, int D, const _Float16 *q, const _Float16 *kcache, const _Float16 *vcache, const int *lens, _Float16 *o, float scale)
{
#pragma fuse kernel(decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int bh = b * H + h;
			float m = -INFINITY;
			for (int j = 0; j < lens[b]; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += (float)q[bh * D + d] * (float)kcache[(bh * L + j) * D + d];
				m = fmaxf(m, s * scale);
			}
			float l = 0.0f;
			for (int j = 0; j < lens[b]; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += (float)q[bh * D + d] * (float)kcache[(bh * L + j) * D + d];
				l += expf(s * scale - m);
			}
			for (int d = 0; d < D; d++) {
				float acc = 0.0f;
				for (int j = 0; j < lens[b]; j++) {
					float s = 0.0f;
					for (int e = 0; e < D; e++)
						s += (float)q[bh * D + e] * (float)kcache[(bh * L + j) * D + e];
					acc += expf(s * scale - m) * (float)vcache[(bh * L + j) * D + d];
				}
				o[bh * D + d] = (_Float16)(acc / l);
			}
		}
}
