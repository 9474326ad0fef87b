/* u04: bidirectional attention, fp16, q/k/v/o[ctas][rows][D] (D = 64), scale as an argument.
 * Style: the batch named `ctas`, the sequence `rows`, the scale `err`, an unused `tiles`
 * flag: names the tensor-core launcher declares for itself. Scores in a local s[rows]. */
#include <math.h>

void attn_names(int ctas, int rows, int tiles, float err, const _Float16 q[ctas][rows][64], const _Float16 k[ctas][rows][64],
		const _Float16 v[ctas][rows][64], _Float16 o[ctas][rows][64])
{
#pragma fuse kernel(attn_names) parallel(b, i) rolling(j)
	for (int b = 0; b < ctas; b++)
		for (int i = 0; i < rows; i++) {
			float s[rows];
			float m = -INFINITY;
			for (int j = 0; j < rows; j++) {
				float dot = 0.0f;
				for (int d = 0; d < 64; d++)
					dot += (float)q[b][i][d] * (float)k[b][j][d];
				s[j] = dot * err;
				m = fmaxf(m, s[j]);
			}
			float l = 0.0f;
			for (int j = 0; j < rows; j++) {
				s[j] = expf(s[j] - m);
				l += s[j];
			}
			for (int d = 0; d < 64; d++) {
				float acc = 0.0f;
				for (int j = 0; j < rows; j++)
					acc += s[j] * (float)v[b][j][d];
				o[b][i][d] = (_Float16)(tiles >= 0 ? acc / l : acc / l);
			}
		}
}
