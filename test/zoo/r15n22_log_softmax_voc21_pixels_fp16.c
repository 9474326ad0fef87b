/* Per-pixel log-softmax over the 21 PASCAL VOC classes, logits stored channels-last
 * [P][21] (after a permute), fp16 in and out. */
#include <math.h>

void logsoftmax21(int P, const _Float16 x[P][21], _Float16 y[P][21])
{
#pragma fuse kernel(logsoftmax21) parallel(p) rolling(c)
	for (int p = 0; p < P; p++) {
		float m = -INFINITY;
		for (int c = 0; c < 21; c++) m = fmaxf(m, (float)x[p][c]);
		float z = 0.0f;
		for (int c = 0; c < 21; c++) z += expf((float)x[p][c] - m);
		const float lz = logf(z);
		for (int c = 0; c < 21; c++) y[p][c] = (_Float16)((float)x[p][c] - m - lz);
	}
}
