/* vLLM's two steps of a decode, in one C function: reshape_and_cache writes each new
 * token's key and value into the paged cache at slot_mapping[t] (block = slot / block_size,
 * offset = slot % block_size; cache [num_blocks][KVH][block_size][128]), then the paged
 * decode reads it through the block table. One new token per sequence (t = sequence). */
#include <math.h>
#include <stdint.h>

void decode_step(int S, int H, int KVH, int num_blocks, int block_size, int max_blocks, float scale,
		 const _Float16 q[S][H][128], const _Float16 key[S][KVH][128], const _Float16 value[S][KVH][128],
		 const int64_t slot_mapping[S], const int32_t block_tables[S][max_blocks], const int32_t seq_lens[S],
		 _Float16 key_cache[num_blocks][KVH][block_size][128], _Float16 value_cache[num_blocks][KVH][block_size][128],
		 _Float16 out[S][H][128])
{
#pragma fuse kernel(reshape_and_cache) parallel(t, kh, d)
	for (int t = 0; t < S; t++)
		for (int kh = 0; kh < KVH; kh++)
			for (int d = 0; d < 128; d++) {
				const int64_t slot = slot_mapping[t];
				key_cache[slot / block_size][kh][slot % block_size][d] = key[t][kh][d];
				value_cache[slot / block_size][kh][slot % block_size][d] = value[t][kh][d];
			}
#pragma fuse kernel(paged_decode) parallel(s, h) splitk(j)
	for (int s = 0; s < S; s++)
		for (int h = 0; h < H; h++) {
			const int kh = h / (H / KVH);
			float m = -INFINITY, l = 0.0f, acc[128] = {0};
			for (int j = 0; j < seq_lens[s]; j++) {
				const int blk = block_tables[s][j / block_size];
				float x = 0.0f;
				for (int d = 0; d < 128; d++)
					x += (float)q[s][h][d] * (float)key_cache[blk][kh][j % block_size][d];
				x *= scale;
				float mn = fmaxf(m, x);
				float c = expf(m - mn), p = expf(x - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++)
					acc[d] = acc[d] * c + p * (float)value_cache[blk][kh][j % block_size][d];
				m = mn;
			}
			for (int d = 0; d < 128; d++)
				out[s][h][d] = (_Float16)(acc[d] / l);
		}
}
