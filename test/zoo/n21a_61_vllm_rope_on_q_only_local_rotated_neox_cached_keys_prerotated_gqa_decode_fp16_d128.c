/* vLLM-style decode where the keys were rotated when cached and only q is rotated here (NeoX
 * rotate-half, cos/sin for the query's position from a cache table) into a local row, then the
 * usual GQA decode over seq_lens[b] keys. */
#include <math.h>
#include <stdint.h>

void rope_q_decode(int B, int H, int KVH, int S, int max_pos, const int32_t positions[B], const float cos_sin_cache[max_pos][128],
		   const int32_t seq_lens[B], const _Float16 q[B][H][128], const _Float16 kc[B][KVH][S][128],
		   const _Float16 vc[B][KVH][S][128], _Float16 o[B][H][128])
{
#pragma fuse kernel(rope_q_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kvh = h / (H / KVH);
			const int pos = positions[b];
			float qr[128];
			for (int d = 0; d < 64; d++) {
				const float c = cos_sin_cache[pos][d], s = cos_sin_cache[pos][64 + d];
				const float x1 = (float)q[b][h][d], x2 = (float)q[b][h][64 + d];
				qr[d] = x1 * c - x2 * s;
				qr[64 + d] = x2 * c + x1 * s;
			}
			float sc[S], mx = -INFINITY;
			for (int j = 0; j < seq_lens[b]; j++) {
				float dot = 0.0f;
				for (int d = 0; d < 128; d++) dot += qr[d] * (float)kc[b][kvh][j][d];
				sc[j] = dot * 0.08838834764831845f;
				mx = fmaxf(mx, sc[j]);
			}
			float l = 0.0f;
			for (int j = 0; j < seq_lens[b]; j++) l += expf(sc[j] - mx);
			for (int d = 0; d < 128; d++) {
				float acc = 0.0f;
				for (int j = 0; j < seq_lens[b]; j++) acc += expf(sc[j] - mx) * (float)vc[b][kvh][j][d];
				o[b][h][d] = (_Float16)(acc / l);
			}
		}
}
