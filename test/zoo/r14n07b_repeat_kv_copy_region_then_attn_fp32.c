/* HF Llama eager: repeat_kv materialises K and V for every query head, then attention; the copy as a region of its own. */
#include <math.h>
void repeat_kv_attn(int H, int G, int N, const float q[H][N][64], const float k[H / G][N][64],
		    const float v[H / G][N][64], float kr[H][N][64], float vr[H][N][64], float o[H][N][64])
{
#pragma fuse kernel(rep) parallel(h, j)
	for (int h = 0; h < H; h++)
		for (int j = 0; j < N; j++)
			for (int d = 0; d < 64; d++) { kr[h][j][d] = k[h / G][j][d]; vr[h][j][d] = v[h / G][j][d]; }
#pragma fuse kernel(attn) parallel(h, i)
	for (int h = 0; h < H; h++)
		for (int i = 0; i < N; i++) {
			float m = -INFINITY;
			for (int j = 0; j <= i; j++) {
				float s = 0;
				for (int d = 0; d < 64; d++) s += q[h][i][d] * kr[h][j][d];
				m = fmaxf(m, s / 8.0f);
			}
			float l = 0, acc[64] = {0};
			for (int j = 0; j <= i; j++) {
				float s = 0;
				for (int d = 0; d < 64; d++) s += q[h][i][d] * kr[h][j][d];
				float p = expf(s / 8.0f - m);
				l += p;
				for (int d = 0; d < 64; d++) acc[d] += p * vr[h][j][d];
			}
			for (int d = 0; d < 64; d++) o[h][i][d] = acc[d] / l;
		}
}
