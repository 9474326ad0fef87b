/* Integral pose regression (soft-argmax): heatmaps [B][J][H*W] fp16, softmax over the H*W
 * pixels with a beta, then expected x = sum p * (k % W), y = sum p * (k / W). A pose-estimation
 * engineer's C port for an edge runtime. */
#include <math.h>

void soft_argmax(int B, int J, int H, int W, float beta, const _Float16 hm[B][J][H * W], float xy[B][J][2])
{
#pragma fuse kernel(soft_argmax) parallel(b, j)
	for (int b = 0; b < B; b++)
		for (int j = 0; j < J; j++) {
			float m = -INFINITY;
			for (int k = 0; k < H * W; k++)
				m = fmaxf(m, beta * (float)hm[b][j][k]);
			float z = 0.0f, sx = 0.0f, sy = 0.0f;
			for (int k = 0; k < H * W; k++) {
				const float e = expf(beta * (float)hm[b][j][k] - m);
				z += e;
				sx += e * (float)(k % W);
				sy += e * (float)(k / W);
			}
			xy[b][j][0] = sx / z;
			xy[b][j][1] = sy / z;
		}
}
