/* Milakov & Gimelshein's online normaliser exactly as the paper's Algorithm 3 with the
 * first element as the seed (m = x_1, d = 1, loop from 2), then the probabilities. bf16. */
#include <math.h>
#include "fusecc.h"

void online_softmax_paper(int R, int V, const fusecc_bf16 x[R][V], fusecc_bf16 y[R][V])
{
#pragma fuse kernel(online_softmax_paper) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = fusecc_bf16_to_float(x[r][0]);
		float d = 1.0f;
		for (int j = 1; j < V; j++) {
			float xj = fusecc_bf16_to_float(x[r][j]);
			float m_new = fmaxf(m, xj);
			d = d * expf(m - m_new) + expf(xj - m_new);
			m = m_new;
		}
		for (int j = 0; j < V; j++)
			y[r][j] = fusecc_float_to_bf16(expf(fusecc_bf16_to_float(x[r][j]) - m) / d);
	}
}
