/* Triton tutorial 06 reference: M = tril(ones(N_CTX, N_CTX)); p = q @ k^T * sm_scale; p[:, :, M == 0] = -inf;
 * p = softmax(p.float(), dim=-1).half(); ref_out = p @ v.  HEAD_DIM 64, sm_scale a float argument. */
#include <math.h>
void tut06_ref(int Z, int H, int N_CTX, float sm_scale, const _Float16 q[Z][H][N_CTX][64], const _Float16 k[Z][H][N_CTX][64],
	       const _Float16 v[Z][H][N_CTX][64], _Float16 ref_out[Z][H][N_CTX][64])
{
#pragma fuse kernel(tut06_ref)
	for (int z = 0; z < Z; z++)
		for (int h = 0; h < H; h++)
			for (int r = 0; r < N_CTX; r++) {
				float p[N_CTX];
				_Float16 ph[N_CTX];
				for (int c = 0; c < N_CTX; c++) {
					float acc = 0;
					for (int d = 0; d < 64; d++) acc += (float)q[z][h][r][d] * (float)k[z][h][c][d];
					p[c] = (c <= r) ? acc * sm_scale : -INFINITY;
				}
				float mx = p[0];
				for (int c = 1; c < N_CTX; c++) mx = fmaxf(mx, p[c]);
				float s = 0;
				for (int c = 0; c < N_CTX; c++) s += expf(p[c] - mx);
				for (int c = 0; c < N_CTX; c++) ph[c] = (_Float16)(expf(p[c] - mx) / s);
				for (int d = 0; d < 64; d++) {
					float acc = 0;
					for (int c = 0; c < N_CTX; c++) acc += (float)ph[c] * (float)v[z][h][c][d];
					ref_out[z][h][r][d] = (_Float16)acc;
				}
			}
}
