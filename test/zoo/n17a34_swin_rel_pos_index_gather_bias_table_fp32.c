/* Swin window attention: relative position bias gathered through an int32 index matrix,
 * bias_table[rel_index[i][j]][h], over windows of N = Wh*Ww tokens (batch of windows NW). fp32, D = 32. */
#include <math.h>
#include <stdint.h>

void swin_attn(int NW, int H, int N, int NT, float scale, const int32_t rel_index[N][N], const float bias_table[NT][H],
	       const float q[NW][H][N][32], const float k[NW][H][N][32], const float v[NW][H][N][32], float o[NW][H][N][32])
{
#pragma fuse kernel(swin_attn) parallel(w, h, i) rolling(j)
	for (int w = 0; w < NW; w++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float a[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 32; d++) s += q[w][h][i][d] * scale * k[w][h][j][d];
					a[j] = s + bias_table[rel_index[i][j]][h];
					m = fmaxf(m, a[j]);
				}
				float z = 0.0f;
				for (int j = 0; j < N; j++) { a[j] = expf(a[j] - m); z += a[j]; }
				for (int d = 0; d < 32; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += a[j] * v[w][h][j][d];
					o[w][h][i][d] = acc / z;
				}
			}
}
