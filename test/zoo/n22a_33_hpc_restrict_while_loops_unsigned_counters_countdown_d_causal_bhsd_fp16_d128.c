/* An HPC programmer's version: restrict-qualified arrays, while loops for the keys, unsigned counters,
 * the head-dim loops counting down, causal. */
#include <math.h>

void attn_hpc(unsigned B, unsigned H, unsigned N, const _Float16 q[restrict B][H][N][128],
	      const _Float16 k[restrict B][H][N][128], const _Float16 v[restrict B][H][N][128],
	      _Float16 o[restrict B][H][N][128])
{
#pragma fuse kernel(attn_hpc) parallel(b, h, i)
	for (unsigned b = 0; b < B; b++)
		for (unsigned h = 0; h < H; h++)
			for (unsigned i = 0; i < N; i++) {
				float mx = -INFINITY, den = 0.0f, acc[128];
				for (int d = 127; d >= 0; d--) acc[d] = 0.0f;
				unsigned j = 0;
				while (j <= i) {
					float s = 0.0f;
					for (int d = 127; d >= 0; d--) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= 0.08838834764831845f;
					const float mn = s > mx ? s : mx;
					const float c = expf(mx - mn), p = expf(s - mn);
					den = den * c + p;
					for (int d = 127; d >= 0; d--) acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					mx = mn;
					j++;
				}
				for (int d = 127; d >= 0; d--) o[b][h][i][d] = (_Float16)(acc[d] / den);
			}
}
