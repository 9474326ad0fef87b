/* A decode over a cache with per-slot positions (int64, slots may be out of order after eviction,
 * StreamingLLM-style) with ALiBi computed from the positions: bias = slope[h] * (kv_pos - q_pos);
 * slots with kv_pos > q_pos are skipped. */
#include <math.h>
#include <stdint.h>

void alibi_pos_decode(int B, int H, int S, const int64_t q_pos[B], const int64_t kv_pos[B][S], const float slope[H],
		      const _Float16 q[B][H][128], const _Float16 k[B][H][S][128], const _Float16 v[B][H][S][128],
		      _Float16 o[B][H][128])
{
#pragma fuse kernel(alibi_pos_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float sc[S], mx = -INFINITY;
			for (int j = 0; j < S; j++) {
				if (kv_pos[b][j] > q_pos[b]) { sc[j] = -INFINITY; continue; }
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)k[b][h][j][d];
				sc[j] = s * 0.08838834764831845f + slope[h] * (float)(kv_pos[b][j] - q_pos[b]);
				mx = fmaxf(mx, sc[j]);
			}
			float l = 0.0f;
			for (int j = 0; j < S; j++) l += expf(sc[j] - mx);
			for (int d = 0; d < 128; d++) {
				float acc = 0.0f;
				for (int j = 0; j < S; j++) acc += expf(sc[j] - mx) * (float)v[b][h][j][d];
				o[b][h][d] = (_Float16)(acc / l);
			}
		}
}
