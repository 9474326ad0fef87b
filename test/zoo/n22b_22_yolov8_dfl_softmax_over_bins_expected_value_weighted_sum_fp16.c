/* YOLOv8's Distribution Focal Loss decoding (the DFL conv with arange weights): for each of the
 * 4 box sides, softmax over REG_MAX = 16 bins, then the expected bin, sum p[i] * i. Written in C
 * by someone putting the detector's head on a microcontroller-ish runtime. */
#include <math.h>

#define REG_MAX 16

void dfl_decode(int A, const _Float16 box[A][4][REG_MAX], float dist[A][4])
{
#pragma fuse kernel(dfl_decode) parallel(a, side)
	for (int a = 0; a < A; a++)
		for (int side = 0; side < 4; side++) {
			float mx = -INFINITY;
			for (int i = 0; i < REG_MAX; i++)
				mx = fmaxf(mx, (float)box[a][side][i]);
			float den = 0.0f, num = 0.0f;
			for (int i = 0; i < REG_MAX; i++) {
				const float e = expf((float)box[a][side][i] - mx);
				den += e;
				num += e * (float)i;
			}
			dist[a][side] = num / den;
		}
}
