/* dc_vllm_v0_paged_token_idx_i64_blocks_splitk_fp16.c: paged-attention decode as
 * vLLM's reference (paged_attention_v1 ported to C) walks it, every block full: fp16,
 * GQA (h / G), head dim 128, block size 16, int64 block tables, split-k.
 * Style: the keys block by block, `for (block_idx < num_blocks[s])` then `for (i <
 * BLOCK_SIZE)`, the physical block in an int64_t local, the token in a local
 * `token_idx = block_idx * BLOCK_SIZE + i` that indexes the logits; softmax and the
 * P.V over `num_tokens = num_blocks[s] * BLOCK_SIZE` afterwards. */
#include <math.h>
#include <stdint.h>
#define BLOCK_SIZE 16
#define HEAD_SIZE 128
void paged_attention_v1(int num_seqs, int num_heads, int num_kv_heads, int max_blocks, int num_cache_blocks, float scale,
                        const _Float16 query[num_seqs][num_heads][HEAD_SIZE],
                        const _Float16 key_cache[num_cache_blocks][num_kv_heads][BLOCK_SIZE][HEAD_SIZE],
                        const _Float16 value_cache[num_cache_blocks][num_kv_heads][BLOCK_SIZE][HEAD_SIZE],
                        const int64_t block_tables[num_seqs][max_blocks], const int num_blocks[num_seqs],
                        _Float16 out[num_seqs][num_heads][HEAD_SIZE])
{
#pragma fuse kernel(paged_attention_v1) parallel(s, h) splitk(i)
    for (int s = 0; s < num_seqs; s++)
        for (int h = 0; h < num_heads; h++) {
            const int kv_head = h / (num_heads / num_kv_heads);
            float logits[max_blocks * BLOCK_SIZE];
            float qk_max = -INFINITY;
            for (int block_idx = 0; block_idx < num_blocks[s]; block_idx++) {
                const int64_t physical_block_number = block_tables[s][block_idx];
                for (int i = 0; i < BLOCK_SIZE; i++) {
                    const int token_idx = block_idx * BLOCK_SIZE + i;
                    float qk = 0.0f;
                    for (int d = 0; d < HEAD_SIZE; d++)
                        qk += (float)query[s][h][d] * (float)key_cache[physical_block_number][kv_head][i][d];
                    qk *= scale;
                    logits[token_idx] = qk;
                    qk_max = fmaxf(qk_max, qk);
                }
            }
            const int num_tokens = num_blocks[s] * BLOCK_SIZE;
            float exp_sum = 0.0f;
            for (int i = 0; i < num_tokens; i++) {
                const float val = expf(logits[i] - qk_max);
                logits[i] = val;
                exp_sum += val;
            }
            const float inv_sum = 1.0f / (exp_sum + 1e-6f);
            for (int d = 0; d < HEAD_SIZE; d++) {
                float accs = 0.0f;
                for (int i = 0; i < num_tokens; i++)
                    accs += logits[i] * inv_sum * (float)value_cache[block_tables[s][i / BLOCK_SIZE]][kv_head][i % BLOCK_SIZE][d];
                out[s][h][d] = (_Float16)accs;
            }
        }
}
