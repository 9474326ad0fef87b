/* vLLM-style paged-attention decode, fp16: KV cache stored in pages of PAGE tokens,
 * k_cache[NUM_BLOCKS][PAGE][KVH][HEAD_DIM], page j/PAGE of sequence b is block_table[b][j/PAGE];
 * each sequence has its own length seq_lens[b] (>= 1). Style: int32 tables; kv_head local;
 * loop bound j < seq_lens[b]; scores in s[MAX_BLOCKS * PAGE]; splitk(j). */
#include <math.h>
#include <stdint.h>

#define PAGE 16
#define HEAD_DIM 128

void paged_decode(int B, int H, int KVH, int NUM_BLOCKS, int MAX_BLOCKS, float scale,
		  const _Float16 q[B][H][HEAD_DIM],
		  const _Float16 k_cache[NUM_BLOCKS][PAGE][KVH][HEAD_DIM],
		  const _Float16 v_cache[NUM_BLOCKS][PAGE][KVH][HEAD_DIM],
		  const int32_t block_table[B][MAX_BLOCKS], const int32_t seq_lens[B],
		  _Float16 out[B][H][HEAD_DIM])
{
#pragma fuse kernel(paged_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kvh = h / (H / KVH);
			float s[MAX_BLOCKS * PAGE];
			float m = -INFINITY;
			for (int j = 0; j < seq_lens[b]; j++) {
				float dot = 0.0f;
				for (int d = 0; d < HEAD_DIM; d++)
					dot += (float)q[b][h][d] *
					       (float)k_cache[block_table[b][j / PAGE]][j % PAGE][kvh][d];
				s[j] = dot * scale;
				m = fmaxf(m, s[j]);
			}
			float l = 0.0f;
			for (int j = 0; j < seq_lens[b]; j++) {
				s[j] = expf(s[j] - m);
				l += s[j];
			}
			for (int d = 0; d < HEAD_DIM; d++) {
				float acc = 0.0f;
				for (int j = 0; j < seq_lens[b]; j++)
					acc += s[j] * (float)v_cache[block_table[b][j / PAGE]][j % PAGE][kvh][d];
				out[b][h][d] = (_Float16)(acc / l);
			}
		}
}
