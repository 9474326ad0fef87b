/* SGLang-style decode: the KV slot of key j of request b read through two index arrays,
 * req_to_token[req_pool_idx[b]][j] (int32), into a flat token pool [POOL][KVH][128]; GQA h / G. */
#include <math.h>
#include <stdint.h>

void sgl_decode(int B, int H, int G, int MAXCTX, int POOL, int NREQ, const int32_t req_pool_idx[B],
		const int32_t req_to_token[NREQ][MAXCTX], const int32_t seq_lens[B], const _Float16 q[B][H][128],
		const _Float16 kbuf[POOL][H / G][128], const _Float16 vbuf[POOL][H / G][128], _Float16 o[B][H][128])
{
	const float sm_scale = 0.08838834764831845f;
#pragma fuse kernel(sgl_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int req = req_pool_idx[b];
			float m = -INFINITY, l = 0.0f, acc[128];
			for (int d = 0; d < 128; d++) acc[d] = 0.0f;
			for (int j = 0; j < seq_lens[b]; j++) {
				const int slot = req_to_token[req][j];
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)kbuf[slot][h / G][d];
				m = fmaxf(m, s * sm_scale);
			}
			for (int j = 0; j < seq_lens[b]; j++) {
				const int slot = req_to_token[req][j];
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)kbuf[slot][h / G][d];
				float p = expf(s * sm_scale - m);
				l += p;
				for (int d = 0; d < 128; d++) acc[d] += p * (float)vbuf[slot][h / G][d];
			}
			for (int d = 0; d < 128; d++) o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
