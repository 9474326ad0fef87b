/* Probe: FlashAttention-2 ported to C literally: P = exp(s - m) rounded to fp16 (the kernel feeds it
 * to the second MMA as half) before the P.V, the sum kept in fp32 from the unrounded values and
 * the division at the end; fp32 q/k/v/out. */
#include <math.h>

void autocast_attn(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64],
		   const float v[B][H][N][64], float o[B][H][N][64])
{
#pragma fuse kernel(autocast_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float sc[N], mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					sc[j] = s * 0.125f;
					mx = fmaxf(mx, sc[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) l += expf(sc[j] - mx);
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) {
						const float p = (float)(_Float16)expf(sc[j] - mx);
						acc += p * v[b][h][j][d];
					}
					o[b][h][i][d] = acc / l;
				}
			}
}
