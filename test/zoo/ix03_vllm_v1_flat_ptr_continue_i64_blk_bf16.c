/* ix03_vllm_v1_flat_ptr_continue_i64_blk_bf16.c: vLLM v1 paged decode, GQA, bf16, split-k.
 * Style: key_cache[num_blocks][BLOCK_SIZE][num_kv_heads][head_size] passed as raw
 * pointers (data_ptr()) with flat subscripts; the block number in a const int64_t local
 * from an int64 block table; the key loop runs over the whole block table (max_blocks *
 * BLOCK_SIZE) and skips positions past seq_lens[b] with `continue`, the way a
 * padded-batch reference is written; `float acc[HEAD] = {0}`. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

#define BLOCK_SIZE 16
#define HEAD 128

void decode_v1(int B, int NH, int NKV, int max_blocks, float sm_scale,
               const fusecc_bf16 *q, const fusecc_bf16 *key_cache, const fusecc_bf16 *value_cache,
               const int64_t *block_table, const int32_t *seq_lens, fusecc_bf16 *o)
{
#pragma fuse kernel(decode_v1) parallel(b, h) splitk(t)
  for (int b = 0; b < B; b++)
    for (int h = 0; h < NH; h++) {
      const int g = h / (NH / NKV);
      const fusecc_bf16 *qrow = q + (b * NH + h) * HEAD;
      float m = -INFINITY;
      for (int t = 0; t < max_blocks * BLOCK_SIZE; t++) {
        if (t >= seq_lens[b]) continue;
        const int64_t blk = block_table[b * max_blocks + t / BLOCK_SIZE];
        float s = 0.0f;
        for (int d = 0; d < HEAD; d++)
          s += fusecc_bf16_to_float(qrow[d]) *
               fusecc_bf16_to_float(key_cache[((blk * BLOCK_SIZE + t % BLOCK_SIZE) * NKV + g) * HEAD + d]);
        m = fmaxf(m, s * sm_scale);
      }
      float denom = 0.0f;
      float acc[HEAD] = {0};
      for (int t = 0; t < max_blocks * BLOCK_SIZE; t++) {
        if (t >= seq_lens[b]) continue;
        const int64_t blk = block_table[b * max_blocks + t / BLOCK_SIZE];
        float s = 0.0f;
        for (int d = 0; d < HEAD; d++)
          s += fusecc_bf16_to_float(qrow[d]) *
               fusecc_bf16_to_float(key_cache[((blk * BLOCK_SIZE + t % BLOCK_SIZE) * NKV + g) * HEAD + d]);
        const float p = expf(s * sm_scale - m);
        denom += p;
        for (int d = 0; d < HEAD; d++)
          acc[d] += p * fusecc_bf16_to_float(value_cache[((blk * BLOCK_SIZE + t % BLOCK_SIZE) * NKV + g) * HEAD + d]);
      }
      for (int d = 0; d < HEAD; d++)
        o[(b * NH + h) * HEAD + d] = fusecc_float_to_bf16(acc[d] / denom);
    }
}
