/* Flash-decoding written by hand as two kernels: the first computes, per (b, h, chunk), the partial
 * max, sum and unnormalised output of its CH keys into a workspace; the second merges the NC
 * partials of a row with the rescaling. */
#include <math.h>

void flash_decoding(int B, int H, int NC, int CH, const _Float16 q[B][H][128], const _Float16 k[B][H][NC * CH][128],
		    const _Float16 v[B][H][NC * CH][128], float ws_m[B][H][NC], float ws_l[B][H][NC],
		    float ws_o[B][H][NC][128], _Float16 o[B][H][128])
{
#pragma fuse kernel(fd_partial) parallel(b, h, c)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int c = 0; c < NC; c++) {
				float sc[CH], m = -INFINITY;
				for (int j = 0; j < CH; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)k[b][h][c * CH + j][d];
					sc[j] = s * 0.08838834764831845f;
					m = fmaxf(m, sc[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < CH; j++) l += expf(sc[j] - m);
				for (int d = 0; d < 128; d++) {
					float acc = 0.0f;
					for (int j = 0; j < CH; j++) acc += expf(sc[j] - m) * (float)v[b][h][c * CH + j][d];
					ws_o[b][h][c][d] = acc;
				}
				ws_m[b][h][c] = m;
				ws_l[b][h][c] = l;
			}
#pragma fuse kernel(fd_merge) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float M = -INFINITY;
			for (int c = 0; c < NC; c++) M = fmaxf(M, ws_m[b][h][c]);
			float L = 0.0f;
			for (int c = 0; c < NC; c++) L += ws_l[b][h][c] * expf(ws_m[b][h][c] - M);
			for (int d = 0; d < 128; d++) {
				float acc = 0.0f;
				for (int c = 0; c < NC; c++) acc += ws_o[b][h][c][d] * expf(ws_m[b][h][c] - M);
				o[b][h][d] = (_Float16)(acc / L);
			}
		}
}
