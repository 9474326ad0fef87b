/* Chunked prefill against a contiguous cache: query i of request b sits at position past[b] + i, sees keys
 * 0 .. past[b] + i; GQA interleaved (kv head = h % KVH, as some Megatron checkpoints). */
#include <math.h>
#include <stdint.h>
void chunk_prefill(int B, int H, int KVH, int Q, int L, const _Float16 q[B][Q][H][64], const _Float16 kc[B][L][KVH][64],
		   const _Float16 vc[B][L][KVH][64], const int32_t past[B], _Float16 o[B][Q][H][64])
{
#pragma fuse kernel(chunk_prefill) parallel(b, i, h)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < Q; i++)
			for (int h = 0; h < H; h++) {
				const int kh = h % KVH;
				const int end = past[b] + i + 1;
				float s[L];
				float mx = -INFINITY;
				for (int j = 0; j < end; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++) t += (float)q[b][i][h][d] * (float)kc[b][j][kh][d];
					s[j] = 0.125f * t;
					mx = fmaxf(mx, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < end; j++) l += expf(s[j] - mx);
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < end; j++) acc += expf(s[j] - mx) * (float)vc[b][j][kh][d];
					o[b][i][h][d] = (_Float16)(acc / l);
				}
			}
}
