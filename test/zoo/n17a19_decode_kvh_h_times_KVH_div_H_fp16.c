/* Decode with the KV head picked as h * KVH / H (an ONNX-runtime style mapping, equal to
 * h / (H / KVH) when KVH divides H); D = 128 literal; split-k. */
#include <math.h>

void decode_hkvh(int B, int H, int KVH, int L, const _Float16 q[B][H][128], const _Float16 k[B][KVH][L][128],
		 const _Float16 v[B][KVH][L][128], _Float16 o[B][H][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(decode_hkvh) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kv = h * KVH / H;
			float m = -INFINITY, l = 0.0f;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)k[b][kv][j][d];
				m = fmaxf(m, s * scale);
			}
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)k[b][kv][j][d];
				l += expf(s * scale - m);
			}
			for (int d = 0; d < 128; d++) {
				float a = 0.0f;
				for (int j = 0; j < L; j++) {
					float s = 0.0f;
					for (int e = 0; e < 128; e++) s += (float)q[b][h][e] * (float)k[b][kv][j][e];
					a += expf(s * scale - m) * (float)v[b][kv][j][d];
				}
				o[b][h][d] = (_Float16)(a / l);
			}
		}
}
