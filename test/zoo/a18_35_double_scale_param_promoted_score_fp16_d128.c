/* The scale comes in as a double (a Python float through ctypes), so each score is computed in
 * double before it is stored in the float row: s[j] = dot * scale. */
#include <math.h>

void attn_dscale(int B, int H, int N, double scale, const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128],
		 const _Float16 v[B][H][N][128], _Float16 o[B][H][N][128])
{
#pragma fuse kernel(attn_dscale) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N], m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float dot = 0.0f;
					for (int d = 0; d < 128; d++) dot += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = dot * scale;
					m = fmaxf(m, s[j]);
				}
				double l = 0.0;
				for (int j = 0; j <= i; j++) { s[j] = expf(s[j] - m); l += s[j]; }
				for (int d = 0; d < 128; d++) {
					float a = 0.0f;
					for (int j = 0; j <= i; j++) a += s[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(a / l);
				}
			}
}
