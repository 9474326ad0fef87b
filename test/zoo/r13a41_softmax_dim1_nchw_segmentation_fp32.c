/* torch.softmax(logits, dim=1) on segmentation logits [B][C][HW]: the class dim is the middle
 * one, so each pixel's row is strided (a port of the math as written). */
#include <math.h>

void softmax_dim1(int B, int C, int HW, const float x[B][C][HW], float y[B][C][HW])
{
#pragma fuse kernel(softmax_dim1) parallel(b, p)
	for (int b = 0; b < B; b++)
		for (int p = 0; p < HW; p++) {
			float m = -INFINITY;
			for (int c = 0; c < C; c++) m = fmaxf(m, x[b][c][p]);
			float s = 0.0f;
			for (int c = 0; c < C; c++) s += expf(x[b][c][p] - m);
			for (int c = 0; c < C; c++) y[b][c][p] = expf(x[b][c][p] - m) / s;
		}
}
