/* Online softmax (Milakov & Gimelshein) by hand over a vocabulary row, then normalise. */
#include <math.h>
#include "fusecc.h"

void online_sm(int R, int V, const fusecc_bf16 x[R][V], float p[R][V])
{
#pragma fuse kernel(online_sm) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY, d = 0.0f;
		for (int v = 0; v < V; v++) {
			float xv = fusecc_bf16_to_float(x[r][v]);
			float mn = fmaxf(m, xv);
			d = d * expf(m - mn) + expf(xv - mn);
			m = mn;
		}
		for (int v = 0; v < V; v++)
			p[r][v] = expf(fusecc_bf16_to_float(x[r][v]) - m) / d;
	}
}
