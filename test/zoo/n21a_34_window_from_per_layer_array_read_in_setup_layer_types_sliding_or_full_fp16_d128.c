/* Per-layer window sizes from the config (layer_types / sliding_window per layer, 0 = full
 * attention) read in the set-up scalar code: `const int W = windows[layer];` then the mask uses W. */
#include <math.h>
#include <stdint.h>

void layer_attn(int B, int H, int N, int L, int layer, const int32_t windows[L], const _Float16 q[B][H][N][128],
		const _Float16 k[B][H][N][128], const _Float16 v[B][H][N][128], _Float16 o[B][H][N][128])
{
	const int W = windows[layer];
#pragma fuse kernel(layer_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float sc[N], mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= 0.08838834764831845f;
					if (j > i || (W > 0 && j <= i - W)) s = -INFINITY;
					sc[j] = s;
					mx = fmaxf(mx, s);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) l += expf(sc[j] - mx);
				for (int d = 0; d < 128; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += expf(sc[j] - mx) * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(acc / l);
				}
			}
}
