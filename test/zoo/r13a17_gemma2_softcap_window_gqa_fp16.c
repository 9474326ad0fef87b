/* Gemma-2 local layer: softcap 50 (cap * tanh(s / cap)), sliding window 4096 written as
 * a continue, GQA via h / (H / KVH), query pre-scaled by query_pre_attn_scalar^-0.5. */
#include <math.h>

#define HD 128

void gemma2_local(int B, int H, int KVH, int N, int W, float qscale,
		  const _Float16 q[B][H][N][HD], const _Float16 k[B][KVH][N][HD],
		  const _Float16 v[B][KVH][N][HD], _Float16 o[B][H][N][HD])
{
#pragma fuse kernel(gemma2_local) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int kh = h / (H / KVH);
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					if (i - j >= W) { s[j] = -INFINITY; continue; }
					float t = 0.0f;
					for (int d = 0; d < HD; d++) t += (float)q[b][h][i][d] * qscale * (float)k[b][kh][j][d];
					t = 50.0f * tanhf(t / 50.0f);
					s[j] = t;
					m = fmaxf(m, t);
				}
				float l = 0.0f;
				for (int j = 0; j <= i; j++) l += expf(s[j] - m);
				for (int d = 0; d < HD; d++) {
					float a = 0.0f;
					for (int j = 0; j <= i; j++) a += expf(s[j] - m) * (float)v[b][kh][j][d];
					o[b][h][i][d] = (_Float16)(a / l);
				}
			}
}
