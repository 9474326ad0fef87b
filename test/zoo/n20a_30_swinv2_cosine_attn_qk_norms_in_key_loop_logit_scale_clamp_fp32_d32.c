/* Swin-v2 scaled cosine attention: sim = (q . k) / (|q| |k|) * exp(min(logit_scale[h], log(100))),
 * |k| computed per key inside the key loop, plus a relative position bias table indexed through rp_index. */
#include <math.h>
void swin_cos_attn(int B, int H, int N, int NB, const float q[B][H][N][32], const float k[B][H][N][32], const float v[B][H][N][32],
		   const float logit_scale[H], const float rpb_table[NB][H], const int rp_index[N][N], float o[B][H][N][32])
{
#pragma fuse kernel(swin_cos_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const float ls = expf(fminf(logit_scale[h], logf(100.0f)));
				float qn = 0.0f;
				for (int d = 0; d < 32; d++) qn += q[b][h][i][d] * q[b][h][i][d];
				qn = fmaxf(sqrtf(qn), 1e-12f);
				float a[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float dot = 0.0f, kn = 0.0f;
					for (int d = 0; d < 32; d++) { dot += q[b][h][i][d] * k[b][h][j][d]; kn += k[b][h][j][d] * k[b][h][j][d]; }
					kn = fmaxf(sqrtf(kn), 1e-12f);
					a[j] = dot / (qn * kn) * ls + rpb_table[rp_index[i][j]][h];
					mx = fmaxf(mx, a[j]);
				}
				float z = 0.0f;
				for (int j = 0; j < N; j++) { a[j] = expf(a[j] - mx); z += a[j]; }
				for (int d = 0; d < 32; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += a[j] * v[b][h][j][d];
					o[b][h][i][d] = acc / z;
				}
			}
}
