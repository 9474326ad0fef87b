/* Decode written against a model config header: `#define HEAD_DIM (D_MODEL / N_HEADS)`
 * spells the parameters' extents (a macro with an operator in the declarator), fp16 cache
 * [B][N_HEADS][L][HEAD_DIM], the scale computed before the loop, positions per sequence. */
#include <math.h>

#define D_MODEL 1024
#define N_HEADS 8
#define HEAD_DIM (D_MODEL / N_HEADS)

void decode_cfg(int B, int L, const int pos[B], const _Float16 q[B][N_HEADS][HEAD_DIM],
                const _Float16 k[B][N_HEADS][L][HEAD_DIM], const _Float16 v[B][N_HEADS][L][HEAD_DIM],
                _Float16 out[B][N_HEADS][HEAD_DIM])
{
	const float scale = 1.0f / sqrtf((float)HEAD_DIM);
#pragma fuse kernel(decode_cfg) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < N_HEADS; h++) {
			float mx = -INFINITY;
			for (int t = 0; t <= pos[b]; t++) {
				float s = 0.0f;
				for (int d = 0; d < HEAD_DIM; d++)
					s += (float)q[b][h][d] * (float)k[b][h][t][d];
				mx = fmaxf(mx, s * scale);
			}
			float sum = 0.0f;
			float acc[HEAD_DIM] = {0};
			for (int t = 0; t <= pos[b]; t++) {
				float s = 0.0f;
				for (int d = 0; d < HEAD_DIM; d++)
					s += (float)q[b][h][d] * (float)k[b][h][t][d];
				float p = expf(s * scale - mx);
				sum += p;
				for (int d = 0; d < HEAD_DIM; d++)
					acc[d] += p * (float)v[b][h][t][d];
			}
			for (int d = 0; d < HEAD_DIM; d++)
				out[b][h][d] = (_Float16)(acc[d] / sum);
		}
}
