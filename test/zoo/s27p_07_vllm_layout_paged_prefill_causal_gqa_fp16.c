/* A prefill over vLLM's paged cache in the paged_attention kernel's layout (as vLLM's
 * prefix-prefill reference reads it once the prompt's K and V are written to the cache):
 * sequence b's N tokens sit in the blocks block_tables[b][..] of key_cache[num_blocks]
 * [num_kv_heads][HEAD_SIZE / X][BLOCK_SIZE][X] (X = 8) and value_cache[num_blocks]
 * [num_kv_heads][HEAD_SIZE][BLOCK_SIZE]; query token i attends to tokens 0 .. i (causal).
 * GQA, fp16, the scores recomputed in the P.V loop after a max pass. */
#include <math.h>
#include <stdint.h>

#define BLOCK_SIZE 16
#define HEAD_SIZE 128
#define X 8

void paged_prefill_vllm_layout(int B, int H, int HKV, int N, int num_blocks, int max_blocks, float scale,
		const _Float16 q[B][H][N][HEAD_SIZE],
		const _Float16 key_cache[num_blocks][HKV][HEAD_SIZE / X][BLOCK_SIZE][X],
		const _Float16 value_cache[num_blocks][HKV][HEAD_SIZE][BLOCK_SIZE],
		const int32_t block_tables[B][max_blocks], _Float16 out[B][H][N][HEAD_SIZE])
{
#pragma fuse kernel(paged_prefill_vllm_layout) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int kvh = h / (H / HKV);
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < HEAD_SIZE; d++)
						s += (float)q[b][h][i][d] * (float)key_cache[block_tables[b][j / BLOCK_SIZE]][kvh][d / X][j % BLOCK_SIZE][d % X];
					m = fmaxf(m, s * scale);
				}
				float l = 0.0f;
				float acc[HEAD_SIZE];
				for (int d = 0; d < HEAD_SIZE; d++)
					acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < HEAD_SIZE; d++)
						s += (float)q[b][h][i][d] * (float)key_cache[block_tables[b][j / BLOCK_SIZE]][kvh][d / X][j % BLOCK_SIZE][d % X];
					float p = expf(s * scale - m);
					l += p;
					for (int d = 0; d < HEAD_SIZE; d++)
						acc[d] += p * (float)value_cache[block_tables[b][j / BLOCK_SIZE]][kvh][d][j % BLOCK_SIZE];
				}
				for (int d = 0; d < HEAD_SIZE; d++)
					out[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
